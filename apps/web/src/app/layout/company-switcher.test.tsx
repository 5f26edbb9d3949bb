import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CompanySwitcher } from './company-switcher'
import { jsonResponse as json, trabajadorAna as trabajador } from './test-fixtures'

type Listed = { id: number; nombre: string }

/** The server: the switcher's first page of companies (with the total the worker may see) and each company by id. */
function server(page: Listed[], total: number, byId: Record<number, Listed | undefined> = {}) {
  const fetchMock = vi.fn(async (url: string) => {
    const one = url.match(/^\/api\/empresas\/(\d+)/)
    if (one) {
      const empresa = byId[Number(one[1])]
      return empresa ? json(empresa) : json({ statusCode: 404, code: 'NOT_FOUND', message: 'Empresa no encontrada' }, 404)
    }
    if (url.startsWith('/api/empresas?')) return json(page, 200, total)
    return new Promise<Response>(() => {})
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

const stored = () => JSON.parse(localStorage.getItem('empresa') ?? 'null')
const askedById = (fetchMock: ReturnType<typeof server>) =>
  fetchMock.mock.calls.filter(([url]) => /^\/api\/empresas\/\d/.test(url))

function start(selected: Listed) {
  localStorage.setItem('token', 'x.y.z')
  localStorage.setItem('trabajador', JSON.stringify(trabajador))
  localStorage.setItem('empresa', JSON.stringify(selected))
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <CompanySwitcher />
    </QueryClientProvider>,
  )
}

beforeEach(() => localStorage.clear())
afterEach(() => {
  cleanup()
  localStorage.clear()
  vi.unstubAllGlobals()
})

describe('CompanySwitcher: the stored selection checked at start', () => {
  it('takes a renamed company its new name from its own list, without asking for the company', async () => {
    const fetchMock = server([{ id: 1, nombre: 'Hogares Nuevos' }], 1)
    start({ id: 1, nombre: 'Hogares' })
    await waitFor(() => expect(stored()).toEqual({ id: 1, nombre: 'Hogares Nuevos' }))
    expect(askedById(fetchMock)).toHaveLength(0)
  })

  it('falls back to all of the worker’s companies when its list holds them all and not the stored one', async () => {
    const fetchMock = server([{ id: 1, nombre: 'Hogares' }], 1)
    start({ id: 9, nombre: 'Borrada' })
    await waitFor(() => expect(stored()).toBeNull())
    expect(askedById(fetchMock)).toHaveLength(0)
  })

  it('keeps a company it holds under the same name', async () => {
    const fetchMock = server([{ id: 1, nombre: 'Hogares' }], 1)
    start({ id: 1, nombre: 'Hogares' })
    await waitFor(() => expect(fetchMock).toHaveBeenCalled())
    await new Promise((r) => setTimeout(r, 30))
    expect(stored()).toEqual({ id: 1, nombre: 'Hogares' })
    expect(askedById(fetchMock)).toHaveLength(0)
  })

  it('asks for a company past its first page: kept (renamed) when the server has it, dropped on 404', async () => {
    const first = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, nombre: `Empresa ${i + 1}` }))
    let fetchMock = server(first, 120, { 80: { id: 80, nombre: 'Empresa 80 S.L.' } })
    start({ id: 80, nombre: 'Empresa 80' })
    await waitFor(() => expect(stored()).toEqual({ id: 80, nombre: 'Empresa 80 S.L.' }))
    expect(askedById(fetchMock).map(([url]) => url)).toEqual(['/api/empresas/80'])

    cleanup()
    fetchMock = server(first, 120)
    start({ id: 99, nombre: 'Empresa 99' })
    await waitFor(() => expect(stored()).toBeNull())
    expect(askedById(fetchMock).map(([url]) => url)).toEqual(['/api/empresas/99'])
  })
})
