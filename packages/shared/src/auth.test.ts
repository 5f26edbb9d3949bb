import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { changePasswordFormSchema, loginSchema, newPasswordFormSchema, passwordMessages } from './auth'
import { fieldErrorsFromIssues } from './errors'

const errorsOf = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value)
  return r.success ? {} : fieldErrorsFromIssues(r.error.issues)
}

describe('SPEC §5 Login', () => {
  it('requires the e-mail and the password', () => {
    expect(errorsOf(loginSchema, { email: '', password: '' })).toEqual({
      email: 'El correo es obligatorio',
      password: 'La contraseña es obligatoria',
    })
    expect(errorsOf(loginSchema, {})).toEqual({ email: 'El correo es obligatorio', password: 'La contraseña es obligatoria' })
  })
  it('rejects an invalid e-mail with "Correo inválido"', () => {
    expect(errorsOf(loginSchema, { email: 'maria@', password: 'x' })).toEqual({ email: 'Correo inválido' })
  })
  it('accepts a valid login, trimming the e-mail', () => {
    expect(loginSchema.parse({ email: '  admin@demo.es ', password: 'Demo1234' })).toEqual({
      email: 'admin@demo.es',
      password: 'Demo1234',
    })
  })
})

describe('SPEC §5 New password', () => {
  it.each(['corta1A', 'sinmayuscula1', 'SinNumeroAqui', ''])('refuses %j with the rule message', (pw) => {
    expect(errorsOf(newPasswordFormSchema, { passwordNueva: pw, confirmar: pw }).passwordNueva).toBe(
      'La contraseña debe tener al menos 8 caracteres, una mayúscula y un número.',
    )
  })
  it('accepts 8 characters with an uppercase letter and a digit', () => {
    expect(errorsOf(newPasswordFormSchema, { passwordNueva: 'Segura123', confirmar: 'Segura123' })).toEqual({})
  })
  it('requires the confirmation to match', () => {
    expect(errorsOf(newPasswordFormSchema, { passwordNueva: 'Segura123', confirmar: 'Segura124' })).toEqual({
      confirmar: 'Las contraseñas no coinciden.',
    })
  })
  it('with-current variant: its own messages and the current password required', () => {
    expect(errorsOf(changePasswordFormSchema, { passwordActual: '', passwordNueva: 'debil', confirmar: 'debil' })).toEqual({
      passwordActual: 'Debes ingresar tu contraseña actual.',
      passwordNueva: 'La nueva contraseña debe tener al menos 8 caracteres, una mayúscula y un número.',
    })
    expect(
      errorsOf(changePasswordFormSchema, { passwordActual: 'Demo1234', passwordNueva: 'Segura123', confirmar: 'Otra1234' }),
    ).toEqual({ confirmar: 'Las nuevas contraseñas no coinciden.' })
  })
  it('keeps SPEC texts for the other outcomes', () => {
    expect(passwordMessages.sinUsuario).toBe('No se encontró el usuario para actualizar.')
    expect(passwordMessages.exito).toBe('Contraseña actualizada correctamente.')
    expect(passwordMessages.fallo).toBe('No se pudo actualizar la contraseña. Inténtalo más tarde.')
  })
})
