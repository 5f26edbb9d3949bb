import { act, cleanup, renderHook } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { EMPRESA_EVENT, session } from './session'
import { useEmpresa, useEmpresaId } from './use-empresa'

afterEach(() => {
  cleanup()
  localStorage.clear()
})

describe('useEmpresaId', () => {
  it('reads the stored company and re-renders when the switcher announces a change', () => {
    localStorage.setItem('empresa', JSON.stringify({ id: 1, nombre: 'Uno' }))
    const { result } = renderHook(() => useEmpresaId())
    expect(result.current).toBe(1)

    act(() => session.setEmpresa({ id: 2, nombre: 'Dos' }))
    expect(result.current).toBe(2)

    act(() => session.setEmpresa(null))
    expect(result.current).toBeNull()
  })

  it('announces { id, nombre } and keeps a stable object between renders', () => {
    const seen: unknown[] = []
    const listener = (e: Event) => seen.push((e as CustomEvent).detail)
    window.addEventListener(EMPRESA_EVENT, listener)
    const { result, rerender } = renderHook(() => useEmpresa())
    // A full Empresa from GET /api/empresas: only { id, nombre } is stored and announced.
    const empresa = { id: 3, nombre: 'Tres', logoUrl: 'https://example.com/l.png' }
    act(() => session.setEmpresa(empresa))
    window.removeEventListener(EMPRESA_EVENT, listener)
    expect(seen).toEqual([{ id: 3, nombre: 'Tres' }])
    const first = result.current
    rerender()
    expect(result.current).toBe(first)
    expect(first).toEqual({ id: 3, nombre: 'Tres' })
  })

  it('treats a corrupt stored value as no selection', () => {
    localStorage.setItem('empresa', '{no json')
    const { result } = renderHook(() => useEmpresaId())
    expect(result.current).toBeNull()
  })
})
