import { describe, expect, it } from 'vitest'
import { returnTo, sesionTerminada } from './login-state'

describe('the login screen returns to where the worker was', () => {
  it('returns to a screen of this app, with its query, or to the fallback', () => {
    expect(returnTo({ from: '/usuarios?q=garcia&page=2' }, '/inicio')).toBe('/usuarios?q=garcia&page=2')
    expect(returnTo({ from: '/caja/12345678Z' }, '/inicio')).toBe('/caja/12345678Z')
    for (const state of [null, undefined, {}, { from: 3 }, 'x', { from: '' }]) expect(returnTo(state, '/inicio')).toBe('/inicio')
  })

  it('never another site, nor the login and password screens', () => {
    for (const from of [
      'https://malo.example/',
      '//malo.example/inicio',
      '/\\malo.example',
      'javascript:alert(1)',
      '/',
      '/?x=1',
      '/cambiar-password',
      '/cambiar-password-con-actual/',
      '/recuperar-contrase%C3%B1a?token=abc',
      '/recuperar-contraseña',
      '/%E0%A4%A',
    ])
      expect(returnTo({ from }, '/inicio'), from).toBe('/inicio')
  })

  it('says a session ended from the 401 until the next login', () => {
    expect(sesionTerminada.get()).toBe(false)
    sesionTerminada.mark()
    expect(sesionTerminada.get()).toBe(true)
    sesionTerminada.clear()
    expect(sesionTerminada.get()).toBe(false)
  })
})
