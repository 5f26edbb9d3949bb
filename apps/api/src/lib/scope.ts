import { type Action, AppError, can, permissionMatrix, permissionMessages, type Resource } from '@vb/shared'
import { type AnyColumn, and, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import {
  cajaUsuario,
  contactos,
  documentosUsuario,
  empresas,
  logs,
  planingTareas,
  presupuestos,
  tareasTrabajador,
  trabajadores,
  uploads,
  usuarios,
  viviendas,
} from '../db/schema'
import { type Actor, isSuper } from './actor'

/**
 * The one scope module (DECISIONS P1). For every resource, the SQL condition
 * "visible to this worker", written once as a query condition (Directus-style permission filters), and the
 * role × action check of SPEC §6 (shared `can`). Every list, single-record read and write puts the
 * condition in its own SQL, so a record of another company is simply not found (404) and nothing is read
 * before it is checked. A resource added to `Resource` without a rule here does not compile.
 */

/** Companies whose data the actor reaches: null means all (SUPERADMIN). */
export function reachableEmpresas(actor: Actor): number[] | null {
  return isSuper(actor) ? null : actor.empresaIds
}

const FALSE = sql`false`

/** `column` holds a company id the actor reaches (no condition for SUPERADMIN). */
export function empresaIn(actor: Actor, column: AnyColumn | SQL): SQL | undefined {
  const ids = reachableEmpresas(actor)
  if (ids === null) return undefined
  return ids.length ? inArray(column as AnyColumn, ids) : FALSE
}

/** `column` holds the id of a home of a company the actor reaches. */
export function viviendaIn(actor: Actor, column: AnyColumn | SQL): SQL | undefined {
  const ids = reachableEmpresas(actor)
  if (ids === null) return undefined
  if (!ids.length) return FALSE
  return sql`${column} in (select v.id from viviendas v where v.empresa_id in ${ids})`
}

/** `column` holds the id of a home of company `empresaId` (the company chosen in the top bar). */
export const enEmpresa = (column: AnyColumn | SQL, empresaId: number): SQL =>
  sql`${column} in (select v.id from viviendas v where v.empresa_id = ${empresaId})`

/**
 * The rows of company `empresaId`'s homes that the actor sees, for a resource seen by its homes (viviendaIn:
 * residents, budgets; what their rules' `visibleIn` is built of). A company the actor reaches is enEmpresa alone, its
 * homes being some of the actor's; one it does not reach is `false`, not a subquery (with the scope beside such a
 * filter, PostgreSQL read the whole sort index looking for a row: at a large operator the residents' page 53 ms, the
 * budgets' 77–102 ms, for an empty answer). Not for a worker's tasks, whose own are seen in any home.
 */
export function enEmpresaVisible(actor: Actor, column: AnyColumn | SQL, empresaId: number): SQL {
  const ids = reachableEmpresas(actor)
  return ids !== null && !ids.includes(empresaId) ? FALSE : enEmpresa(column, empresaId)
}

/**
 * `column` holds the id of a resident the actor reaches: one living in a home of its companies (a resident
 * without a home is reached by SUPERADMIN only).
 */
export function usuarioIn(actor: Actor, column: AnyColumn | SQL): SQL | undefined {
  const ids = reachableEmpresas(actor)
  if (ids === null) return undefined
  if (!ids.length) return FALSE
  return sql`${column} in (select u.id from usuarios u join viviendas v on v.id = u.vivienda_id where v.empresa_id in ${ids})`
}

/**
 * The one resident `usuarioId` is reached by the actor (the same rule as usuarioIn), written as a lookup of
 * that resident's row and home by primary key, for statements about one resident: `id in (subquery)` would
 * make PostgreSQL hash every resident of the actor's companies first.
 */
export function usuarioReachable(actor: Actor, usuarioId: number): SQL | undefined {
  const ids = reachableEmpresas(actor)
  if (ids === null) return undefined
  if (!ids.length) return FALSE
  return sql`exists (select 1 from usuarios u join viviendas v on v.id = u.vivienda_id where u.id = ${usuarioId} and v.empresa_id in ${ids})`
}

/** `column` holds the id of a worker who shares a company with the actor. */
export function trabajadorIn(actor: Actor, column: AnyColumn | SQL): SQL | undefined {
  const ids = reachableEmpresas(actor)
  if (ids === null) return undefined
  if (!ids.length) return FALSE
  return sql`${column} in (select te.trabajador_id from trabajador_empresas te where te.empresa_id in ${ids})`
}

/**
 * SPEC §6 worker-task selector: `column` holds the id of a worker the actor may give tasks to and whose tasks
 * it sees. SUPERADMIN: every worker; ADMIN: itself and the non-SUPERADMIN workers sharing one of its
 * companies; EMPLEADO: only itself.
 */
export function asignableIn(actor: Actor, column: AnyColumn | SQL): SQL | undefined {
  if (isSuper(actor)) return undefined
  const self = sql`${column} = ${actor.id}`
  if (actor.rol !== 'ADMIN' || !actor.empresaIds.length) return self
  return or(
    self,
    sql`${column} in (select te.trabajador_id from trabajador_empresas te join trabajadores t on t.id = te.trabajador_id where te.empresa_id in ${actor.empresaIds} and t.rol <> 'SUPERADMIN')`,
  )
}

export interface ResourceRule {
  /** The resource's table (an integer `id` key): ids that name its records are checked against `visible`. */
  table: PgTable & { id: PgColumn }
  /** Role × action (SPEC §6), the same table the UI reads to hide what the server refuses. */
  actions: Record<Action, readonly string[]>
  /** Rows of the resource's table this worker may see (and so act on); undefined: all. */
  visible(actor: Actor): SQL | undefined
  /**
   * The rows it may see in one company (the one chosen in the top bar): `visible` and the company, written as PostgreSQL
   * plans them best for the resource (scopeInEmpresa). A resource without it filters the company itself.
   */
  visibleIn?(actor: Actor, empresaId: number): SQL | undefined
}

/** DECISIONS P1, resource by resource. */
export const resourceRules: Record<Resource, ResourceRule> = {
  empresas: { table: empresas, actions: permissionMatrix.empresas, visible: (a) => empresaIn(a, empresas.id) },
  viviendas: { table: viviendas, actions: permissionMatrix.viviendas, visible: (a) => empresaIn(a, viviendas.empresaId) },
  // The same as usuarioIn(usuarios.id), written on the row's own column so the big list needs no self-join.
  usuarios: {
    table: usuarios,
    actions: permissionMatrix.usuarios,
    visible: (a) => viviendaIn(a, usuarios.viviendaId),
    // Both conditions: with the company's homes alone, PostgreSQL searched a company's residents for a common surname
    // along the name index (5.5–7.3 ms against 3.2–4.0 with both, at a large operator).
    visibleIn: (a, empresaId) => and(viviendaIn(a, usuarios.viviendaId), enEmpresaVisible(a, usuarios.viviendaId, empresaId)),
  },
  contactos: { table: contactos, actions: permissionMatrix.contactos, visible: (a) => empresaIn(a, contactos.empresaId) },
  trabajadores: {
    table: trabajadores,
    actions: permissionMatrix.trabajadores,
    visible: (a) => trabajadorIn(a, trabajadores.id),
  },
  logs: { table: logs, actions: permissionMatrix.logs, visible: (a) => trabajadorIn(a, logs.trabajadorId) },
  'planing-tareas': {
    table: planingTareas,
    actions: permissionMatrix['planing-tareas'],
    visible: (a) => empresaIn(a, planingTareas.empresaId),
  },
  // SPEC §6: a worker's own tasks, and those of the workers it may choose in the selector, in its homes.
  'tareas-trabajador': {
    table: tareasTrabajador,
    actions: permissionMatrix['tareas-trabajador'],
    visible: (a) =>
      isSuper(a)
        ? undefined
        : or(
            eq(tareasTrabajador.trabajadorId, a.id),
            and(asignableIn(a, tareasTrabajador.trabajadorId), viviendaIn(a, tareasTrabajador.viviendaId)),
          ),
  },
  presupuestos: {
    table: presupuestos,
    actions: permissionMatrix.presupuestos,
    visible: (a) => viviendaIn(a, presupuestos.viviendaId),
    // The company's homes alone (they are some of the actor's): beside the scope's subquery, PostgreSQL planned two
    // semi-joins on the homes, 1.1–1.9 ms of planning for 0.2–0.8 ms of work on a company's page at a large operator.
    visibleIn: (a, empresaId) => enEmpresaVisible(a, presupuestos.viviendaId, empresaId),
  },
  'documentos-usuario': {
    table: documentosUsuario,
    actions: permissionMatrix['documentos-usuario'],
    visible: (a) => usuarioIn(a, documentosUsuario.usuarioId),
  },
  'caja-usuario': {
    table: cajaUsuario,
    actions: permissionMatrix['caja-usuario'],
    visible: (a) => usuarioIn(a, cajaUsuario.usuarioId),
  },
}

/** The role may perform the action at all (SPEC §6), or 403 with SPEC's message where it has one. */
export function authorize(actor: Actor, resource: Resource, action: Action, message: string = permissionMessages.generic): void {
  if (!can(actor, resource, action)) throw new AppError('FORBIDDEN', message)
}

/**
 * The condition under which this worker may do `action` to a record of `resource`: the role check, then
 * the visibility condition to put in the statement's WHERE (read, lock, update or delete).
 */
export function scopeFor(actor: Actor, resource: Resource, action: Action, message?: string): SQL | undefined {
  authorize(actor, resource, action, message)
  return resourceRules[resource].visible(actor)
}

/**
 * scopeFor within company `empresaId` (the top bar's), for a resource whose rule has `visibleIn`: the scope and the
 * company, and the caller adds no company filter of its own. Without a company: scopeFor.
 */
export function scopeInEmpresa(actor: Actor, resource: Resource, action: Action, empresaId: number | undefined): SQL | undefined {
  if (empresaId === undefined) return scopeFor(actor, resource, action)
  const { visibleIn } = resourceRules[resource]
  // A programming error, never a request's: without it the company would silently not be filtered.
  if (!visibleIn) throw new Error(`${resource}: its rule has no visibleIn, filter the company beside scopeFor`)
  authorize(actor, resource, action)
  return visibleIn(actor, empresaId)
}

/**
 * DECISIONS S5, D6, D8: the uploaded files this worker may read. An unattached one is its uploader's only; an
 * attached one is seen by whoever sees the record it belongs to (a resident's document or cash movement, a
 * budget, a worker's photo).
 */
export function uploadVisible(actor: Actor): SQL {
  const documento = resourceRules['documentos-usuario'].visible(actor)
  const movimiento = resourceRules['caja-usuario'].visible(actor)
  const trabajador = trabajadorIn(actor, uploads.fotoTrabajadorId)
  const presupuesto = resourceRules.presupuestos.visible(actor)
  return or(
    and(
      isNull(uploads.documentoId),
      isNull(uploads.movimientoId),
      isNull(uploads.fotoTrabajadorId),
      isNull(uploads.presupuestoId),
      eq(uploads.trabajadorId, actor.id),
    ),
    // A worker's photo: the worker itself, and whoever sees the worker (SPEC §2.10, §2.20).
    eq(uploads.fotoTrabajadorId, actor.id),
    trabajador ?? sql`${uploads.fotoTrabajadorId} is not null`,
    documento
      ? sql`${uploads.documentoId} in (select ${documentosUsuario.id} from ${documentosUsuario} where ${documento})`
      : sql`${uploads.documentoId} is not null`,
    movimiento
      ? sql`${uploads.movimientoId} in (select ${cajaUsuario.id} from ${cajaUsuario} where ${movimiento})`
      : sql`${uploads.movimientoId} is not null`,
    presupuesto
      ? sql`${uploads.presupuestoId} in (select ${presupuestos.id} from ${presupuestos} where ${presupuesto})`
      : sql`${uploads.presupuestoId} is not null`,
  ) as SQL
}
