import { planingMessages as m } from '@vb/shared'
import { desc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { logs, notificaciones, planingTareas } from '../../db/schema'
import { buildTestApp, type TestApp, type TestWorker } from '../../test/build-test-app'
import { makeEmpresa, makePlaningTarea, makeUsuario, makeVivienda } from '../../test/factories'

let t: TestApp
let empresaA: { id: number }
let empresaB: { id: number }
let vacia: { id: number }
let casaA: { id: number; nombre: string }
let ana: { id: number }
let blas: { id: number }
let ajeno: { id: number }
let superadmin: TestWorker
let admin: TestWorker
let empleado: TestWorker
let adminB: TestWorker
let empleadoVacia: TestWorker

beforeAll(async () => {
  t = await buildTestApp({ clock: { now: () => new Date('2026-03-10T10:00:00Z') } })
  empresaA = await makeEmpresa(t.db, { nombre: 'Empresa Planing A' })
  empresaB = await makeEmpresa(t.db)
  vacia = await makeEmpresa(t.db, { nombre: 'Sin residentes' })
  casaA = await makeVivienda(t.db, empresaA.id, { nombre: 'Casa Planing' })
  const casaB = await makeVivienda(t.db, empresaB.id)
  ana = await makeUsuario(t.db, casaA.id, { nombre: 'Ana', apellidos: 'Ruiz' })
  blas = await makeUsuario(t.db, casaA.id, { nombre: 'Blas', apellidos: 'Soto' })
  ajeno = await makeUsuario(t.db, casaB.id)
  superadmin = await t.worker('SUPERADMIN', [])
  admin = await t.worker('ADMIN', [empresaA.id], { nombre: 'Ana', apellidos: 'García' })
  empleado = await t.worker('EMPLEADO', [empresaA.id])
  adminB = await t.worker('ADMIN', [empresaB.id])
  empleadoVacia = await t.worker('EMPLEADO', [vacia.id])
})
afterAll(async () => {
  await t.close()
})

const valid = (extra: Record<string, unknown> = {}) => ({
  titulo: 'Cita médica',
  descripcion: 'Revisión en el centro de salud',
  fecha: '2026-03-12',
  hora: '09:30',
  notificable: false,
  usuarioIds: [ana.id],
  empresaId: empresaA.id,
  ...extra,
})
const post = (w: TestWorker, payload: Record<string, unknown>) => t.as(w, { method: 'POST', url: '/api/planing-tareas', payload })
const count = async () => Number((await t.db.select({ n: sql<number>`count(*)` }).from(planingTareas))[0]?.n)
const calendario = (w: TestWorker, qs: string) => t.as(w, { method: 'GET', url: `/api/planing-tareas/calendario?${qs}` })

describe('POST /api/planing-tareas (SPEC §5 Calendar task, DECISIONS D4)', () => {
  it('stores the day and the 24-hour time as a Madrid instant, with its residents and home; logged with that home', async () => {
    const res = await post(empleado, valid({ usuarioIds: [blas.id, ana.id] }))
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({
      titulo: 'Cita médica',
      fecha: '2026-03-12T08:30:00.000Z',
      notificable: false,
      empresaId: empresaA.id,
      todos: false,
      usuarios: [
        { id: ana.id, nombre: 'Ana', apellidos: 'Ruiz' },
        { id: blas.id, nombre: 'Blas', apellidos: 'Soto' },
      ],
      viviendas: [{ id: casaA.id, nombre: 'Casa Planing' }],
    })
    const [log] = await t.db.select().from(logs).where(eq(logs.trabajadorId, empleado.id)).orderBy(desc(logs.id)).limit(1)
    expect(log).toMatchObject({ accion: 'Crear tarea del planing', url: '/planing', tipo: 'success', viviendaId: casaA.id })
  })

  it("takes SPEC §7's body: fecha an instant with its time, no hora (the company is DECISIONS D4's)", async () => {
    const { hora: _hora, ...spec } = valid({ fecha: '2026-12-01T10:00:00.000Z' })
    const res = await post(empleado, spec)
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json().fecha).toBe('2026-12-01T10:00:00.000Z')
    // A day without a time is still refused under hora.
    const { hora: _h, ...dia } = valid()
    const sinHora = await post(empleado, dia)
    expect(sinHora.statusCode).toBe(400)
    expect(sinHora.json().fieldErrors).toEqual({ hora: m.horaObligatoria })
  })

  it("'all' gives the task to every resident of the company and marks it for everyone", async () => {
    const res = await post(admin, valid({ usuarioIds: 'all' }))
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json().todos).toBe(true)
    expect(res.json().usuarios.map((u: { id: number }) => u.id)).toEqual([ana.id, blas.id])
  })

  it.each([
    ['titulo', '', m.tituloObligatorio],
    ['descripcion', '', m.descripcionObligatoria],
    ['descripcion', 'x'.repeat(2001), m.descripcionLarga],
    ['hora', undefined, m.horaObligatoria],
    ['hora', '24:00', m.horaInvalida],
    ['hora', '7:5', m.horaInvalida],
    ['hora', 'ab', m.horaInvalida],
    ['fecha', undefined, m.fechaObligatoria],
    ['fecha', '2026-02-30', m.fechaInvalida],
    ['usuarioIds', [], m.usuariosObligatorios],
    ['usuarioIds', undefined, m.usuariosObligatorios],
    ['empresaId', undefined, m.empresaObligatoria],
  ])('refuses %s = %j with its message, nothing stored', async (field, value, message) => {
    const before = await count()
    const res = await post(admin, valid({ [field]: value }))
    expect(res.statusCode).toBe(400)
    expect(res.json().fieldErrors[field]).toBe(message)
    expect(await count()).toBe(before)
  })

  it("refuses 'all' in a company without residents, and a resident of another company; nothing stored", async () => {
    const before = await count()
    const none = await post(empleadoVacia, valid({ usuarioIds: 'all', empresaId: vacia.id }))
    expect(none.statusCode).toBe(400)
    expect(none.json().fieldErrors).toEqual({ usuarioIds: m.sinUsuarios })
    const foreign = await post(admin, valid({ usuarioIds: [ana.id, ajeno.id] }))
    expect(foreign.statusCode).toBe(400)
    expect(foreign.json().fieldErrors).toEqual({ usuarioIds: m.usuarioInvalido })
    expect(await count()).toBe(before)
  })

  it('refuses another company as the task’s company as if it did not exist (400, DECISIONS A3): no id is told apart', async () => {
    const res = await post(admin, valid({ empresaId: empresaB.id, usuarioIds: [ajeno.id] }))
    expect(res.statusCode).toBe(400)
    expect(res.json().fieldErrors).toEqual({ empresaId: m.empresaTipo })
    const missing = await post(admin, valid({ empresaId: 999_999, usuarioIds: [ajeno.id] }))
    expect(missing.json()).toEqual(res.json())
    expect((await post(superadmin, valid({ empresaId: empresaB.id, usuarioIds: [ajeno.id] }))).statusCode).toBe(201)
  })

  it('a notifiable task gives its creator a TAREA notification', async () => {
    const res = await post(admin, valid({ notificable: true, titulo: 'Taller de cocina' }))
    expect(res.statusCode).toBe(201)
    const [n] = await t.db
      .select()
      .from(notificaciones)
      .where(eq(notificaciones.trabajadorId, admin.id))
      .orderBy(desc(notificaciones.id))
      .limit(1)
    expect(n).toMatchObject({ tipo: 'TAREA', titulo: m.notificacionTitulo })
    expect(n?.descripcion).toContain('«Taller de cocina»')
  })
})

describe('PATCH and DELETE /api/planing-tareas/:id', () => {
  it('moves a task to another day and time and changes its residents; another company’s task is 404', async () => {
    const task = (await post(admin, valid())).json()
    const res = await t.as(empleado, {
      method: 'PATCH',
      url: `/api/planing-tareas/${task.id}`,
      payload: { fecha: '2026-03-14', hora: '18:05', usuarioIds: [blas.id] },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ fecha: '2026-03-14T17:05:00.000Z', usuarios: [{ id: blas.id }] })
    const bad = await t.as(empleado, { method: 'PATCH', url: `/api/planing-tareas/${task.id}`, payload: { hora: '25:00' } })
    expect(bad.json().fieldErrors).toEqual({ hora: m.horaInvalida })
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await t.as(adminB, {
        method,
        url: `/api/planing-tareas/${task.id}`,
        ...(method === 'PATCH' ? { payload: { titulo: 'x' } } : {}),
      })
      expect(res.statusCode).toBe(404)
    }
    expect((await t.as(empleado, { method: 'DELETE', url: `/api/planing-tareas/${task.id}` })).statusCode).toBe(204)
    const [log] = await t.db.select().from(logs).where(eq(logs.trabajadorId, empleado.id)).orderBy(desc(logs.id)).limit(1)
    expect(log).toMatchObject({ accion: 'Eliminar tarea del planing', tipo: 'error', viviendaId: casaA.id })
    // Its links are kept in the entry, not the copy of them the calendar reads (migration 0016).
    const antes = (log?.datos as { antes?: Record<string, unknown> } | undefined)?.antes ?? {}
    expect(antes.planingTareaUsuarios).toEqual([{ tareaId: task.id, usuarioId: blas.id }])
    expect(antes).not.toHaveProperty('planingCalendarioUsuarios')
  })
  it('refuses a stale edit (If-Match, or the version in the body) with 409 and keeps the other writer’s change', async () => {
    const task = (await post(admin, valid())).json()
    const patch = (w: TestWorker, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
      t.as(w, { method: 'PATCH', url: `/api/planing-tareas/${task.id}`, payload, headers })
    expect((await patch(admin, { titulo: 'Primera' }, { 'if-match': task.updatedAt })).statusCode).toBe(200)
    const stale = await patch(empleado, { titulo: 'Segunda' }, { 'if-match': task.updatedAt })
    expect(stale.statusCode).toBe(409)
    expect(stale.json().message).toBe(m.cambiada)
    expect((await patch(empleado, { titulo: 'Tercera', updatedAt: 'no es una versión' })).statusCode).toBe(409)
    expect((await t.as(admin, { method: 'GET', url: `/api/planing-tareas/${task.id}` })).json().titulo).toBe('Primera')
  })
})

describe('PATCH /api/planing-tareas/:id saved as it was', () => {
  it('answers the task as it is: no log entry, no notification, and the version others hold still valid', async () => {
    const task = (await post(admin, valid({ notificable: true, usuarioIds: [blas.id, ana.id] }))).json()
    const entries = async () => Number((await t.db.select({ n: sql<number>`count(*)` }).from(logs))[0]?.n)
    const notices = async () => Number((await t.db.select({ n: sql<number>`count(*)` }).from(notificaciones))[0]?.n)
    const [logsBefore, noticesBefore] = [await entries(), await notices()]
    // The form sent back untouched: every field, the residents in another order, the version as the form read it.
    const same = await t.as(empleado, {
      method: 'PATCH',
      url: `/api/planing-tareas/${task.id}`,
      payload: { ...valid({ notificable: true, usuarioIds: [ana.id, blas.id] }), updatedAt: task.updatedAt },
    })
    expect(same.statusCode, same.body).toBe(200)
    expect(same.json()).toEqual(task)
    expect([await entries(), await notices()]).toEqual([logsBefore, noticesBefore])
    // Another editor holding the same version is not refused as stale by an edit that changed nothing.
    const other = await t.as(admin, {
      method: 'PATCH',
      url: `/api/planing-tareas/${task.id}`,
      payload: { titulo: 'Cita médica de control' },
      headers: { 'if-match': task.updatedAt },
    })
    expect(other.statusCode, other.body).toBe(200)
    expect(await entries()).toBe(logsBefore + 1)
  })
})

describe('GET /api/planing-tareas/calendario: the visible month only (SPEC §2.9)', () => {
  it('groups tasks by their Madrid day across the daylight-saving change: a task at 01:30 stays on its day', async () => {
    const e = await makeEmpresa(t.db)
    const w = await t.worker('EMPLEADO', [e.id])
    const casa = await makeVivienda(t.db, e.id)
    const u = await makeUsuario(t.db, casa.id)
    const at = async (fecha: string, hora: string) =>
      (await post(w, valid({ fecha, hora, usuarioIds: [u.id], empresaId: e.id }))).json()
    // Sunday 29 March 2026: clocks go from 02:00 to 03:00. 01:30 on the 30th is 23:30 UTC on the 29th.
    const antes = await at('2026-03-29', '01:30')
    const despues = await at('2026-03-30', '01:30')
    const tarde = await at('2026-03-29', '23:30')
    expect(antes.fecha).toBe('2026-03-29T00:30:00.000Z')
    expect(despues.fecha).toBe('2026-03-29T23:30:00.000Z')
    const res = await calendario(w, 'desde=2026-02-23&hasta=2026-04-05')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().map((d: { dia: string; tareas: { id: number }[] }) => [d.dia, d.tareas.map((x) => x.id)])).toEqual([
      ['2026-03-29', [antes.id, tarde.id]],
      ['2026-03-30', [despues.id]],
    ])
    // The list call answers the same day.
    const day = await t.as(w, { method: 'GET', url: `/api/planing-tareas?fecha=2026-03-30&empresaId=${e.id}` })
    expect(day.json().map((x: { id: number }) => x.id)).toEqual([despues.id])
  })

  it('sends each day’s first tasks and its total, within the range and the worker’s companies only', async () => {
    const e = await makeEmpresa(t.db)
    const w = await t.worker('ADMIN', [e.id])
    const casa = await makeVivienda(t.db, e.id)
    const u = await makeUsuario(t.db, casa.id)
    for (let h = 8; h < 14; h++) {
      await makePlaningTarea(t.db, [u.id], {
        empresaId: e.id,
        fecha: new Date(`2026-05-04T${String(h).padStart(2, '0')}:00:00Z`),
      })
    }
    await makePlaningTarea(t.db, [u.id], { empresaId: e.id, fecha: new Date('2026-06-20T09:00:00Z') })
    await makePlaningTarea(t.db, [ajeno.id], { empresaId: empresaB.id, fecha: new Date('2026-05-04T09:00:00Z') })
    const res = await calendario(w, 'desde=2026-04-27&hasta=2026-06-07')
    const days = res.json() as Array<{ dia: string; total: number; tareas: { fecha: string }[] }>
    expect(days.map((d) => [d.dia, d.total, d.tareas.length])).toEqual([['2026-05-04', 6, 3]])
    expect(days[0]?.tareas.map((x) => x.fecha)).toEqual([
      '2026-05-04T08:00:00.000Z',
      '2026-05-04T09:00:00.000Z',
      '2026-05-04T10:00:00.000Z',
    ])
    expect((await calendario(w, 'desde=2026-04-27&hasta=2026-06-07&porDia=10')).json()[0].tareas).toHaveLength(6)
  })

  it('sends each task as GET /api/planing-tareas/:id does (residents, homes, flags, versions), a task for everyone without its residents', async () => {
    const e = await makeEmpresa(t.db)
    const w = await t.worker('ADMIN', [e.id])
    const casa1 = await makeVivienda(t.db, e.id, { nombre: 'Casa Uno' })
    const casa2 = await makeVivienda(t.db, e.id, { nombre: 'Casa Dos' })
    const u1 = await makeUsuario(t.db, casa2.id)
    const u2 = await makeUsuario(t.db, casa1.id)
    const u3 = await makeUsuario(t.db, casa2.id)
    const ids = [
      (await post(w, valid({ fecha: '2026-07-06', hora: '09:15', usuarioIds: [u3.id, u1.id, u2.id], empresaId: e.id }))).json()
        .id,
      (await post(w, valid({ fecha: '2026-07-06', hora: '10:00', usuarioIds: 'all', empresaId: e.id, notificable: true }))).json()
        .id,
      (await post(w, valid({ fecha: '2026-07-09', hora: '18:45', usuarioIds: [u2.id], empresaId: e.id }))).json().id,
    ]
    // A version with microseconds, as another writer could leave it: read to the millisecond either way.
    await t.db.execute(sql`update planing_tareas set updated_at = '2026-07-01 10:00:00.123456+00' where id = ${ids[2]}`)
    const res = await calendario(w, 'desde=2026-06-29&hasta=2026-08-09')
    expect(res.statusCode, res.body).toBe(200)
    const sent = (res.json() as Array<{ tareas: Array<{ id: number }> }>).flatMap((d) => d.tareas)
    expect(sent.map((x) => x.id)).toEqual(ids)
    for (const tarea of sent) {
      const own = (await t.as(w, { method: 'GET', url: `/api/planing-tareas/${tarea.id}` })).json()
      // 'all': every resident of the company, which the calendar does not name (thousands at a large operator).
      expect(tarea).toEqual(own.todos ? { ...own, usuarios: [], viviendas: [] } : own)
    }
    expect(sent[1]).toMatchObject({ todos: true, usuarios: [], viviendas: [] })
    expect((await t.as(w, { method: 'GET', url: `/api/planing-tareas/${ids[1]}` })).json().usuarios).toHaveLength(3)
    // The day's list (the grid's '+N más') reads it the same way, and every other task whole.
    const day = (await t.as(w, { method: 'GET', url: `/api/planing-tareas?fecha=2026-07-06&empresaId=${e.id}` })).json()
    expect(day).toEqual(sent.slice(0, 2))
    expect(sent[2]).toMatchObject({ updatedAt: '2026-07-01T10:00:00.123Z' })
  })

  it('narrowed to the company of the top bar: its tasks only, none of a company the worker is not in, in a statement without the scope’s list', async () => {
    const e1 = await makeEmpresa(t.db)
    const e2 = await makeEmpresa(t.db)
    const otra = await makeEmpresa(t.db)
    const w = await t.worker('ADMIN', [e1.id, e2.id])
    const fecha = new Date('2026-09-08T09:00:00Z')
    const [u1, u2, u3] = await Promise.all(
      [e1, e2, otra].map(async (e) => makeUsuario(t.db, (await makeVivienda(t.db, e.id)).id)),
    )
    const [t1, t2, t3] = await Promise.all(
      [
        [e1, u1],
        [e2, u2],
        [otra, u3],
      ].map(([e, u]) => makePlaningTarea(t.db, [(u as { id: number }).id], { empresaId: (e as { id: number }).id, fecha })),
    )
    // The statements the pool is sent, to see the calendar's condition.
    const pool = (t.db as unknown as { session: { client: { query: (...args: unknown[]) => unknown } } }).session.client
    const query = pool.query
    const sent: string[] = []
    pool.query = function (this: unknown, ...args: unknown[]) {
      const config = args[0] as { text?: string } | string
      sent.push(typeof config === 'string' ? config : (config.text ?? ''))
      return query.apply(this, args)
    }
    const ids = async (as: TestWorker, qs: string) => {
      const res = await calendario(as, `desde=2026-08-31&hasta=2026-10-11${qs}`)
      expect(res.statusCode, res.body).toBe(200)
      return (res.json() as Array<{ tareas: { id: number }[] }>).flatMap((d) => d.tareas.map((x) => x.id)).sort()
    }
    try {
      expect(await ids(w, '')).toEqual([t1?.id, t2?.id].sort())
      expect(await ids(w, `&empresaId=${e2.id}`)).toEqual([t2?.id])
      // A company the worker is not in: nothing, not even with tasks there.
      expect(await ids(w, `&empresaId=${otra.id}`)).toEqual([])
      expect(await ids(superadmin, `&empresaId=${otra.id}`)).toEqual([t3?.id])
    } finally {
      pool.query = query
    }
    // Named, the statement is planned once for any values: with the scope's list of companies beside the chosen
    // company, PostgreSQL's plan for it read the month of every company by date (docs/performance.md).
    const calendarios = sent.filter((text) => text.includes('row_number() over'))
    expect(calendarios).toHaveLength(4)
    expect(calendarios[0]).toMatch(/"empresa_id" in \(/)
    for (const text of calendarios.slice(1)) expect(text).not.toMatch(/"empresa_id" in \(/)
  })

  it('refuses a range longer than the 42-cell grid, or backwards', async () => {
    const long = await calendario(admin, 'desde=2026-01-01&hasta=2026-03-01')
    expect(long.statusCode).toBe(400)
    expect(long.json().fieldErrors.hasta).toBe(m.rangoLargo)
    expect((await calendario(admin, 'desde=2026-03-10&hasta=2026-03-01')).statusCode).toBe(400)
    expect((await calendario(admin, 'desde=2026-02-30&hasta=2026-03-01')).statusCode).toBe(400)
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/planing-tareas/calendario?desde=2026-03-01&hasta=2026-03-31' })).statusCode,
    ).toBe(401)
  })
})
