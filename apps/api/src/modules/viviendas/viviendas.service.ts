import {
  AppError,
  logTipoPorCambio,
  permissionMessages,
  type Vivienda,
  type ViviendaCreate,
  type ViviendaListQuery,
  type ViviendaUpdate,
  viviendaMessages,
} from '@vb/shared'
import { and, count, eq, inArray, type SQL } from 'drizzle-orm'
import type { AppDeps } from '../../app'
import type { DbOrTx } from '../../db/client'
import { empresas, usuarios, viviendas } from '../../db/schema'
import { writeLog } from '../../lib/activity-log'
import { type Actor, reachesEmpresa, scopeEmpresaIds } from '../../lib/actor'
import { type ListResult, matches, ordered, pageWindow, sortKey } from '../../lib/paging'
import { findEmpresa } from '../empresas/empresas.service'

export type ViviendaRow = typeof viviendas.$inferSelect
type EmpresaRef = { id: number; nombre: string }

const NOT_FOUND = 'No se ha encontrado la vivienda.'

/** Row and its company → SPEC §3 Home (plus the company name for the 'Empresa' column). */
export function toVivienda(row: ViviendaRow, empresa: EmpresaRef): Vivienda {
  return { id: row.id, nombre: row.nombre, empresaId: row.empresaId, empresa: { id: empresa.id, nombre: empresa.nombre } }
}

/** Homes with their company (one join; companies are few). */
function selectWithEmpresa(db: DbOrTx) {
  return db
    .select({ vivienda: viviendas, empresa: { id: empresas.id, nombre: empresas.nombre } })
    .from(viviendas)
    .innerJoin(empresas, eq(empresas.id, viviendas.empresaId))
}

/**
 * Company ids a list may show: the actor's scope (DECISIONS P1) narrowed by the `empresaId` / `empresaIds`
 * filters. null means no restriction; an empty list means nothing matches.
 */
export function visibleEmpresaIds(actor: Actor, filters: { empresaId?: number; empresaIds?: string }): number[] | null {
  let ids = scopeEmpresaIds(actor)
  const narrow = (wanted: number[]) => {
    ids = ids === null ? wanted : ids.filter((id) => wanted.includes(id))
  }
  if (filters.empresaId !== undefined) narrow([filters.empresaId])
  if (filters.empresaIds) narrow(filters.empresaIds.split(',').map(Number))
  return ids
}

/** Homes the actor sees (SPEC §2.5, §6), searched by Dirección, sorted by Dirección or Empresa, and paged. */
export async function listViviendas(deps: AppDeps, actor: Actor, query: ViviendaListQuery): Promise<ListResult<Vivienda>> {
  const conditions: SQL[] = []
  const ids = visibleEmpresaIds(actor, query)
  if (ids) conditions.push(inArray(viviendas.empresaId, ids.length ? ids : [-1]))
  // The same expression as viviendas_nombre_trgm_idx.
  if (query.q) conditions.push(matches(viviendas.nombre, query.q))
  const where = conditions.length ? and(...conditions) : undefined
  const order =
    query.sort === 'empresa'
      ? [sortKey(empresas.nombre), viviendas.ordenNombre, viviendas.id]
      : [viviendas.ordenNombre, viviendas.id]
  const { limit, offset } = pageWindow(query)
  const base = selectWithEmpresa(deps.db)
    .where(where)
    .orderBy(...order.map((expr) => ordered(expr, query.order)))
  const [rows, total] = await Promise.all([
    limit ? base.limit(limit).offset(offset ?? 0) : base,
    query.page ? deps.db.select({ n: count() }).from(viviendas).where(where) : undefined,
  ])
  return {
    items: rows.map((r) => toVivienda(r.vivienda, r.empresa)),
    total: total ? Number(total[0]?.n ?? 0) : rows.length,
  }
}

/** A home by id whatever the actor's scope, or undefined (lets callers tell 400 from 403). */
export async function findVivienda(db: DbOrTx, id: number): Promise<ViviendaRow | undefined> {
  const [row] = await db.select().from(viviendas).where(eq(viviendas.id, id))
  return row
}

/** A home the actor reaches, or 404 (another company's home answers 404, DECISIONS A3). */
export async function getVivienda(db: DbOrTx, actor: Actor, id: number): Promise<Vivienda> {
  const [row] = await selectWithEmpresa(db).where(eq(viviendas.id, id))
  if (!row || !reachesEmpresa(actor, row.vivienda.empresaId)) throw new AppError('NOT_FOUND', NOT_FOUND)
  return toVivienda(row.vivienda, row.empresa)
}

/**
 * The company a home is created in or moved to: it must exist (400 on `empresaId`) and be one of the actor's
 * (403, DECISIONS P1).
 */
async function usableEmpresa(db: DbOrTx, actor: Actor, empresaId: number): Promise<EmpresaRef> {
  const empresa = await findEmpresa(db, empresaId)
  if (!empresa) throw new AppError('VALIDATION_FAILED', undefined, { empresaId: viviendaMessages.empresaTipo })
  if (!reachesEmpresa(actor, empresa.id)) throw new AppError('FORBIDDEN', permissionMessages.generic)
  return empresa
}

export async function createVivienda(deps: AppDeps, actor: Actor, input: ViviendaCreate): Promise<Vivienda> {
  return deps.db.transaction(async (tx) => {
    const empresa = await usableEmpresa(tx, actor, input.empresaId)
    const [row] = await tx.insert(viviendas).values({ nombre: input.nombre, empresaId: empresa.id }).returning()
    const created = toVivienda(row as ViviendaRow, empresa)
    await writeLog(tx, actor, {
      accion: 'Crear vivienda',
      url: '/viviendas',
      tipo: logTipoPorCambio.create,
      descripcion: `Vivienda creada: ${created.nombre} (${empresa.nombre})`,
      viviendaId: created.id,
      datos: { despues: created },
    })
    return created
  })
}

export async function updateVivienda(deps: AppDeps, actor: Actor, id: number, input: ViviendaUpdate): Promise<Vivienda> {
  return deps.db.transaction(async (tx) => {
    const before = await getVivienda(tx, actor, id)
    const empresa =
      input.empresaId !== undefined && input.empresaId !== before.empresaId
        ? await usableEmpresa(tx, actor, input.empresaId)
        : before.empresa
    const [row] = await tx
      .update(viviendas)
      .set({
        ...(input.nombre !== undefined ? { nombre: input.nombre } : {}),
        empresaId: empresa.id,
        updatedAt: deps.clock.now(),
      })
      .where(eq(viviendas.id, id))
      .returning()
    if (!row) throw new AppError('NOT_FOUND', NOT_FOUND)
    const after = toVivienda(row, empresa)
    const moved = after.empresaId !== before.empresaId ? ` (trasladada de ${before.empresa.nombre} a ${empresa.nombre})` : ''
    await writeLog(tx, actor, {
      accion: 'Modificar vivienda',
      url: '/viviendas',
      tipo: logTipoPorCambio.update,
      descripcion: `Vivienda modificada: ${after.nombre}${moved}`,
      viviendaId: after.id,
      datos: { antes: before, despues: after },
    })
    return after
  })
}

/**
 * DECISIONS P2: SUPERADMIN only (the route checks the role). Refused with 409 while residents live there.
 * The home's row is locked first, so a resident cannot be linked to it between the count and the delete.
 */
export async function removeVivienda(deps: AppDeps, actor: Actor, id: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const before = await getVivienda(tx, actor, id)
    await tx.select({ id: viviendas.id }).from(viviendas).where(eq(viviendas.id, id)).for('update')
    const [residents] = await tx.select({ n: count() }).from(usuarios).where(eq(usuarios.viviendaId, id))
    if (Number(residents?.n ?? 0) > 0) throw new AppError('CONFLICT', viviendaMessages.conUsuarios)
    await tx.delete(viviendas).where(eq(viviendas.id, id))
    // The entry cannot point at a deleted home (logs.vivienda_id is a foreign key): `datos` keeps its id.
    await writeLog(tx, actor, {
      accion: 'Eliminar vivienda',
      url: '/viviendas',
      tipo: logTipoPorCambio.delete,
      descripcion: `Vivienda eliminada: ${before.nombre} (${before.empresa.nombre})`,
      viviendaId: null,
      datos: { antes: before },
    })
  })
}
