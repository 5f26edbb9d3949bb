import { QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { ToastProvider } from '../components/toasts'
import { type LoginState, sesionTerminada } from '../features/auth/login-state'
import { setUnauthenticatedHandler } from '../lib/api-client'
import { drafts } from '../lib/drafts'
import { createQueryClient } from '../lib/query-client'
import { session } from '../lib/session'
import { paths } from './paths'
import { router } from './router'

export const queryClient = createQueryClient({
  onPasswordChangeRequired: () => {
    session.markCambioPasswordRequerido()
    void router.navigate(paths.cambiarPassword)
  },
})

// DECISIONS A3: a 401 on an authenticated call clears the stored session and goes to the login screen, which says
// why and, once logged in again, returns to the screen the worker was on (the router's state, never storage), where
// the company chosen in the top bar is chosen again and a form that was open with typed changes opens again with
// them (lib/drafts.ts, memory only).
setUnauthenticatedHandler(() => {
  const { pathname, search } = router.state.location
  if (pathname !== paths.login) {
    sesionTerminada.mark()
    drafts.keep(session.trabajador()?.id, pathname, session.empresa())
  }
  session.clear()
  queryClient.clear()
  if (pathname === paths.login) return
  const state: LoginState = { from: `${pathname}${search}` }
  void router.navigate(paths.login, { replace: true, state })
})

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  )
}
