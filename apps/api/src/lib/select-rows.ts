import { isDeepStrictEqual } from 'node:util'
import * as drizzle from 'drizzle-orm'
import { type AnyColumn, Column, getTableName, is, Placeholder, SQL, Subquery, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import type { Db, DbOrTx } from '../db/client'

/** Drizzle's own row mapper (exported at run time, left out of its type declarations), for the check below. */
const { mapResultRow } = drizzle as unknown as {
  mapResultRow: (fields: unknown, row: unknown[], joins?: Record<string, boolean>) => Record<string, unknown>
}

/**
 * A page of a list, read as Drizzle reads it but with its rows mapped by a mapper built once per statement.
 *
 * Drizzle maps each row by walking the selection again for every field of every row (which decoder the field
 * has, through its class chain, and a fresh iterator over the field's path): in a CPU profile of the log page
 * under load (50 rows of 15 fields, docs/performance.md) that walk was about a tenth of the server's busy time.
 * Here the statement, its parameters, the driver's type set-up and the client are Drizzle's own (its prepared
 * query, not executed by it); only the mapping is done by `rowMapper`, which gives the very objects
 * `mapResultRow` gives. With `checkRowMapping(true)` (the API tests) every row is mapped both ways and a
 * difference throws.
 */

/** What Drizzle's prepared select (node-postgres) holds; read, not executed by Drizzle. Pinned to drizzle-orm 0.45. */
interface PreparedSelect {
  client: { query: (config: unknown, params: unknown[]) => Promise<{ rows: unknown[][] }> }
  queryConfig: unknown
  params: unknown[]
  fields: Array<{ path: string[]; field: unknown }>
  joinsNotNullableMap?: Record<string, boolean>
}

interface Decoder {
  mapFromDriverValue: (value: unknown) => unknown
}

let checking = false

/** The API tests map every row both ways (ours and Drizzle's) and throw on any difference. */
export function checkRowMapping(on: boolean): void {
  checking = on
}

/** Which decoder a selected field has, as mapResultRow decides it (once per statement instead of per row). */
function decoderOf(field: unknown): Decoder {
  // `decoder` is internal to Drizzle's SQL (its type declarations leave it out).
  const decoder = (sql: unknown) => (sql as { decoder: Decoder }).decoder
  if (is(field, Column)) return field as unknown as Decoder
  if (is(field, SQL)) return decoder(field)
  if (is(field, Subquery)) return decoder((field as unknown as { _: { sql: SQL } })._.sql)
  return decoder((field as { sql: SQL }).sql)
}

/**
 * A row mapper for one selection: the same result as Drizzle's `mapResultRow(fields, row, joinsNotNullableMap)`
 * (nested objects by path; a left-joined table whose fields are all null becomes null).
 */
export function rowMapper(
  fields: PreparedSelect['fields'],
  joinsNotNullableMap?: Record<string, boolean>,
): (row: unknown[]) => Record<string, unknown> {
  const columns = fields.map(({ path, field }) => ({
    path,
    last: path[path.length - 1] as string,
    decoder: decoderOf(field),
    // The joined table a nested column belongs to, for the nulling of a left join's missing row.
    table: joinsNotNullableMap && path.length === 2 && is(field, Column) ? getTableName((field as Column).table) : undefined,
  }))
  const nullable = joinsNotNullableMap !== undefined && columns.some((c) => c.table !== undefined)
  return (row) => {
    const result: Record<string, unknown> = {}
    const nullify: Record<string, string | false> | undefined = nullable ? {} : undefined
    for (let i = 0; i < columns.length; i++) {
      const c = columns[i] as (typeof columns)[number]
      let node = result
      for (let p = 0; p < c.path.length - 1; p++) {
        const chunk = c.path[p] as string
        if (!(chunk in node)) node[chunk] = {}
        node = node[chunk] as Record<string, unknown>
      }
      const raw = row[i]
      const value = raw === null ? null : c.decoder.mapFromDriverValue(raw)
      node[c.last] = value
      if (nullify && c.table !== undefined) {
        const objectName = c.path[0] as string
        if (!(objectName in nullify)) nullify[objectName] = value === null ? c.table : false
        else if (typeof nullify[objectName] === 'string' && nullify[objectName] !== c.table) nullify[objectName] = false
      }
    }
    if (nullify && joinsNotNullableMap) {
      for (const objectName in nullify) {
        const tableName = nullify[objectName]
        if (typeof tableName === 'string' && !joinsNotNullableMap[tableName]) result[objectName] = null
      }
    }
    return result
  }
}

/** The check of the API tests: each row mapped by Drizzle's own mapResultRow must be the same. */
function compareRows(
  rows: unknown[][],
  mapped: unknown[],
  selection: { fields: PreparedSelect['fields']; joinsNotNullableMap?: Record<string, boolean> },
): void {
  for (let i = 0; i < rows.length; i++) {
    const theirs = mapResultRow(selection.fields, rows[i] as unknown[], selection.joinsNotNullableMap)
    if (!isDeepStrictEqual(mapped[i], theirs)) {
      throw new Error(`selectRows: row ${i} mapped differently from Drizzle's mapResultRow`)
    }
  }
}

/** Runs a Drizzle select (a query builder of `db` or of a transaction) and maps its rows with `rowMapper`. */
export async function selectRows<R>(query: PromiseLike<R[]>): Promise<R[]> {
  const prepared = (query as unknown as { _prepare: () => PreparedSelect })._prepare()
  const { rows } = await prepared.client.query(prepared.queryConfig, prepared.params)
  const map = rowMapper(prepared.fields, prepared.joinsNotNullableMap)
  const mapped = rows.map(map)
  if (checking) compareRows(rows, mapped, prepared)
  return mapped as R[]
}

/** A statement's text around its condition, worked out once per shape (see selectShaped). */
interface Template {
  /** The text before the condition (the whole text when there is none). */
  before: string
  /** The text after the condition, split where the values' parameters go. */
  after: string[]
  /** Which value each split of `after` takes. */
  slots: string[]
  fields: PreparedSelect['fields']
  joinsNotNullableMap?: Record<string, boolean>
  /** The driver's type set-up of Drizzle's prepared query (timestamps as text, and so on). */
  types: unknown
  map: (row: unknown[]) => Record<string, unknown>
}

/** Renders conditions as the app's Drizzle does (db/client.ts: snake_case names). */
const conditionDialect = new PgDialect({ casing: 'snake_case' })
const renderedConditions = new WeakMap<SQL, Rendered>()

/** A condition's SQL text and parameters; the caller must not change them (they are kept for the same condition). */
export interface Rendered {
  readonly sql: string
  readonly params: readonly unknown[]
}

/**
 * A condition rendered once: a list's page (selectShaped) and the count cache's key of its total (boundedTotalKey)
 * are given the same condition, built afresh for each request: in a CPU profile of the log's page Drizzle was
 * 14.5 % of the server's JS time when both rendered it, 9.5 % once (docs/performance.md). Kept by the condition
 * object itself, so it goes with it.
 */
export function renderCondition(condition: SQL): Rendered {
  let rendered = renderedConditions.get(condition)
  if (rendered === undefined) {
    rendered = conditionDialect.sqlToQuery(condition)
    renderedConditions.set(condition, rendered)
  }
  return rendered
}

/** The templates by shape: a few per list (its sorts and orders are enums), with and without a condition. */
const templates = new Map<string, Template | null>()
const CONDITION = '/*vb:condicion*/'

/** Tests: whether a shape's statement (with or without a condition) is built once and rendered into (true), run as Drizzle builds it (false), or not met yet. */
export function shapeTemplated(shape: string, withCondition: boolean): boolean | undefined {
  const template = templates.get(`${shape}|${withCondition ? 'where' : 'all'}`)
  return template === undefined ? undefined : template !== null
}

/** The values a shaped statement takes besides its condition (a page's LIMIT and OFFSET, a bound), by name. */
type Values = Record<string, number>
type Slots<V extends Values> = { [K in keyof V]: number | Placeholder }
type ShapedBuild<R, V extends Values> = (condition: SQL | undefined, values: Slots<V>) => PromiseLike<R[]>

interface DrizzleHandle {
  dialect: { sqlToQuery: (s: SQL) => { sql: string; params: unknown[] } }
  session: { client: PreparedSelect['client'] }
}

/** The template of one shape, or null when its text is not one this function can split safely. */
function templateOf<R, V extends Values>(build: ShapedBuild<R, V>, withCondition: boolean, names: string[]): Template | null {
  const placeholders = Object.fromEntries(names.map((name) => [name, sql.placeholder(name)])) as Slots<V>
  const prepared = (
    build(withCondition ? sql.raw(CONDITION) : undefined, placeholders) as unknown as { _prepare: () => PreparedSelect }
  )._prepare()
  const { text, types } = prepared.queryConfig as { text: string; types: unknown }
  // Every parameter must be one of the values, each used once: the condition is the only other source.
  const slotOf = prepared.params.map((p) => (is(p, Placeholder) ? (p as Placeholder).name : undefined))
  if (slotOf.some((name) => name === undefined || !names.includes(name))) return null
  if (new Set(slotOf).size !== slotOf.length) return null
  const at = withCondition ? text.indexOf(CONDITION) : 0
  if (at < 0 || text.indexOf(CONDITION, at + 1) >= 0 || text.slice(0, at).includes('$')) return null
  const tail = withCondition ? text.slice(at + CONDITION.length) : text
  const parts = tail.split(/\$([0-9]+)(?![0-9])/)
  const numbers = parts.filter((_, i) => i % 2 === 1).map(Number)
  // $1, $2, … in order, and no other '$' in the text after the condition.
  if (numbers.length !== slotOf.length || numbers.some((n, i) => n !== i + 1)) return null
  if (tail.split('$').length !== numbers.length + 1) return null
  return {
    before: withCondition ? text.slice(0, at) : '',
    after: parts.filter((_, i) => i % 2 === 0),
    slots: slotOf as string[],
    fields: prepared.fields,
    joinsNotNullableMap: prepared.joinsNotNullableMap,
    types,
    map: rowMapper(prepared.fields, prepared.joinsNotNullableMap),
  }
}

/**
 * A statement that differs between calls only in its condition and some numbers (a page's LIMIT and OFFSET, a
 * bound): the statement is built by Drizzle once per `shape` (say, the list and its sort and order) with a marker
 * for the condition and a placeholder for each of `values`, and each call renders only its condition (the worker's
 * scope, filters, search) into it. In a CPU profile of the residents' page, Drizzle building the whole statement
 * was about a sixth of the server's busy time (a new search's statement, with its two CTEs, about a seventh).
 * `shape` names one statement in the whole process (the kit's lists use `kit:<resource>:…`, a resource's own
 * list its own name), and `build` must give the same statement for the same shape whatever the condition and the
 * values; a statement with parameters outside its condition and values is run as Drizzle builds it. Drizzle
 * leaves out an OFFSET of 0, so a shape that has one gives it as a value only when it is not 0 (selectPage). With
 * `checkRowMapping(true)` (the API tests) each call also builds the statement with Drizzle and throws if the text
 * or the parameters differ.
 */
export async function selectShaped<R, V extends Values>(
  db: DbOrTx,
  shape: string,
  build: ShapedBuild<R, V>,
  condition: SQL | undefined,
  values: V,
): Promise<R[]> {
  const key = `${shape}|${condition ? 'where' : 'all'}`
  let template = templates.get(key)
  if (template === undefined) {
    template = templateOf(build, condition !== undefined, Object.keys(values))
    templates.set(key, template)
  }
  if (template === null) return selectRows(build(condition, values))
  const handle = db as unknown as DrizzleHandle
  const rendered = condition ? renderCondition(condition) : { sql: '', params: [] }
  const n = rendered.params.length
  let text = template.before + rendered.sql
  const params = [...rendered.params]
  for (let i = 0; i < template.after.length; i++) {
    text += template.after[i]
    const slot = template.slots[i]
    if (slot !== undefined) {
      params.push(values[slot])
      text += `$${n + i + 1}`
    }
  }
  if (checking) {
    const theirs = (build(condition, values) as unknown as { _prepare: () => PreparedSelect })._prepare()
    const theirText = (theirs.queryConfig as { text: string }).text
    if (theirText !== text || !isDeepStrictEqual(theirs.params, params)) {
      throw new Error(`selectShaped(${shape}): the statement differs from Drizzle's:\n${text}\n${theirText}`)
    }
  }
  const { rows } = await handle.session.client.query({ text, rowMode: 'array', types: template.types }, params)
  const mapped = rows.map(template.map)
  if (checking) compareRows(rows, mapped, template)
  return mapped as R[]
}

type PagedBuild<R> = (condition: SQL | undefined, limit: number | Placeholder, offset: number | Placeholder) => PromiseLike<R[]>

/**
 * One page of a list whose statement differs between calls only in its condition, LIMIT and OFFSET (selectShaped,
 * with the first page, which has no OFFSET, a shape of its own).
 */
export function selectPage<R>(
  db: DbOrTx,
  shape: string,
  build: PagedBuild<R>,
  condition: SQL | undefined,
  limit: number,
  offset: number,
): Promise<R[]> {
  return offset > 0
    ? selectShaped(db, `${shape}|offset`, (c, v) => build(c, v.limit, v.offset), condition, { limit, offset })
    : selectShaped(db, `${shape}|first`, (c, v) => build(c, v.limit, 0), condition, { limit })
}

/** The names of the statements run prepared (preparedRows), by text: a few per call site (its shapes). */
const preparedNames = new Map<string, string>()
const MAX_PREPARED = 500

/**
 * A statement run as a named prepared statement: the driver prepares each name once per connection of the pool and
 * PostgreSQL keeps its plan there, instead of planning it on every call. For a statement whose planning costs about
 * as much as running it (the calendar month: about 1.5–2 ms each on the benchmark's data; through `pg` at 10
 * connections 800 → 1,050 req/s named, docs/performance.md). One name per distinct text, `<prefix>_<n>`; past
 * MAX_PREPARED texts the others run unnamed. On the pool of `db`, not in a transaction. Each row is an array of the
 * statement's columns in order, each as the driver parses it (pg's own types: a timestamptz is a Date, a bigint a
 * string, json parsed).
 */
export async function preparedRows<R extends unknown[]>(db: Db, prefix: string, query: SQL): Promise<R[]> {
  const handle = db as unknown as DrizzleHandle
  const { sql: text, params } = handle.dialect.sqlToQuery(query)
  let name = preparedNames.get(text)
  if (name === undefined && preparedNames.size < MAX_PREPARED) {
    name = `${prefix}_${preparedNames.size + 1}`
    preparedNames.set(text, name)
  }
  // The session's client is the pool, which selectShaped runs its statements on too. Each row an array, in the
  // statement's column order: the driver's rows as objects cost a copy and a keyed write per column.
  const config = name === undefined ? { text, rowMode: 'array' } : { name, text, rowMode: 'array' }
  const { rows } = await handle.session.client.query(config, params)
  return rows as unknown as R[]
}

/**
 * A timestamptz read as the text the API writes it in: `Date.prototype.toISOString`'s form, in UTC, its
 * microseconds cut to milliseconds as a Date cuts them. For statements whose rows are not mapped by Drizzle
 * (preparedRows): the driver would parse each timestamp into a Date only for it to be written out again (in a
 * CPU profile of the calendar month, 252 timestamps a call, that parsing was about 7 % of the server's time).
 */
export const isoInstant = (column: SQL | AnyColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
