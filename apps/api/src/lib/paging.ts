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

/**
 * A search text as the stored search texts hold theirs (`f_unaccent(lower(...))`), worked out by PostgreSQL: its
 * `unaccent` rules differ from one major to the next (18 turns 'º' and 'ª' into 'o' and 'a', 15 keeps them) and from
 * any rule of our own ('ł' is 'l' there, which Unicode does not decompose; the '·' of Catalan's 'l·l' stays).
 * IMMUTABLE on a value, it is folded into the plan like a constant, and a trigram index still reads the pattern.
 */
const asStored = (text: string) => sql`f_unaccent(lower(${text}))`

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * A word as the stored texts hold it, worked out here only to look its trigrams up in the counts: undefined unless
 * every letter of it became one ASCII letter or digit, where PostgreSQL's rules agree ('á' is 'a' in both).
 */
function asciiWord(word: string): string | undefined {
  const plain = word
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
  return /^[a-z0-9]+$/.test(plain) && plain.length === Array.from(word).length ? plain : undefined
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
  const words = q.split(' ').filter((w) => w !== '')
  // Each word's rarest trigram only when two words or more have one: their rows in common are then about as few as
  // the whole words' (measured over the benchmark's full names), while one word's rarest trigram alone ('nez' of
  // 'martinez') can hold several times the rows of the word, each read again from the table.
  const rarest = counts
    ? words.map((w) => {
        const ascii = asciiWord(w)
        return ascii === undefined ? undefined : rarestTrigram(ascii, counts)
      })
    : []
  const useRarest = rarest.filter((t) => t !== undefined).length >= 2
  const pattern = `%${words.map((w, i) => escapeLike((useRarest && rarest[i]) || w)).join('%')}%`
  if (words.length === 0 || (words.length === 1 && q === words[0])) {
    return sql`${column} like ${asStored(`%${escapeLike(q)}%`)}`
  }
  return sql`(${column} like ${asStored(pattern)} and strpos(${column}, ${asStored(q)}) > 0)`
}

/** `f_unaccent(lower(expr)) LIKE pattern` for a search text. */
export function matches(expr: SQL | AnyColumn, q: string): SQL {
  return sql`f_unaccent(lower(${expr})) like ${asStored(`%${escapeLike(q)}%`)}`
}
