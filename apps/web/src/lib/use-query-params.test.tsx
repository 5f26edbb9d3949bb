import { act, cleanup, render } from '@testing-library/react'
import { createBrowserRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { type QueryChanges, useQueryParams } from './use-query-params'

let change: (changes: QueryChanges) => void = () => {}
let shown = ''

function Probe() {
  const [search, set] = useQueryParams()
  change = set
  shown = search.toString()
  return null
}

const mount = (start: string) => {
  window.history.replaceState(null, '', start)
  const router = createBrowserRouter([{ path: '/lista', element: <Probe /> }])
  render(<RouterProvider router={router} />)
  return router
}

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)))

afterEach(() => {
  cleanup()
  window.history.replaceState(null, '', '/')
})

describe('useQueryParams', () => {
  it('keeps both of two changes asked before the router has rendered the first', async () => {
    mount('/lista?vivienda=3&estado=APROBADO&q=colchon')
    await settle()
    // Limpiar and a debounced search arriving in the same moment: both start from the same render.
    act(() => {
      change({ q: undefined, estado: undefined })
      change({ page: '2' })
    })
    await settle()
    expect(new URLSearchParams(window.location.search).toString()).toBe('vivienda=3&page=2')
    expect(shown).toBe('vivienda=3&page=2')
  })

  it('starts from the address as it is now, not from the last render', async () => {
    const router = mount('/lista?vivienda=3')
    await settle()
    const stale = change
    await act(() => router.navigate('/lista?vivienda=4&estado=PENDIENTE', { replace: true }))
    // A callback kept from an earlier render (a timer's) still builds on the new address.
    act(() => stale({ q: 'grifo' }))
    await settle()
    expect(shown).toBe('vivienda=4&estado=PENDIENTE&q=grifo')
  })

  it('forgets a change once it is shown: back at the address it started from, the next change starts there', async () => {
    const router = mount('/lista?vivienda=3')
    await settle()
    act(() => change({ estado: 'APROBADO' }))
    await settle()
    expect(shown).toBe('vivienda=3&estado=APROBADO')
    // An older entry of the history with the very address the change started from.
    await act(() => router.navigate('/lista?vivienda=3'))
    act(() => change({ q: 'grifo' }))
    await settle()
    expect(shown).toBe('vivienda=3&q=grifo')
  })

  it("removes keys given undefined, null or ''", async () => {
    mount('/lista?a=1&b=2&c=3&d=4')
    await settle()
    act(() => change({ a: undefined, b: null, c: '', d: '5' }))
    await settle()
    expect(shown).toBe('d=5')
  })
})
