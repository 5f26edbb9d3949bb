import { describe, expect, it } from 'vitest'
import { can } from './permissions'
import { normalizeRol } from './roles'

describe('role matrix (SPEC §6, DECISIONS P2)', () => {
  const sa = { rol: 'SUPERADMIN' as const }
  const ad = { rol: 'ADMIN' as const }
  const em = { rol: 'EMPLEADO' as const }
  it('companies: SUPERADMIN everything, ADMIN modify only, EMPLEADO nothing', () => {
    expect([can(sa, 'empresas', 'create'), can(sa, 'empresas', 'update'), can(sa, 'empresas', 'delete')]).toEqual([
      true,
      true,
      true,
    ])
    expect([can(ad, 'empresas', 'create'), can(ad, 'empresas', 'update'), can(ad, 'empresas', 'delete')]).toEqual([
      false,
      true,
      false,
    ])
    expect([can(em, 'empresas', 'create'), can(em, 'empresas', 'update'), can(em, 'empresas', 'delete')]).toEqual([
      false,
      false,
      false,
    ])
  })
  it('homes: only SUPERADMIN deletes; EMPLEADO only views', () => {
    expect(can(ad, 'viviendas', 'delete')).toBe(false)
    expect(can(ad, 'viviendas', 'create')).toBe(true)
    expect(can(em, 'viviendas', 'update')).toBe(false)
    expect(can(em, 'viviendas', 'list')).toBe(true)
  })
  it('workers and logs are not for EMPLEADO', () => {
    expect(can(em, 'trabajadores', 'list')).toBe(false)
    expect(can(em, 'logs', 'list')).toBe(false)
    expect(can(ad, 'logs', 'list')).toBe(true)
  })
  it('residents: every role may create', () => {
    expect([sa, ad, em].every((w) => can(w, 'usuarios', 'create'))).toBe(true)
  })
  it('nobody without a worker', () => {
    expect(can(null, 'usuarios', 'list')).toBe(false)
  })
  it('an unknown role is EMPLEADO', () => {
    expect(normalizeRol('JEFE')).toBe('EMPLEADO')
    expect(normalizeRol('ADMIN')).toBe('ADMIN')
  })
})
