import { isDeepStrictEqual } from 'node:util'
import * as drizzle from 'drizzle-orm'
import { Column, getTableName, is, SQL, Subquery } from 'drizzle-orm'

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

/** Runs a Drizzle select (a query builder of `db` or of a transaction) and maps its rows with `rowMapper`. */
export async function selectRows<R>(query: PromiseLike<R[]>): Promise<R[]> {
  const prepared = (query as unknown as { _prepare: () => PreparedSelect })._prepare()
  const { rows } = await prepared.client.query(prepared.queryConfig, prepared.params)
  const map = rowMapper(prepared.fields, prepared.joinsNotNullableMap)
  const mapped = rows.map(map)
  if (checking) {
    for (let i = 0; i < rows.length; i++) {
      const theirs = mapResultRow(prepared.fields, rows[i] as unknown[], prepared.joinsNotNullableMap)
      if (!isDeepStrictEqual(mapped[i], theirs)) {
        throw new Error(`selectRows: row ${i} mapped differently from Drizzle's mapResultRow`)
      }
    }
  }
  return mapped as R[]
}
