import { DEFAULT_PAGE_SIZE } from '@vb/shared'
import { type AnyColumn, asc, desc, type SQL, sql } from 'drizzle-orm'
import type { FastifyReply } from 'fastify'

export interface ListResult<T> {
  items: T[]
  total: number
}

/** DECISIONS A4: `page` from 1; without `page` the whole (permitted, filtered) list comes back. */
export function pageWindow(query: { page?: number; pageSize?: number }): { limit?: number; offset?: number } {
  if (!query.page) return query.pageSize ? { limit: query.pageSize } : {}
  const size = query.pageSize ?? DEFAULT_PAGE_SIZE
  return { limit: size, offset: (query.page - 1) * size }
}

/** Sends a list as a JSON array; with `page`, the total goes in `X-Total-Count`. */
export function sendList<T>(reply: FastifyReply, query: { page?: number }, result: ListResult<T>): T[] {
  if (query.page) reply.header('X-Total-Count', String(result.total))
  return result.items
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
