import { type ReactNode, startTransition, useEffect, useState } from 'react'

/**
 * Renders its children once the page around them has been shown, in tasks of their own: the top bar's company
 * switcher, bell and user menu and the side menu start after the screen instead of in the same long tasks (their
 * code, first render and first calls), so a phone answers a tap sooner (docs/performance.md). The top bar keeps its
 * height meanwhile (styles.css), so nothing moves when they appear.
 */
export function Later({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false)
  useEffect(() => {
    const timer = window.setTimeout(() => startTransition(() => setShown(true)))
    return () => window.clearTimeout(timer)
  }, [])
  return shown ? children : null
}
