import {
  AppError,
  type Empresa,
  type EmpresaCreate,
  type EmpresaListQuery,
  type EmpresaUpdate,
  empresaConDatosMessage,
  empresaMessages,
  type ListPage,
} from '@vb/shared'
import { count, eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { contactos, empresas, planingTareas, trabajadorEmpresas, viviendas } from '../../db/schema'
import type { AppDeps } from '../../deps'
import type { Actor } from '../../lib/actor'
import { matches, ordered, sortKey } from '../../lib/paging'
import { listPage, lockRow, logChange, notFound, pageWindow, sent, where } from '../../lib/records'
import { resourceRules, scopeFor } from '../../lib/scope'

type Row = typeof empresas.$inferSelect

/** Row → SPEC §3 Company. */
export function toEmpresa(row: Row): Empresa {
  return { id: row.id, nombre: row.nombre, logoUrl: row.logoUrl }
}

const rule = resourceRules.empresas

/** Companies the actor sees (SPEC §6: SUPERADMIN all, others their own), searched, sorted and paged. */
export async function listEmpresas(deps: AppDeps, actor: Actor, query: EmpresaListQuery): Promise<ListPage<Empresa>> {
  const condition = where(scopeFor(actor, 'empresas', 'list'), query.q ? matches(empresas.nombre, query.q) : undefined)
  const { limit, offset } = pageWindow(query)
  const rows = deps.db
    .select()
    .from(empresas)
    .where(condition)
    .orderBy(ordered(sortKey(empresas.nombre), query.order), ordered(empresas.id, query.order))
    .limit(limit)
    .offset(offset)
  return listPage(
    deps.db,
    rows.then((r) => r.map(toEmpresa)),
    { from: empresas, where: condition, cache: Boolean(query.q) },
  )
}

/** A company the actor reaches, or 404 (another company's record answers 404, DECISIONS A3). */
export async function getEmpresa(deps: AppDeps, actor: Actor, id: number): Promise<Empresa> {
  const [row] = await deps.db
    .select()
    .from(empresas)
    .where(where(eq(empresas.id, id), scopeFor(actor, 'empresas', 'list')))
  if (!row) throw notFound(empresaMessages.noEncontrada)
  return toEmpresa(row)
}

/**
 * A company a body points at (a home's or contact's `empresaId`): it must exist and be one the actor
 * reaches; otherwise the field's own message, the same for "does not exist" and "another company's"
 * (issue 'faults' item 9: no answer tells which ids exist elsewhere). `lock` holds it (FOR KEY SHARE is
 * taken by the foreign key anyway).
 */
export async function usableEmpresa(db: DbOrTx, actor: Actor, id: number, fieldError: Record<string, string>): Promise<Row> {
  const [row] = await db
    .select()
    .from(empresas)
    .where(where(eq(empresas.id, id), rule.visible(actor)))
  if (!row) throw new AppError('VALIDATION_FAILED', undefined, fieldError)
  return row
}

const normalizeLogo = (logoUrl: string | null | undefined) => (logoUrl ? logoUrl : null)

export async function createEmpresa(deps: AppDeps, actor: Actor, input: EmpresaCreate): Promise<Empresa> {
  scopeFor(actor, 'empresas', 'create')
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(empresas)
      .values({ nombre: input.nombre, logoUrl: normalizeLogo(input.logoUrl) })
      .returning()
    const created = toEmpresa(row as Row)
    await logChange(tx, actor, {
      accion: 'Crear empresa',
      url: '/empresas',
      cambio: 'create',
      descripcion: `Empresa creada: ${created.nombre}`,
      despues: created,
    })
    return created
  })
}

export async function updateEmpresa(deps: AppDeps, actor: Actor, id: number, input: EmpresaUpdate): Promise<Empresa> {
  const scope = scopeFor(actor, 'empresas', 'update')
  return deps.db.transaction(async (tx) => {
    const before = await lockRow(tx, empresas, id, scope, empresaMessages.noEncontrada)
    const changes = sent({
      nombre: input.nombre,
      logoUrl: input.logoUrl === undefined ? undefined : normalizeLogo(input.logoUrl),
    })
    const [row] = await tx
      .update(empresas)
      .set({ ...changes, updatedAt: deps.clock.now() })
      .where(eq(empresas.id, id))
      .returning()
    const after = toEmpresa(row as Row)
    await logChange(tx, actor, {
      accion: 'Modificar empresa',
      url: '/empresas',
      cambio: 'update',
      descripcion: `Empresa modificada: ${after.nombre}`,
      antes: toEmpresa(before),
      despues: after,
    })
    return after
  })
}

/**
 * Issue 'faults' item 5: refused with 409 while the company still has homes, contacts or calendar tasks
 * (nothing vanishes without a log entry). The row is locked first: a home or contact added meanwhile waits
 * on it and then fails its foreign key. Workers' links to the company go with it, listed in the entry.
 */
export async function removeEmpresa(deps: AppDeps, actor: Actor, id: number): Promise<void> {
  const scope = scopeFor(actor, 'empresas', 'delete')
  await deps.db.transaction(async (tx) => {
    const before = await lockRow(tx, empresas, id, scope, empresaMessages.noEncontrada)
    const countOf = async (table: typeof viviendas | typeof contactos | typeof planingTareas) =>
      Number((await tx.select({ n: count() }).from(table).where(eq(table.empresaId, id)))[0]?.n ?? 0)
    const counts = {
      viviendas: await countOf(viviendas),
      contactos: await countOf(contactos),
      tareas: await countOf(planingTareas),
    }
    if (counts.viviendas || counts.contactos || counts.tareas) throw new AppError('CONFLICT', empresaConDatosMessage(counts))
    const links = await tx
      .select({ trabajadorId: trabajadorEmpresas.trabajadorId })
      .from(trabajadorEmpresas)
      .where(eq(trabajadorEmpresas.empresaId, id))
    await tx.delete(empresas).where(eq(empresas.id, id))
    await logChange(tx, actor, {
      accion: 'Eliminar empresa',
      url: '/empresas',
      cambio: 'delete',
      descripcion: `Empresa eliminada: ${before.nombre}`,
      antes: { ...toEmpresa(before), trabajadores: links.map((l) => l.trabajadorId) },
    })
  })
}
