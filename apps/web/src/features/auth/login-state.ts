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
