import { charLength, daySchema, fechaSchema, requiredId } from './common'
import { idFilter, listQuerySchema } from './list'
import { cantidadMessages } from './money'
import { moneySchema, moneyValueSchema } from './money-schema'
import { archivoSchema, uploadIdOf } from './uploads'
import { z } from './zod-es'

/** SPEC §5 Cash movement, §8 Cash and DECISIONS D7, word for word. */
export const cajaMessages = {
  conceptoObligatorio: 'El concepto es obligatorio',
  conceptoLargo: 'El concepto no puede superar 150 caracteres',
  ...cantidadMessages,
  fechaObligatoria: 'La fecha es obligatoria',
  fechaInvalida: 'La fecha no es válida',
  usuarioObligatorio: 'El usuario es obligatorio',
  usuarioInvalido: 'Selecciona un usuario válido',
  justificanteInvalido: 'El justificante debe ser un archivo subido',
  rangoInvalido: 'La fecha final no puede ser anterior a la inicial',
  errorCarga: 'No se pudo cargar la caja del usuario.',
  errorCrear: 'No se pudo crear el movimiento.',
  errorActualizar: 'No se pudo actualizar el movimiento.',
  errorEliminar: 'No se pudo eliminar el movimiento.',
  creado: 'Movimiento creado correctamente',
  actualizado: 'Movimiento actualizado correctamente',
  eliminado: 'Movimiento eliminado correctamente',
  vacio: 'No hay movimientos',
  noEncontrado: 'No se ha encontrado el movimiento.',
  /** DECISIONS L3 (stale edits of money): the second of two editors. */
  cambiado: 'El movimiento ha cambiado desde que lo abriste. Vuelve a cargarlo.',
  usuarioRequerido: 'Indica el usuario (usuarioId o nif).',
  extractoRangoLargo:
    'Un extracto abarca como máximo un año (366 días). Elige un periodo más corto con las fechas «desde» y «hasta».',
  extractoDemasiados:
    'El periodo tiene más de 5.000 movimientos, el máximo de un extracto. Elige un periodo más corto con las fechas «desde» y «hasta» (por ejemplo, un trimestre).',
} as const

/**
 * Limits of a statement PDF (GET /api/caja-usuario/extracto): at most one year of days and 5,000
 * movements, so that one statement is made in a bounded time and memory; beyond them the request is
 * refused with 400 and a message that says how to narrow it.
 */
export const EXTRACTO_MAX_DIAS = 366
export const EXTRACTO_MAX_MOVIMIENTOS = 5000

/** Days from `desde` to `hasta`, both included (YYYY-MM-DD). */
export function diasDelRango(desde: string, hasta: string): number {
  return Math.round((Date.parse(`${hasta}T00:00:00Z`) - Date.parse(`${desde}T00:00:00Z`)) / 86_400_000) + 1
}

/** SPEC §9: cash concept at most 150 characters. */
export const CONCEPTO_MAX = 150

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

/** Response headers of the ledger list (besides X-Total-Count), decimal strings like '1234.50'. */
export const CAJA_HEADERS = {
  /** The resident's whole balance ('Saldo: {sum} €'). */
  saldo: 'X-Saldo',
  /** The balance before `desde` (the opening balance of the range); the whole balance's start, 0, without it. */
  saldoInicial: 'X-Saldo-Inicial',
  /** The balance at the end of `hasta` (the closing balance of the range); the whole balance without it. */
  saldoFinal: 'X-Saldo-Final',
} as const
