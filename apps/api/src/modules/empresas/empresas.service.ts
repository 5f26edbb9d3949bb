import {
  AppError,
  type Empresa,
  type EmpresaCreate,
  type EmpresaListQuery,
  type EmpresaUpdate,
  empresaMessages,
  logTipoPorCambio,
} from '@vb/shared'
import { and, count, eq, inArray, type SQL } from 'drizzle-orm'
import type { AppDeps } from '../../app'
import type { DbOrTx } from '../../db/client'
import { empresas, viviendas } from '../../db/schema'
import { writeLog } from '../../lib/activity-log'
import { type Actor, reachesEmpresa, scopeEmpresaIds } from '../../lib/actor'
import { type ListResult, matches, ordered, pageWindow, sortKey } from '../../lib/paging'

type Row = typeof empresas.$inferSelect

/** Row → SPEC §3 Company. */
export function toEmpresa(row: Row): Empresa {
  return { id: row.id, nombre: row.nombre, logoUrl: row.logoUrl }
}

/** Companies the actor sees (SPEC §6: SUPERADMIN all, others their own), searched, sorted and paged. */
export async function listEmpresas(deps: AppDeps, actor: Actor, query: EmpresaListQuery): Promise<ListResult<Empresa>> {
  const conditions: SQL[] = []
  const scope = scopeEmpresaIds(actor)
  if (scope) conditions.push(inArray(empresas.id, scope.length ? scope : [-1]))
  if (query.q) conditions.push(matches(empresas.nombre, query.q))
  const where = conditions.length ? and(...conditions) : undefined
  const { limit, offset } = pageWindow(query)
  const base = deps.db
    .select()
    .from(empresas)
    .where(where)
    .orderBy(ordered(sortKey(empresas.nombre), query.order), ordered(empresas.id, query.order))
  const [rows, [total]] = await Promise.all([
    limit ? base.limit(limit).offset(offset ?? 0) : base,
    deps.db.select({ n: count() }).from(empresas).where(where),
  ])
  return { items: rows.map(toEmpresa), total: Number(total?.n ?? 0) }
}

/** A company the actor reaches, or 404 (another company's record answers 404, DECISIONS A3). */
export async function getEmpresa(deps: AppDeps, actor: Actor, id: number): Promise<Row> {
  const [row] = await deps.db.select().from(empresas).where(eq(empresas.id, id))
  if (!row || !reachesEmpresa(actor, row.id)) throw new AppError('NOT_FOUND', 'No se ha encontrado la empresa.')
  return row
}

/**
 * A company by id whatever the actor's scope, or undefined: lets other services tell a company that does
 * not exist (400 on the field) from one the actor may not use (403).
 */
export async function findEmpresa(db: DbOrTx, id: number): Promise<Row | undefined> {
  const [row] = await db.select().from(empresas).where(eq(empresas.id, id))
  return row
}

const normalizeLogo = (logoUrl: string | null | undefined) => (logoUrl ? logoUrl : null)

export async function createEmpresa(deps: AppDeps, actor: Actor, input: EmpresaCreate): Promise<Empresa> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(empresas)
      .values({ nombre: input.nombre, logoUrl: normalizeLogo(input.logoUrl) })
      .returning()
    const created = row as Row
    await writeLog(tx, actor, {
      accion: 'Crear empresa',
      url: '/empresas',
      tipo: logTipoPorCambio.create,
      descripcion: `Empresa creada: ${created.nombre}`,
      datos: { despues: toEmpresa(created) },
    })
    return toEmpresa(created)
  })
}

export async function updateEmpresa(deps: AppDeps, actor: Actor, id: number, input: EmpresaUpdate): Promise<Empresa> {
  const before = await getEmpresa(deps, actor, id)
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(empresas)
      .set({
        ...(input.nombre !== undefined ? { nombre: input.nombre } : {}),
        ...(input.logoUrl !== undefined ? { logoUrl: normalizeLogo(input.logoUrl) } : {}),
        updatedAt: deps.clock.now(),
      })
      .where(eq(empresas.id, id))
      .returning()
    if (!row) throw new AppError('NOT_FOUND', 'No se ha encontrado la empresa.')
    await writeLog(tx, actor, {
      accion: 'Modificar empresa',
      url: '/empresas',
      tipo: logTipoPorCambio.update,
      descripcion: `Empresa modificada: ${row.nombre}`,
      datos: { antes: toEmpresa(before), despues: toEmpresa(row) },
    })
    return toEmpresa(row)
  })
}

/** Refused with 409 while the company still has homes (issue 3: nothing lost by accident). */
export async function removeEmpresa(deps: AppDeps, actor: Actor, id: number): Promise<void> {
  const before = await getEmpresa(deps, actor, id)
  await deps.db.transaction(async (tx) => {
    const [homes] = await tx.select({ n: count() }).from(viviendas).where(eq(viviendas.empresaId, id))
    if (Number(homes?.n ?? 0) > 0) throw new AppError('CONFLICT', empresaMessages.conViviendas)
    await tx.delete(empresas).where(eq(empresas.id, id))
    await writeLog(tx, actor, {
      accion: 'Eliminar empresa',
      url: '/empresas',
      tipo: logTipoPorCambio.delete,
      descripcion: `Empresa eliminada: ${before.nombre}`,
      datos: { antes: toEmpresa(before) },
    })
  })
}
