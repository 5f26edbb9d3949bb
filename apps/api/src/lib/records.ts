import { AppError, deepestPage, type ListPage, type logTipoPorCambio, MAX_EXACT_TOTAL, PAGE_MESSAGE } from '@vb/shared'
import { and, count, eq, getTableName, type SQL, sql } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { DbOrTx, Tx } from '../db/client'
import { logs } from '../db/schema'
import type { Actor } from './actor'
import type { Clock } from './clock'
import { cachedCount } from './count-cache'
import { renderCondition } from './select-rows'

/**
 * The helpers every service repeats (docs/adding-a-resource.md): a bounded total for a list
 * page, the row lock of a read-check-write, not-found, unique-violation to 409, and the log entry with its
 * before and after.
 */

export const notFound = (message: string) => new AppError('NOT_FOUND', message)

/** A table with an integer `id` primary key. */
type TableWithId = PgTable & { id: PgColumn }

/** AND of the conditions that are set (scope, filters, search). */
export function where(...conditions: Array<SQL | undefined>): SQL | undefined {
  const set = conditions.filter((c): c is SQL => c !== undefined)
  return set.length ? and(...set) : undefined
}

/**
 * DECISIONS D13: the total of a list, exact up to MAX_EXACT_TOTAL rows; beyond that the count stops and
 * the list says 'Más de 10.000'. Never counts a whole large table to show one page. Kept a few seconds in
 * the count cache (lib/count-cache.ts), dropped by any write; the rows of a page are always read fresh.
 */
export async function boundedTotal(
  db: DbOrTx,
  from: PgTable,
  condition: SQL | undefined,
): Promise<{ total: number; exact: boolean }> {
  return cachedCount(db, boundedTotalKey(from, condition), () => freshBoundedTotal(db, from, condition))
}

/**
 * boundedTotal counted now, never from the cache: for a list kept live by something other than this
 * process's write requests (the bell, which the notification stream refreshes when the daily jobs or another
 * process create a notification).
 */
export async function freshBoundedTotal(
  db: DbOrTx,
  from: PgTable,
  condition: SQL | undefined,
): Promise<{ total: number; exact: boolean }> {
  const [row] = await cappedCount(db, from, condition)
  return cappedTotal(Number(row?.n ?? 0))
}

/** The statement boundedTotal runs: counts at most MAX_EXACT_TOTAL + 1 matching rows (a caller may prepare it). */
export function cappedCount(db: DbOrTx, from: PgTable, condition: SQL | undefined) {
  const capped = db
    .select({ one: sql`1` })
    .from(from)
    .where(condition)
    .limit(MAX_EXACT_TOTAL + 1)
    .as('capped')
  return db.select({ n: count() }).from(capped)
}

/** A count of at most MAX_EXACT_TOTAL + 1 rows as the list's total (D13). */
export const cappedTotal = (n: number) =>
  n > MAX_EXACT_TOTAL ? { total: MAX_EXACT_TOTAL, exact: false } : { total: n, exact: true }

/**
 * The count cache's key of boundedTotal(db, from, condition): the table and the condition's SQL and parameters
 * (the worker's scope is among them). A caller that counts the same rows another way (in one statement with
 * its page) reads and fills the same entry (countSlot).
 */
export function boundedTotalKey(from: PgTable, condition: SQL | undefined): string {
  // The condition only (a kept total is found without building its statement), rendered once for the page too.
  const { sql: text, params } = condition ? renderCondition(condition) : { sql: '', params: [] }
  return `total\u0000${getTableName(from)}\u0000${text}\u0000${JSON.stringify(params)}`
}

/** One page and its bounded total (boundedTotal), fetched together. */
export async function listPage<T>(
  db: DbOrTx,
  rows: Promise<T[]>,
  count: { from: PgTable; where: SQL | undefined },
): Promise<ListPage<T>> {
  const [items, { total, exact }] = await Promise.all([rows, boundedTotal(db, count.from, count.where)])
  return { items, total, exact }
}

/** OFFSET and LIMIT of a page (page from 1); a page deeper than MAX_LIST_OFFSET rows is a 400 on `page`. */
export function pageWindow(query: { page: number; pageSize: number }): { limit: number; offset: number } {
  if (query.page > deepestPage(query.pageSize)) throw new AppError('VALIDATION_FAILED', PAGE_MESSAGE, { page: PAGE_MESSAGE })
  return { limit: query.pageSize, offset: (query.page - 1) * query.pageSize }
}

/**
 * Lock before you look (CONTRIBUTING.md, habits every write keeps): inside the transaction, takes the record's own
 * row with SELECT … FOR UPDATE under the worker's scope condition, or answers 404. A concurrent writer of
 * the same row waits here, then reads what the first one committed; the log's "before" is this row.
 */
export async function lockRow<T extends TableWithId>(
  tx: Tx,
  table: T,
  id: number,
  scope: SQL | undefined,
  message: string,
): Promise<T['$inferSelect']> {
  const rows = await tx
    .select()
    .from(table as PgTable)
    .where(where(eq(table.id, id), scope))
    .for('update')
  const row = rows[0]
  if (!row) throw notFound(message)
  return row as T['$inferSelect']
}

/**
 * An edit that left its record as it was (a form saved untouched), carrying the record as it is: thrown inside
 * the edit's transaction, it rolls the edit back, so nothing is logged and the version others hold stays valid.
 */
export class Unchanged<T> {
  constructor(readonly record: T) {}
}

/**
 * Whether two readings of a record show the same, its version (`updatedAt`) aside, and its files by which upload
 * they are: a signed link (lib/files.ts: `/api/uploads/{id}/contenido?…`, and its expiry `caduca`) is signed again
 * at each reading, and the second of its expiry may tick between the two readings of one edit.
 */
export function sameRecord(a: unknown, b: unknown): boolean {
  const text = (e: unknown) =>
    JSON.stringify(e, (key, value) => {
      if (key === 'updatedAt' || key === 'caduca') return undefined
      if (typeof value === 'string' && value.startsWith('/api/uploads/')) return value.split('?')[0]
      return value
    })
  return text(a) === text(b)
}

/**
 * An edit's answer: its record, or the one an `Unchanged` carried. Then its transaction rolled back, and the files
 * it would have replaced (`discarded`) stay.
 */
export async function orUnchanged<T>(edit: Promise<T>, discarded: string[]): Promise<T> {
  try {
    return await edit
  } catch (err) {
    if (!(err instanceof Unchanged)) throw err
    discarded.length = 0
    return err.record as T
  }
}

/**
 * Stale edits (CONTRIBUTING.md, habits; DECISIONS L3): the version a client read is the row's `updatedAt` as the API
 * shows it (an ISO instant to the millisecond). It may come in If-Match (bare, quoted as an ETag, or weak
 * `W/"…"`) and/or in the body; each one sent must equal the locked row's, otherwise 409 with `message`. A
 * call that sends none, or `If-Match: *`, is accepted (SPEC's plain PATCH).
 */
export function checkVersion(current: Date, sent: ReadonlyArray<string | undefined>, message: string): void {
  for (const version of sent) {
    if (version === undefined) continue
    const bare = version
      .trim()
      .replace(/^W\//, '')
      .replace(/^"(.*)"$/, '$1')
    if (bare === '*') continue
    if (Date.parse(bare) !== current.getTime()) throw new AppError('CONFLICT', message)
  }
}

/**
 * The `updatedAt` a write sets: now, and always at least a millisecond after the version it replaces, so
 * every write changes the version a client can hold (with a fixed clock, or two writes in one millisecond).
 */
export function nextVersion(clock: Clock, previous: Date): Date {
  return new Date(Math.max(clock.now().getTime(), previous.getTime() + 1))
}

/** The fields a PATCH sent: an absent (undefined) field is left as it is, never overwritten. */
export function sent<T extends Record<string, unknown>>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>
}

/** A PostgreSQL error code through Drizzle's wrapping (the driver error is the cause). */
export function pgError(err: unknown): { code?: string; constraint?: string } {
  let e: unknown = err
  for (let i = 0; i < 5 && e; i++) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown }
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return { code, constraint: typeof constraint === 'string' ? constraint : undefined }
    }
    e = (e as { cause?: unknown }).cause
  }
  return {}
}

/**
 * A unique index settles a race that a check-then-insert cannot: when `work` loses on `constraint`, the
 * caller's 409 is thrown instead of the driver error.
 */
export async function onUniqueViolation<T>(work: () => Promise<T>, constraint: string, conflict: () => AppError): Promise<T> {
  try {
    return await work()
  } catch (err) {
    const { code, constraint: name } = pgError(err)
    if (code === '23505' && (name === undefined || name === constraint)) throw conflict()
    throw err
  }
}

export interface Change {
  /** The action as the logs screen shows it, e.g. 'Modificar vivienda'. */
  accion: string
  /** The screen the change was made from (SPEC §7 logs: url). */
  url: string
  cambio: keyof typeof logTipoPorCambio | 'info' | 'warning' | 'error' | 'success'
  descripcion: string
  /** DECISIONS L1: the home the change concerns, with its name kept for after a deletion (L2). */
  vivienda?: { id: number; nombre: string } | null
  usuarioId?: number | null
  /** DECISIONS L3: values before and after. */
  antes?: unknown
  despues?: unknown
}

const tipoPorCambio = { create: 'success', update: 'warning', delete: 'error' } as const

/** Who wrote a log entry: a worker (its name kept beside its id, L2), or nobody (a failed login for an unknown e-mail). */
export type LogActor = Pick<Actor, 'id' | 'email' | 'nombre' | 'apellidos'> | null

/**
 * DECISIONS L1-L3: the server writes the log in the same transaction as the change (pass the `tx`). The
 * entry keeps ids and names, never foreign keys: deleting a worker or a home later rewrites nothing (L2).
 * Returns the entry's id.
 */
export async function logChange(db: DbOrTx, actor: LogActor, change: Change): Promise<number> {
  const tipo = change.cambio in tipoPorCambio ? tipoPorCambio[change.cambio as keyof typeof tipoPorCambio] : change.cambio
  const datos =
    change.antes !== undefined || change.despues !== undefined
      ? {
          ...(change.antes !== undefined ? { antes: change.antes } : {}),
          ...(change.despues !== undefined ? { despues: change.despues } : {}),
        }
      : null
  const [entry] = await db
    .insert(logs)
    .values({
      trabajadorId: actor?.id ?? null,
      trabajadorEmail: actor?.email ?? null,
      trabajadorNombre: actor?.nombre ?? null,
      trabajadorApellidos: actor?.apellidos ?? null,
      accion: change.accion,
      url: change.url,
      tipo,
      descripcion: change.descripcion,
      viviendaId: change.vivienda?.id ?? null,
      viviendaNombre: change.vivienda?.nombre ?? null,
      usuarioId: change.usuarioId ?? null,
      datos,
    })
    .returning({ id: logs.id })
  return (entry as { id: number }).id
}
