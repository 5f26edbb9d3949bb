import { can, type Resource } from '@vb/shared/core'
import { Navigate, Outlet, useLocation } from 'react-router'
import type { LoginState } from '../features/auth/login-state'
import { useRequiereCambioPassword, useToken, useTrabajador } from '../lib/use-session'
import { paths } from './paths'

/** SPEC §2.1: every route except login requires a stored token; without one the user goes to /. */
export function RequireToken() {
  const token = useToken()
  const location = useLocation()
  if (!token) {
    const state: LoginState = { from: `${location.pathname}${location.search}` }
    return <Navigate to={paths.login} replace state={state} />
  }
  return <Outlet />
}

/** DECISIONS P4: while the temporary password is unchanged, protected screens send the worker to /cambiar-password. */
export function RequirePasswordChanged() {
  const trabajador = useTrabajador()
  const requiere = useRequiereCambioPassword()
  const pending = requiere || trabajador?.passwordTemporal === true
  if (pending) return <Navigate to={paths.cambiarPassword} replace />
  return <Outlet />
}

/**
 * SPEC §2.10, §2.11: EMPLEADO visiting /trabajadores or /logs is sent away; DECISIONS D14: to /inicio, never
 * to the login screen, which would log it out. The role comes from the stored worker (refreshed from /me by
 * the shell); the API refuses the calls anyway (DECISIONS P1).
 */
export function RequireListPermission({ resource }: { resource: Resource }) {
  const trabajador = useTrabajador()
  if (trabajador && !can(trabajador, resource, 'list')) return <Navigate to={paths.inicio} replace />
  return <Outlet />
}
