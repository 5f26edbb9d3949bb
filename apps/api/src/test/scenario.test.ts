import { describe, expect, it } from 'vitest'
import { trabajadorEmpresas } from '../db/schema'
import { testScenario } from './scenario'

// The preamble helper itself: what it makes, in which order, and what it refuses to hand out.
const s = await testScenario({
  empresaA: { nombre: 'Empresa Escenario' },
  usuarioA: { nombre: 'Residente', apellidos: 'Del Escenario' },
  workers: { superadmin: { rol: 'SUPERADMIN' }, admin: { rol: 'ADMIN', of: ['A', 'B'] } },
})

describe('testScenario', () => {
  it('makes A, then B, a home of A for the resident asked for, and the workers in order, linked as said', async () => {
    expect(s.empresaA.nombre).toBe('Empresa Escenario')
    expect(s.empresaB.id).toBeGreaterThan(s.empresaA.id)
    expect(s.viviendaA.empresaId).toBe(s.empresaA.id)
    expect(s.usuarioA).toMatchObject({ apellidos: 'Del Escenario', viviendaId: s.viviendaA.id })
    expect(s.admin.id).toBeGreaterThan(s.superadmin.id)
    const links = await s.t.db.select().from(trabajadorEmpresas)
    const adminLinks = links.filter((l) => l.trabajadorId === s.admin.id).map((l) => l.empresaId)
    expect(adminLinks.sort((x, y) => x - y)).toEqual([s.empresaA.id, s.empresaB.id])
    expect(links.filter((l) => l.trabajadorId === s.superadmin.id)).toEqual([])
  })

  it('says so when a test reads a row it did not ask for', () => {
    expect(() => s.viviendaB).toThrow('testScenario: viviendaB was not asked for in the options')
  })

  it('reads the log: a worker’s newest entry and the total', async () => {
    const before = await s.logCount()
    expect((await s.t.as(s.admin, { method: 'POST', url: '/api/empresas', payload: {} })).statusCode).toBe(403)
    expect(await s.logCount()).toBe(before)
    const res = await s.t.as(s.superadmin, { method: 'POST', url: '/api/empresas', payload: { nombre: 'Empresa Nueva' } })
    expect(res.statusCode).toBe(201)
    expect(await s.logCount()).toBe(before + 1)
    expect(await s.lastLog(s.superadmin)).toMatchObject({ trabajadorId: s.superadmin.id })
    expect(await s.lastLog(s.superadmin.id)).toEqual(await s.lastLog(s.superadmin))
  })
})
