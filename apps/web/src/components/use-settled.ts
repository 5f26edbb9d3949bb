import { useEffect, useState } from 'react'

/** What is typed, once typing pauses for `ms` (one search per pause, not per key). */
export function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms)
    return () => window.clearTimeout(timer)
  }, [value, ms])
  return settled
}
