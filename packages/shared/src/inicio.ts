import { idFilter } from './list'
import { z } from './zod-es'

/**
 * GET /api/inicio/pendientes: what needs the worker today, for the company chosen in the top bar (beyond
 * SPEC: a coordinator's first question each morning). Each count is capped like a list total (DECISIONS D13):
 * `exacto` false means 'more than' the number.
 */
export const pendientesQuerySchema = z.object({ empresaId: idFilter })
export type PendientesQuery = z.infer<typeof pendientesQuerySchema>

const cuenta = z.object({ total: z.number().int(), exacto: z.boolean() })
export type Cuenta = z.infer<typeof cuenta>

export const pendientesSchema = z.object({
  /** Residents whose PIR has expired / expires within 30 days (SPEC §4). */
  pirCaducados: cuenta,
  pirPorCaducar: cuenta,
  /** Calendar tasks of today (Europe/Madrid). */
  planingHoy: cuenta,
  /** The caller's pending worker tasks, and how many of them are overdue. */
  tareasPendientes: cuenta,
  tareasVencidas: cuenta,
  /** Budgets awaiting a decision (PENDIENTE_APROBACION). */
  presupuestosPendientes: cuenta,
  /** Today's day (YYYY-MM-DD, Madrid), which the links use. */
  hoy: z.string(),
})
export type Pendientes = z.infer<typeof pendientesSchema>
