import { describe, expect, it } from 'vitest'
import type { DbOrTx } from '../db/client'
import { createNotificaciones } from '../modules/notificaciones/notificaciones.service'
import type { TestWorker } from '../test/build-test-app'
import { makeDocumento, makeNif, makePresupuesto, makeUsuario } from '../test/factories'
import { testScenario } from '../test/scenario'
import { countSlot, invalidateCounts, setCountCacheTtl } from './count-cache'

/** A list's bounded total (searched or not) is counted once per few seconds, and never outlives a write. */

const scenario = await testScenario({
  empresaA: { nombre: 'Empresa Cuenta' },
  empresaB: { nombre: 'Empresa Otra' },
  viviendaA: { nombre: 'Calle Cuenta 1' },
  viviendaB: {},
  workers: { admin: { rol: 'ADMIN', of: ['A'] }, superadmin: { rol: 'SUPERADMIN' } },
})
const { t, viviendaB, admin, superadmin } = scenario
const viviendaId = scenario.viviendaA.id
// The other company's resident: what a SUPERADMIN's search finds and an ADMIN's does not.
await makeUsuario(t.db, viviendaB.id, { nombre: 'Zorro', apellidos: 'Ajeno' })
// Tests run with the cache off (buildTestApp); this file is about the cache.
setCountCacheTtl(60_000)

const total = async (who: TestWorker, url: string) => {
  const res = await t.as(who, { method: 'GET', url })
  expect(res.statusCode).toBe(200)
  return { total: Number(res.headers['x-total-count']), rows: res.json().length as number }
}

describe('the count cache of list totals', () => {
  it('keeps a total, searched or not, until a write request, per scope; the rows are always fresh', async () => {
    await makeUsuario(t.db, viviendaId, { nombre: 'Zorro', apellidos: 'Primero' })
    expect(await total(admin, '/api/usuarios?q=zorro')).toEqual({ total: 1, rows: 1 })
    // Each scope counts for itself: the SUPERADMIN also sees the other company's Zorro.
    expect(await total(superadmin, '/api/usuarios?q=zorro')).toEqual({ total: 2, rows: 2 })

    // A row written straight in SQL (as another process would) is not announced: the total stays, the rows do not.
    await makeUsuario(t.db, viviendaId, { nombre: 'Zorro', apellidos: 'Segundo' })
    expect(await total(admin, '/api/usuarios?q=zorro')).toEqual({ total: 1, rows: 2 })
    // An unsearched list's total is kept the same way (a sort or another page reads it again).
    expect(await total(admin, '/api/usuarios')).toEqual({ total: 2, rows: 2 })
    await makeUsuario(t.db, viviendaId, { nombre: 'Nutria', apellidos: 'Directa' })
    expect(await total(admin, '/api/usuarios?sort=nif')).toEqual({ total: 2, rows: 3 })

    // A write request through the API drops every cached total as it answers.
    const created = await t.as(admin, {
      method: 'POST',
      url: '/api/usuarios',
      payload: { nombre: 'Zorro', apellidos: 'Tercero', nif: makeNif(), viviendaId },
    })
    expect(created.statusCode).toBe(201)
    expect(await total(admin, '/api/usuarios?q=zorro')).toEqual({ total: 3, rows: 3 })
    expect(await total(superadmin, '/api/usuarios?q=zorro')).toEqual({ total: 4, rows: 4 })
    expect(await total(admin, '/api/usuarios?sort=nif')).toEqual({ total: 4, rows: 4 })

    // So does a deletion.
    const id = created.json().id
    expect((await t.as(admin, { method: 'DELETE', url: `/api/usuarios/${id}` })).statusCode).toBe(204)
    expect(await total(admin, '/api/usuarios?q=zorro')).toEqual({ total: 2, rows: 2 })
  })

  it('keeps the start page’s counts the same way, and drops them at a write request', async () => {
    setCountCacheTtl(60_000)
    const pendientes = async () => {
      const res = await t.as(admin, { method: 'GET', url: '/api/inicio/pendientes' })
      expect(res.statusCode).toBe(200)
      return res.json() as { pirCaducados: { total: number }; presupuestosPendientes: { total: number } }
    }
    const before = await pendientes()
    // An expired PIR and a budget awaiting a decision written straight in SQL: not announced, the counts stay.
    const u = await makeUsuario(t.db, viviendaId, { nombre: 'Garza', apellidos: 'Caducada' })
    await makeDocumento(t.db, u.id, { titulo: 'PIR', fecha: new Date('2020-01-01T10:00:00Z') })
    await makePresupuesto(t.db, viviendaId, { estado: 'PENDIENTE_APROBACION' })
    expect(await pendientes()).toEqual(before)
    // A write request through the API drops them.
    const created = await t.as(admin, {
      method: 'POST',
      url: '/api/usuarios',
      payload: { nombre: 'Garza', apellidos: 'Nueva', nif: makeNif(), viviendaId },
    })
    expect(created.statusCode).toBe(201)
    const after = await pendientes()
    expect(after.pirCaducados.total).toBe(before.pirCaducados.total + 1)
    expect(after.presupuestosPendientes.total).toBe(before.presupuestosPendientes.total + 1)
  })

  it('never keeps the bell’s total: a notification no write request announced shows in its count at once', async () => {
    setCountCacheTtl(60_000)
    const bell = () => total(admin, `/api/trabajadores/${admin.id}/notificaciones`)
    const before = await bell()
    // As the daily PIR run or another process would: created straight in the database, pushed by the stream.
    await createNotificaciones(t.db, [
      { titulo: 'Aviso directo', descripcion: 'Sin petición', tipo: 'info', trabajadorId: admin.id },
    ])
    expect(await bell()).toEqual({ total: before.total + 1, rows: before.rows + 1 })
  })

  it('an entry expires after its time, so a write made elsewhere shows', async () => {
    setCountCacheTtl(50)
    const before = await total(admin, '/api/usuarios?q=zorro')
    await makeUsuario(t.db, viviendaId, { nombre: 'Zorro', apellidos: 'Cuarto' })
    await new Promise((r) => setTimeout(r, 80))
    expect(await total(admin, '/api/usuarios?q=zorro')).toEqual({ total: before.total + 1, rows: before.rows + 1 })
  })

  it('keeps the total a new search counted in the same statement as its page, for its next pages', async () => {
    setCountCacheTtl(60_000)
    await makeUsuario(t.db, viviendaId, { nombre: 'Lince', apellidos: 'Uno' })
    await makeUsuario(t.db, viviendaId, { nombre: 'Lince', apellidos: 'Dos' })
    expect(await total(admin, '/api/usuarios?q=lince&page=1&pageSize=1')).toEqual({ total: 2, rows: 1 })
    // Written straight in SQL: page 2 takes the kept total, and fresh rows.
    await makeUsuario(t.db, viviendaId, { nombre: 'Lince', apellidos: 'Tres' })
    expect(await total(admin, '/api/usuarios?q=lince&page=2&pageSize=1')).toEqual({ total: 2, rows: 1 })
    expect(await total(admin, '/api/usuarios?q=lince&page=1&pageSize=5')).toEqual({ total: 2, rows: 3 })
  })

  it('countSlot: a total is kept for its key, unless a write committed after the slot was taken', () => {
    const db = {} as DbOrTx
    const first = countSlot(db, 'a')
    expect(first.cached).toBeUndefined()
    first.keep({ total: 3, exact: true })
    expect(countSlot(db, 'a').cached).toEqual({ total: 3, exact: true })
    expect(countSlot(db, 'b').cached).toBeUndefined()

    // Counted while a write went through: never kept, and the write dropped what was there.
    const raced = countSlot(db, 'b')
    invalidateCounts(db)
    raced.keep({ total: 1, exact: true })
    expect(countSlot(db, 'b').cached).toBeUndefined()
    expect(countSlot(db, 'a').cached).toBeUndefined()
  })
})
