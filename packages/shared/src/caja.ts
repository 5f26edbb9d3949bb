import { CONCEPTO_MAX, cajaMessages, diasDelRango, EXTRACTO_MAX_DIAS } from './caja-core'
import { charLength, daySchema, fechaSchema, requiredId } from './common'
import { idFilter, listQuerySchema } from './list'
import { cantidadMessages } from './money'
import { moneySchema, moneyValueSchema } from './money-schema'
import { archivoSchema, uploadIdOf } from './uploads'
import { z } from './zod-es'

export * from './caja-core'

/** SPEC §3 Cash movement as the API answers it; `cantidad` is a signed decimal string (DECISIONS A6). */
export const movimientoCajaSchema = z.object({
  id: z.number().int(),
  concepto: z.string(),
  cantidad: moneyValueSchema,
  /** ISO instant. */
  fecha: z.string(),
  usuarioId: z.number().int(),
  /** The version to send back in If-Match (or as `updatedAt`) when editing. */
  updatedAt: z.string(),
  /** The receipt's reference ('/api/uploads/<id>'), or null. */
  justificanteUrl: z.string().nullable(),
  /** The receipt's links (the paperclip), or null. */
  justificante: archivoSchema.nullable(),
})
export type MovimientoCaja = z.infer<typeof movimientoCajaSchema>

/** A row of the ledger list: the movement and the resident's balance right after it (DECISIONS D7). */
export const movimientoCajaListItemSchema = movimientoCajaSchema.extend({ saldo: moneyValueSchema })
export type MovimientoCajaListItem = z.infer<typeof movimientoCajaListItemSchema>

const concepto = z
  .string({ error: cajaMessages.conceptoObligatorio })
  .trim()
  .min(1, cajaMessages.conceptoObligatorio)
  .refine((v) => charLength(v) <= CONCEPTO_MAX, cajaMessages.conceptoLargo)

const cantidad = moneySchema(cantidadMessages)
const fecha = fechaSchema({ obligatoria: cajaMessages.fechaObligatoria, invalida: cajaMessages.fechaInvalida })

/** A receipt: an uploaded file's reference; null (on edit) removes it. */
const justificanteUrl = z
  .string({ error: cajaMessages.justificanteInvalido })
  .trim()
  .refine((v) => uploadIdOf(v) !== null, cajaMessages.justificanteInvalido)
  .nullable()
  .optional()

/** SPEC §5 Cash movement: create (SPEC §7 POST body concepto, cantidad, fecha, usuarioId). */
export const movimientoCajaCreateSchema = z.object({
  concepto,
  cantidad,
  fecha,
  usuarioId: requiredId(cajaMessages.usuarioObligatorio, cajaMessages.usuarioInvalido),
  justificanteUrl,
})
export type MovimientoCajaCreate = z.infer<typeof movimientoCajaCreateSchema>

/**
 * Edit (SPEC §7 PATCH body concepto, cantidad, fecha): only the fields sent change. `updatedAt` is the
 * version the client read (the If-Match header does the same); a stale one answers 409, none is accepted.
 */
export const movimientoCajaUpdateSchema = z.object({
  concepto: concepto.optional(),
  cantidad: cantidad.optional(),
  fecha: fecha.optional(),
  justificanteUrl,
  updatedAt: z.string().optional(),
})
export type MovimientoCajaUpdate = z.infer<typeof movimientoCajaUpdateSchema>

const day = daySchema(cajaMessages.fechaInvalida)
const rango = <T extends { desde?: string; hasta?: string }>(q: T) => !q.desde || !q.hasta || q.desde <= q.hasta

/**
 * GET /api/caja-usuario: one resident's ledger (by id or by the NIF of the screen's URL), newest first by
 * default (DECISIONS D7), optionally between two days (YYYY-MM-DD, Europe/Madrid, both included).
 */
export const movimientoCajaListQuerySchema = listQuerySchema(['fecha'] as const)
  .extend({
    usuarioId: idFilter,
    nif: z.string().trim().min(1).max(20).optional(),
    desde: day.optional(),
    hasta: day.optional(),
  })
  .refine(rango, { message: cajaMessages.rangoInvalido, path: ['hasta'] })
export type MovimientoCajaListQuery = z.infer<typeof movimientoCajaListQuerySchema>

/** GET /api/caja-usuario/extracto: the statement of a resident between two days (default: the last full month). */
export const extractoQuerySchema = z
  .object({
    usuarioId: idFilter,
    nif: z.string().trim().min(1).max(20).optional(),
    desde: day.optional(),
    hasta: day.optional(),
  })
  .refine((q) => q.usuarioId !== undefined || q.nif !== undefined, {
    message: cajaMessages.usuarioRequerido,
    path: ['nif'],
  })
  .refine(rango, { message: cajaMessages.rangoInvalido, path: ['hasta'] })
  .refine((q) => !q.desde || !q.hasta || diasDelRango(q.desde, q.hasta) <= EXTRACTO_MAX_DIAS, {
    message: cajaMessages.extractoRangoLargo,
    path: ['hasta'],
  })
export type ExtractoQuery = z.infer<typeof extractoQuerySchema>
