import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TOAST_MS, type ToastApi, ToastProvider, useToast } from './toasts'

function Capture({ onReady }: { onReady: (t: ToastApi) => void }) {
  onReady(useToast())
  return null
}

function setup(): ToastApi {
  let toast: ToastApi | undefined
  render(
    <ToastProvider>
      <Capture onReady={(t) => (toast = t)} />
    </ToastProvider>,
  )
  if (!toast) throw new Error('no toast api')
  return toast
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

describe('useToast', () => {
  it('announces success politely in green and errors assertively in red', () => {
    const toast = setup()
    act(() => toast.success('Empresa añadida correctamente'))
    act(() => toast.error('No se pudo guardar.'))
    const ok = screen.getByText('Empresa añadida correctamente')
    expect(ok.closest('[aria-live="polite"]')).not.toBeNull()
    expect(ok.closest('.toast')?.className).toContain('bg-success')
    expect(screen.getByRole('alert').textContent).toContain('No se pudo guardar.')
    expect(screen.getByText('No se pudo guardar.').closest('.toast')?.className).toContain('bg-danger')
  })

  it('leaves no empty alert in the page', () => {
    setup()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('hides a success toast after 3000 ms by default, or after the given time', () => {
    const toast = setup()
    act(() => toast.success('Tres segundos'))
    act(() => toast.success('Dos segundos y medio', 2500))
    act(() => vi.advanceTimersByTime(2600))
    expect(screen.queryByText('Dos segundos y medio')).toBeNull()
    expect(screen.getByText('Tres segundos')).toBeTruthy()
    act(() => vi.advanceTimersByTime(TOAST_MS - 2600 + 10))
    expect(screen.queryByText('Tres segundos')).toBeNull()
  })

  it('closes at once with its close button', () => {
    const toast = setup()
    act(() => toast.error('Fallo'))
    act(() => screen.getByRole('button', { name: 'Cerrar aviso' }).click())
    expect(screen.queryByText('Fallo')).toBeNull()
  })

  it('refuses to run outside the provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => render(<Capture onReady={() => {}} />)).toThrow(/ToastProvider/)
  })
})
