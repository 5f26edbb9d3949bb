import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { optionalText, optionalUrl } from './common'
import { empresaConDatosMessage } from './empresas'
import { deletionBlockedMessage, dependentsText } from './ownership'

describe('optionalText', () => {
  const cif = optionalText(
    z
      .string()
      .trim()
      .max(9, 'El CIF no puede superar 9 caracteres')
      .regex(/^[A-Z]\d{7}[A-Z0-9]$/, 'El CIF no es válido'),
  )
  const body = z.object({ cif })

  it("maps '', spaces and null to null, and leaves an absent field absent (a PATCH does not touch it)", () => {
    expect(body.parse({ cif: '' })).toEqual({ cif: null })
    expect(body.parse({ cif: '   ' })).toEqual({ cif: null })
    expect(body.parse({ cif: null })).toEqual({ cif: null })
    expect(body.parse({})).toEqual({})
    expect(body.parse({ cif: ' B1234567A ' })).toEqual({ cif: 'B1234567A' })
  })

  it('answers each rule with its own Spanish message, never a generic one', () => {
    expect(body.safeParse({ cif: 'ABCDEFGHIJK' }).error?.issues[0]?.message).toBe('El CIF no puede superar 9 caracteres')
    expect(body.safeParse({ cif: 'B12' }).error?.issues[0]?.message).toBe('El CIF no es válido')
    expect(optionalUrl('La URL del logo no es válida').safeParse('javascript:alert(1)').error?.issues[0]?.message).toBe(
      'La URL del logo no es válida',
    )
  })
})

describe('refused deletions name what the record still holds', () => {
  it('in a fixed order, with the right singular and plural, an unknown table by its name', () => {
    expect(
      dependentsText([
        { tabla: 'contactos', n: 2 },
        { tabla: 'proveedores', n: 1 },
        { tabla: 'viviendas', n: 1 },
      ]),
    ).toBe('1 vivienda, 2 contactos y 1 registro de proveedores')
    expect(deletionBlockedMessage('la vivienda', [{ tabla: 'presupuestos', n: 1200 }], 'otra vivienda')).toBe(
      'No se puede eliminar la vivienda: todavía tiene 1200 presupuestos. Elimínalos o trasládalos antes a otra vivienda.',
    )
    expect(empresaConDatosMessage({ viviendas: 0, contactos: 3, tareas: 1 })).toBe(
      'No se puede eliminar la empresa: todavía tiene 3 contactos y 1 tarea del planing. Elimínalos o trasládalos antes a otra empresa.',
    )
  })
})
