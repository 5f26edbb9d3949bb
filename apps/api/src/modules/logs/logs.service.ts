import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  AppError,
  addDays,
  formatDateTimeSeconds,
  LOG_CSV_HEADERS,
  type Log,
  type LogCreate,
  type LogCsvQuery,
  type LogListItem,
  type LogListQuery,
  type LogTipo,
  logMessages,
  madridStartOfDay,
} from '@vb/shared'
import { stringify } from 'csv-stringify'
import { and, eq, getTableColumns, gte, lt, sql } from 'drizzle-orm'
import type pg from 'pg'
import QueryStream from 'pg-query-stream'
import { logs, viviendas } from '../../db/schema'
import type { AppDeps } from '../../deps'
import type { Actor } from '../../lib/actor'
import { logChange, notFound, where } from '../../lib/records'
import { defineList } from '../../lib/resource'
import { authorize, resourceRules, scopeFor } from '../../lib/scope'

/** What an entry is read with: every column but the stored search text, which only the WHERE needs. */
const { busqueda: _busqueda, ...logColumns } = getTableColumns(logs)
type Row = Omit<typeof logs.$inferSelect, 'busqueda'>

/**
 * What a list page reads of an entry: the values before and after stay in the table (the entry's own call gives
 * them), only whether there are any is read.
 */
const { datos: _datos, ...entryColumns } = logColumns
const listColumns = { ...entryColumns, cambios: sql<boolean>`${logs.datos} is not null` }
type ListRow = Omit<Row, 'datos'> & { cambios: boolean }

/**
 * Row → a list's entry: the worker and home with the names kept when it was written (DECISIONS L2). The worker's
 * given name and surnames apart (SPEC §3); an entry written before they were kept apart has the whole name in
 * `nombre` and empty `apellidos`.
 */
export function toLogItem(row: ListRow): LogListItem {
  return {
    id: row.id,
    fecha: row.fecha.toISOString(),
    trabajadorId: row.trabajadorId,
    trabajador:
      row.trabajadorId === null
        ? null
        : {
            id: row.trabajadorId,
            nombre: row.trabajadorNombre ?? row.trabajadorEmail ?? `Trabajador ${row.trabajadorId}`,
            apellidos: row.trabajadorNombre === null ? '' : (row.trabajadorApellidos ?? ''),
            email: row.trabajadorEmail,
          },
    accion: row.accion,
    url: row.url,
    viviendaId: row.viviendaId,
    vivienda: row.viviendaId === null ? null : { id: row.viviendaId, nombre: row.viviendaNombre ?? `Vivienda ${row.viviendaId}` },
    usuarioId: row.usuarioId,
    tipo: row.tipo as LogTipo,
    descripcion: row.descripcion,
    cambios: row.cambios,
  }
}

/** Row → SPEC §3 Log entry with its values before and after a change (L3). */
export function toLog(row: Row): Log {
  const datos = (row.datos ?? {}) as { antes?: unknown; despues?: unknown }
  const { cambios: _cambios, ...entry } = toLogItem({ ...row, cambios: row.datos !== null })
  return { ...entry, antes: datos.antes ?? null, despues: datos.despues ?? null }
}

/** The instant a Madrid day starts, and the next day's start (a day filter is [start, next)). */
const dayStart = (day: string) => madridStartOfDay(day)
const nextDayStart = (day: string) => madridStartOfDay(addDays(day, 1))

/**
 * SPEC §2.11, DECISIONS P1: the access log. SUPERADMIN reads every entry; ADMIN the entries of workers who
 * share a company with it (lib/scope.ts); EMPLEADO nothing (403). Filtered by day or range of days (Europe/
 * Madrid), worker, home, type and free text over acción and descripción, newest first, paged with a
 * bounded total (DECISIONS D13): a day's first page of a million entries is an index range scan of
 * logs_fecha_idx.
 */
export const logsList = defineList<typeof logs, LogListQuery, ListRow, LogListItem>({
  name: 'logs',
  table: logs,
  read: (db) => db.select(listColumns).from(logs),
  toItem: (row: ListRow) => toLogItem(row),
  search: logs.busqueda,
  sort: { fecha: logs.fecha },
  defaultOrder: 'desc',
  filters: {
    fecha: (day: string) => and(gte(logs.fecha, dayStart(day)), lt(logs.fecha, nextDayStart(day))),
    desde: (day: string) => gte(logs.fecha, dayStart(day)),
    hasta: (day: string) => lt(logs.fecha, nextDayStart(day)),
    trabajadorId: (id: number) => eq(logs.trabajadorId, id),
    viviendaId: (id: number) => eq(logs.viviendaId, id),
    tipo: (tipo: LogTipo) => eq(logs.tipo, tipo),
  },
})

/**
 * GET /api/logs/:id: an entry opened, with its values before and after. Whom the list shows it to sees it (the
 * list's scope, lib/scope.ts); anyone else gets 404, as for an entry that does not exist.
 */
export async function getLog(deps: AppDeps, actor: Actor, id: number): Promise<Log> {
  const scope = scopeFor(actor, 'logs', 'list')
  const [row] = await deps.db
    .select(logColumns)
    .from(logs)
    .where(where(eq(logs.id, id), scope))
  if (!row) throw notFound(logMessages.noEncontrado)
  return toLog(row)
}

/**
 * POST /api/logs (DECISIONS L1): a client event (opening a statement…). The entry's worker is always the
 * caller and its time the server's; a home outside the caller's companies answers 404 as if it did not
 * exist, and the home's name is kept beside its id (L2).
 */
export async function createLog(deps: AppDeps, actor: Actor, input: LogCreate): Promise<Log> {
  authorize(actor, 'logs', 'create')
  return deps.db.transaction(async (tx) => {
    let vivienda: { id: number; nombre: string } | null = null
    if (input.viviendaId) {
      const [found] = await tx
        .select({ id: viviendas.id, nombre: viviendas.nombre })
        .from(viviendas)
        .where(where(eq(viviendas.id, input.viviendaId), resourceRules.viviendas.visible(actor)))
      if (!found) throw new AppError('NOT_FOUND', logMessages.viviendaNoEncontrada)
      vivienda = found
    }
    const id = await logChange(tx, actor, {
      accion: input.accion,
      url: input.url,
      cambio: input.tipo,
      descripcion: input.descripcion,
      vivienda,
    })
    const [row] = await tx.select().from(logs).where(eq(logs.id, id))
    return toLog(row as Row)
  })
}

/**
 * A CSV value a spreadsheet must never run as a formula (OWASP CSV injection): one that starts with =, +,
 * -, @, a tab or a carriage return is prefixed with an apostrophe, which spreadsheets show as text.
 */
export function neutralised(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
}

/** Rows streamed from the database cursor at a time. */
const CURSOR_BATCH = 1000
/** An export holds its connection this long at most (the pool's statement timeout is for one request). */
const EXPORT_TIMEOUT_MS = 30 * 60_000

/** What the CSV reads of each entry, in SPEC §2.11's column order (rows come as arrays in this order). */
const csvColumns = {
  fecha: logs.fecha,
  // The whole name (an entry written before migration 0019 holds it all in trabajador_nombre), or the e-mail.
  trabajador: sql<
    string | null
  >`coalesce(nullif(concat_ws(' ', ${logs.trabajadorNombre}, ${logs.trabajadorApellidos}), ''), ${logs.trabajadorEmail})`,
  accion: logs.accion,
  url: logs.url,
  vivienda: logs.viviendaNombre,
}

/** A human summary of the filters of an export, for its log entry. */
function describeFilters(query: LogCsvQuery): string {
  const parts = Object.entries(query)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${v}`)
  return parts.length ? parts.join(', ') : 'sin filtros'
}

/**
 * GET /api/logs/csv (SPEC §2.11 'Descargar', built by the server): every entry that matches the filters, in
 * the list's order, as `logs.csv`: `;`-separated, every value quoted, headers Fecha, Trabajador, Accion, URL,
 * Vivienda, es-ES dates in Madrid time, a UTF-8 BOM so that Spanish Excel reads the accents, and no value a
 * spreadsheet would run as a formula. The rows come from a database cursor through csv-stringify with
 * back-pressure, so memory stays flat whatever the size. The download itself is logged first.
 */
export async function exportLogsCsv(deps: AppDeps, actor: Actor, query: LogCsvQuery): Promise<NodeJS.ReadableStream> {
  const { where: condition, orderBy } = logsList.statement(actor, query)
  await logChange(deps.db, actor, {
    accion: 'Descargar logs',
    url: '/logs',
    cambio: 'info',
    descripcion: `Exportación CSV del registro de actividad (${describeFilters(query)})`,
  })
  const { sql: text, params } = deps.db
    .select(csvColumns)
    .from(logs)
    .where(condition)
    .orderBy(...orderBy)
    .toSQL()

  const pool = (deps.db as unknown as { $client: pg.Pool }).$client
  const client = await pool.connect()
  let released = false
  const release = (err?: Error) => {
    if (released) return
    released = true
    // A connection left mid-cursor or mid-transaction is not reused.
    client.release(err ?? false)
  }
  let cursor: QueryStream
  try {
    // One read-only transaction: one snapshot for the whole file, and the pool's statement timeout (which a
    // cursor's fetches all count against) replaced by the export's own limit.
    await client.query('begin transaction read only')
    await client.query(`set local statement_timeout = ${EXPORT_TIMEOUT_MS}`)
    cursor = new QueryStream(text, params, { batchSize: CURSOR_BATCH, highWaterMark: CURSOR_BATCH, rowMode: 'array' })
    // The pool's per-query client timeout would cut a long export too.
    Object.assign(cursor, { query_timeout: EXPORT_TIMEOUT_MS + 60_000 })
    client.query(cursor)
  } catch (err) {
    release(err as Error)
    throw err
  }

  const toRecord = new Transform({
    objectMode: true,
    transform([fecha, trabajador, accion, url, vivienda]: [Date, string | null, string, string, string | null], _enc, done) {
      done(null, [formatDateTimeSeconds(fecha), trabajador ?? '', accion, url, vivienda ?? ''])
    },
  })
  const csv = stringify({
    bom: true,
    delimiter: ';',
    quoted: true,
    quoted_empty: true,
    record_delimiter: '\r\n',
    header: true,
    columns: [...LOG_CSV_HEADERS],
    cast: { string: neutralised },
  })
  pipeline(cursor, toRecord, csv)
    .then(() => client.query('commit'))
    .then(() => release())
    .catch((err: Error) => {
      deps.log.warn({ err }, 'logs CSV export ended early')
      release(err)
    })
  return csv
}
