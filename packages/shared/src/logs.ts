import { daySchema, ID_MESSAGE, MAX_ID, requiredText } from './common'
import { idFilter, listQuerySchema } from './list'
import { logMessages, logTipos } from './logs-core'
import { z } from './zod-es'

export * from './logs-core'

/**
 * SPEC §3 Log entry, as read: its worker and home with the names they had when the entry was written
 * (DECISIONS L2: a later deletion or rename rewrites nothing), and the values before and after a change
 * where it has them (L3).
 */
export const logSchema = z.object({
  id: z.number().int(),
  fecha: z.string(),
  trabajadorId: z.number().int().nullable(),
  /**
   * Null for an event without a worker (a failed login for an unknown e-mail). `apellidos` is empty in an entry
   * written before the surnames were kept apart from the given name, whose `nombre` holds the whole name.
   */
  trabajador: z
    .object({ id: z.number().int(), nombre: z.string(), apellidos: z.string(), email: z.string().nullable() })
    .nullable(),
  accion: z.string(),
  url: z.string(),
  viviendaId: z.number().int().nullable(),
  vivienda: z.object({ id: z.number().int(), nombre: z.string() }).nullable(),
  usuarioId: z.number().int().nullable(),
  tipo: z.enum(logTipos),
  descripcion: z.string(),
  antes: z.unknown().nullable(),
  despues: z.unknown().nullable(),
})
export type Log = z.infer<typeof logSchema>

/**
 * An entry as GET /api/logs lists it: SPEC §3's fields, and whether it has values before and after (`cambios`)
 * instead of the values themselves, which GET /api/logs/:id gives when the entry is opened. A change keeps the
 * whole record on both sides (L3), so a page of them would carry the records of every change it lists.
 */
export const logListItemSchema = logSchema.omit({ antes: true, despues: true }).extend({ cambios: z.boolean() })
export type LogListItem = z.infer<typeof logListItemSchema>

/**
 * POST /api/logs: a client event such as opening a statement (DECISIONS L1). The entry's worker is always the
 * caller and its time the server's: fields such as `trabajadorId` or `fecha` in the body are ignored.
 */
export const logCreateSchema = z.object({
  accion: requiredText(logMessages.accionObligatoria).max(100, logMessages.accionLarga),
  url: z.string({ error: logMessages.urlLarga }).trim().max(300, logMessages.urlLarga).default(''),
  viviendaId: z.number({ error: ID_MESSAGE }).int(ID_MESSAGE).positive(ID_MESSAGE).max(MAX_ID, ID_MESSAGE).nullable().optional(),
  tipo: z.enum(logTipos, { error: logMessages.tipo }).default('info'),
  descripcion: z.string({ error: logMessages.descripcionLarga }).trim().max(1000, logMessages.descripcionLarga).default(''),
})
export type LogCreate = z.output<typeof logCreateSchema>

const day = daySchema(logMessages.fechaInvalida)
const rango = <T extends { desde?: string; hasta?: string }>(q: T) => !q.desde || !q.hasta || q.desde <= q.hasta

/**
 * The filters of the logs screen (SPEC §2.11 and beyond): a day or a range of days (Europe/Madrid), the
 * worker, the home, the type, and free text over acción and descripción (`q`).
 */
const logFilterFields = {
  q: z.string().trim().max(100).optional(),
  fecha: day.optional(),
  desde: day.optional(),
  hasta: day.optional(),
  trabajadorId: idFilter,
  viviendaId: idFilter,
  tipo: z.enum(logTipos, { error: logMessages.tipo }).optional(),
}

/** GET /api/logs: the filters, paged and sorted by date (newest first unless `order=asc`). */
export const logListQuerySchema = listQuerySchema(['fecha'] as const)
  .extend(logFilterFields)
  .refine(rango, { message: logMessages.rangoInvalido, path: ['hasta'] })
export type LogListQuery = z.output<typeof logListQuerySchema>

/** GET /api/logs/csv: every entry that matches the filters (no page). */
export const logCsvQuerySchema = z.object(logFilterFields).refine(rango, { message: logMessages.rangoInvalido, path: ['hasta'] })
export type LogCsvQuery = z.output<typeof logCsvQuerySchema>
