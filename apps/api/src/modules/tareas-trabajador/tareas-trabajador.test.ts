import type { AddressInfo } from 'node:net'
import { tareaMessages as m } from '@vb/shared'
import { and, desc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { logs, notificaciones, tareasTrabajador } from '../../db/schema'
import { buildTestApp, type TestApp, type TestWorker } from '../../test/build-test-app'
import { makeEmpresa, makeTareaTrabajador, makeVivienda } from '../../test/factories'
import { openNotificationStream } from '../../test/sse'

const clock = { at: new Date('2026-11-21T11:00:00Z'), now: () => clock.at }
let t: TestApp
let base: string
let casaA: { id: number; nombre: string }
let casaB: { id: number; nombre: string }
let empresaA: { id: number }
let empresaB: { id: number }
let superadmin: TestWorker
let admin: TestWorker
let empleado: TestWorker
let companero: TestWorker
let superA: TestWorker
let empleadoB: TestWorker

beforeAll(async () => {
  t = await buildTestApp({ clock })
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
  empresaA = await makeEmpresa(t.db, { nombre: 'Empresa Tareas A' })
  empresaB = await makeEmpresa(t.db, { nombre: 'Empresa Tareas B' })
  casaA = await makeVivienda(t.db, empresaA.id, { nombre: 'Casa Tareas A' })
  casaB = await makeVivienda(t.db, empresaB.id, { nombre: 'Casa Tareas B' })
  superadmin = await t.worker('SUPERADMIN', [], { nombre: 'Zoe', apellidos: 'Super' })
  superA = await t.worker('SUPERADMIN', [empresaA.id], { nombre: 'Sofía', apellidos: 'Superior' })
  admin = await t.worker('ADMIN', [empresaA.id], { nombre: 'Ana', apellidos: 'García' })
  empleado = await t.worker('EMPLEADO', [empresaA.id], { nombre: 'Luis', apellidos: 'Pérez' })
  companero = await t.worker('EMPLEADO', [empresaA.id], { nombre: 'Marta', apellidos: 'Gil' })
  empleadoB = await t.worker('EMPLEADO', [empresaB.id], { nombre: 'Bruno', apellidos: 'Ajeno' })
})
afterAll(async () => {
  await t.close()
})

const valid = (extra: Record<string, unknown> = {}) => ({
  titulo: 'Revisar botiquín',
  descripcion: 'Comprobar caducidades',
  viviendaId: casaA.id,
  fecha: '2026-11-25',
  prioridad: 'ALTA',
  completada: false,
  ...extra,
})
const post = (w: TestWorker, payload: Record<string, unknown>) =>
  t.as(w, { method: 'POST', url: '/api/tareas-trabajador', payload })
const list = (w: TestWorker, qs: string) => t.as(w, { method: 'GET', url: `/api/tareas-trabajador?${qs}` })
const ids = (res: { json(): unknown }) => (res.json() as { id: number }[]).map((x) => x.id)
const count = async () => Number((await t.db.select({ n: sql<number>`count(*)` }).from(tareasTrabajador))[0]?.n)
const notificacionesDe = (w: TestWorker) =>
  t.db.select().from(notificaciones).where(eq(notificaciones.trabajadorId, w.id)).orderBy(desc(notificaciones.id))

describe('GET /api/tareas-trabajador/trabajadores: the worker selector (SPEC §2.12, §6)', () => {
  const names = async (w: TestWorker) =>
    ((await t.as(w, { method: 'GET', url: '/api/tareas-trabajador/trabajadores' })).json() as { id: number }[]).map((x) => x.id)

  it('SUPERADMIN: every worker, with name, surname and role', async () => {
    const res = await t.as(superadmin, { method: 'GET', url: '/api/tareas-trabajador/trabajadores' })
    expect(res.statusCode).toBe(200)
    const all = res.json() as Array<{ id: number; nombre: string; apellidos: string; rol: string }>
    expect(all.map((x) => x.id)).toEqual(
      expect.arrayContaining([superadmin.id, superA.id, admin.id, empleado.id, companero.id, empleadoB.id]),
    )
    expect(all.find((x) => x.id === admin.id)).toEqual({
      id: admin.id,
      nombre: 'Ana',
      apellidos: 'García',
      rol: 'ADMIN',
      activo: true,
    })
  })

  it('ADMIN: itself and the non-SUPERADMIN workers sharing a company; never another company’s or a SUPERADMIN', async () => {
    const seen = await names(admin)
    expect(seen).toEqual(expect.arrayContaining([admin.id, empleado.id, companero.id]))
    expect(seen).not.toContain(superA.id)
    expect(seen).not.toContain(superadmin.id)
    expect(seen).not.toContain(empleadoB.id)
  })

  it('EMPLEADO: only itself', async () => {
    expect(await names(empleado)).toEqual([empleado.id])
  })

  it('lists inactive workers last, marked, whose tasks stay readable; gives them no new task; requires a token', async () => {
    const inactivo = await t.worker('EMPLEADO', [empresaA.id], { activo: false, nombre: 'Aaron' })
    const tarea = await makeTareaTrabajador(t.db, inactivo.id, casaA.id)
    const seen = (await t.as(admin, { method: 'GET', url: '/api/tareas-trabajador/trabajadores' })).json() as Array<{
      id: number
      activo: boolean
    }>
    expect(seen.at(-1)).toMatchObject({ id: inactivo.id, activo: false })
    expect(seen.slice(0, -1).every((w) => w.activo)).toBe(true)
    expect(ids(await list(admin, `trabajadorId=${inactivo.id}&completada=false`))).toEqual([tarea.id])
    const refused = await t.as(admin, {
      method: 'POST',
      url: '/api/tareas-trabajador',
      payload: {
        titulo: 'Nueva',
        descripcion: 'Para un inactivo',
        fecha: '2026-12-01',
        prioridad: 'MEDIA',
        viviendaId: casaA.id,
        trabajadorId: inactivo.id,
      },
    })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().fieldErrors).toEqual({ trabajadorId: m.trabajadorInactivo })
    const deleted = await t.as(admin, { method: 'DELETE', url: `/api/tareas-trabajador/${tarea.id}` })
    expect(deleted.statusCode).toBe(204)
    expect((await t.app.inject({ method: 'GET', url: '/api/tareas-trabajador/trabajadores' })).statusCode).toBe(401)
  })
})

describe('GET /api/tareas-trabajador: one worker’s tasks, listed by the server', () => {
  it('pending or completed, in date order (overdue first); another worker’s tasks by role', async () => {
    const w = await t.worker('EMPLEADO', [empresaA.id])
    const tarde = await makeTareaTrabajador(t.db, w.id, casaA.id, { fecha: new Date('2026-11-30T09:00:00Z') })
    const vencida = await makeTareaTrabajador(t.db, w.id, casaA.id, { fecha: new Date('2026-11-10T09:00:00Z') })
    const hecha = await makeTareaTrabajador(t.db, w.id, casaA.id, { completada: true })
    await makeTareaTrabajador(t.db, companero.id, casaA.id)
    expect(ids(await list(admin, `trabajadorId=${w.id}&completada=false`))).toEqual([vencida.id, tarde.id])
    expect(ids(await list(admin, `trabajadorId=${w.id}&completada=true`))).toEqual([hecha.id])
    const page = await list(admin, `trabajadorId=${w.id}&completada=false&pageSize=1&page=2`)
    expect(page.headers['x-total-count']).toBe('2')
    expect(ids(page)).toEqual([tarde.id])
    // EMPLEADO sees its own tasks only, whoever it asks about.
    expect(ids(await list(companero, `trabajadorId=${w.id}`))).toEqual([])
    expect(ids(await list(w, `trabajadorId=${w.id}&completada=false`))).toEqual([vencida.id, tarde.id])
    // A task without home (a legacy one) still reaches its worker: 'Desconocida' on screen.
    const sinCasa = await makeTareaTrabajador(t.db, w.id, null, { fecha: new Date('2026-11-01T09:00:00Z') })
    const mine = await list(w, `trabajadorId=${w.id}&completada=false`)
    expect(ids(mine)[0]).toBe(sinCasa.id)
    expect(mine.json()[0].vivienda).toBeNull()
  })

  it('ADMIN never lists a SUPERADMIN’s tasks, nor another company’s; the task itself answers 404', async () => {
    const deSuper = await makeTareaTrabajador(t.db, superA.id, casaA.id)
    const ajena = await makeTareaTrabajador(t.db, empleadoB.id, casaB.id)
    expect(ids(await list(admin, `trabajadorId=${superA.id}`))).toEqual([])
    expect(ids(await list(admin, `trabajadorId=${empleadoB.id}`))).toEqual([])
    for (const id of [deSuper.id, ajena.id]) {
      expect((await t.as(admin, { method: 'GET', url: `/api/tareas-trabajador/${id}` })).statusCode).toBe(404)
      const done = await t.as(admin, { method: 'PATCH', url: `/api/tareas-trabajador/${id}`, payload: { completada: true } })
      expect(done.statusCode).toBe(404)
      expect((await t.as(admin, { method: 'DELETE', url: `/api/tareas-trabajador/${id}` })).statusCode).toBe(404)
    }
    expect(ids(await list(superadmin, `trabajadorId=${empleadoB.id}`))).toContain(ajena.id)
  })
})

describe('POST /api/tareas-trabajador (SPEC §5 Worker task, DECISIONS D5)', () => {
  it('EMPLEADO creates its own task (MEDIA by default), logged with the home; no notification to itself', async () => {
    const before = (await notificacionesDe(empleado)).length
    const res = await post(empleado, { ...valid(), prioridad: undefined })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({
      titulo: 'Revisar botiquín',
      prioridad: 'MEDIA',
      completada: false,
      trabajadorId: empleado.id,
      viviendaId: casaA.id,
      vivienda: { nombre: 'Casa Tareas A' },
      fecha: '2026-11-24T23:00:00.000Z',
    })
    const [log] = await t.db.select().from(logs).where(eq(logs.trabajadorId, empleado.id)).orderBy(desc(logs.id)).limit(1)
    expect(log).toMatchObject({
      accion: 'Crear tarea de trabajador',
      url: '/tareas-trabajador',
      tipo: 'success',
      viviendaId: casaA.id,
    })
    expect((await notificacionesDe(empleado)).length).toBe(before)
  })

  it('a task assigned by someone else gives the worker a TAREA notification that reaches its open stream at once', async () => {
    const stream = await openNotificationStream(base, companero)
    try {
      expect(stream.res.status).toBe(200)
      const res = await post(admin, valid({ trabajadorId: companero.id, titulo: 'Compra semanal' }))
      expect(res.statusCode, res.body).toBe(201)
      const [n] = await notificacionesDe(companero)
      expect(n).toMatchObject({
        tipo: 'TAREA',
        titulo: 'Nueva tarea asignada',
        descripcion: 'Ana García te ha asignado la tarea «Compra semanal» para el 25/11/2026.',
      })
      expect(await stream.next()).toEqual({ event: 'notificacion', data: JSON.stringify({ id: n?.id }) })
    } finally {
      stream.close()
    }
  })

  it.each([
    ['titulo', '', m.tituloObligatorio],
    ['descripcion', '   ', m.descripcionObligatoria],
    ['viviendaId', undefined, m.viviendaObligatoria],
    ['viviendaId', 'abc', m.viviendaTipo],
    ['fecha', undefined, m.fechaObligatoria],
    ['fecha', '2026-02-30', m.fechaInvalida],
    ['prioridad', 'URGENTE', m.prioridadInvalida],
    ['completada', true, m.soloCompletar],
  ])('refuses %s = %j with its message, nothing stored', async (field, value, message) => {
    const before = await count()
    const res = await post(admin, { ...valid(), [field]: value })
    expect(res.statusCode).toBe(400)
    expect(res.json().fieldErrors[field]).toBe(message)
    expect(await count()).toBe(before)
  })

  it('refuses a worker outside the caller’s rules (another company’s, a SUPERADMIN for an ADMIN, anyone for an EMPLEADO)', async () => {
    const before = await count()
    for (const [who, target] of [
      [admin, empleadoB],
      [admin, superA],
      [empleado, companero],
    ] as const) {
      const res = await post(who, valid({ trabajadorId: target.id }))
      expect(res.statusCode).toBe(400)
      expect(res.json().fieldErrors).toEqual({ trabajadorId: m.trabajadorAjeno })
    }
    expect(await count()).toBe(before)
    expect((await notificacionesDe(empleadoB)).filter((n) => n.tipo === 'TAREA')).toEqual([])
  })

  it('refuses another company’s home as one that does not exist, and a home the assignee cannot reach, with 400', async () => {
    const before = await count()
    const foreign = await post(admin, valid({ viviendaId: casaB.id }))
    expect(foreign.statusCode).toBe(400)
    expect(foreign.json().fieldErrors).toEqual({ viviendaId: m.viviendaTipo })
    expect((await post(admin, valid({ viviendaId: 999_999 }))).json()).toEqual(foreign.json())
    const unreachable = await post(superadmin, valid({ viviendaId: casaB.id, trabajadorId: empleado.id }))
    expect(unreachable.statusCode).toBe(400)
    expect(unreachable.json().fieldErrors).toEqual({ viviendaId: m.viviendaAjena })
    expect(await count()).toBe(before)
  })
})

describe('PATCH and DELETE /api/tareas-trabajador/:id (SPEC §4)', () => {
  it('marks a task completed, with no way back; logged with its home', async () => {
    const task = await makeTareaTrabajador(t.db, empleado.id, casaA.id, { titulo: 'Inventario' })
    const done = await t.as(empleado, {
      method: 'PATCH',
      url: `/api/tareas-trabajador/${task.id}`,
      payload: { completada: true },
    })
    expect(done.statusCode).toBe(200)
    expect(done.json().completada).toBe(true)
    const back = await t.as(empleado, {
      method: 'PATCH',
      url: `/api/tareas-trabajador/${task.id}`,
      payload: { completada: false },
    })
    expect(back.statusCode).toBe(400)
    expect(back.json().fieldErrors.completada).toBe(m.soloCompletar)
    const [row] = await t.db.select().from(tareasTrabajador).where(eq(tareasTrabajador.id, task.id))
    expect(row?.completada).toBe(true)
    const [log] = await t.db
      .select()
      .from(logs)
      .where(and(eq(logs.trabajadorId, empleado.id), eq(logs.accion, 'Modificar tarea de trabajador')))
      .orderBy(desc(logs.id))
      .limit(1)
    expect(log).toMatchObject({ descripcion: 'Tarea completada: Inventario', viviendaId: casaA.id, tipo: 'warning' })
  })

  it('deletes a task in either state', async () => {
    const pending = await makeTareaTrabajador(t.db, empleado.id, casaA.id)
    const done = await makeTareaTrabajador(t.db, empleado.id, casaA.id, { completada: true })
    for (const task of [pending, done]) {
      expect((await t.as(empleado, { method: 'DELETE', url: `/api/tareas-trabajador/${task.id}` })).statusCode).toBe(204)
    }
    // Another EMPLEADO's task is not this one's to delete.
    const other = await makeTareaTrabajador(t.db, companero.id, casaA.id)
    expect((await t.as(empleado, { method: 'DELETE', url: `/api/tareas-trabajador/${other.id}` })).statusCode).toBe(404)
  })
})
