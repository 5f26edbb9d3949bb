import { z } from './zod-es'

/**
 * DECISIONS S5 and D8: uploaded files. POST /api/uploads answers with `url`, the file's reference
 * ('/api/uploads/<id>'), which a document's `archivoUrl` or a movement's `justificanteUrl` then carries.
 * The reference is not a download address: the API answers each record with short-lived signed links.
 */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024
/** SPEC §5 (worker photo) and DECISIONS S5: the accepted types. */
export const UPLOAD_EXTENSIONS = ['pdf', 'doc', 'docx', 'jpg', 'jpeg', 'png'] as const
/** The `accept` attribute of a file input. */
export const UPLOAD_ACCEPT = UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(',')
export const UPLOAD_URL_PREFIX = '/api/uploads/'

export const uploadMessages = {
  archivoObligatorio: 'Selecciona un archivo.',
  vacio: 'El archivo está vacío.',
  demasiadoGrande: 'El archivo supera el tamaño máximo de 10 MB.',
  tipoNoAdmitido: 'Tipo de archivo no admitido. Sube un PDF, un documento de Word (.doc, .docx) o una imagen JPG o PNG.',
  contenidoNoCoincide: 'El contenido del archivo no corresponde a su extensión.',
  nombreInvalido: 'El nombre del archivo no es válido.',
  interrumpida: 'La subida se ha interrumpido antes de terminar. Vuelve a intentarlo.',
  noMultipart: 'Envía el archivo como multipart/form-data en el campo «file».',
  noEncontrado: 'No se ha encontrado el archivo.',
  enlaceCaducado: 'El enlace del archivo ha caducado o no es válido. Vuelve a abrirlo desde la aplicación.',
  noDisponible: 'El archivo subido no existe o ya está adjunto a otro registro.',
  adjunto: 'El archivo está adjunto a un registro: se elimina con él.',
} as const

const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** '/api/uploads/<id>' → the id, or null when the text is not an upload reference. */
export function uploadIdOf(reference: string): string | null {
  if (!reference.startsWith(UPLOAD_URL_PREFIX)) return null
  const id = reference.slice(UPLOAD_URL_PREFIX.length).toLowerCase()
  return UPLOAD_ID.test(id) ? id : null
}

export const uploadReference = (id: string) => `${UPLOAD_URL_PREFIX}${id}`

/**
 * A file as a record shows it (a document's Archivo, a movement's Justificante): `url` opens it (inline for
 * PDF and images, usable in <img>), `descargaUrl` downloads it. For an uploaded file both are signed links
 * that stop working at `caduca` (a few minutes): read the record again for fresh ones. For a document whose
 * Archivo is an external URL, both are that URL and the other fields are null.
 */
export const archivoSchema = z.object({
  origen: z.enum(['enlace', 'subido']),
  url: z.string(),
  descargaUrl: z.string(),
  nombre: z.string().nullable(),
  mime: z.string().nullable(),
  tamano: z.number().int().nullable(),
  caduca: z.string().nullable(),
})
export type Archivo = z.infer<typeof archivoSchema>

/** POST /api/uploads and GET /api/uploads/:id. */
export const uploadSchema = z.object({
  id: z.string(),
  /** The reference to put in `archivoUrl` / `justificanteUrl` (SPEC §7: the response carries url). */
  url: z.string(),
  nombre: z.string(),
  mime: z.string(),
  tamano: z.number().int(),
  sha256: z.string(),
  createdAt: z.string(),
  /** Whether it is attached to a document or a movement (an unattached one is its uploader's only). */
  adjunto: z.boolean(),
  archivo: archivoSchema,
})
export type Upload = z.infer<typeof uploadSchema>

export const uploadIdParamsSchema = z.object({
  id: z.string().regex(UPLOAD_ID, uploadMessages.noEncontrado),
})
