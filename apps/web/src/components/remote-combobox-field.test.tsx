import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { RemoteCombobox } from './remote-combobox-field'

afterEach(cleanup)

function box(search = vi.fn(async (q: string) => [{ value: 1, label: `Ana ${q}`.trim() }])) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <RemoteCombobox label="Trabajador" queryKey={['trabajadores', 'picker']} search={search} value={null} onChange={vi.fn()} />
    </QueryClientProvider>,
  )
  return { search, input: screen.getByRole('combobox', { name: 'Trabajador' }) }
}

describe('RemoteCombobox', () => {
  it('asks for its options when its list first opens, not when it appears', async () => {
    const { search, input } = box()
    await act(async () => new Promise((r) => setTimeout(r, 20)))
    expect(search).not.toHaveBeenCalled()

    await act(async () => fireEvent.focus(input))
    expect(input.getAttribute('aria-expanded')).toBe('true')
    expect(await screen.findByRole('option', { name: 'Ana' })).toBeTruthy()
    expect(search).toHaveBeenCalledTimes(1)
    expect(search).toHaveBeenCalledWith('')
  })

  it('says it is loading while the first page of options is on its way', async () => {
    let answer: (options: { value: number; label: string }[]) => void = () => {}
    const { input } = box(vi.fn(() => new Promise((r) => (answer = r))))
    await act(async () => fireEvent.focus(input))
    expect(screen.getByText('Cargando...')).toBeTruthy()
    await act(async () => answer([{ value: 2, label: 'Luis' }]))
    expect(await screen.findByRole('option', { name: 'Luis' })).toBeTruthy()
    expect(screen.queryByText('Cargando...')).toBeNull()
  })
})
