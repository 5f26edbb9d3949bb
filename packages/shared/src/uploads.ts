import { UPLOAD_ID, uploadMessages } from './uploads-core'
import { z } from './zod-es'

export * from './uploads-core'

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
