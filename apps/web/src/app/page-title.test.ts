import { describe, expect, it } from 'vitest'
import { pageTitle } from './page-title'

describe('pageTitle (SPEC §2.2)', () => {
  it('capitalises the first path segment', () => {
    expect(pageTitle('/informes')).toBe('Informes')
    expect(pageTitle('/documentacion/12345678Z')).toBe('Documentacion')
    expect(pageTitle('/ficha-trabajador')).toBe('Ficha-trabajador')
    expect(pageTitle('/configuracionUsuario')).toBe('ConfiguracionUsuario')
  })
  it('defaults to Inicio', () => {
    expect(pageTitle('/')).toBe('Inicio')
    expect(pageTitle('')).toBe('Inicio')
  })
  it('decodes escaped segments and keeps malformed ones', () => {
    expect(pageTitle('/recuperar-contrase%C3%B1a')).toBe('Recuperar-contraseña')
    expect(pageTitle('/%E0%A4%A')).toBe('%E0%A4%A')
  })
})
