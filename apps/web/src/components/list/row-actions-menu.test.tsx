import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { Profiler } from 'react'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { RowActionsMenu } from './row-actions-menu'
import type { RowAction } from './types'

afterEach(cleanup)

function menu(onSelect = vi.fn()) {
  const actions: RowAction[] = [
    { label: 'Editar', icon: 'pencil', onSelect },
    { label: 'Ver caja', to: '/caja/12345678Z' },
  ]
  return { onSelect, actions }
}

const toggle = () => screen.getByRole('button', { name: 'Acciones de Ana Pérez' })

describe('RowActionsMenu', () => {
  it('costs a page one render per row until it is opened (the Dropdown sets state from its ref while committing)', () => {
    const { actions } = menu()
    let commits = 0
    render(
      <MemoryRouter>
        <Profiler id="rows" onRender={() => commits++}>
          {Array.from({ length: 25 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of identical rows
            <RowActionsMenu key={i} label={`Fila ${i}`} actions={actions} />
          ))}
        </Profiler>
      </MemoryRouter>,
    )
    expect(commits).toBe(1)
    expect(screen.getAllByRole('button', { name: /^Acciones de Fila/ })).toHaveLength(25)
    expect(screen.queryByRole('button', { name: 'Editar' })).toBeNull()
  })

  it('opens on the first click with the focus on its button, runs an action and closes', async () => {
    const { actions, onSelect } = menu()
    render(
      <MemoryRouter>
        <RowActionsMenu label="Ana Pérez" actions={actions} />
      </MemoryRouter>,
    )
    expect(toggle().getAttribute('aria-expanded')).toBe('false')
    toggle().focus()
    await act(async () => fireEvent.click(toggle()))
    expect(toggle().getAttribute('aria-expanded')).toBe('true')
    expect(document.activeElement).toBe(toggle())
    expect(screen.getByRole('link', { name: 'Ver caja' }).getAttribute('href')).toBe('/caja/12345678Z')
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Editar' })))
    expect(onSelect).toHaveBeenCalledTimes(1)
    expect(toggle().getAttribute('aria-expanded')).toBe('false')
    // Opened again, the same Dropdown.
    await act(async () => fireEvent.click(toggle()))
    expect(toggle().getAttribute('aria-expanded')).toBe('true')
  })

  it('opens with the down arrow as the Dropdown does, and Escape closes it', async () => {
    const { actions } = menu()
    render(
      <MemoryRouter>
        <RowActionsMenu label="Ana Pérez" actions={actions} />
      </MemoryRouter>,
    )
    toggle().focus()
    await act(async () => fireEvent.keyDown(toggle(), { key: 'ArrowDown' }))
    expect(toggle().getAttribute('aria-expanded')).toBe('true')
    expect(document.activeElement).toBe(toggle())
    await act(async () => fireEvent.keyDown(toggle(), { key: 'Escape' }))
    expect(toggle().getAttribute('aria-expanded')).toBe('false')
  })

  it('shows nothing without actions', () => {
    const { container } = render(<RowActionsMenu label="Ana Pérez" actions={[]} />)
    expect(container.innerHTML).toBe('')
  })
})
