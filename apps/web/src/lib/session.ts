import type { Empresa, Trabajador } from '@vb/shared'

/** SPEC §3: local storage keys. The token is only ever sent in the Authorization header. */
export const STORAGE_KEYS = ['token', 'trabajador', 'empresa', 'empresas', 'requiereCambioPassword', 'mail'] as const

/** SPEC §2.2: broadcast when the selected company changes. */
export const EMPRESA_EVENT = 'empresa-cambiada'
/** SPEC §4: announces a new notification (the bell re-polls at once). */
export const NOTIFICACION_EVENT = 'nueva-notificacion'
/** Fired on this tab when the stored session (token or trabajador) changes; see lib/use-session.ts. */
export const SESION_EVENT = 'sesion-cambiada'

function announce() {
  window.dispatchEvent(new Event(SESION_EVENT))
}

function readJson<T>(key: string): T | null {
  const raw = localStorage.getItem(key)
  if (!raw) return null
  try {
    return JSON.parse(raw) as T
  } catch {
    return null
  }
}

export const session = {
  token: () => localStorage.getItem('token'),
  trabajador: () => readJson<Trabajador>('trabajador'),
  /** The selected company (null: all of the worker's companies). */
  empresa: () => readJson<Pick<Empresa, 'id' | 'nombre'>>('empresa'),
  requiereCambioPassword: () => localStorage.getItem('requiereCambioPassword') === 'true',

  /** After login or a password change (SPEC §4). */
  start(token: string, trabajador: Trabajador) {
    localStorage.setItem('token', token)
    localStorage.setItem('mail', trabajador.email)
    localStorage.setItem('trabajador', JSON.stringify(trabajador))
    if (trabajador.passwordTemporal) localStorage.setItem('requiereCambioPassword', 'true')
    else localStorage.removeItem('requiereCambioPassword')
    if (trabajador.rol === 'SUPERADMIN') localStorage.setItem('empresas', JSON.stringify(trabajador.empresas))
    else localStorage.removeItem('empresas')
    const current = session.empresa()
    const first = trabajador.empresas[0]
    if (!current && first) localStorage.setItem('empresa', JSON.stringify({ id: first.id, nombre: first.nombre }))
    announce()
  },
  /** DECISIONS P4: the server refused a call until the temporary password is changed. */
  markCambioPasswordRequerido() {
    localStorage.setItem('requiereCambioPassword', 'true')
    announce()
  },
  setTrabajador(trabajador: Trabajador) {
    localStorage.setItem('trabajador', JSON.stringify(trabajador))
    announce()
  },
  /** Stores the selected company and announces it (SPEC §2.2, DECISIONS D1). */
  setEmpresa(empresa: Pick<Empresa, 'id' | 'nombre'> | null) {
    const value = empresa ? { id: empresa.id, nombre: empresa.nombre } : null
    if (value) localStorage.setItem('empresa', JSON.stringify(value))
    else localStorage.removeItem('empresa')
    window.dispatchEvent(new CustomEvent(EMPRESA_EVENT, { detail: value }))
  },
  /** SPEC §2.2: opening the login screen clears all stored session data. */
  clear() {
    for (const key of STORAGE_KEYS) localStorage.removeItem(key)
    announce()
  },
}
