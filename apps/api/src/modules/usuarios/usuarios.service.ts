import {
  AppError,
  type ListPage,
  madridDay,
  normalizeNif,
  permissionMessages,
  type Usuario,
  type UsuarioFicha,
  type UsuarioListItem,
  type UsuarioListQuery,
  usuarioCreateSchema,
  usuarioListItemSchema,
  usuarioListQuerySchema,
  usuarioMessages,
  usuarioNifNoEncontrado,
  usuarioSchema,
  usuarioUpdateSchema,
} from '@vb/shared'
import { type AnyColumn, eq, inArray, type Placeholder, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx, Tx } from '../../db/client'
import { uploads, usuarios, viviendas } from '../../db/schema'
import type { AppDeps } from '../../deps'
import { type Actor, isSuper, reachesEmpresa } from '../../lib/actor'
import { countSlot } from '../../lib/count-cache'
import { ordered, searchMatches } from '../../lib/paging'
import { boundedTotal, boundedTotalKey, cappedTotal, lockRow, logChange, notFound, pageWindow, where } from '../../lib/records'
import { defineResource } from '../../lib/resource'
import { authorize, resourceRules, scopeFor, scopeInEmpresa } from '../../lib/scope'
import { selectPage, selectShaped } from '../../lib/select-rows'
import { trigramCounts } from '../../lib/trigram-counts'
import { pirBadge, pirEstadoEs, pirFrom, pirStatusOf } from '../pir/pir.service'
import { discardFiles } from '../uploads/uploads.service'
import { findVivienda } from '../viviendas/viviendas.service'

type Row = typeof usuarios.$inferSelect
/** The resident's home as SPEC §3 lists it. */
type ViviendaRef = { id: number; nombre: string; empresaId: number }

const NOT_FOUND = usuarioMessages.noEncontrado
const NOT_LINKED = 'El usuario no está vinculado a esa vivienda.'
const VIVIENDA_NOT_FOUND = 'No se ha encontrado la vivienda.'

/** Row and its home (or none) → SPEC §3 Resident; `viviendas` has 0 or 1 entries (one home at a time). */
export function toUsuario(
  row: Pick<Row, 'id' | 'nombre' | 'apellidos' | 'nif' | 'gradoDependencia' | 'fotoUrl'>,
  vivienda: ViviendaRef | null | undefined,
): Usuario {
  return {
    id: row.id,
    nombre: row.nombre,
    apellidos: row.apellidos,
    nif: row.nif,
    // usuarios_grado_check keeps the column to PVS, PEI or null.
    gradoDependencia: row.gradoDependencia as Usuario['gradoDependencia'],
    fotoUrl: row.fotoUrl,
    viviendas: vivienda ? [{ id: vivienda.id, nombre: vivienda.nombre, empresaId: vivienda.empresaId }] : [],
  }
}

/** The columns a list row needs; the home is joined afterwards, for the page only. */
const listColumns = {
  id: usuarios.id,
  nombre: usuarios.nombre,
  apellidos: usuarios.apellidos,
  nif: usuarios.nif,
  gradoDependencia: usuarios.gradoDependencia,
  fotoUrl: usuarios.fotoUrl,
  viviendaId: usuarios.viviendaId,
  ordenNombre: usuarios.ordenNombre,
  ordenApellidos: usuarios.ordenApellidos,
  viviendaOrden: usuarios.viviendaOrden,
  pirFecha: usuarios.pirFecha,
}

type SortSource = {
  id: AnyColumn | SQL.Aliased
  nif: AnyColumn | SQL.Aliased
  gradoDependencia: AnyColumn | SQL.Aliased
  ordenNombre: AnyColumn | SQL.Aliased
  ordenApellidos: AnyColumn | SQL.Aliased
  viviendaOrden: AnyColumn | SQL.Aliased
}

/**
 * Sort keys (SPEC §2.6: by field or by home), case- and accent-insensitive: the stored `orden_*` columns
 * hold f_unaccent(lower(...)) and are indexed, so no function runs per row; the home's key is copied onto its
 * residents (`vivienda_orden`, kept by triggers), so each sort reads one index. Ties fall back to apellidos,
 * nombre and id so pages never overlap. Default: apellidos, nombre, id.
 */
function sortKeys(sort: UsuarioListQuery['sort'], u: SortSource): SQL[] {
  const raw = (c: AnyColumn | SQL.Aliased) => sql`${c}`
  const byName = [raw(u.ordenApellidos), raw(u.ordenNombre), raw(u.id)]
  switch (sort) {
    case 'nombre':
      return [raw(u.ordenNombre), raw(u.ordenApellidos), raw(u.id)]
    case 'nif':
      return [raw(u.nif), raw(u.id)]
    case 'gradoDependencia':
      return [raw(u.gradoDependencia), ...byName]
    case 'vivienda':
      return [raw(u.viviendaOrden), ...byName]
    default:
      return byName
  }
}

/**
 * Residents the actor sees, searched by nombre, apellidos or NIF, sorted and paged (SPEC §2.6, DECISIONS A4).
 * One query for the page and one bounded count (D13, kept a few seconds in the count cache); a new search that finds few residents gets both from one
 * statement (searchedPage), and its total is kept in the count cache. The search reads the stored `busqueda`
 * column that usuarios_busqueda_trgm_idx indexes; homes are joined afterwards, for the rows of the page only.
 * Each row carries its PIR badge (SPEC §4): the resident's stored latest PIR date (`pir_fecha`, kept by a
 * trigger on its documents), which the shared rule turns into the state.
 */
export async function listUsuarios(deps: AppDeps, actor: Actor, query: UsuarioListQuery): Promise<ListPage<UsuarioListItem>> {
  const condition = where(
    // The scope, within the top bar's company if one is chosen (the rule's visibleIn).
    scopeInEmpresa(actor, 'usuarios', 'list', query.empresaId),
    query.viviendaId !== undefined ? eq(usuarios.viviendaId, query.viviendaId) : undefined,
    query.ids ? inArray(usuarios.id, query.ids) : undefined,
    query.nif ? eq(usuarios.nif, normalizeNif(query.nif)) : undefined,
    query.q ? searchMatches(usuarios.busqueda, query.q, trigramCounts(deps.db, usuarios.busqueda)) : undefined,
    // The start page's links: residents whose PIR has expired or expires within 30 days (SPEC §4).
    query.pir ? pirEstadoEs(usuarios.pirFecha, query.pir, madridDay(deps.clock.now())) : undefined,
  )
  const { limit, offset } = pageWindow(query)
  const sort = (source: SortSource) => sortKeys(query.sort, source).map((k) => ordered(k, query.order))
  const now = deps.clock.now()
  const toItem = (r: PageRow) => ({ ...toUsuario(r.usuario, r.vivienda), pir: pirBadge(pirFrom(r.pirFecha, now)) })

  // The total may come from the short count cache (lib/count-cache.ts); the rows are always fresh.
  const slot = countSlot(deps.db, boundedTotalKey(usuarios, condition))
  if (query.q && !slot.cached) {
    // A new search that finds few residents (a name): its page and total come from one scan (searchedPage).
    const found = await searchedPage(
      deps.db,
      condition,
      sort,
      `usuarios:buscar:${String(query.sort)}:${String(query.order)}`,
      limit,
      offset,
    )
    if (found) {
      const counted = cappedTotal(found.n)
      slot.keep(counted)
      return { items: found.rows.map(toItem), ...counted }
    }
  }

  const [rows, { total, exact }] = await Promise.all([
    // Built once per sort and order; each call renders its condition into it (lib/select-rows.ts).
    selectPage(
      deps.db,
      `usuarios:${String(query.sort)}:${String(query.order)}`,
      (c, l, o) => withHomes(deps.db, pageOf(deps.db, c, sort, l, o), sort),
      condition,
      limit,
      offset,
    ),
    slot.cached ?? boundedTotal(deps.db, usuarios, condition),
  ])
  return { items: rows.map(toItem), total, exact }
}

/** One page of the list's rows (listColumns), as a subquery. */
function pageOf(
  db: DbOrTx,
  condition: SQL | undefined,
  sort: (source: SortSource) => SQL[],
  limit: number | Placeholder,
  offset: number | Placeholder,
) {
  return db
    .select(listColumns)
    .from(usuarios)
    .where(condition)
    .orderBy(...sort(usuarios))
    .limit(limit)
    .offset(offset)
    .as('u')
}

/** What a list row reads from a page of listColumns (`page`) and its home. */
const pageRow = (page: Pick<ReturnType<typeof pageOf>, keyof typeof listColumns>) => ({
  usuario: {
    id: page.id,
    nombre: page.nombre,
    apellidos: page.apellidos,
    nif: page.nif,
    gradoDependencia: page.gradoDependencia,
    fotoUrl: page.fotoUrl,
  },
  vivienda: { id: viviendas.id, nombre: viviendas.nombre, empresaId: viviendas.empresaId },
  pirFecha: page.pirFecha,
})

type PageRow = Awaited<ReturnType<typeof withHomes>>[number]

/** The rows of a page with each one's home (joined for the page only), in the list's order. */
function withHomes(db: DbOrTx, page: ReturnType<typeof pageOf>, sort: (source: SortSource) => SQL[]) {
  return db
    .select(pageRow(page))
    .from(page)
    .leftJoin(viviendas, eq(viviendas.id, page.viviendaId))
    .orderBy(...sort(page))
}

/**
 * Up to this many matches, a new search reads its page and its total from one scan (searchedPage); a search
 * that finds more (a few letters, a common surname) runs the page and the bounded count as two statements.
 */
let oneScanMatches = 200

/** Tests: how many matches a search may find and still be read in one scan (0: only a search that finds none). */
export function setOneScanMatches(n: number): void {
  oneScanMatches = n
}

/**
 * A new search's page and total from one trigram search (docs/performance.md): `m` holds the first
 * `oneScanMatches` + 1 matches (read once: PostgreSQL materialises a CTE used twice) and `t` counts them. When
 * `m` holds them all, the page is sorted from it and its count is the exact total; otherwise the answer is
 * undefined, and the caller reads the page and counts as an unsearched list does. The lateral join keeps
 * `t`'s row when the page is empty (a page past the last).
 */
async function searchedPage(
  db: DbOrTx,
  condition: SQL | undefined,
  sort: (source: SortSource) => SQL[],
  shape: string,
  limit: number,
  offset: number,
): Promise<{ rows: PageRow[]; n: number } | undefined> {
  const build = (
    c: SQL | undefined,
    v: { scan: number | Placeholder; most: number | Placeholder; limit: number | Placeholder; offset?: number | Placeholder },
  ) => {
    const m = db.$with('m').as(db.select(listColumns).from(usuarios).where(c).limit(v.scan))
    const t = db.$with('t').as(db.select({ n: sql<number>`count(*)::int`.as('n') }).from(m))
    const page = db
      .select()
      .from(m)
      // Written out in full: a bare "n" inside the subquery could name a column of `m`.
      .where(sql`${t}.${sql.identifier('n')} <= ${v.most}`)
      .orderBy(...sort(m))
      .limit(v.limit)
      .offset(v.offset ?? 0)
      .as('u')
    return db
      .with(m, t)
      .select({ n: t.n, ...pageRow(page) })
      .from(t)
      .leftJoinLateral(page, sql`true`)
      .leftJoin(viviendas, eq(viviendas.id, page.viviendaId))
      .orderBy(...sort(page))
  }
  const values = { scan: oneScanMatches + 1, most: oneScanMatches, limit }
  // Built once per sort and order (lib/select-rows.ts); the first page has no OFFSET.
  const rows =
    offset > 0
      ? await selectShaped(db, `${shape}|offset`, build, condition, { ...values, offset })
      : await selectShaped(db, `${shape}|first`, build, condition, values)
  const n = Number(rows[0]?.n ?? 0)
  if (n > oneScanMatches) return undefined
  return { rows: rows.filter((r) => r.usuario !== null) as PageRow[], n }
}

/**
 * GET /usuarios/nif/:nif: the header of /documentacion/{nif} and /caja/{nif} (SPEC §2.14, §2.15). The NIF of
 * the URL matches in any case; one the worker does not reach, or none, answers 404 with SPEC §8's message.
 * The PIR card comes from the shared rule, with today from the injected clock.
 */
export async function getUsuarioPorNif(deps: AppDeps, actor: Actor, nif: string): Promise<UsuarioFicha> {
  const normalized = normalizeNif(nif)
  const [row] = await deps.db
    .select()
    .from(usuarios)
    .where(where(eq(usuarios.nif, normalized), scopeFor(actor, 'usuarios', 'list')))
  if (!row) throw new AppError('NOT_FOUND', usuarioNifNoEncontrado(normalized))
  const [vivienda, pir] = await Promise.all([homeOf(deps.db, row.viviendaId), pirStatusOf(deps.db, deps.clock, row.id)])
  return { ...toUsuario(row, vivienda), nombreCompleto: fullName(row), pir: pir.status, pirDocumentoId: pir.documentoId }
}

/** A resident as its documents and cash movements need it: who, and the home their log entries name (L1). */
export interface UsuarioTitular {
  id: number
  nombre: string
  apellidos: string
  nif: string
  vivienda: ViviendaRef | null
}

/**
 * The resident `by` names (its id, or its NIF in any case) among those the worker reaches (DECISIONS P1), as a
 * condition on `usuarios`, with the 404's message when no row matches: another company's resident, or none, with
 * SPEC §8's message when asked by NIF. Used by titularOf and by the cash ledger's page, which finds the resident in
 * its own statement.
 */
export function titularWhere(actor: Actor, by: { id?: number; nif?: string }): { condition: SQL; missing: string } {
  const nif = by.nif === undefined ? undefined : normalizeNif(by.nif)
  if (by.id === undefined && nif === undefined) throw notFound(NOT_FOUND)
  const condition = where(
    by.id !== undefined ? eq(usuarios.id, by.id) : undefined,
    nif !== undefined ? eq(usuarios.nif, nif) : undefined,
    resourceRules.usuarios.visible(actor),
  ) as SQL
  return { condition, missing: nif !== undefined ? usuarioNifNoEncontrado(nif) : NOT_FOUND }
}

/**
 * The resident a document or cash movement belongs to (by id, or by the NIF of the screen's URL in any case),
 * for `action` on `resource` (the role check of SPEC §6), under the worker's scope (DECISIONS P1): another
 * company's resident, or none, is 404 — with SPEC §8's message when asked by NIF. `lock` takes the
 * resident's row, so that what a log entry says of the resident holds until the commit: 'no key update' when
 * writers of one resident's records must queue (a document's PIR notices, an edit of a record), 'share' when
 * they need not (a new cash movement: several may be entered at once, while the resident's edit or deletion
 * waits for them). Inserts of other residents' records never wait.
 */
export async function titularOf(
  db: DbOrTx,
  actor: Actor,
  resource: 'documentos-usuario' | 'caja-usuario',
  action: 'list' | 'create' | 'update' | 'delete',
  by: { id?: number; nif?: string },
  { lock }: { lock?: 'no key update' | 'share' } = {},
): Promise<UsuarioTitular> {
  authorize(actor, resource, action)
  const { condition, missing } = titularWhere(actor, by)
  // The home comes in the same statement (one round trip); the lock is on the resident's row only. Built once
  // per shape, its condition rendered into it (lib/select-rows.ts): the documents list and every write of a
  // document or movement read the resident first.
  const build = (c: SQL | undefined) => {
    const query = db
      .select({
        id: usuarios.id,
        nombre: usuarios.nombre,
        apellidos: usuarios.apellidos,
        nif: usuarios.nif,
        vivienda: { id: viviendas.id, nombre: viviendas.nombre, empresaId: viviendas.empresaId },
      })
      .from(usuarios)
      .leftJoin(viviendas, eq(viviendas.id, usuarios.viviendaId))
      .where(c)
    return lock ? query.for(lock, { of: usuarios }) : query
  }
  const [row] = await selectShaped(db, `titular:${lock ?? 'read'}`, build, condition, {})
  if (!row) throw notFound(missing)
  return row
}

async function homeOf(db: DbOrTx, viviendaId: number | null): Promise<ViviendaRef | null> {
  if (viviendaId === null) return null
  const [v] = await db
    .select({ id: viviendas.id, nombre: viviendas.nombre, empresaId: viviendas.empresaId })
    .from(viviendas)
    .where(eq(viviendas.id, viviendaId))
  return v ?? null
}

/**
 * Lock before you look: the resident's own row, locked under the worker's scope (never the nullable side
 * of a join), then its home. 404 for one the worker does not reach.
 */
async function lockUsuario(tx: Tx, actor: Actor, id: number, action: 'update' | 'delete', message?: string) {
  const row = await lockRow(tx, usuarios, id, scopeFor(actor, 'usuarios', action, message), NOT_FOUND)
  return { row, vivienda: await homeOf(tx, row.viviendaId) }
}

const fullName = (row: Pick<Row, 'nombre' | 'apellidos'>) => `${row.nombre} ${row.apellidos}`

/**
 * SPEC §2.6, §6: residents. Every role creates, edits and deletes the residents of its companies' homes; the
 * home of the body must be one of them (SPEC's own 403 messages otherwise). DECISIONS D2: the NIF is unique,
 * and a deletion takes the resident's documents, cash movements and calendar links with it in one
 * transaction, keeping them in the log entry (L3). The list, with its PIR badge, is its own (listUsuarios).
 */
export const usuariosResource = defineResource({
  name: 'usuarios',
  table: usuarios,
  schemas: {
    entity: usuarioSchema,
    listQuery: usuarioListQuerySchema,
    create: usuarioCreateSchema,
    update: usuarioUpdateSchema,
    listItem: usuarioListItemSchema,
  },
  read: (db: DbOrTx) =>
    db
      .select({ usuario: usuarios, vivienda: { id: viviendas.id, nombre: viviendas.nombre, empresaId: viviendas.empresaId } })
      .from(usuarios)
      .leftJoin(viviendas, eq(viviendas.id, usuarios.viviendaId)),
  toEntity: (r) => toUsuario(r.usuario, r.vivienda),
  notFound: NOT_FOUND,
  search: usuarios.busqueda,
  sort: { apellidos: [usuarios.ordenApellidos, usuarios.ordenNombre] },
  insert: (u) => ({
    nombre: u.nombre,
    apellidos: u.apellidos,
    nif: u.nif,
    // '' (the form's empty option) is stored as null.
    gradoDependencia: u.gradoDependencia === '' ? null : u.gradoDependencia,
    fotoUrl: u.fotoUrl,
    viviendaId: u.viviendaId,
  }),
  references: {
    viviendaId: {
      resource: 'viviendas',
      invalid: usuarioMessages.viviendaInvalida,
      forbidden: { create: permissionMessages.crearUsuarioEnVivienda, update: permissionMessages.moverUsuarioAVivienda },
    },
  },
  unique: { usuarios_nif_unique: { message: usuarioMessages.nifDuplicado, field: 'nif' } },
  log: {
    noun: 'usuario',
    title: 'Usuario',
    label: (u) => `${fullName(u)} (${u.nif})`,
    moved: (a, b) =>
      a.viviendas[0]?.id === b.viviendas[0]?.id
        ? ''
        : `; trasladado de ${a.viviendas[0]?.nombre ?? usuarioMessages.sinVivienda} a ${b.viviendas[0]?.nombre}`,
    vivienda: (u) => u.viviendas[0],
    usuarioId: (u) => u.id,
    describe: {
      create: (u) => `Usuario creado: ${fullName(u)} (${u.nif}) en la vivienda ${u.viviendas[0]?.nombre}`,
      delete: (u, parts) =>
        `Usuario eliminado: ${fullName(u)} (${u.nif}), con ${parts.documentos?.length ?? 0} documentos y ${parts.movimientosCaja?.length ?? 0} movimientos de caja`,
    },
  },
  remove: {
    parts: {
      documentos_usuario: { as: 'documentos', keep: ['id', 'titulo', 'archivo_url', 'fecha'] },
      caja_usuario: { as: 'movimientosCaja', keep: ['id', 'concepto', 'cantidad', 'fecha'] },
      planing_tarea_usuarios: { as: 'tareasPlaning', keep: 'tarea_id' },
    },
  },
  check: {
    // Their uploaded files' rows go with them (foreign keys cascade); the files on disk after the commit.
    remove: async ({ tx, row }) =>
      (
        await tx
          .select({ id: uploads.id })
          .from(uploads)
          .where(
            sql`${uploads.documentoId} in (select id from documentos_usuario where usuario_id = ${row.id}) or ${uploads.movimientoId} in (select id from caja_usuario where usuario_id = ${row.id})`,
          )
      ).map((f) => f.id),
  },
  afterRemove: (deps, files) => discardFiles(deps, files as string[]),
  override: { list: listUsuarios },
})

/**
 * POST /usuarios/:id/viviendas/:viviendaId (SPEC §4, §7). One home at a time: linking moves the resident,
 * the old link and the new one change in one statement. Linking to the current home changes nothing.
 */
export async function linkVivienda(deps: AppDeps, actor: Actor, id: number, viviendaId: number): Promise<Usuario> {
  return deps.db.transaction(async (tx) => {
    const { row, vivienda } = await lockUsuario(tx, actor, id, 'update')
    if (row.viviendaId === viviendaId) return toUsuario(row, vivienda)
    const target = await findVivienda(tx, viviendaId)
    if (!target) throw new AppError('NOT_FOUND', VIVIENDA_NOT_FOUND)
    if (!reachesEmpresa(actor, target.empresaId)) throw new AppError('FORBIDDEN', permissionMessages.moverUsuarioAVivienda)
    const [updated] = await tx
      .update(usuarios)
      .set({ viviendaId: target.id, updatedAt: deps.clock.now() })
      .where(eq(usuarios.id, id))
      .returning()
    const before = toUsuario(row, vivienda)
    const after = toUsuario(updated as Row, target)
    const from = vivienda ? `; trasladado desde ${vivienda.nombre}` : ''
    await logChange(tx, actor, {
      accion: 'Modificar usuario',
      url: '/usuarios',
      cambio: 'update',
      descripcion: `Usuario ${fullName(after)} (${after.nif}) vinculado a la vivienda ${target.nombre}${from}`,
      vivienda: target,
      usuarioId: id,
      antes: before,
      despues: after,
    })
    return after
  })
}

/**
 * DELETE /usuarios/:id/viviendas/:viviendaId: the resident is left 'Sin vivienda'. From then on only a
 * SUPERADMIN reaches it (DECISIONS P1), so only a SUPERADMIN may do it: an ADMIN or EMPLEADO following SPEC §4's
 * move (unlink, then link) would lose the resident between the two calls. They get 409 and move it with the
 * link alone, which moves in one change.
 */
export async function unlinkVivienda(deps: AppDeps, actor: Actor, id: number, viviendaId: number): Promise<Usuario> {
  return deps.db.transaction(async (tx) => {
    const { row, vivienda } = await lockUsuario(tx, actor, id, 'update')
    if (!vivienda || vivienda.id !== viviendaId) throw new AppError('NOT_FOUND', NOT_LINKED)
    if (!isSuper(actor)) throw new AppError('CONFLICT', usuarioMessages.sinViviendaSoloSuperadmin)
    const [updated] = await tx
      .update(usuarios)
      .set({ viviendaId: null, updatedAt: deps.clock.now() })
      .where(eq(usuarios.id, id))
      .returning()
    const before = toUsuario(row, vivienda)
    const after = toUsuario(updated as Row, null)
    await logChange(tx, actor, {
      accion: 'Modificar usuario',
      url: '/usuarios',
      cambio: 'update',
      descripcion: `Usuario ${fullName(after)} (${after.nif}) desvinculado de la vivienda ${vivienda.nombre}`,
      vivienda,
      usuarioId: id,
      antes: before,
      despues: after,
    })
    return after
  })
}
