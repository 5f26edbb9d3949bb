import {
  AppError,
  logTipoPorCambio,
  normalizeNif,
  permissionMessages,
  type Usuario,
  type UsuarioCreate,
  type UsuarioListQuery,
  type UsuarioUpdate,
  usuarioMessages,
} from '@vb/shared'
import { type AnyColumn, and, count, eq, inArray, ne, type SQL, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app'
import type { DbOrTx } from '../../db/client'
import { cajaUsuario, documentosUsuario, usuarios, viviendas } from '../../db/schema'
import { writeLog } from '../../lib/activity-log'
import { type Actor, isSuper, reachesEmpresa } from '../../lib/actor'
import { type ListResult, likePattern, ordered, pageWindow } from '../../lib/paging'
import { findVivienda, visibleEmpresaIds } from '../viviendas/viviendas.service'

type Row = typeof usuarios.$inferSelect
/** The resident's home as SPEC §3 lists it. */
type ViviendaRef = { id: number; nombre: string; empresaId: number }

const NOT_FOUND = 'No se ha encontrado el usuario.'
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

/**
 * DECISIONS P1: ADMIN and EMPLEADO reach residents whose home belongs to one of their companies; a resident
 * without a home is reached by SUPERADMIN only.
 */
function reachesUsuario(actor: Actor, vivienda: ViviendaRef | null | undefined): boolean {
  if (isSuper(actor)) return true
  return vivienda != null && reachesEmpresa(actor, vivienda.empresaId)
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
}

type SortSource = {
  id: AnyColumn | SQL.Aliased
  nif: AnyColumn | SQL.Aliased
  gradoDependencia: AnyColumn | SQL.Aliased
  ordenNombre: AnyColumn | SQL.Aliased
  ordenApellidos: AnyColumn | SQL.Aliased
}

/**
 * Sort keys (SPEC §2.6: by field or by home), case- and accent-insensitive: the stored `orden_*` columns
 * hold f_unaccent(lower(...)) and are indexed, so no function runs per row. Ties fall back to apellidos,
 * nombre and id so pages never overlap. Default: apellidos, nombre, id.
 */
function sortKeys(sort: UsuarioListQuery['sort'], u: SortSource, viviendaOrden: AnyColumn): SQL[] {
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
      return [raw(viviendaOrden), ...byName]
    default:
      return byName
  }
}

/**
 * Residents the actor sees, searched by nombre, apellidos or NIF, sorted and paged (SPEC §2.6, DECISIONS A4).
 * One query for the page and one for the total. The search reads the stored `busqueda` column that
 * usuarios_busqueda_trgm_idx indexes; homes are joined only to sort by home and, afterwards, for the rows of the page.
 */
export async function listUsuarios(deps: AppDeps, actor: Actor, query: UsuarioListQuery): Promise<ListResult<Usuario>> {
  const conditions: SQL[] = []
  const empresaIds = visibleEmpresaIds(actor, { empresaId: query.empresaId })
  if (empresaIds) {
    const homes = deps.db
      .select({ id: viviendas.id })
      .from(viviendas)
      .where(inArray(viviendas.empresaId, empresaIds.length ? empresaIds : [-1]))
    conditions.push(inArray(usuarios.viviendaId, homes))
  }
  if (query.viviendaId !== undefined) conditions.push(eq(usuarios.viviendaId, query.viviendaId))
  if (query.nif) conditions.push(eq(usuarios.nif, normalizeNif(query.nif)))
  if (query.q) conditions.push(sql`${usuarios.busqueda} like ${likePattern(query.q)}`)
  const where = conditions.length ? and(...conditions) : undefined
  const { limit, offset } = pageWindow(query)

  let inner = deps.db.select(listColumns).from(usuarios).$dynamic()
  if (query.sort === 'vivienda') inner = inner.leftJoin(viviendas, eq(viviendas.id, usuarios.viviendaId))
  inner = inner.where(where).orderBy(...sortKeys(query.sort, usuarios, viviendas.ordenNombre).map((k) => ordered(k, query.order)))
  if (limit) inner = inner.limit(limit).offset(offset ?? 0)
  const page = inner.as('u')

  const [rows, total] = await Promise.all([
    deps.db
      .select({
        usuario: {
          id: page.id,
          nombre: page.nombre,
          apellidos: page.apellidos,
          nif: page.nif,
          gradoDependencia: page.gradoDependencia,
          fotoUrl: page.fotoUrl,
        },
        vivienda: { id: viviendas.id, nombre: viviendas.nombre, empresaId: viviendas.empresaId },
      })
      .from(page)
      .leftJoin(viviendas, eq(viviendas.id, page.viviendaId))
      .orderBy(...sortKeys(query.sort, page, viviendas.ordenNombre).map((k) => ordered(k, query.order))),
    query.page ? deps.db.select({ n: count() }).from(usuarios).where(where) : undefined,
  ])
  return {
    items: rows.map((r) => toUsuario(r.usuario, r.vivienda)),
    total: total ? Number(total[0]?.n ?? 0) : rows.length,
  }
}

/** A resident the actor reaches, with its home, or 404. `lock` holds the row until the transaction ends. */
async function loadUsuario(
  db: DbOrTx,
  actor: Actor,
  id: number,
  lock = false,
): Promise<{ row: Row; vivienda: ViviendaRef | null }> {
  const select = db
    .select({ usuario: usuarios, vivienda: { id: viviendas.id, nombre: viviendas.nombre, empresaId: viviendas.empresaId } })
    .from(usuarios)
    .leftJoin(viviendas, eq(viviendas.id, usuarios.viviendaId))
    .where(eq(usuarios.id, id))
  const [found] = lock ? await select.for('update', { of: usuarios }) : await select
  if (!found || !reachesUsuario(actor, found.vivienda)) throw new AppError('NOT_FOUND', NOT_FOUND)
  return { row: found.usuario, vivienda: found.vivienda }
}

export async function getUsuario(db: DbOrTx, actor: Actor, id: number): Promise<Usuario> {
  const { row, vivienda } = await loadUsuario(db, actor, id)
  return toUsuario(row, vivienda)
}

/**
 * The home a resident is created in or moved to (body field `viviendaId`): it must exist (400 on the field)
 * and, for non-superadmins, belong to one of their companies (SPEC §6: 403 with `forbidden`).
 */
async function targetVivienda(db: DbOrTx, actor: Actor, viviendaId: number, forbidden: string): Promise<ViviendaRef> {
  const vivienda = await findVivienda(db, viviendaId)
  if (!vivienda) throw new AppError('VALIDATION_FAILED', undefined, { viviendaId: usuarioMessages.viviendaInvalida })
  if (!reachesEmpresa(actor, vivienda.empresaId)) throw new AppError('FORBIDDEN', forbidden)
  return vivienda
}

const nifConflict = () => new AppError('CONFLICT', usuarioMessages.nifDuplicado, { nif: usuarioMessages.nifDuplicado })

/** DECISIONS D2: the NIF is unique (checked here for a clear answer; the unique index settles races). */
async function assertNifFree(db: DbOrTx, nif: string, exceptId?: number): Promise<void> {
  const condition = exceptId === undefined ? eq(usuarios.nif, nif) : and(eq(usuarios.nif, nif), ne(usuarios.id, exceptId))
  const [taken] = await db.select({ id: usuarios.id }).from(usuarios).where(condition).limit(1)
  if (taken) throw nifConflict()
}

/** A concurrent insert of the same NIF loses on usuarios_nif_unique: answer it like the check above. */
async function mapNifViolation<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (err) {
    let e: unknown = err
    for (let i = 0; i < 4 && e; i++) {
      const { code, constraint } = e as { code?: unknown; constraint?: unknown }
      if (code === '23505' && (constraint === undefined || constraint === 'usuarios_nif_unique')) throw nifConflict()
      e = (e as { cause?: unknown }).cause
    }
    throw err
  }
}

/** '' (the form's empty option) is stored as null. */
const orNull = <T extends string>(value: T | '' | null | undefined): T | null => (value ? value : null)

const fullName = (row: Pick<Row, 'nombre' | 'apellidos'>) => `${row.nombre} ${row.apellidos}`

export async function createUsuario(deps: AppDeps, actor: Actor, input: UsuarioCreate): Promise<Usuario> {
  return mapNifViolation(
    deps.db.transaction(async (tx) => {
      const vivienda = await targetVivienda(tx, actor, input.viviendaId, permissionMessages.crearUsuarioEnVivienda)
      const nif = normalizeNif(input.nif)
      await assertNifFree(tx, nif)
      const [row] = await tx
        .insert(usuarios)
        .values({
          nombre: input.nombre,
          apellidos: input.apellidos,
          nif,
          gradoDependencia: orNull(input.gradoDependencia),
          fotoUrl: orNull(input.fotoUrl),
          viviendaId: vivienda.id,
        })
        .returning()
      const created = toUsuario(row as Row, vivienda)
      await writeLog(tx, actor, {
        accion: 'Crear usuario',
        url: '/usuarios',
        tipo: logTipoPorCambio.create,
        descripcion: `Usuario creado: ${fullName(created)} (${created.nif}) en la vivienda ${vivienda.nombre}`,
        viviendaId: vivienda.id,
        usuarioId: created.id,
        datos: { despues: created },
      })
      return created
    }),
  )
}

/** Edit; a new `viviendaId` moves the resident (its one home is replaced in the same statement). */
export async function updateUsuario(deps: AppDeps, actor: Actor, id: number, input: UsuarioUpdate): Promise<Usuario> {
  return mapNifViolation(
    deps.db.transaction(async (tx) => {
      const { row, vivienda } = await loadUsuario(tx, actor, id, true)
      const moving = input.viviendaId !== undefined && input.viviendaId !== row.viviendaId
      const target = moving
        ? await targetVivienda(tx, actor, input.viviendaId as number, permissionMessages.moverUsuarioAVivienda)
        : vivienda
      const nif = input.nif !== undefined ? normalizeNif(input.nif) : undefined
      if (nif !== undefined && nif !== row.nif) await assertNifFree(tx, nif, id)
      const [updated] = await tx
        .update(usuarios)
        .set({
          ...(input.nombre !== undefined ? { nombre: input.nombre } : {}),
          ...(input.apellidos !== undefined ? { apellidos: input.apellidos } : {}),
          ...(nif !== undefined ? { nif } : {}),
          ...(input.gradoDependencia !== undefined ? { gradoDependencia: orNull(input.gradoDependencia) } : {}),
          ...(input.fotoUrl !== undefined ? { fotoUrl: orNull(input.fotoUrl) } : {}),
          ...(moving ? { viviendaId: target?.id ?? null } : {}),
          updatedAt: deps.clock.now(),
        })
        .where(eq(usuarios.id, id))
        .returning()
      if (!updated) throw new AppError('NOT_FOUND', NOT_FOUND)
      const before = toUsuario(row, vivienda)
      const after = toUsuario(updated, target)
      const moved = moving ? `; trasladado de ${vivienda?.nombre ?? usuarioMessages.sinVivienda} a ${target?.nombre}` : ''
      await writeLog(tx, actor, {
        accion: 'Modificar usuario',
        url: '/usuarios',
        tipo: logTipoPorCambio.update,
        descripcion: `Usuario modificado: ${fullName(after)} (${after.nif})${moved}`,
        viviendaId: target?.id ?? null,
        usuarioId: id,
        datos: { antes: before, despues: after },
      })
      return after
    }),
  )
}

/**
 * POST /usuarios/:id/viviendas/:viviendaId (SPEC §4, §7). One home at a time: linking moves the resident,
 * the old link and the new one change in one statement. Linking to the current home changes nothing.
 */
export async function linkVivienda(deps: AppDeps, actor: Actor, id: number, viviendaId: number): Promise<Usuario> {
  return deps.db.transaction(async (tx) => {
    const { row, vivienda } = await loadUsuario(tx, actor, id, true)
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
    await writeLog(tx, actor, {
      accion: 'Modificar usuario',
      url: '/usuarios',
      tipo: logTipoPorCambio.update,
      descripcion: `Usuario ${fullName(after)} (${after.nif}) vinculado a la vivienda ${target.nombre}${from}`,
      viviendaId: target.id,
      usuarioId: id,
      datos: { antes: before, despues: after },
    })
    return after
  })
}

/**
 * DELETE /usuarios/:id/viviendas/:viviendaId: the resident is left 'Sin vivienda'. From then on only
 * SUPERADMIN reaches it (DECISIONS P1), so the answer is the last view the caller gets of it.
 */
export async function unlinkVivienda(deps: AppDeps, actor: Actor, id: number, viviendaId: number): Promise<Usuario> {
  return deps.db.transaction(async (tx) => {
    const { row, vivienda } = await loadUsuario(tx, actor, id, true)
    if (!vivienda || vivienda.id !== viviendaId) throw new AppError('NOT_FOUND', NOT_LINKED)
    const [updated] = await tx
      .update(usuarios)
      .set({ viviendaId: null, updatedAt: deps.clock.now() })
      .where(eq(usuarios.id, id))
      .returning()
    const before = toUsuario(row, vivienda)
    const after = toUsuario(updated as Row, null)
    await writeLog(tx, actor, {
      accion: 'Modificar usuario',
      url: '/usuarios',
      tipo: logTipoPorCambio.update,
      descripcion: `Usuario ${fullName(after)} (${after.nif}) desvinculado de la vivienda ${vivienda.nombre}`,
      viviendaId: vivienda.id,
      usuarioId: id,
      datos: { antes: before, despues: after },
    })
    return after
  })
}

/**
 * DECISIONS D2: the resident, its documents, cash movements and calendar links go in one transaction (the
 * foreign keys cascade). DECISIONS L3: the deleted documents and cash movements are kept in the log entry.
 */
export async function removeUsuario(deps: AppDeps, actor: Actor, id: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const { row, vivienda } = await loadUsuario(tx, actor, id, true)
    // One connection per transaction: these run one after the other.
    const documentos = await tx
      .select({
        id: documentosUsuario.id,
        titulo: documentosUsuario.titulo,
        archivoUrl: documentosUsuario.archivoUrl,
        fecha: documentosUsuario.fecha,
      })
      .from(documentosUsuario)
      .where(eq(documentosUsuario.usuarioId, id))
    const movimientos = await tx
      .select({ id: cajaUsuario.id, concepto: cajaUsuario.concepto, cantidad: cajaUsuario.cantidad, fecha: cajaUsuario.fecha })
      .from(cajaUsuario)
      .where(eq(cajaUsuario.usuarioId, id))
    await tx.delete(usuarios).where(eq(usuarios.id, id))
    const before = toUsuario(row, vivienda)
    await writeLog(tx, actor, {
      accion: 'Eliminar usuario',
      url: '/usuarios',
      tipo: logTipoPorCambio.delete,
      descripcion: `Usuario eliminado: ${fullName(before)} (${before.nif}), con ${documentos.length} documentos y ${movimientos.length} movimientos de caja`,
      viviendaId: vivienda?.id ?? null,
      usuarioId: id,
      datos: { antes: { ...before, documentos, movimientosCaja: movimientos } },
    })
  })
}
