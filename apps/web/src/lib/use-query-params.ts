import { useCallback, useEffect, useRef } from 'react'
import { useSearchParams } from 'react-router'

/** A change to the query string: a value sets its key, `undefined`, `null` or '' removes it. */
export type QueryChanges = Record<string, string | null | undefined>

/**
 * The query string and a `change` that applies a few keys to it, replacing the history entry.
 *
 * react-router's own functional update starts from the `searchParams` of the last render, and the router
 * renders a navigation as a transition, which a busy phone (or a busy test host) can leave pending for a
 * while. Two changes in that window (a debounced search firing just as a filter is chosen or Limpiar is
 * pressed) would each start from the same old address, and the last would silently undo the first. So each
 * change starts from the address as it is now (`window.location.search`), or from the one asked a moment
 * ago when the router has not written it yet.
 */
export function useQueryParams() {
  const [search, setSearch] = useSearchParams()
  const queued = useRef<{ from: string; to: string } | null>(null)
  // Once a render shows the change, it is no longer pending: a later address equal to its `from` (Back to an
  // older entry) is then taken as it is.
  useEffect(() => {
    if (queued.current && queued.current.to === `?${search.toString()}`) queued.current = null
  }, [search])

  const change = useCallback(
    (changes: QueryChanges) => {
      const now = window.location.search
      const base = queued.current && queued.current.from === now ? queued.current.to : now
      const next = new URLSearchParams(base)
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined || value === null || value === '') next.delete(key)
        else next.set(key, value)
      }
      queued.current = { from: now, to: `?${next.toString()}` }
      setSearch(next, { replace: true, preventScrollReset: true })
    },
    [setSearch],
  )
  return [search, change] as const
}
