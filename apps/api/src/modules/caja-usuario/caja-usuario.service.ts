import {
  addDays,
  CAJA_HEADERS,
  cajaMessages,
  formatMoney,
  type ListPage,
  type MovimientoCaja,
  type MovimientoCajaCreate,
  type MovimientoCajaListItem,
  type MovimientoCajaListQuery,
  type MovimientoCajaUpdate,
  madridStartOfDay,
  uploadIdOf,
  uploadReference,
} from '@vb/shared'
import { eq, type SQL, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { cajaUsuario } from '../../db/schema'
import type { AppDeps } from '../../deps'
import type { Actor } from '../../lib/actor'
import type { WriteContext } from '../../lib/crud-routes'
import type { FileStore } from '../../lib/files'
import {
  boundedTotal,
  checkVersion,
  lockRow,
  logChange,
  nextVersion,
  notFound,
  orUnchanged,
  pageWindow,
  sameRecord,
  Unchanged,
  where,
} from '../../lib/records'
import { scopeFor } from '../../lib/scope'
import {
  archivoOf,
  attachUpload,
  deleteUploadRows,
  discardFiles,
  type UploadRow,
  uploadOf,
  uploadsOf,
} from '../uploads/uploads.service'
import { titularOf, titularWhere, type UsuarioTitular } from '../usuarios/usuarios.service'

type Row = typeof cajaUsuario.$inferSelect
const RESOURCE = 'caja-usuario'

/** Row and its receipt → SPEC §3 Cash movement; `cantidad` stays the decimal string PostgreSQL gave (A6). */
export function toMovimiento(files: FileStore, actor: Actor, row: Row, upload: UploadRow | null | undefined): MovimientoCaja {
  return {
    id: row.id,
    concepto: row.concepto,
    cantidad: row.cantidad,
    fecha: row.fecha.toISOString(),
    usuarioId: row.usuarioId,
    updatedAt: row.updatedAt.toISOString(),
    justificanteUrl: upload ? uploadReference(upload.id) : null,
    justificante: upload ? archivoOf(files, actor, upload) : null,
  }
}

/** What the log keeps of a movement (L3): enough to rebuild the ledger at any date. */
function forLog(row: Row, upload: UploadRow | null | undefined) {
  return {
    id: row.id,
    concepto: row.concepto,
    cantidad: row.cantidad,
    fecha: row.fecha.toISOString(),
    usuarioId: row.usuarioId,
    justificante: upload
      ? { url: uploadReference(upload.id), nombre: upload.nombreOriginal, mime: upload.mime, sha256: upload.sha256 }
      : null,
  }
}

const nombreDe = (u: UsuarioTitular) => `${u.nombre} ${u.apellidos}`
const pantalla = (u: UsuarioTitular) => `/caja/${u.nif}`

/** [from, to) instants of a range of Madrid days (either end open). */
export function rangeOf(query: { desde?: string; hasta?: string }): { from: Date | null; to: Date | null } {
  return {
    from: query.desde ? madridStartOfDay(query.desde) : null,
    to: query.hasta ? madridStartOfDay(addDays(query.hasta, 1)) : null,
  }
}

interface LedgerRow {
  id: number | null
  concepto: string | null
  cantidad: string | null
  fecha: Date | string | null
  usuario_id: number | null
  updated_at: Date | string | null
  saldo_fila: string | null
  total: string
  saldo: string
  saldo_inicial: string
  saldo_final: string
  up_id: string | null
  up_nombre: string | null
  up_mime: string | null
  up_tamano: number | null
  up_sha256: string | null
  up_trabajador: number | null
  up_created: Date | string | null
}

/** The receipt columns of a ledger row, as an upload row. */
function receiptOf(r: LedgerRow): UploadRow | null {
  if (!r.up_id) return null
  return {
    id: r.up_id,
    nombreOriginal: r.up_nombre as string,
    mime: r.up_mime as string,
    tamano: Number(r.up_tamano),
    sha256: r.up_sha256 as string,
    trabajadorId: r.up_trabajador,
    documentoId: null,
    movimientoId: Number(r.id),
    fotoTrabajadorId: null,
    presupuestoId: null,
    createdAt: asDate(r.up_created as Date),
  }
}

const asDate = (v: Date | string) => (v instanceof Date ? v : new Date(v))

/**
 * One resident's ledger page in one statement (DECISIONS A6, D7, D13): the resident (`titular`: a condition
 * on `usuarios` naming one, with the worker's scope), the page (newest first by default),
 * its exact count, the whole balance, the balances before and at the end of the range, and each row's
 * running balance — all summed by PostgreSQL as numeric and returned as decimal strings.
 *
 * The running balance never needs the whole ledger for a first page: in newest-first order, a row's
 * balance is the whole balance minus what came after it, and what came after the page's newest row is a
 * short index range (nothing, on the first page without `hasta`); oldest-first, it is what came before the
 * page's oldest row. Every part reads caja_usuario_ledger_idx (usuario_id, fecha, id, cantidad) only; the
 * page's receipts come in the same statement.
 */
export function ledgerSql(
  titular: SQL,
  range: { from: Date | null; to: Date | null },
  order: 'asc' | 'desc',
  page: { limit: number; offset: number },
): SQL {
  const inRange = sql.join(
    [sql`true`, ...(range.from ? [sql`fecha >= ${range.from}`] : []), ...(range.to ? [sql`fecha < ${range.to}`] : [])],
    sql` and `,
  )
  const dir = order === 'asc' ? sql`asc` : sql`desc`
  const before = range.from ? sql`coalesce(sum(cantidad) filter (where fecha < ${range.from}), 0)` : sql`0`
  const upTo = range.to ? sql`coalesce(sum(cantidad) filter (where fecha < ${range.to}), 0)` : sql`coalesce(sum(cantidad), 0)`
  const running =
    order === 'asc'
      ? sql`edge.s + sum(page.cantidad) over (order by page.fecha asc, page.id asc rows between unbounded preceding and current row)`
      : sql`totals.saldo - edge.s - coalesce(sum(page.cantidad) over (order by page.fecha desc, page.id desc rows between unbounded preceding and 1 preceding), 0)`
  const edge =
    order === 'asc'
      ? sql`(caja_usuario.fecha, caja_usuario.id) < (select p.fecha, p.id from page p order by p.fecha asc, p.id asc limit 1)`
      : sql`(caja_usuario.fecha, caja_usuario.id) > (select p.fecha, p.id from page p order by p.fecha desc, p.id desc limit 1)`
  return sql`
    with titular as (select usuarios.id from usuarios where ${titular}),
    totals as (
      select count(*) filter (where ${inRange}) as total,
             coalesce(sum(cantidad), 0)::numeric(20, 2) as saldo,
             (${before})::numeric(20, 2) as saldo_inicial,
             (${upTo})::numeric(20, 2) as saldo_final
        from caja_usuario
       where usuario_id = (select id from titular)
    ),
    page as (
      select caja_usuario.id, concepto, cantidad, fecha, usuario_id, updated_at
        from caja_usuario
       where usuario_id = (select id from titular) and ${inRange}
       order by fecha ${dir}, caja_usuario.id ${dir}
       limit ${page.limit} offset ${page.offset}
    ),
    edge as (
      select coalesce(sum(cantidad), 0) as s from caja_usuario where usuario_id = (select id from titular) and ${edge}
    )
    select page.id, page.concepto, page.cantidad, page.fecha, page.usuario_id, page.updated_at,
           (${running})::numeric(20, 2) as saldo_fila,
           totals.total, totals.saldo, totals.saldo_inicial, totals.saldo_final,
           up.id as up_id, up.nombre_original as up_nombre, up.mime as up_mime, up.tamano as up_tamano,
           up.sha256 as up_sha256, up.trabajador_id as up_trabajador, up.created_at as up_created
      from titular cross join totals cross join edge left join page on true
      left join uploads up on up.movimiento_id = page.id
     order by page.fecha ${dir}, page.id ${dir}`
}

/**
 * GET /caja-usuario (SPEC §2.15, §7; DECISIONS A4, A6, D7): with `usuarioId` or `nif`, that resident's
 * ledger (another company's resident, or none: 404), newest first by default, between `desde` and `hasta`,
 * paged, each row with its running balance (`saldo`); the headers carry the whole balance (X-Saldo), the
 * balance before the range (X-Saldo-Inicial) and at its end (X-Saldo-Final). Without a resident, the
 * movements of every resident the worker reaches (each row's balance is its own resident's).
 */
export async function listMovimientos(
  deps: AppDeps,
  actor: Actor,
  query: MovimientoCajaListQuery,
): Promise<ListPage<MovimientoCajaListItem>> {
  const scope = scopeFor(actor, RESOURCE, 'list')
  const range = rangeOf(query)
  const order = query.order ?? 'desc'
  const window = pageWindow(query)
  if (query.usuarioId === undefined && query.nif === undefined) return listAll(deps, actor, scope, range, order, window)

  // The resident (by id or NIF, under the worker's scope) is found in the ledger statement itself: one
  // round trip for the whole page. No row: none, or another company's (404, SPEC §8's message by NIF).
  const titular = titularWhere(actor, { id: query.usuarioId, nif: query.nif })
  const { rows } = (await deps.db.execute(ledgerSql(titular.condition, range, order, window))) as unknown as {
    rows: LedgerRow[]
  }
  const head = rows[0]
  if (!head) throw notFound(titular.missing)
  const items = rows
    .filter((r) => r.id !== null)
    .map((r) => ({
      ...toMovimiento(
        deps.files,
        actor,
        {
          id: Number(r.id),
          concepto: r.concepto as string,
          cantidad: r.cantidad as string,
          fecha: asDate(r.fecha as Date),
          usuarioId: Number(r.usuario_id),
          updatedAt: asDate(r.updated_at as Date),
          createdAt: asDate(r.updated_at as Date),
        },
        receiptOf(r),
      ),
      saldo: r.saldo_fila as string,
    }))
  return {
    items,
    total: Number(head.total),
    exact: true,
    headers: {
      [CAJA_HEADERS.saldo]: head.saldo,
      [CAJA_HEADERS.saldoInicial]: head.saldo_inicial,
      [CAJA_HEADERS.saldoFinal]: head.saldo_final,
    },
  }
}

/** Every reachable movement (no resident named): bounded total, each row's balance within its resident. */
async function listAll(
  deps: AppDeps,
  actor: Actor,
  scope: SQL | undefined,
  range: { from: Date | null; to: Date | null },
  order: 'asc' | 'desc',
  window: { limit: number; offset: number },
): Promise<ListPage<MovimientoCajaListItem>> {
  const condition = where(
    scope,
    range.from ? sql`${cajaUsuario.fecha} >= ${range.from}` : undefined,
    range.to ? sql`${cajaUsuario.fecha} < ${range.to}` : undefined,
  )
  const dir = order === 'asc' ? sql`asc` : sql`desc`
  const [rows, total] = await Promise.all([
    deps.db
      .select({
        movimiento: cajaUsuario,
        saldo: sql<string>`(select sum(c.cantidad) from caja_usuario c where c.usuario_id = ${cajaUsuario.usuarioId} and (c.fecha, c.id) <= (${cajaUsuario.fecha}, ${cajaUsuario.id}))::numeric(20, 2)`,
      })
      .from(cajaUsuario)
      .where(condition)
      .orderBy(sql`${cajaUsuario.fecha} ${dir}`, sql`${cajaUsuario.id} ${dir}`)
      .limit(window.limit)
      .offset(window.offset),
    boundedTotal(deps.db, cajaUsuario, condition),
  ])
  const receipts = await uploadsOf(
    deps.db,
    'movimientoId',
    rows.map((r) => r.movimiento.id),
  )
  return {
    items: rows.map((r) => ({ ...toMovimiento(deps.files, actor, r.movimiento, receipts.get(r.movimiento.id)), saldo: r.saldo })),
    ...total,
  }
}

export async function getMovimiento(deps: AppDeps, actor: Actor, id: number): Promise<MovimientoCaja> {
  const [row] = await deps.db
    .select()
    .from(cajaUsuario)
    .where(where(eq(cajaUsuario.id, id), scopeFor(actor, RESOURCE, 'list')))
  if (!row) throw notFound(cajaMessages.noEncontrado)
  return toMovimiento(deps.files, actor, row, await uploadOf(deps.db, { movimientoId: id }))
}

/** Resident, then movement (one lock order for every writer of a resident's records; see documents). */
async function lockMovimiento(tx: Tx, actor: Actor, id: number, action: 'update' | 'delete') {
  const scope = scopeFor(actor, RESOURCE, action)
  const [peek] = await tx
    .select({ usuarioId: cajaUsuario.usuarioId })
    .from(cajaUsuario)
    .where(where(eq(cajaUsuario.id, id), scope))
  if (!peek) throw notFound(cajaMessages.noEncontrado)
  const titular = await titularOf(tx, actor, RESOURCE, action, { id: peek.usuarioId }, { lock: 'no key update' })
  const row = await lockRow(tx, cajaUsuario, id, scope, cajaMessages.noEncontrado)
  return { titular, row, upload: await uploadOf(tx, { movimientoId: id }) }
}

const describe = (row: Row, titular: UsuarioTitular) => `${row.concepto} (${formatMoney(row.cantidad)}) de ${nombreDe(titular)}`

/**
 * POST /caja-usuario (SPEC §5, §7; DECISIONS A6, L1, L3): exact amount, optional receipt, logged in the same
 * transaction. The resident is held shared: several movements of one resident entered at once do not queue
 * (no rule spans them), while an edit or the deletion of the resident waits for them.
 */
export async function createMovimiento(deps: AppDeps, actor: Actor, input: MovimientoCajaCreate): Promise<MovimientoCaja> {
  scopeFor(actor, RESOURCE, 'create')
  return deps.db.transaction(async (tx) => {
    const titular = await titularOf(tx, actor, RESOURCE, 'create', { id: input.usuarioId }, { lock: 'share' })
    const now = deps.clock.now()
    const [inserted] = await tx
      .insert(cajaUsuario)
      .values({
        concepto: input.concepto,
        cantidad: input.cantidad,
        fecha: new Date(input.fecha),
        usuarioId: titular.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
    const row = inserted as Row
    const upload = input.justificanteUrl
      ? await attachUpload(tx, actor, input.justificanteUrl, { movimientoId: row.id }, 'justificanteUrl')
      : null
    await logChange(tx, actor, {
      accion: 'Crear movimiento de caja',
      url: pantalla(titular),
      cambio: 'create',
      descripcion: `Movimiento creado: ${describe(row, titular)}`,
      vivienda: titular.vivienda,
      usuarioId: titular.id,
      despues: forLog(row, upload),
    })
    return toMovimiento(deps.files, actor, row, upload)
  })
}

/**
 * PATCH /caja-usuario/:id: only the fields sent change. Two people editing one movement: the version the
 * client read (If-Match, or `updatedAt` in the body) must still be the row's, or 409 with
 * 'El movimiento ha cambiado…'; a call without a version is accepted (SPEC's plain PATCH). The log keeps
 * the values before and after (L3).
 */
export async function updateMovimiento(
  deps: AppDeps,
  actor: Actor,
  id: number,
  input: MovimientoCajaUpdate,
  context: WriteContext,
): Promise<MovimientoCaja> {
  const discarded: string[] = []
  const result = await orUnchanged(
    deps.db.transaction(async (tx) => {
      const { titular, row, upload } = await lockMovimiento(tx, actor, id, 'update')
      checkVersion(row.updatedAt, [context.ifMatch, input.updatedAt], cajaMessages.cambiado)
      let nextUpload: UploadRow | null | undefined = upload
      if (input.justificanteUrl !== undefined) {
        const uploadId = input.justificanteUrl ? uploadIdOf(input.justificanteUrl) : null
        if (!(uploadId && upload?.id === uploadId)) {
          if (upload) {
            await deleteUploadRows(tx, [upload.id])
            discarded.push(upload.id)
          }
          nextUpload = input.justificanteUrl
            ? await attachUpload(tx, actor, input.justificanteUrl, { movimientoId: id }, 'justificanteUrl')
            : null
        }
      }
      const [updated] = await tx
        .update(cajaUsuario)
        .set({
          ...(input.concepto !== undefined ? { concepto: input.concepto } : {}),
          ...(input.cantidad !== undefined ? { cantidad: input.cantidad } : {}),
          ...(input.fecha !== undefined ? { fecha: new Date(input.fecha) } : {}),
          updatedAt: nextVersion(deps.clock, row.updatedAt),
        })
        .where(eq(cajaUsuario.id, id))
        .returning()
      const after = updated as Row
      // Saved as it was (a form sent back untouched): nothing to log, and no new version for other editors.
      if (sameRecord(forLog(row, upload), forLog(after, nextUpload)))
        throw new Unchanged(toMovimiento(deps.files, actor, row, upload))
      await logChange(tx, actor, {
        accion: 'Modificar movimiento de caja',
        url: pantalla(titular),
        cambio: 'update',
        descripcion: `Movimiento modificado: ${describe(after, titular)} (antes: ${describe(row, titular)})`,
        vivienda: titular.vivienda,
        usuarioId: titular.id,
        antes: forLog(row, upload),
        despues: forLog(after, nextUpload),
      })
      return toMovimiento(deps.files, actor, after, nextUpload)
    }),
    discarded,
  )
  await discardFiles(deps, discarded)
  return result
}

/** DELETE /caja-usuario/:id: no version needed; logged with the values it had (L3); its receipt goes too. */
export async function removeMovimiento(deps: AppDeps, actor: Actor, id: number, context: WriteContext): Promise<void> {
  const discarded = await deps.db.transaction(async (tx) => {
    const { titular, row, upload } = await lockMovimiento(tx, actor, id, 'delete')
    checkVersion(row.updatedAt, [context.ifMatch], cajaMessages.cambiado)
    await tx.delete(cajaUsuario).where(eq(cajaUsuario.id, id))
    await logChange(tx, actor, {
      accion: 'Eliminar movimiento de caja',
      url: pantalla(titular),
      cambio: 'delete',
      descripcion: `Movimiento eliminado: ${describe(row, titular)}`,
      vivienda: titular.vivienda,
      usuarioId: titular.id,
      antes: forLog(row, upload),
    })
    return upload ? [upload.id] : []
  })
  await discardFiles(deps, discarded)
}
