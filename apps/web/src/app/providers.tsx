import { QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { ToastProvider } from '../components/toasts'
import { setUnauthenticatedHandler } from '../lib/api-client'
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

// DECISIONS A3: a 401 on an authenticated call clears the stored session and goes to the login screen.
setUnauthenticatedHandler(() => {
  session.clear()
  queryClient.clear()
  void router.navigate(paths.login, { replace: true })
})

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  )
}
