import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

// The shell's children, each counting its renders (their own code is tested apart).
const renders = vi.hoisted(() => ({ sideMenu: 0 }))
vi.mock('./side-menu', () => ({
  SideMenu: () => {
    renders.sideMenu++
    return null
  },
}))
vi.mock('./company-switcher', () => ({ CompanySwitcher: () => null }))
vi.mock('./notification-bell', () => ({ NotificationBell: () => null }))
vi.mock('./user-menu', () => ({ UserMenu: () => null }))

const { Shell } = await import('./shell')
const { jsonResponse, trabajadorAna: trabajador } = await import('./test-fixtures')

let answerMe: () => void = () => {}
const fetchMock = vi.fn((url: string) => {
  if (url.startsWith('/api/trabajadores/me')) {
    return new Promise<Response>((resolve) => {
      answerMe = () => resolve(jsonResponse(trabajador))
    })
  }
  return new Promise<Response>(() => {})
})

beforeEach(() => {
  renders.sideMenu = 0
  localStorage.setItem('token', 'x.y.z')
  localStorage.setItem('trabajador', JSON.stringify(trabajador))
  vi.stubGlobal('fetch', fetchMock)
})
afterEach(() => {
  cleanup()
  localStorage.clear()
  vi.unstubAllGlobals()
})

describe('Shell', () => {
  it('refreshes the stored worker from /me without rendering the shell around the screen again', async () => {
    const router = createMemoryRouter([{ element: <Shell />, children: [{ path: '/', element: <p>pantalla</p> }] }])
    render(
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    )
    expect(await screen.findByText('pantalla')).toBeTruthy()
    // The side menu shows after the screen (Later).
    await act(async () => new Promise((r) => setTimeout(r, 20)))
    expect(renders.sideMenu).toBe(1)
    expect(fetchMock).toHaveBeenCalledWith('/api/trabajadores/me', expect.anything())

    const stored = vi.spyOn(Storage.prototype, 'setItem')
    await act(async () => {
      answerMe()
      await new Promise((r) => setTimeout(r, 20))
    })
    expect(stored).toHaveBeenCalledWith('trabajador', JSON.stringify(trabajador))
    expect(renders.sideMenu).toBe(1)
  })
})
