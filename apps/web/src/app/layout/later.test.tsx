import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Later } from './later'

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

describe('Later', () => {
  it('shows the page around it first and its children in a task of their own after it', async () => {
    render(
      <>
        <h1>Usuarios</h1>
        <Later>
          <button type="button">Notificaciones</button>
        </Later>
      </>,
    )
    expect(screen.getByRole('heading', { name: 'Usuarios' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Notificaciones' })).toBeNull()
    await act(async () => {
      await vi.runAllTimersAsync()
    })
    expect(screen.getByRole('button', { name: 'Notificaciones' })).toBeTruthy()
  })

  it('starts nothing once the page has gone', () => {
    const { unmount } = render(
      <Later>
        <p>menú</p>
      </Later>,
    )
    unmount()
    expect(vi.getTimerCount()).toBe(0)
  })
})
