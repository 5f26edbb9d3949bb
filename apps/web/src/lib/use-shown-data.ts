import { useDeferredValue } from 'react'

/**
 * The answer a screen shows, rendered in a transition the browser can interrupt rather than whole in the task that
 * delivers it (a query's update renders at once: on a phone a page of rows took 30-40 ms; docs/architecture.md, a
 * start in short tasks). `catchingUp` is true while the screen still shows an older answer (or none) than the one
 * that arrived: say it is loading, or dim the old rows and mark them busy, as for a page being fetched.
 */
export function useShownData<T>(arrived: T | undefined): { shown: T | undefined; catchingUp: boolean } {
  const shown = useDeferredValue(arrived)
  return { shown, catchingUp: arrived !== undefined && shown !== arrived }
}
