import { DEFAULT_PAGE_SIZE } from '@vb/shared'
import { useCallback, useState } from 'react'
import type { ListParams, SortOrder } from './types'

interface State {
  q: string
  sort?: string
  order?: SortOrder
  page: number
  /** The filters the page number belongs to: when they change, the list is back on page 1. */
  pageFor: string
}

/**
 * `{ q, sort, order, page }` of a server-side list (SPEC §2.3). A new search, a new sort or new filters
 * (`filtersKey`) go back to page 1.
 */
export function useListState(filtersKey: string, defaultSort?: { sort: string; order: SortOrder }) {
  const [state, setState] = useState<State>({
    q: '',
    sort: defaultSort?.sort,
    order: defaultSort?.order,
    page: 1,
    pageFor: filtersKey,
  })
  const page = state.pageFor === filtersKey ? state.page : 1

  const setQ = useCallback(
    (q: string) => setState((s) => (s.q === q ? s : { ...s, q, page: 1, pageFor: filtersKey })),
    [filtersKey],
  )
  /** SPEC §2.3: a click on the sorted column toggles asc/desc; a new column starts ascending. */
  const toggleSort = useCallback(
    (sort: string) =>
      setState((s) => ({
        ...s,
        sort,
        order: s.sort === sort && s.order === 'asc' ? 'desc' : 'asc',
        page: 1,
        pageFor: filtersKey,
      })),
    [filtersKey],
  )
  const setSort = useCallback(
    (sort: string | undefined, order: SortOrder | undefined) =>
      setState((s) => ({ ...s, sort, order, page: 1, pageFor: filtersKey })),
    [filtersKey],
  )
  const setPage = useCallback((p: number) => setState((s) => ({ ...s, page: p, pageFor: filtersKey })), [filtersKey])

  const params: ListParams = {
    ...(state.q ? { q: state.q } : {}),
    ...(state.sort ? { sort: state.sort, order: state.order ?? 'asc' } : {}),
    page,
    pageSize: DEFAULT_PAGE_SIZE,
  }
  return { q: state.q, sort: state.sort, order: state.order, page, params, setQ, toggleSort, setSort, setPage }
}
