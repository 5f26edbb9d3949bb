import type { ListPage } from '@vb/shared'
import { type AnyColumn, asc, desc, type SQL, sql } from 'drizzle-orm'
import type { FastifyReply } from 'fastify'

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

/** `q` as a LIKE pattern over a `f_unaccent(lower(...))` expression; LIKE wildcards in it are literal. */
export function likePattern(q: string): string {
  const normalized = q
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
  return `%${normalized.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** `f_unaccent(lower(expr)) LIKE pattern` for a search text. */
export function matches(expr: SQL | AnyColumn, q: string): SQL {
  return sql`f_unaccent(lower(${expr})) like ${likePattern(q)}`
}
