import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SessionExpiryNotice, sessionEndsMessage, tokenExpiresAt, WARN_BEFORE_MS } from './session-expiry'

const NOW = new Date('2026-11-28T14:00:00Z').getTime()
/** A token as the API signs it (HS256): only its payload matters here. */
const tokenExpiring = (ms: number) => {
  const part = (o: object) => btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 7, exp: Math.floor((NOW + ms) / 1000) })}.firma`
}

beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(NOW)
})
afterEach(() => {
  cleanup()
  localStorage.clear()
  vi.useRealTimers()
})

describe('the last minutes of a session', () => {
  it("reads a token's expiry from its payload, and nothing from anything else", () => {
    expect(tokenExpiresAt(tokenExpiring(60_000))).toBe(NOW + 60_000)
    for (const bad of [null, '', 'garbage', 'a.b.c', `x.${btoa('{"exp":"mañana"}')}.y`, `x.${btoa('{}')}.y`])
      expect(tokenExpiresAt(bad), String(bad)).toBeNull()
  })

  it('says nothing until ten minutes before the end, then when it ends, in Madrid time', () => {
    localStorage.setItem('token', tokenExpiring(15 * 60_000))
    render(<SessionExpiryNotice />)
    expect(screen.queryByRole('status')).toBeNull()
    act(() => vi.advanceTimersByTime(5 * 60_000 - 1000))
    expect(screen.queryByRole('status')).toBeNull()
    act(() => vi.advanceTimersByTime(1000))
    expect(screen.getByRole('status').textContent).toBe(
      'Tu sesión caduca a las 15:15. Guarda lo que estés escribiendo: después tendrás que volver a iniciar sesión.',
    )
    expect(sessionEndsMessage(NOW + 15 * 60_000)).toContain('15:15')
  })

  it('a session already in its last minutes says so at once; a new login makes it go', () => {
    localStorage.setItem('token', tokenExpiring(WARN_BEFORE_MS - 60_000))
    render(<SessionExpiryNotice />)
    expect(screen.getByRole('status')).toBeTruthy()
    act(() => {
      localStorage.setItem('token', tokenExpiring(8 * 3_600_000))
      window.dispatchEvent(new Event('sesion-cambiada'))
    })
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('a month-long session waits past the 24.8 days setTimeout can count, instead of firing at once', () => {
    localStorage.setItem('token', tokenExpiring(30 * 86_400_000))
    render(<SessionExpiryNotice />)
    act(() => vi.advanceTimersByTime(60_000))
    expect(screen.queryByRole('status')).toBeNull()
    act(() => vi.advanceTimersByTime(30 * 86_400_000 - WARN_BEFORE_MS - 60_000))
    expect(screen.getByRole('status')).toBeTruthy()
  })
})
