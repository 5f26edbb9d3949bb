import { addDays, type Cuenta, madridDay, madridStartOfDay, type Pendientes, type PendientesQuery } from '@vb/shared'
import { and, eq, gte, lt, sql } from 'drizzle-orm'
import { planingTareas, presupuestos, tareasTrabajador, usuarios } from '../../db/schema'
import type { AppDeps } from '../../deps'
import type { Actor } from '../../lib/actor'
import { cachedCount } from '../../lib/count-cache'
import { boundedTotal, where } from '../../lib/records'
import { enEmpresa, scopeFor, scopeInEmpresa } from '../../lib/scope'
import { pirEstadoEs } from '../pir/pir.service'

const cuenta = ({ total, exact }: { total: number; exact: boolean }): Cuenta => ({ total, exacto: exact })

/**
 * The start page's counts (beyond SPEC: what needs the worker today), for the company chosen in the top bar
 * within the worker's own (DECISIONS D1, P1). Each is one statement on an index:
 *
 * - residents whose PIR has expired, or expires within 30 days (SPEC §4): each reachable resident's latest PIR
 *   date (stored on the resident, `pir_fecha`, read with the resident through usuarios_vivienda_pir_idx)
 *   against bounds the shared rule computes once (`pirEstadoEs`);
 * - today's calendar tasks (planing_tareas_empresa_fecha_idx);
 * - the caller's pending worker tasks and how many are overdue (tareas_trabajador_trabajador_idx);
 * - budgets awaiting a decision (presupuestos_vivienda_estado_idx).
 *
 * Counts stop at 10,000 like list totals (DECISIONS D13). The answer is kept a few seconds in the count cache
 * (lib/count-cache.ts), like list totals, and any write drops it.
 */
export async function pendientes(deps: AppDeps, actor: Actor, query: PendientesQuery): Promise<Pendientes> {
  const hoy = madridDay(deps.clock.now())
  // The answer depends on the worker (its own tasks), its role and companies (its scope), the company chosen and
  // the day: that is its key, so a kept answer costs no statement to find.
  const key = `pendientes\u0000${actor.id}\u0000${actor.rol}\u0000${actor.empresaIds.join(',')}\u0000${query.empresaId ?? ''}\u0000${hoy}`
  return cachedCount(deps.db, key, () => countPendientes(deps, actor, query, hoy))
}

async function countPendientes(deps: AppDeps, actor: Actor, query: PendientesQuery, hoy: string): Promise<Pendientes> {
  const desde = madridStartOfDay(hoy)
  const hasta = madridStartOfDay(addDays(hoy, 1))

  const { empresaId } = query
  // The company chosen in the top bar (none: no condition); the caller's own tasks are its own in any home.
  const tareasEn = empresaId === undefined ? undefined : enEmpresa(tareasTrabajador.viviendaId, empresaId)
  const residentes = scopeInEmpresa(actor, 'usuarios', 'list', empresaId)
  const pir = deps.db
    .select({
      caducados: sql<string>`count(*) filter (where ${pirEstadoEs(usuarios.pirFecha, 'caducado', hoy)})`,
      porCaducar: sql<string>`count(*) filter (where ${pirEstadoEs(usuarios.pirFecha, 'aviso', hoy)})`,
    })
    .from(usuarios)
    .where(residentes)
    .then((rows) => rows[0])

  const [pirRow, planingHoy, tareasPendientes, tareasVencidas, presupuestosPendientes] = await Promise.all([
    pir,
    boundedTotal(
      deps.db,
      planingTareas,
      where(
        scopeFor(actor, 'planing-tareas', 'list'),
        empresaId !== undefined ? eq(planingTareas.empresaId, empresaId) : undefined,
        gte(planingTareas.fecha, desde),
        lt(planingTareas.fecha, hasta),
      ),
    ),
    boundedTotal(
      deps.db,
      tareasTrabajador,
      and(eq(tareasTrabajador.trabajadorId, actor.id), eq(tareasTrabajador.completada, false), tareasEn),
    ),
    boundedTotal(
      deps.db,
      tareasTrabajador,
      and(
        eq(tareasTrabajador.trabajadorId, actor.id),
        eq(tareasTrabajador.completada, false),
        lt(tareasTrabajador.fecha, desde),
        tareasEn,
      ),
    ),
    boundedTotal(
      deps.db,
      presupuestos,
      where(scopeInEmpresa(actor, 'presupuestos', 'list', empresaId), eq(presupuestos.estado, 'PENDIENTE_APROBACION')),
    ),
  ])
  return {
    pirCaducados: { total: Number(pirRow?.caducados ?? 0), exacto: true },
    pirPorCaducar: { total: Number(pirRow?.porCaducar ?? 0), exacto: true },
    planingHoy: cuenta(planingHoy),
    tareasPendientes: cuenta(tareasPendientes),
    tareasVencidas: cuenta(tareasVencidas),
    presupuestosPendientes: cuenta(presupuestosPendientes),
    hoy,
  }
}
