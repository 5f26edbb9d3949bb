import { DEFAULT_PAGE_SIZE, deepestPage, MAX_PAGE_SIZE } from '@vb/shared/list-core'
import { useCallback, useMemo } from 'react'
import { useQueryParams } from '../../lib/use-query-params'
import type { ListParams, SortOrder } from './types'

const positive = (value: string | null, max: number): number | undefined => {
  if (!value || !/^[1-9][0-9]{0,8}$/.test(value)) return undefined
  const n = Number(value)
  return n <= max ? n : undefined
}

/** The page size that shows every matching row ('Todos', SPEC §2.11), read in pages of MAX_PAGE_SIZE. */
export const ALL_ROWS = 'todos'

/**
 * `{ q, sort, order, page, pageSize }` of a server-side list (SPEC §2.3), kept in the query string: Back, a
 * reload and a copied link show the same list. Changes replace the history entry, so Back
 * still means "the previous screen". A new search, sort, page size or set of filters goes back to page 1.
 * `defaultPageSize` is the screen's own (the logs' 25); `pageSize=todos` asks for every row (`all`).
 */
export function useListState(
  defaultSort?: { sort: string; order: SortOrder },
  filterKeys: readonly string[] = [],
  defaultPageSize: number = DEFAULT_PAGE_SIZE,
  /** Filters 'Limpiar' leaves alone. */
  keptKeys: readonly string[] = [],
) {
  const [search, change] = useQueryParams()
  const q = search.get('q') ?? ''
  const sortParam = search.get('sort')
  const orderParam = search.get('order')
  const sort = sortParam ?? defaultSort?.sort
  const order: SortOrder | undefined = orderParam === 'asc' || orderParam === 'desc' ? orderParam : defaultSort?.order
  const all = search.get('pageSize') === ALL_ROWS
  const pageSize = all ? MAX_PAGE_SIZE : (positive(search.get('pageSize'), MAX_PAGE_SIZE) ?? defaultPageSize)
  // A page deeper than the server answers (a link kept from long ago, or written by hand) is page 1, as any bad one.
  const page = positive(search.get('page'), deepestPage(pageSize)) ?? 1
  const filterValues = filterKeys.map((key) => [key, search.get(key) ?? ''] as const)
  const filtersKey = JSON.stringify(filterValues)

  /** A new search from the user (Enter, Limpiar): page 1 with it. */
  const setQ = useCallback((value: string) => change({ q: value, page: undefined }), [change])
  /**
   * The debounced search while typing. The page went back to 1 on the first keystroke (`typing`); if the user
   * has chosen another page since, the search arriving later leaves that choice alone.
   */
  const setQDebounced = useCallback((value: string) => change({ q: value }), [change])
  const typing = useCallback(() => change({ page: undefined }), [change])
  /** SPEC §2.3: a click on the sorted column toggles asc/desc; a new column starts ascending. */
  const toggleSort = useCallback(
    (column: string) => change({ sort: column, order: sort === column && order === 'asc' ? 'desc' : 'asc', page: undefined }),
    [change, sort, order],
  )
  const setSort = useCallback(
    (column: string | undefined, direction: SortOrder | undefined) => change({ sort: column, order: direction, page: undefined }),
    [change],
  )
  const setPage = useCallback((p: number) => change({ page: p > 1 ? String(p) : undefined }), [change])
  const resetPage = useCallback(() => change({ page: undefined }), [change])
  /** SPEC §2.11: a new page size (or 'todos') goes back to page 1. */
  const setPageSize = useCallback(
    (size: number | typeof ALL_ROWS) =>
      change({ pageSize: size === defaultPageSize ? undefined : String(size), page: undefined }),
    [change, defaultPageSize],
  )
  /** A filter's new value (empty removes it): page 1 with it. */
  const setFilter = useCallback((key: string, value: string) => change({ [key]: value, page: undefined }), [change])
  /** 'Limpiar': no search, no filters (but the kept ones), page 1. */
  const clear = useCallback(
    () =>
      change(
        Object.fromEntries([
          ['q', undefined],
          ['page', undefined],
          ...filterKeys.filter((k) => !keptKeys.includes(k)).map((k) => [k, undefined]),
        ]),
      ),
    [change, filterKeys, keptKeys],
  )
  // biome-ignore lint/correctness/useExhaustiveDependencies: filtersKey stands for filterValues
  const filters: Record<string, string> = useMemo(
    () => Object.fromEntries(filterValues.filter(([, v]) => v !== '')),
    [filtersKey],
  )

  const params: ListParams = useMemo(
    () => ({
      ...(q ? { q } : {}),
      ...filters,
      ...(sort ? { sort, order: order ?? 'asc' } : {}),
      page: all ? 1 : page,
      pageSize,
    }),
    [q, filters, sort, order, page, pageSize, all],
  )
  return {
    q,
    sort,
    order,
    page,
    pageSize,
    all,
    filters,
    params,
    setQ,
    setQDebounced,
    typing,
    toggleSort,
    setSort,
    setPage,
    resetPage,
    setPageSize,
    setFilter,
    clear,
  }
}
