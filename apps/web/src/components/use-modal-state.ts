import { useCallback, useState } from 'react'

/**
 * Open/closed state of a modal and the record it shows. The record outlives `show` so the modal keeps its
 * content while it fades out.
 */
export function useModalState<T>() {
  const [state, setState] = useState<{ show: boolean; data: T | null }>({ show: false, data: null })
  const open = useCallback((data: T) => setState({ show: true, data }), [])
  const close = useCallback(() => setState((s) => ({ ...s, show: false })), [])
  return { show: state.show, data: state.data, open, close }
}
