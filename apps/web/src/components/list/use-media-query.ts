import { useCallback, useSyncExternalStore } from 'react'

/** True while the media query matches; follows window resizes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (notify: () => void) => {
      const list = window.matchMedia(query)
      list.addEventListener('change', notify)
      return () => list.removeEventListener('change', notify)
    },
    [query],
  )
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => true,
  )
}

/** A table from 768 px up, cards below (docs/architecture.md, look and feel). */
export const WIDE_QUERY = '(min-width: 768px)'
/** A list of many columns (residents, workers, budgets) is a table from 992 px: at a tablet's 768 it would not fit. */
export const WIDER_QUERY = '(min-width: 992px)'
