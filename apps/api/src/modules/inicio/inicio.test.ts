import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp, type TestWorker } from '../../test/build-test-app'
import {
  makeDocumento,
  makeEmpresa,
  makePlaningTarea,
  makePresupuesto,
  makeTareaTrabajador,
  makeUsuario,
  makeVivienda,
} from '../../test/factories'

/** Today is Saturday 21 November 2026 in Madrid. */
const clock = { now: () => new Date('2026-11-21T11:00:00Z') }
let t: TestApp
let empresaA: { id: number }
let empresaB: { id: number }
let casaA: { id: number }
let casaB: { id: number }
let admin: TestWorker
let otroAdmin: TestWorker

const pir = (usuarioId: number, fecha: string) => makeDocumento(t.db, usuarioId, { titulo: 'PIR', fecha: new Date(fecha) })

beforeAll(async () => {
  t = await buildTestApp({ clock })
  empresaA = await makeEmpresa(t.db)
  empresaB = await makeEmpresa(t.db)
  casaA = await makeVivienda(t.db, empresaA.id)
  casaB = await makeVivienda(t.db, empresaB.id)
  admin = await t.worker('ADMIN', [empresaA.id, empresaB.id])
  otroAdmin = await t.worker('ADMIN', [empresaB.id])

  // PIR: expired (date + 6 months = 20 Nov), expires today (21 Nov), in 30 days (21 Dec), in 31 days, none.
  await pir((await makeUsuario(t.db, casaA.id)).id, '2026-05-20T10:00:00Z')
  await pir((await makeUsuario(t.db, casaA.id)).id, '2026-05-21T10:00:00Z')
  const renovado = await makeUsuario(t.db, casaA.id)
  await pir(renovado.id, '2025-01-01T10:00:00Z')
  await pir(renovado.id, '2026-06-21T10:00:00Z')
  await pir((await makeUsuario(t.db, casaA.id)).id, '2026-06-22T10:00:00Z')
  await makeUsuario(t.db, casaA.id)
  await pir((await makeUsuario(t.db, casaB.id)).id, '2026-01-01T10:00:00Z')

  const u = await makeUsuario(t.db, casaA.id)
  // Today in Madrid runs from 20 Nov 23:00 UTC to 21 Nov 23:00 UTC.
  await makePlaningTarea(t.db, [u.id], { empresaId: empresaA.id, fecha: new Date('2026-11-20T23:30:00Z') })
  await makePlaningTarea(t.db, [u.id], { empresaId: empresaA.id, fecha: new Date('2026-11-21T22:30:00Z') })
  await makePlaningTarea(t.db, [u.id], { empresaId: empresaA.id, fecha: new Date('2026-11-21T23:30:00Z') })

  await makeTareaTrabajador(t.db, admin.id, casaA.id, { fecha: new Date('2026-11-19T09:00:00Z') })
  await makeTareaTrabajador(t.db, admin.id, casaA.id, { fecha: new Date('2026-11-25T09:00:00Z') })
  await makeTareaTrabajador(t.db, admin.id, casaA.id, { fecha: new Date('2026-11-10T09:00:00Z'), completada: true })
  await makeTareaTrabajador(t.db, admin.id, casaB.id, { fecha: new Date('2026-11-18T09:00:00Z') })
  await makeTareaTrabajador(t.db, otroAdmin.id, casaB.id, { fecha: new Date('2026-11-18T09:00:00Z') })

  await makePresupuesto(t.db, casaA.id, { estado: 'PENDIENTE_APROBACION' })
  await makePresupuesto(t.db, casaA.id, { estado: 'APROBADO' })
  await makePresupuesto(t.db, casaB.id, { estado: 'PENDIENTE_APROBACION' })
})
afterAll(async () => {
  await t.close()
})

const get = (w: TestWorker, qs = '') => t.as(w, { method: 'GET', url: `/api/inicio/pendientes${qs}` })
const n = (total: number) => ({ total, exacto: true })

describe('GET /api/inicio/pendientes: what needs the worker today', () => {
  it('counts for the selected company: PIR expired and expiring, today’s calendar, own pending tasks, budgets to decide', async () => {
    const res = await get(admin, `?empresaId=${empresaA.id}`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      pirCaducados: n(1),
      pirPorCaducar: n(2),
      planingHoy: n(2),
      tareasPendientes: n(2),
      tareasVencidas: n(1),
      presupuestosPendientes: n(1),
      hoy: '2026-11-21',
    })
  })

  it('all the worker’s companies without a selection, and never another company’s', async () => {
    const all = (await get(admin)).json()
    expect(all).toMatchObject({ pirCaducados: n(2), tareasPendientes: n(3), tareasVencidas: n(2), presupuestosPendientes: n(2) })
    const other = (await get(otroAdmin, `?empresaId=${empresaA.id}`)).json()
    expect(other).toMatchObject({ pirCaducados: n(0), pirPorCaducar: n(0), planingHoy: n(0), presupuestosPendientes: n(0) })
  })

  it('the PIR links land on lists with the same residents', async () => {
    const caducados = await t.as(admin, { method: 'GET', url: `/api/usuarios?empresaId=${empresaA.id}&pir=caducado` })
    expect(caducados.json().map((u: { pir: { estado: string } }) => u.pir.estado)).toEqual(['caducado'])
    const aviso = await t.as(admin, { method: 'GET', url: `/api/usuarios?empresaId=${empresaA.id}&pir=aviso` })
    expect(aviso.statusCode, aviso.body).toBe(200)
    expect(
      aviso
        .json()
        .map((u: { pir: { diasRestantes: number } }) => u.pir.diasRestantes)
        .sort(),
    ).toEqual([0, 30])
  })

  it('requires a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/inicio/pendientes' })).statusCode).toBe(401)
  })
})

describe('the stored latest PIR date follows the documents', () => {
  it('a PIR created, redated, retitled and deleted through the API changes the badge, the filter and the counts at once', async () => {
    const e = await makeEmpresa(t.db)
    const casa = await makeVivienda(t.db, e.id)
    const w = await t.worker('ADMIN', [e.id])
    const u = await makeUsuario(t.db, casa.id)
    const badge = async () =>
      (await t.as(w, { method: 'GET', url: `/api/usuarios?empresaId=${e.id}` })).json()[0].pir as { estado: string }
    const counts = async () => (await get(w, `?empresaId=${e.id}`)).json()
    expect(await badge()).toMatchObject({ estado: 'sinpir' })

    const created = await t.as(w, {
      method: 'POST',
      url: '/api/documentos-usuario',
      payload: { titulo: ' pir ', archivoUrl: 'https://e.es/pir.pdf', fecha: '2026-05-01', usuarioId: u.id },
    })
    expect(created.statusCode, created.body).toBe(201)
    expect(await badge()).toMatchObject({ estado: 'caducado' })
    expect(await counts()).toMatchObject({ pirCaducados: n(1), pirPorCaducar: n(0) })
    const filtered = await t.as(w, { method: 'GET', url: `/api/usuarios?empresaId=${e.id}&pir=caducado` })
    expect(filtered.json().map((r: { id: number }) => r.id)).toEqual([u.id])

    // An edit of the document as the screen sends it: with the version it read.
    const edit = (read: { json(): { id: number; updatedAt: string } }, payload: Record<string, string>) =>
      t.as(w, {
        method: 'PATCH',
        url: `/api/documentos-usuario/${read.json().id}`,
        headers: { 'if-match': `"${read.json().updatedAt}"` },
        payload,
      })
    const redated = await edit(created, { fecha: '2026-06-10' })
    expect(redated.statusCode, redated.body).toBe(200)
    expect(await badge()).toMatchObject({ estado: 'aviso' })
    expect(await counts()).toMatchObject({ pirCaducados: n(0), pirPorCaducar: n(1) })

    const retitled = await edit(redated, { titulo: 'Informe' })
    expect(retitled.statusCode, retitled.body).toBe(200)
    expect(await badge()).toMatchObject({ estado: 'sinpir' })

    const again = await t.as(w, {
      method: 'POST',
      url: '/api/documentos-usuario',
      payload: { titulo: 'PIR', archivoUrl: 'https://e.es/pir2.pdf', fecha: '2026-11-01', usuarioId: u.id },
    })
    expect(await badge()).toMatchObject({ estado: 'vigente' })
    const removed = await t.as(w, { method: 'DELETE', url: `/api/documentos-usuario/${again.json().id}` })
    expect(removed.statusCode).toBe(204)
    expect(await badge()).toMatchObject({ estado: 'sinpir' })
    expect(await counts()).toMatchObject({ pirCaducados: n(0), pirPorCaducar: n(0) })
  })

  it('two PIR documents of one resident written at once: the stored date is the later one', async () => {
    const casa = await makeVivienda(t.db, empresaA.id)
    const u = await makeUsuario(t.db, casa.id)
    for (let round = 0; round < 5; round++) {
      const fechas = ['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01'].map((f) => f.replace('2026', String(2030 + round)))
      const written = await Promise.all(
        fechas.map((fecha) =>
          t.as(admin, {
            method: 'POST',
            url: '/api/documentos-usuario',
            payload: { titulo: 'PIR', archivoUrl: 'https://e.es/p.pdf', fecha, usuarioId: u.id },
          }),
        ),
      )
      const { rows } = (await t.db.execute(sql`select pir_fecha from usuarios where id = ${u.id}`)) as unknown as {
        rows: Array<{ pir_fecha: Date | string }>
      }
      expect(written.map((r) => r.statusCode)).toEqual([201, 201, 201, 201])
      const madridDay = new Date(rows[0]?.pir_fecha as string).toLocaleDateString('sv-SE', { timeZone: 'Europe/Madrid' })
      expect(madridDay).toBe(`${2030 + round}-04-01`)
    }
  })
})
