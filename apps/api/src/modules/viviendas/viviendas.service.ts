import {
  AppError,
  type ListPage,
  type Vivienda,
  type ViviendaCreate,
  type ViviendaListQuery,
  type ViviendaUpdate,
  viviendaMessages,
} from '@vb/shared'
import { count, eq, inArray } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { empresas, usuarios, viviendas } from '../../db/schema'
import type { AppDeps } from '../../deps'
import type { Actor } from '../../lib/actor'
import { matches, ordered, sortKey } from '../../lib/paging'
import { listPage, lockRow, logChange, notFound, pageWindow, sent, where } from '../../lib/records'
import { resourceRules, scopeFor } from '../../lib/scope'
import { usableEmpresa } from '../empresas/empresas.service'

export type ViviendaRow = typeof viviendas.$inferSelect
type EmpresaRef = { id: number; nombre: string }

const NOT_FOUND = 'No se ha encontrado la vivienda.'
const empresaField = { empresaId: viviendaMessages.empresaTipo }

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
 * Homes the actor sees (SPEC §2.5, §6), narrowed to the company chosen in the top bar (`empresaId`) or a
 * list of companies (`empresaIds`, SPEC §6), searched by Dirección, sorted by Dirección or Empresa, paged.
 */
export async function listViviendas(deps: AppDeps, actor: Actor, query: ViviendaListQuery): Promise<ListPage<Vivienda>> {
  const condition = where(
    scopeFor(actor, 'viviendas', 'list'),
    query.empresaId !== undefined ? eq(viviendas.empresaId, query.empresaId) : undefined,
    query.empresaIds ? inArray(viviendas.empresaId, query.empresaIds) : undefined,
    // The same expression as viviendas_nombre_trgm_idx.
    query.q ? matches(viviendas.nombre, query.q) : undefined,
  )
  const order =
    query.sort === 'empresa'
      ? [sortKey(empresas.nombre), viviendas.ordenNombre, viviendas.id]
      : [viviendas.ordenNombre, viviendas.id]
  const { limit, offset } = pageWindow(query)
  const rows = selectWithEmpresa(deps.db)
    .where(condition)
    .orderBy(...order.map((expr) => ordered(expr, query.order)))
    .limit(limit)
    .offset(offset)
  return listPage(
    deps.db,
    rows.then((r) => r.map((x) => toVivienda(x.vivienda, x.empresa))),
    { from: viviendas, where: condition, cache: Boolean(query.q) },
  )
}

/** A home the actor reaches, or 404 (another company's home answers 404, DECISIONS A3). */
export async function getVivienda(deps: AppDeps, actor: Actor, id: number): Promise<Vivienda> {
  const [row] = await selectWithEmpresa(deps.db).where(where(eq(viviendas.id, id), scopeFor(actor, 'viviendas', 'list')))
  if (!row) throw notFound(NOT_FOUND)
  return toVivienda(row.vivienda, row.empresa)
}

/** A home by id whatever the actor's scope, or undefined (residents tell 400 from SPEC's 403 with it). */
export async function findVivienda(db: DbOrTx, id: number): Promise<ViviendaRow | undefined> {
  const [row] = await db.select().from(viviendas).where(eq(viviendas.id, id))
  return row
}

/** A home the actor reaches, by id, or undefined. */
export async function visibleVivienda(db: DbOrTx, actor: Actor, id: number): Promise<ViviendaRow | undefined> {
  const [row] = await db
    .select()
    .from(viviendas)
    .where(where(eq(viviendas.id, id), resourceRules.viviendas.visible(actor)))
  return row
}

export async function createVivienda(deps: AppDeps, actor: Actor, input: ViviendaCreate): Promise<Vivienda> {
  scopeFor(actor, 'viviendas', 'create')
  return deps.db.transaction(async (tx) => {
    const empresa = await usableEmpresa(tx, actor, input.empresaId, empresaField)
    const [row] = await tx.insert(viviendas).values({ nombre: input.nombre, empresaId: empresa.id }).returning()
    const created = toVivienda(row as ViviendaRow, empresa)
    await logChange(tx, actor, {
      accion: 'Crear vivienda',
      url: '/viviendas',
      cambio: 'create',
      descripcion: `Vivienda creada: ${created.nombre} (${empresa.nombre})`,
      vivienda: created,
      despues: created,
    })
    return created
  })
}

/**
 * A PATCH writes only what it was sent, on the row locked first: an ADMIN renaming a home while a
 * SUPERADMIN moves it to another company never writes the old company back (issue 'faults' item 2).
 */
export async function updateVivienda(deps: AppDeps, actor: Actor, id: number, input: ViviendaUpdate): Promise<Vivienda> {
  const scope = scopeFor(actor, 'viviendas', 'update')
  return deps.db.transaction(async (tx) => {
    const row = await lockRow(tx, viviendas, id, scope, NOT_FOUND)
    const [current] = await tx
      .select({ id: empresas.id, nombre: empresas.nombre })
      .from(empresas)
      .where(eq(empresas.id, row.empresaId))
    const moving = input.empresaId !== undefined && input.empresaId !== row.empresaId
    const empresa = moving ? await usableEmpresa(tx, actor, input.empresaId as number, empresaField) : (current as EmpresaRef)
    const [updated] = await tx
      .update(viviendas)
      .set({ ...sent({ nombre: input.nombre }), ...(moving ? { empresaId: empresa.id } : {}), updatedAt: deps.clock.now() })
      .where(eq(viviendas.id, id))
      .returning()
    const before = toVivienda(row, current as EmpresaRef)
    const after = toVivienda(updated as ViviendaRow, empresa)
    const moved = moving ? ` (trasladada de ${before.empresa.nombre} a ${empresa.nombre})` : ''
    await logChange(tx, actor, {
      accion: 'Modificar vivienda',
      url: '/viviendas',
      cambio: 'update',
      descripcion: `Vivienda modificada: ${after.nombre}${moved}`,
      vivienda: after,
      antes: before,
      despues: after,
    })
    return after
  })
}

/**
 * DECISIONS P2: SUPERADMIN only. Refused with 409 while residents live there. The home's row is locked
 * first, so a resident cannot be linked to it between the count and the delete, and of two concurrent
 * deletes the second finds nothing (404): one deletion, one log entry.
 */
export async function removeVivienda(deps: AppDeps, actor: Actor, id: number): Promise<void> {
  const scope = scopeFor(actor, 'viviendas', 'delete')
  await deps.db.transaction(async (tx) => {
    const row = await lockRow(tx, viviendas, id, scope, NOT_FOUND)
    const [residents] = await tx.select({ n: count() }).from(usuarios).where(eq(usuarios.viviendaId, id))
    if (Number(residents?.n ?? 0) > 0) throw new AppError('CONFLICT', viviendaMessages.conUsuarios)
    const [empresa] = await tx
      .select({ id: empresas.id, nombre: empresas.nombre })
      .from(empresas)
      .where(eq(empresas.id, row.empresaId))
    await tx.delete(viviendas).where(eq(viviendas.id, id))
    const before = toVivienda(row, empresa as EmpresaRef)
    await logChange(tx, actor, {
      accion: 'Eliminar vivienda',
      url: '/viviendas',
      cambio: 'delete',
      descripcion: `Vivienda eliminada: ${before.nombre} (${before.empresa.nombre})`,
      // The entry keeps the home's id and name (DECISIONS L2): the log has no foreign key to rewrite.
      vivienda: before,
      antes: before,
    })
  })
}
