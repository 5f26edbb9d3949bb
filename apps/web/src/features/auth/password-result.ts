import { useQueryClient } from '@tanstack/react-query'
import type { LoginResponse } from '@vb/shared'
import { useEffect, useRef } from 'react'
import { useNavigate } from 'react-router'
import { session } from '../../lib/session'

/** SPEC §9: redirect delay after a password change. */
export const REDIRECT_AFTER_PASSWORD_MS = 1500

/** Returns `go()`: after SPEC's 1.5 s the user is taken to /inicio (cancelled if the screen is left). */
export function useRedirectToInicio() {
  const navigate = useNavigate()
  const timer = useRef<number | undefined>(undefined)
  useEffect(() => () => window.clearTimeout(timer.current), [])
  return () => {
    timer.current = window.setTimeout(() => navigate('/inicio', { replace: true }), REDIRECT_AFTER_PASSWORD_MS)
  }
}

/**
 * Returns what both change-password screens do on success: DECISIONS S2, the old token stopped working and
 * the answer carries the new one; cached answers (e.g. /me with passwordTemporal true) belong to the old
 * session; then SPEC's redirect to /inicio after 1.5 s.
 */
export function useCompletePasswordChange() {
  const queryClient = useQueryClient()
  const redirect = useRedirectToInicio()
  return (result: LoginResponse) => {
    queryClient.clear()
    session.start(result.token, result.trabajador)
    redirect()
  }
}
