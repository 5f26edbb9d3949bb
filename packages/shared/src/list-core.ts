/**
 * What a list needs of the paging rules without zod: the limits, the deepest page and a page's shape. The web app's
 * list (and a screen without a form, such as the log's) imports it as `@vb/shared/list-core` so that it never builds
 * the query schemas of list.ts, which re-exports all of it.
 */

/** DECISIONS A4: page size at most 100; SPEC §9: screens use 10. Every list is paged. */
export const MAX_PAGE_SIZE = 100
export const DEFAULT_PAGE_SIZE = 10
/** DECISIONS D13: totals are exact up to this many rows; beyond, the list says 'Más de 10.000'. */
export const MAX_EXACT_TOTAL = 10_000
/**
 * DECISIONS D13 (a list never reads a whole large table to show one page): the deepest row a page may start at; the
 * server answers a deeper page 400 on `page` (lib/records.ts pageWindow). Past 'Más de 10.000' the pager goes on one
 * page at a time, so a person gets here after thousands of clicks; a page is an OFFSET, which PostgreSQL pays by
 * reading every row before it (page 999,999,999 of a large operator's log read its million entries: 1.7 s of a backend
 * for an empty answer; from the row 100,000, the log's page 14 ms, an ADMIN's 100,000 budgets 320 ms).
 */
export const MAX_LIST_OFFSET = 100_000
/** The last page of `pageSize` rows that starts at most MAX_LIST_OFFSET rows deep: the server's, the pager's and the URL's. */
export const deepestPage = (pageSize: number) => Math.floor(MAX_LIST_OFFSET / pageSize) + 1

export const PAGE_MESSAGE = 'La página no es válida'

/** A page of a list as the API sends it: the rows, `X-Total-Count`, and whether that total is exact. */
export interface ListPage<T> {
  items: T[]
  total: number
  /** False when there are more than MAX_EXACT_TOTAL matches (D13): `total` is then MAX_EXACT_TOTAL. */
  exact: boolean
  /** Further response headers of the list (the cash ledger's balances), beside SPEC's JSON array. */
  headers?: Record<string, string>
}
