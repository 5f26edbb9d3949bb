import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { z } from '@vb/shared/zod-es'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type LoadedSchema, loadingForm, schemaFrom, schemaResolver } from './loaded-schema'

interface Values {
  email: string
}

const schema = z.object({ email: z.string().trim().min(1, 'El correo es obligatorio') })

/** A form outside the resource kit (a password page, one's own settings) whose schema loads when typed into. */
function PageForm({ formSchema, save }: { formSchema: LoadedSchema<Values>; save: (values: Values) => void }) {
  const [failure, setFailure] = useState<string | null>(null)
  const form = useForm<Values, unknown, Values>({ resolver: schemaResolver(formSchema), defaultValues: { email: '' } })
  const onSubmit = form.handleSubmit(async (values) => save(values))
  return (
    <form noValidate aria-label="f" {...loadingForm(formSchema, onSubmit, setFailure)}>
      {failure && <p role="alert">{failure}</p>}
      <input aria-label="Correo" {...form.register('email')} />
      <span>{form.formState.errors.email?.message}</span>
      <button type="submit">Enviar</button>
    </form>
  )
}

afterEach(cleanup)

describe('a form whose schema loads as it is typed into (loadingForm)', () => {
  it('asks for the schema at the first keystroke, once, and validates with it', async () => {
    const load = vi.fn(async () => schema)
    const save = vi.fn()
    render(<PageForm formSchema={schemaFrom(load)} save={save} />)
    expect(load).not.toHaveBeenCalled()
    fireEvent.input(screen.getByLabelText('Correo'), { target: { value: ' ' } })
    fireEvent.input(screen.getByLabelText('Correo'), { target: { value: '  ' } })
    expect(load).toHaveBeenCalledTimes(1)
    await act(async () => fireEvent.submit(screen.getByRole('form')))
    expect(screen.getByText('El correo es obligatorio')).toBeTruthy()
    expect(save).not.toHaveBeenCalled()
    fireEvent.input(screen.getByLabelText('Correo'), { target: { value: ' ana@example.com ' } })
    await act(async () => fireEvent.submit(screen.getByRole('form')))
    expect(save).toHaveBeenCalledWith({ email: 'ana@example.com' })
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('says so above the form when the schema cannot be downloaded, keeps what was typed, and tries again on the next submit', async () => {
    const load = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(schema)
    const save = vi.fn()
    render(<PageForm formSchema={schemaFrom(load)} save={save} />)
    // The first keystroke's request fails quietly; the submit asks again, fails, and says it.
    fireEvent.input(screen.getByLabelText('Correo'), { target: { value: 'ana@example.com' } })
    await act(async () => {})
    expect(screen.queryByRole('alert')).toBeNull()
    await act(async () => fireEvent.submit(screen.getByRole('form')))
    expect(load).toHaveBeenCalledTimes(2)
    expect(screen.getByRole('alert').textContent).toBe('Se ha producido un error inesperado. Inténtalo más tarde.')
    expect((screen.getByLabelText('Correo') as HTMLInputElement).value).toBe('ana@example.com')
    expect(save).not.toHaveBeenCalled()
    await act(async () => fireEvent.submit(screen.getByRole('form')))
    expect(load).toHaveBeenCalledTimes(3)
    expect(save).toHaveBeenCalledWith({ email: 'ana@example.com' })
  })
})
