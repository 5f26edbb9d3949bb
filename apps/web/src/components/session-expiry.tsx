import { madridTime } from '@vb/shared/dates'
import { useEffect, useState } from 'react'
import Alert from 'react-bootstrap/Alert'
import { useToken } from '../lib/use-session'
import { Icon } from './icon'

/** How long before the session ends the worker is told (DECISIONS S2: tokens last 8 h by default, JWT_TTL). */
export const WARN_BEFORE_MS = 10 * 60_000

/** When a token stops being valid, from its `exp` (the payload is readable; its signature is the server's business). */
export function tokenExpiresAt(token: string | null): number | null {
  const payload = token?.split('.')[1]
  if (!payload) return null
  try {
    const { exp } = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown }
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null
  } catch {
    return null
  }
}

export const sessionEndsMessage = (expiresAt: number) =>
  `Tu sesión caduca a las ${madridTime(new Date(expiresAt))}. Guarda lo que estés escribiendo: después tendrás que volver a iniciar sesión.`

/** setTimeout fires at once past 2^31 - 1 ms (about 24.8 days, a JWT_TTL of up to 30 d): wait in steps. */
const MAX_DELAY = 2 ** 31 - 1

/**
 * The last minutes of a session, said above the screen and at the top of each form dialog (form-modal.tsx): an expired
 * token makes the next call answer 401 and the login screen take over (a form dialog with typed changes opens again
 * after the login, lib/drafts.ts, but a form outside a dialog does not). From WARN_BEFORE_MS before its `exp` until then.
 */
export function SessionExpiryNotice({ className }: { className?: string }) {
  const expiresAt = tokenExpiresAt(useToken())
  const warnAt = expiresAt === null ? null : expiresAt - WARN_BEFORE_MS
  const [, rerender] = useState(0)
  useEffect(() => {
    if (warnAt === null) return
    let timer: number | undefined
    const wait = () => {
      const delay = warnAt - Date.now()
      if (delay <= 0) rerender((n) => n + 1)
      else timer = window.setTimeout(wait, Math.min(delay, MAX_DELAY))
    }
    wait()
    return () => window.clearTimeout(timer)
  }, [warnAt])
  if (expiresAt === null || warnAt === null || Date.now() < warnAt) return null
  return (
    <Alert variant="warning" className={`d-flex gap-2 align-items-start ${className ?? ''}`} role="status">
      <Icon name="exclamation-triangle" className="mt-1" />
      <span>{sessionEndsMessage(expiresAt)}</span>
    </Alert>
  )
}
