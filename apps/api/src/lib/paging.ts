import type { ListPage } from '@vb/shared'
import { type AnyColumn, asc, desc, type SQL, sql } from 'drizzle-orm'
import type { FastifyReply } from 'fastify'
import { rarestTrigram, type TrigramCounts } from './trigram-counts'

/**
 * Sends a list page as SPEC's JSON array; the total goes in `X-Total-Count` (DECISIONS A4), and
 * `X-Total-Count-Exact: false` when it was capped (D13); a list's own figures (a balance) in its headers.
 */
export function sendList<T>(reply: FastifyReply, page: ListPage<T>): T[] {
  reply.header('X-Total-Count', String(page.total))
  if (!page.exact) reply.header('X-Total-Count-Exact', 'false')
  for (const [name, value] of Object.entries(page.headers ?? {})) reply.header(name, value)
  return page.items
}

/** Case- and accent-insensitive sort key (DECISIONS A4), matching the `f_unaccent(lower(..))` indexes. */
export function sortKey(column: AnyColumn | SQL): SQL {
  return sql`f_unaccent(lower(${column}))`
}

export function ordered(expr: SQL | AnyColumn, order: 'asc' | 'desc' | undefined): SQL {
  return order === 'desc' ? desc(expr) : asc(expr)
}

/** `q` as the stored search texts hold theirs (`f_unaccent(lower(...))`): no accents, lower case. */
function searchTerm(q: string): string {
  return q
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/** `q` as a LIKE pattern over a `f_unaccent(lower(...))` expression; LIKE wildcards in it are literal. */
export function likePattern(q: string): string {
  return `%${escapeLike(searchTerm(q))}%`
}

/**
 * A stored, trigram-indexed search column (`busqueda`) that contains `q`. A term of several words asks the index
 * for its words in order (`%lucia%sanchez%`) rather than for the phrase: the phrase's trigrams that cross a word's
 * edge ('  s', ' sa', 'ia ') are among the commonest in a table of names, and reading their long lists in the GIN
 * index was most of a full-name search (docs/performance.md). Given the column's trigram counts
 * (trigram-counts.ts), a term of two words or more asks only for each word's rarest trigram (`%luc%nch%`), which
 * finds nearly the same rows from the index's short lists. `strpos` then keeps the rows that hold the term itself, so what matches is exactly
 * what `like '%term%'` matches, whichever way the index was asked.
 */
export function searchMatches(column: AnyColumn | SQL, q: string, counts?: TrigramCounts): SQL {
  const term = searchTerm(q)
  const words = term.split(' ').filter((w) => w !== '')
  // Each word's rarest trigram only when two words or more have one: their rows in common are then about as few as
  // the whole words' (measured over the benchmark's full names), while one word's rarest trigram alone ('nez' of
  // 'martinez') can hold several times the rows of the word, each read again from the table.
  const rarest = counts ? words.map((w) => rarestTrigram(w, counts)) : []
  const useRarest = rarest.filter((t) => t !== undefined).length >= 2
  const pattern = `%${words.map((w, i) => escapeLike((useRarest && rarest[i]) || w)).join('%')}%`
  if (words.length === 0 || (words.length === 1 && term === words[0])) {
    return sql`${column} like ${likePattern(q)}`
  }
  return sql`(${column} like ${pattern} and strpos(${column}, ${term}) > 0)`
}

/** `f_unaccent(lower(expr)) LIKE pattern` for a search text. */
export function matches(expr: SQL | AnyColumn, q: string): SQL {
  return sql`f_unaccent(lower(${expr})) like ${likePattern(q)}`
}
