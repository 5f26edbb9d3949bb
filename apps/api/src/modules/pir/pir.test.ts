import { and, desc, eq, like, sql } from 'drizzle-orm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { documentosUsuario, notificaciones, trabajadorEmpresas } from '../../db/schema'
import { scheduleDaily, untilNextRun } from '../../lib/daily'
import type { TestWorker } from '../../test/build-test-app'
import { makeDocumento, makeUsuario } from '../../test/factories'
import { testScenario } from '../../test/scenario'
import { runDailyJobs } from '../daily-jobs'
import { notifyPir } from './pir.service'

/** SPEC §4, DECISIONS D3 under a fixed clock: noon in Madrid on 21 November 2026. */
const clock = { at: new Date('2026-11-21T11:00:00Z'), now: () => clock.at }
const scenario = await testScenario({
  clock,
  viviendaA: {},
  viviendaB: {},
  workers: {
    admin: { rol: 'ADMIN', of: ['A'] },
    empleado: { rol: 'EMPLEADO', of: ['A'] },
    superLinked: { rol: 'SUPERADMIN', of: ['A', 'B'] },
    superUnlinked: { rol: 'SUPERADMIN' },
    inactive: { rol: 'EMPLEADO', of: ['A'], values: { activo: false } },
    otherCompany: { rol: 'EMPLEADO', of: ['B'] },
  },
})
const { t, admin, empleado, superLinked, superUnlinked, inactive, otherCompany } = scenario
const homeA = scenario.viviendaA.id
const homeB = scenario.viviendaB.id

/** A resident of company A whose PIR documents have these dates (Madrid days at 10:00). */
async function resident(nombre: string, pirDates: string[], titulo = 'PIR') {
  const u = await makeUsuario(t.db, homeA, { nombre, apellidos: 'Prueba Pir' })
  for (const d of pirDates) await makeDocumento(t.db, u.id, { titulo, fecha: new Date(`${d}T09:00:00Z`) })
  // Another document, never the PIR.
  await makeDocumento(t.db, u.id, { titulo: 'Informe social', fecha: new Date('2026-05-01T09:00:00Z') })
  return u
}

const ofWorker = async (w: TestWorker, apellidos = 'Prueba Pir') =>
  (
    await t.db
      .select()
      .from(notificaciones)
      .where(and(eq(notificaciones.trabajadorId, w.id), like(notificaciones.descripcion, `%${apellidos}%`)))
  ).map((n) => ({ titulo: n.titulo, descripcion: n.descripcion, tipo: n.tipo }))

describe('the PIR status of a resident (GET /api/usuarios/nif/:nif, the residents list)', () => {
  it('at 31, 30, 0 and −1 days left, without PIR, with several PIR documents and with "pir " in another case', async () => {
    const cases = [
      [await resident('Treintayuno', ['2026-06-22']), { estado: 'vigente', diasRestantes: 31, caducidad: '2026-12-22' }],
      [await resident('Treinta', ['2026-06-21']), { estado: 'aviso', diasRestantes: 30, caducidad: '2026-12-21' }],
      [await resident('Cero', ['2026-05-21']), { estado: 'aviso', diasRestantes: 0, caducidad: '2026-11-21' }],
      [await resident('Menosuno', ['2026-05-20']), { estado: 'caducado', diasRestantes: -1, caducidad: '2026-11-20' }],
      [await resident('Sinpir', []), { estado: 'sinpir', diasRestantes: null, caducidad: null }],
      // The latest counts, whatever the order they were recorded in.
      [
        await resident('Varios', ['2026-08-01', '2026-01-10', '2026-06-21']),
        { estado: 'vigente', diasRestantes: 72, caducidad: '2027-02-01' },
      ],
      [
        await resident('Minusculas', ['2026-05-20'], '  pir '),
        { estado: 'caducado', diasRestantes: -1, caducidad: '2026-11-20' },
      ],
    ] as const
    for (const [u, pir] of cases) {
      const res = await t.as(empleado, { method: 'GET', url: `/api/usuarios/nif/${u.nif.toLowerCase()}` })
      expect(res.statusCode, u.nombre).toBe(200)
      expect(res.json()).toMatchObject({ id: u.id, nif: u.nif, nombreCompleto: `${u.nombre} Prueba Pir`, pir })
      // 'Editar PIR' opens the document the status comes from: the latest PIR, never the other document.
      const [latest] = await t.db
        .select({ id: documentosUsuario.id })
        .from(documentosUsuario)
        .where(and(eq(documentosUsuario.usuarioId, u.id), sql`upper(trim(${documentosUsuario.titulo})) = 'PIR'`))
        .orderBy(desc(documentosUsuario.fecha))
        .limit(1)
      expect(res.json().pirDocumentoId, u.nombre).toBe(latest?.id ?? null)
    }
    const list = await t.as(empleado, { method: 'GET', url: '/api/usuarios?q=prueba pir&pageSize=100' })
    const badges = Object.fromEntries(list.json().map((r: { nombre: string; pir: unknown }) => [r.nombre, r.pir]))
    for (const [u, pir] of cases) expect(badges[u.nombre]).toEqual({ estado: pir.estado, diasRestantes: pir.diasRestantes })
  })

  it('answers 404 with SPEC’s message for an unknown NIF and another company’s resident', async () => {
    const unknown = await t.as(empleado, { method: 'GET', url: '/api/usuarios/nif/00000000t' })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND', message: 'No se encontró ningún usuario con NIF 00000000T' })
    const foreign = await makeUsuario(t.db, homeB)
    for (const w of [admin, empleado]) {
      const res = await t.as(w, { method: 'GET', url: `/api/usuarios/nif/${foreign.nif}` })
      expect(res.statusCode).toBe(404)
      expect(res.json().message).toBe(`No se encontró ningún usuario con NIF ${foreign.nif}`)
    }
    expect((await t.as(superUnlinked, { method: 'GET', url: `/api/usuarios/nif/${foreign.nif}` })).statusCode).toBe(200)
  })
})

describe('PIR notifications (SPEC §4, DECISIONS D3)', () => {
  it('go to the active workers linked to the resident’s company, once per resident, state and expiry', async () => {
    const apellidos = 'Notificable Uno'
    const mk = async (nombre: string, dates: string[], titulo = 'PIR') => {
      const u = await makeUsuario(t.db, homeA, { nombre, apellidos })
      for (const d of dates) await makeDocumento(t.db, u.id, { titulo, fecha: new Date(`${d}T09:00:00Z`) })
    }
    await mk('Treintayuno', ['2026-06-22'])
    await mk('Treinta', ['2026-06-21'])
    await mk('Cero', ['2026-05-21'])
    await mk('Menosuno', ['2026-05-20'])
    await mk('Sinpir', [])
    await mk('Varios', ['2026-05-20', '2026-06-21'])
    await mk('Minusculas', ['2026-05-20'], 'pir ')
    await notifyPir(t.db, clock)
    const expected = [
      { titulo: 'PIR próximo a caducar', descripcion: `El PIR de Treinta ${apellidos} caduca en 30 días.`, tipo: 'PIR' },
      { titulo: 'PIR próximo a caducar', descripcion: `El PIR de Cero ${apellidos} caduca hoy.`, tipo: 'PIR' },
      { titulo: 'PIR caducado', descripcion: `El PIR de Menosuno ${apellidos} ha caducado.`, tipo: 'PIR' },
      { titulo: 'PIR próximo a caducar', descripcion: `El PIR de Varios ${apellidos} caduca en 30 días.`, tipo: 'PIR' },
      { titulo: 'PIR caducado', descripcion: `El PIR de Minusculas ${apellidos} ha caducado.`, tipo: 'PIR' },
    ]
    const sorted = (list: Array<{ descripcion: string }>) => [...list].sort((a, b) => a.descripcion.localeCompare(b.descripcion))
    for (const w of [admin, empleado, superLinked]) expect(sorted(await ofWorker(w, apellidos))).toEqual(sorted(expected))
    // D3 literally: workers of the resident's companies. A SUPERADMIN not linked to it, an inactive worker
    // and another company's worker get none.
    for (const w of [superUnlinked, inactive, otherCompany]) expect(await ofWorker(w, apellidos)).toEqual([])
    // Again (the next day's run, another process): nothing new.
    expect(await notifyPir(t.db, clock)).toBe(0)
    for (const w of [admin, empleado, superLinked]) expect(await ofWorker(w, apellidos)).toHaveLength(expected.length)
  })

  it('20 concurrent triggers create exactly one notification per worker', async () => {
    const u = await makeUsuario(t.db, homeA, { nombre: 'Concurrente', apellidos: 'Carrera Veinte' })
    await makeDocumento(t.db, u.id, { titulo: 'PIR', fecha: new Date('2026-06-01T09:00:00Z') })
    const created = await Promise.all(Array.from({ length: 20 }, () => notifyPir(t.db, clock, [u.id])))
    // 3 workers of company A are active: admin, empleado and the linked SUPERADMIN.
    expect(created.reduce((a, b) => a + b, 0)).toBe(3)
    for (const w of [admin, empleado, superLinked]) {
      expect(await ofWorker(w, 'Carrera Veinte')).toEqual([
        { titulo: 'PIR próximo a caducar', descripcion: 'El PIR de Concurrente Carrera Veinte caduca en 10 días.', tipo: 'PIR' },
      ])
    }
  })

  it('a worker linked to the company after a warning was sent gets it at the next run; the others do not again', async () => {
    const u = await makeUsuario(t.db, homeA, { nombre: 'Tardía', apellidos: 'Vinculo Nuevo' })
    await makeDocumento(t.db, u.id, { titulo: 'PIR', fecha: new Date('2026-04-01T09:00:00Z') })
    expect(await notifyPir(t.db, clock, [u.id])).toBe(3)
    expect(await ofWorker(otherCompany, 'Vinculo Nuevo')).toEqual([])
    await t.db.insert(trabajadorEmpresas).values({ trabajadorId: otherCompany.id, empresaId: scenario.empresaA.id })
    try {
      expect(await notifyPir(t.db, clock, [u.id])).toBe(1)
      const caducado = { titulo: 'PIR caducado', descripcion: 'El PIR de Tardía Vinculo Nuevo ha caducado.', tipo: 'PIR' }
      for (const w of [admin, empleado, superLinked, otherCompany]) expect(await ofWorker(w, 'Vinculo Nuevo')).toEqual([caducado])
      expect(await notifyPir(t.db, clock, [u.id])).toBe(0)
    } finally {
      await t.db
        .delete(trabajadorEmpresas)
        .where(and(eq(trabajadorEmpresas.trabajadorId, otherCompany.id), eq(trabajadorEmpresas.empresaId, scenario.empresaA.id)))
    }
  })

  it('a dismissed warning does not come back; a new state or a new expiry date notifies again', async () => {
    const u = await makeUsuario(t.db, homeA, { nombre: 'Renovada', apellidos: 'Ciclo Nuevo' })
    await makeDocumento(t.db, u.id, { titulo: 'PIR', fecha: new Date('2026-06-01T09:00:00Z') })
    await notifyPir(t.db, clock, [u.id])
    const [mine] = await t.db
      .select()
      .from(notificaciones)
      .where(and(eq(notificaciones.trabajadorId, empleado.id), like(notificaciones.descripcion, '%Ciclo Nuevo%')))
    expect((await t.as(empleado, { method: 'DELETE', url: `/api/notificaciones/${mine!.id}` })).statusCode).toBe(204)
    expect(await notifyPir(t.db, clock, [u.id])).toBe(0)
    const listed = await t.as(empleado, { method: 'GET', url: `/api/trabajadores/${empleado.id}/notificaciones?limit=100` })
    expect(listed.json().map((n: { id: number }) => n.id)).not.toContain(mine!.id)
    // Eleven days later it has expired: a new state.
    clock.at = new Date('2026-12-02T11:00:00Z')
    try {
      expect(await notifyPir(t.db, clock, [u.id])).toBe(3)
      expect((await ofWorker(empleado, 'Ciclo Nuevo')).map((n) => n.titulo)).toEqual(['PIR próximo a caducar', 'PIR caducado'])
    } finally {
      clock.at = new Date('2026-11-21T11:00:00Z')
    }
  })

  it('the daily jobs notify every resident', async () => {
    const u = await makeUsuario(t.db, homeB, { nombre: 'Diaria', apellidos: 'Empresa Beta' })
    await makeDocumento(t.db, u.id, { titulo: 'PIR', fecha: new Date('2026-01-01T09:00:00Z') })
    await runDailyJobs(t.app.deps)
    expect(await ofWorker(otherCompany, 'Empresa Beta')).toEqual([
      { titulo: 'PIR caducado', descripcion: 'El PIR de Diaria Empresa Beta ha caducado.', tipo: 'PIR' },
    ])
    expect(await ofWorker(admin, 'Empresa Beta')).toEqual([])
  })
})

describe('the daily timer', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('waits until 00:05 in Madrid, in winter and in summer', () => {
    expect(untilNextRun(new Date('2026-11-21T11:00:00Z'))).toBe((12 * 60 + 5) * 60_000)
    expect(untilNextRun(new Date('2026-07-01T21:00:00Z'))).toBe((1 * 60 + 5) * 60_000)
    expect(untilNextRun(new Date('2026-11-20T23:01:00Z'))).toBe(4 * 60_000)
  })

  it('runs the work every day and stops', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-21T11:00:00Z') })
    const runs: string[] = []
    const log = { error: () => {} } as never
    const timer = scheduleDaily(async () => void runs.push(new Date().toISOString()), { now: () => new Date() }, log)
    await vi.advanceTimersByTimeAsync(12 * 60 * 60_000)
    expect(runs).toEqual([])
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(runs).toEqual(['2026-11-21T23:05:00.000Z'])
    await vi.advanceTimersByTimeAsync(24 * 60 * 60_000)
    expect(runs).toEqual(['2026-11-21T23:05:00.000Z', '2026-11-22T23:05:00.000Z'])
    timer.stop()
    await vi.advanceTimersByTimeAsync(48 * 60 * 60_000)
    expect(runs).toHaveLength(2)
  })
})
