import { charLength, daySchema, fechaSchema, httpUrl, requiredId } from './common'
import { documentoMessages, TITULO_MAX, TITULO_MIN } from './documentos-core'
import { idFilter, listQuerySchema } from './list'
import { archivoSchema, uploadIdOf } from './uploads'
import { z } from './zod-es'

export * from './documentos-core'

const urlCheck = httpUrl(documentoMessages.archivoInvalido)

/** DECISIONS D8: Archivo is an http(s) URL (SPEC) or an uploaded file's reference ('/api/uploads/<id>'). */
export const archivoUrlSchema = z
  .string({ error: documentoMessages.archivoObligatorio })
  .trim()
  .min(1, documentoMessages.archivoObligatorio)
  .refine((v) => uploadIdOf(v) !== null || urlCheck.safeParse(v).success, documentoMessages.archivoInvalido)

/** SPEC §3 Resident document, as the API answers it. */
export const documentoSchema = z.object({
  id: z.number().int(),
  titulo: z.string(),
  /** As stored: the external URL, or the uploaded file's reference; null for old documents without file. */
  archivoUrl: z.string().nullable(),
  /** ISO instant. */
  fecha: z.string(),
  usuarioId: z.number().int(),
  /** The version to send back in If-Match (or as `updatedAt`) when editing. */
  updatedAt: z.string(),
  /** Links for 'Abrir' and 'Descargar'; null without a file. */
  archivo: archivoSchema.nullable(),
})
export type Documento = z.infer<typeof documentoSchema>

const titulo = z
  .string({ error: documentoMessages.tituloObligatorio })
  .trim()
  .min(1, documentoMessages.tituloObligatorio)
  .refine((v) => charLength(v) >= TITULO_MIN, { message: documentoMessages.tituloCorto, abort: true })
  .refine((v) => charLength(v) <= TITULO_MAX, documentoMessages.tituloLargo)

const fecha = fechaSchema({ obligatoria: documentoMessages.fechaObligatoria, invalida: documentoMessages.fechaInvalida })

/** SPEC §5 Resident document: create (SPEC §7 POST body titulo, archivoUrl, fecha, usuarioId). */
export const documentoCreateSchema = z.object({
  titulo,
  archivoUrl: archivoUrlSchema,
  fecha,
  usuarioId: requiredId(documentoMessages.usuarioObligatorio, documentoMessages.usuarioInvalido),
})
export type DocumentoCreate = z.infer<typeof documentoCreateSchema>

/**
 * Edit (SPEC §7 PATCH body titulo, archivoUrl, fecha): only the fields sent change. `updatedAt` is the
 * version the client read (the If-Match header does the same); a stale one answers 409.
 */
export const documentoUpdateSchema = z.object({
  titulo: titulo.optional(),
  archivoUrl: archivoUrlSchema.optional(),
  fecha: fecha.optional(),
  updatedAt: z.string().optional(),
})
export type DocumentoUpdate = z.infer<typeof documentoUpdateSchema>

export const documentoSortFields = ['titulo', 'fecha'] as const
/** GET /api/documentos-usuario: one resident's documents (by id or by the NIF of the screen's URL). */
export const documentoListQuerySchema = listQuerySchema(documentoSortFields).extend({
  usuarioId: idFilter,
  nif: z.string().trim().min(1).max(20).optional(),
  /** A day (YYYY-MM-DD, Europe/Madrid). */
  fecha: daySchema(documentoMessages.fechaInvalida).optional(),
})
export type DocumentoListQuery = z.infer<typeof documentoListQuerySchema>
