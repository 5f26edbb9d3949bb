import { charLength, daySchema, fechaSchema, httpUrl, requiredId } from './common'
import { idFilter, listQuerySchema } from './list'
import { archivoSchema, uploadIdOf } from './uploads'
import { z } from './zod-es'

/** SPEC §5 Resident document and §8 Documents, word for word. */
export const documentoMessages = {
  tituloObligatorio: 'El título es obligatorio',
  tituloCorto: 'El título debe tener al menos 3 caracteres',
  tituloLargo: 'El título no puede superar 120 caracteres',
  archivoObligatorio: 'La URL del archivo es obligatoria',
  archivoInvalido: 'La URL del archivo no es válida',
  fechaObligatoria: 'La fecha es obligatoria',
  fechaInvalida: 'La fecha no es válida',
  usuarioObligatorio: 'El usuario es obligatorio',
  usuarioInvalido: 'Selecciona un usuario válido',
  errorCarga: 'No se pudo cargar la documentación del usuario.',
  faltaNif: 'Ruta inválida: falta el NIF.',
  errorCrear: 'No se pudo crear el documento. Revisa los datos.',
  errorActualizar: 'No se pudo actualizar el documento.',
  errorEliminar: 'No se pudo eliminar el documento.',
  creado: 'Documento creado correctamente',
  actualizado: 'Documento actualizado correctamente',
  eliminado: 'Documento eliminado correctamente',
  vacio: 'No hay documentos',
  noEncontrado: 'No se ha encontrado el documento.',
  /** A stale edit (CONTRIBUTING.md, habits). */
  cambiado: 'El documento ha cambiado desde que lo abriste. Vuelve a cargarlo.',
} as const

/** SPEC §9: document title 3-120 characters. */
export const TITULO_MIN = 3
export const TITULO_MAX = 120

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
