import type { Trabajador } from '@vb/shared'
import { useSyncExternalStore } from 'react'
import { SESION_EVENT, session } from './session'

function subscribe(onChange: () => void) {
  window.addEventListener(SESION_EVENT, onChange)
  // Another tab logging in or out changes the same storage.
  window.addEventListener('storage', onChange)
  return () => {
    window.removeEventListener(SESION_EVENT, onChange)
    window.removeEventListener('storage', onChange)
  }
}

// The raw string is the snapshot: a stable primitive, so React only re-renders when it really changed.
const rawTrabajador = () => localStorage.getItem('trabajador')
const rawToken = () => localStorage.getItem('token')

const parseCache = { raw: null as string | null, value: null as Trabajador | null }
function parse(raw: string | null): Trabajador | null {
  if (raw !== parseCache.raw) {
    parseCache.raw = raw
    parseCache.value = session.trabajador()
  }
  return parseCache.value
}

/** The logged-in worker from storage (SPEC §3 `trabajador`), or null; re-renders on login, logout and password change. */
export function useTrabajador(): Trabajador | null {
  return parse(useSyncExternalStore(subscribe, rawTrabajador))
}

/** The stored token, or null; re-renders when it changes. */
export function useToken(): string | null {
  return useSyncExternalStore(subscribe, rawToken)
}

const rawRequiere = () => localStorage.getItem('requiereCambioPassword') === 'true'

/** SPEC §3 `requiereCambioPassword`: the temporary password still has to be changed. */
export function useRequiereCambioPassword(): boolean {
  return useSyncExternalStore(subscribe, rawRequiere)
}
