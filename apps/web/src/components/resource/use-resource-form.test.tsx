import { act, cleanup, renderHook } from '@testing-library/react'
import { z } from '@vb/shared/zod-es'
import type { ReactNode } from 'react'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { schemaFrom } from '../../lib/loaded-schema'
import { useResourceForm } from './use-resource-form'

interface Values {
  nombre: string
}

const schema = z.object({ nombre: z.string().trim().min(2, 'El nombre debe tener entre 2 y 100 caracteres') })
const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter>{children}</MemoryRouter>

/** The kit's form hook on a schema given as it is or loaded by `load`, the form open or not. */
function renderForm(given: Parameters<typeof useResourceForm<Values>>[0]['schema'], show = true) {
  return renderHook(({ open }) => useResourceForm<Values>({ schema: given, empty: { nombre: '' }, values: null, show: open }), {
    wrapper,
    initialProps: { open: show },
  })
}

afterEach(cleanup)

describe("a form's schema loaded when the form first opens (schemaFrom)", () => {
  it('is not asked for while the form is closed, and is asked for once as it opens', async () => {
    const load = vi.fn(async () => schema)
    const hook = renderForm(schemaFrom(load), false)
    expect(load).not.toHaveBeenCalled()
    hook.rerender({ open: true })
    await act(async () => {})
    expect(load).toHaveBeenCalledTimes(1)
    hook.rerender({ open: false })
    hook.rerender({ open: true })
    await act(async () => {})
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('validates with the loaded schema: its message under the field, and nothing saved; valid values are saved as it gives them', async () => {
    const hook = renderForm(schemaFrom(async () => schema))
    const save = vi.fn(async (_values: Values) => {})
    act(() => hook.result.current.form.setValue('nombre', 'A'))
    await act(() => hook.result.current.submit(save)())
    expect(hook.result.current.form.getFieldState('nombre').error?.message).toBe('El nombre debe tener entre 2 y 100 caracteres')
    expect(save).not.toHaveBeenCalled()
    act(() => hook.result.current.form.setValue('nombre', '  Ana  '))
    await act(() => hook.result.current.submit(save)())
    expect(save).toHaveBeenCalledWith({ nombre: 'Ana' })
  })

  it('says at the top of the form when the schema cannot be loaded, keeps what was typed, and asks again on the next submit', async () => {
    const load = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(schema)
    const hook = renderForm(schemaFrom(load), false)
    const save = vi.fn(async (_values: Values) => {})
    act(() => hook.result.current.form.setValue('nombre', 'Ana'))
    await act(() => hook.result.current.submit(save)())
    expect(hook.result.current.formError).toBe('Se ha producido un error inesperado. Inténtalo más tarde.')
    expect(hook.result.current.form.getValues('nombre')).toBe('Ana')
    expect(save).not.toHaveBeenCalled()
    await act(() => hook.result.current.submit(save)())
    expect(load).toHaveBeenCalledTimes(2)
    expect(save).toHaveBeenCalledWith({ nombre: 'Ana' })
  })

  it('takes a schema given as it is, as before', async () => {
    const hook = renderForm(schema)
    const save = vi.fn(async (_values: Values) => {})
    await act(() => hook.result.current.submit(save)())
    expect(hook.result.current.form.getFieldState('nombre').error?.message).toBe('El nombre debe tener entre 2 y 100 caracteres')
    expect(save).not.toHaveBeenCalled()
  })
})
