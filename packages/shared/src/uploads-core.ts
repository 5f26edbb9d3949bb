/**
 * The uploads' limits, texts and references without zod: imported as `@vb/shared/uploads-core` by the web app's upload
 * field; uploads.ts (the schemas of a file as a record shows it and as uploaded) re-exports all of it.
 */

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

/** An upload's id as its reference carries it (a UUID). */
export const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** '/api/uploads/<id>' → the id, or null when the text is not an upload reference. */
export function uploadIdOf(reference: string): string | null {
  if (!reference.startsWith(UPLOAD_URL_PREFIX)) return null
  const id = reference.slice(UPLOAD_URL_PREFIX.length).toLowerCase()
  return UPLOAD_ID.test(id) ? id : null
}

export const uploadReference = (id: string) => `${UPLOAD_URL_PREFIX}${id}`
