/**
 * What the login screen is told when a screen sends the worker to it (the router's state): where to return once
 * logged in, a protected screen opened without a session or the one a 401 interrupted.
 */
export interface LoginState {
  from?: string
}

/**
 * Whether a session has just ended (a call answered 401, DECISIONS A3), kept in memory until the next login: the
 * guard of the protected screens redirects too when the session is cleared, with its own state, so the reason
 * cannot travel in the router's state.
 */
let ended = false
export const sesionTerminada = {
  mark: () => {
    ended = true
  },
  get: () => ended,
  clear: () => {
    ended = false
  },
}

type EmpresaElegida = { id: number; nombre: string } | null
let empresaKept: { owner: number; empresa: EmpresaElegida } | null = null

/**
 * The company chosen in the top bar when a session ended (null: all of the worker's companies), so that the same
 * worker's next login returns to the screen as it was: the login would otherwise choose the first company (SPEC §3
 * storage is cleared on a 401). Memory only; another worker's login drops it. The top bar checks the choice with
 * the server as always (a company no longer reachable falls back to all of them).
 */
export const empresaAlTerminar = {
  keep(owner: number | undefined, empresa: EmpresaElegida) {
    empresaKept = owner === undefined ? null : { owner, empresa: empresa && { id: empresa.id, nombre: empresa.nombre } }
  },
  /** The company to choose again after `owner` has logged in, or undefined (the login's own choice stands). */
  take(owner: number): EmpresaElegida | undefined {
    const kept = empresaKept
    empresaKept = null
    return kept && kept.owner === owner ? kept.empresa : undefined
  },
}

/** Screens a login never returns to: the login itself and the password screens. */
const NOT_A_RETURN = ['/', '/cambiar-password', '/cambiar-password-con-actual', '/recuperar-contraseña']

/** Where to go after logging in: the screen the state names if it is one of this app's, otherwise `fallback`. */
export function returnTo(state: unknown, fallback: string): string {
  const from = (state as LoginState | null)?.from
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.includes('\\')) return fallback
  let pathname: string
  try {
    pathname = decodeURIComponent(from.split(/[?#]/)[0] ?? '')
  } catch {
    return fallback
  }
  return NOT_A_RETURN.includes(pathname.replace(/\/+$/, '') || '/') ? fallback : from
}
