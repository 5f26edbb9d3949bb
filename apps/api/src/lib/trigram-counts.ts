import { type AnyColumn, Column, getTableName, is, sql } from 'drizzle-orm'
import type { DbOrTx } from '../db/client'

/**
 * How many rows hold each trigram of a stored search column (`busqueda`), so that a search can ask its trigram
 * index for each word's rarest trigram instead of all of them (paging.ts, searchMatches).
 *
 * A GIN trigram index answers `busqueda like '%jose%martin%'` by reading the row list of every trigram of the
 * pattern ('jos', 'ose', 'mar', 'art', 'rti', 'tin') and intersecting them; in a table of names some of those
 * lists are long ('mar' is in María, Martínez, Marín, Martín…), and reading them was most of a new search's time in
 * the database (docs/performance.md). The word's rarest trigram alone ('jos', 'rti') finds nearly the same
 * candidates from the short lists only; the exact condition beside it keeps what the whole term matches.
 *
 * The counts are read in the background by the first search of a column (until then, and if the read fails, a
 * search asks for every trigram, as before) and read again after REFRESH_MS; a big table is sampled. They only
 * choose what the index is asked for: stale or missing counts change how fast a search is, never what it finds.
 */
export const REFRESH_MS = 6 * 3_600_000
/** Above this many rows, the counts come from a sample of about this many (TABLESAMPLE SYSTEM, whole pages). */
const SAMPLE_ROWS = 100_000

export type TrigramCounts = ReadonlyMap<string, number>

interface State {
  counts?: TrigramCounts
  /** When the next read may start (performance.now()). */
  next: number
  loading?: Promise<void>
}

/** After a failed read, the next search tries again once this long has passed. */
const RETRY_MS = 60_000

const states = new WeakMap<object, Map<string, State>>()

/** The table and column names of a search column (a column of a table; an expression has no counts). */
function namesOf(column: AnyColumn): { table: string; column: string } | undefined {
  if (!is(column, Column)) return undefined
  return { table: getTableName(column.table), column: column.name }
}

async function load(db: DbOrTx, names: { table: string; column: string }): Promise<TrigramCounts> {
  const table = sql.identifier(names.table)
  const column = sql.identifier(names.column)
  const size = (await db.execute(
    sql`select reltuples::float8 as n from pg_class where oid = ${names.table}::regclass`,
  )) as unknown as {
    rows: Array<{ n: number }>
  }
  const rows = Number(size.rows[0]?.n ?? 0)
  const sample =
    rows > SAMPLE_ROWS ? sql` tablesample system (${sql.raw(String(Math.max(1, (100 * SAMPLE_ROWS) / rows)))})` : sql``
  const result = (await db.execute(
    sql`select t, count(*)::int as n from ${table}${sample}, lateral unnest(show_trgm(${column})) t group by t`,
  )) as unknown as { rows: Array<{ t: string; n: number }> }
  return new Map(result.rows.map((r) => [r.t, Number(r.n)]))
}

/**
 * The trigram counts of a search column, or undefined while they have not been read yet (the read starts here,
 * in the background; after a failure, the first search a minute later tries again).
 */
export function trigramCounts(db: DbOrTx, column: AnyColumn): TrigramCounts | undefined {
  const names = namesOf(column)
  if (!names) return undefined
  let byColumn = states.get(db)
  if (!byColumn) {
    byColumn = new Map()
    states.set(db, byColumn)
  }
  const key = `${names.table}.${names.column}`
  let state = byColumn.get(key)
  if (!state) {
    state = { next: 0 }
    byColumn.set(key, state)
  }
  const now = performance.now()
  if (!state.loading && now >= state.next) {
    const current = state
    current.next = now + REFRESH_MS
    current.loading = load(db, names)
      .then((counts) => {
        current.counts = counts
      })
      .catch(() => {
        // The database is away or the statement failed: searches keep what they had (or ask for every trigram).
        current.next = performance.now() + RETRY_MS
      })
      .finally(() => {
        current.loading = undefined
      })
  }
  return state.counts
}

/** Tests: the counts of a column once read (reading them first if needed). */
export async function loadedTrigramCounts(db: DbOrTx, column: AnyColumn): Promise<TrigramCounts | undefined> {
  trigramCounts(db, column)
  const names = namesOf(column)
  const state = names ? states.get(db)?.get(`${names.table}.${names.column}`) : undefined
  await state?.loading
  return state?.counts
}

/** Tests: forget every column's counts (the next search reads them again). */
export function forgetTrigramCounts(db: DbOrTx): void {
  states.delete(db)
}

/**
 * The rarest trigram of a word, as the trigram index holds it and `show_trgm` spells it: three ASCII letters or
 * digits (pg_trgm splits words at anything else, and spells a trigram with other letters as a hash; a search
 * text has no accents), the one with the fewest rows in `counts` (none: 0, the rarest of all). Undefined when the
 * word has no such trigram (under three letters, say).
 */
export function rarestTrigram(word: string, counts: TrigramCounts): string | undefined {
  const chars = Array.from(word)
  let best: string | undefined
  let bestCount = Number.POSITIVE_INFINITY
  for (let i = 0; i + 3 <= chars.length; i++) {
    const trigram = chars.slice(i, i + 3).join('')
    if (!/^[a-z0-9]{3}$/.test(trigram)) continue
    const n = counts.get(trigram) ?? 0
    if (n < bestCount) {
      best = trigram
      bestCount = n
    }
  }
  return best
}
