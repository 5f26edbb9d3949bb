import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react'
import ToastContainer from 'react-bootstrap/ToastContainer'
import { FirstIcon as Icon } from './first-icons'

/** SPEC §9: success toasts last 3000 ms (2500 ms on documents and cash: pass it). */
export const TOAST_MS = 3000
/** Errors stay longer: they are read, not glanced at. */
export const TOAST_ERROR_MS = 6000

type Variant = 'success' | 'danger'
interface ToastItem {
  id: number
  message: string
  variant: Variant
  ms: number
}

export interface ToastApi {
  /** A green toast (SPEC §2.3), gone after `ms`. */
  success: (message: string, ms?: number) => void
  /** A red toast, e.g. an ApiError's `message`. */
  error: (message: string, ms?: number) => void
}

const ToastContext = createContext<ToastApi | null>(null)

function Toast({ item, remove }: { item: ToastItem; remove: (id: number) => void }) {
  useEffect(() => {
    const timer = window.setTimeout(() => remove(item.id), item.ms)
    return () => window.clearTimeout(timer)
  }, [item.id, item.ms, remove])
  return (
    <div
      className={`toast show border-0 text-white bg-${item.variant} mb-2`}
      role={item.variant === 'danger' ? 'alert' : undefined}
    >
      <div className="d-flex align-items-start">
        <div className="toast-body flex-grow-1">
          <Icon name={item.variant === 'success' ? 'check-circle' : 'exclamation-triangle'} className="me-2" />
          {item.message}
        </div>
        <button
          type="button"
          className="btn-close btn-close-white me-2 mt-2"
          aria-label="Cerrar aviso"
          onClick={() => remove(item.id)}
        />
      </div>
    </div>
  )
}

/**
 * Renders the toast stack (top right, above modals) and provides `useToast()`; mounted once in app/providers.tsx.
 * Own markup with Bootstrap's classes: react-bootstrap's Toast forces role="alert" on every toast, and a
 * success should be announced politely. Successes go into a polite live region that exists before any
 * toast (so what is added is announced); each error is its own role="alert", announced on insertion.
 * No empty role="alert"/"status" stays in the page to confuse `getByRole('alert')` in tests.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([])
  const nextId = useRef(1)

  const push = useCallback((message: string, variant: Variant, ms: number) => {
    const id = nextId.current++
    setItems((list) => [...list, { id, message, variant, ms }])
  }, [])
  const remove = useCallback((id: number) => setItems((list) => list.filter((t) => t.id !== id)), [])

  const api = useMemo<ToastApi>(
    () => ({
      success: (message, ms = TOAST_MS) => push(message, 'success', ms),
      error: (message, ms = TOAST_ERROR_MS) => push(message, 'danger', ms),
    }),
    [push],
  )

  return (
    <ToastContext.Provider value={api}>
      {children}
      <ToastContainer containerPosition="fixed" className="p-3 end-0 vb-toasts" style={{ zIndex: 1090 }}>
        <div aria-live="polite">
          {items
            .filter((t) => t.variant === 'success')
            .map((t) => (
              <Toast key={t.id} item={t} remove={remove} />
            ))}
        </div>
        <div>
          {items
            .filter((t) => t.variant === 'danger')
            .map((t) => (
              <Toast key={t.id} item={t} remove={remove} />
            ))}
        </div>
      </ToastContainer>
    </ToastContext.Provider>
  )
}

/** `const toast = useToast(); toast.success('Empresa añadida correctamente')`. */
export function useToast(): ToastApi {
  const ctx = useContext(ToastContext)
  if (!ctx) throw new Error('useToast must be used inside <ToastProvider> (app/providers.tsx)')
  return ctx
}
