import { describe, expect, it } from 'vitest'
import { pageTitle } from './page-title'

describe('pageTitle (SPEC §2.2, DECISIONS D14)', () => {
  it('names each screen in Spanish with its accents', () => {
    expect(pageTitle('/informes')).toBe('Informes')
    expect(pageTitle('/documentacion/12345678Z')).toBe('Documentación')
    expect(pageTitle('/caja/12345678Z')).toBe('Caja')
    expect(pageTitle('/ficha-trabajador')).toBe('Ficha del trabajador')
    expect(pageTitle('/configuracionUsuario')).toBe('Configuración de usuario')
    expect(pageTitle('/configuracion')).toBe('Configuración')
    expect(pageTitle('/cambiar-password-con-actual')).toBe('Cambiar contraseña')
    expect(pageTitle('/recuperar-contrase%C3%B1a')).toBe('Recuperar contraseña')
  })
  it('defaults to Inicio, and capitalises a segment it does not know', () => {
    expect(pageTitle('/')).toBe('Inicio')
    expect(pageTitle('')).toBe('Inicio')
    expect(pageTitle('/otra-cosa')).toBe('Otra-cosa')
  })
  it('keeps a malformed escape as it is', () => {
    expect(pageTitle('/%E0%A4%A')).toBe('%E0%A4%A')
  })
})
