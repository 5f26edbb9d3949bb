import { MAX_EXACT_TOTAL, notificacionMessages } from '@vb/shared'
import { desc, eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { empresas, logs, notificaciones } from '../../db/schema'
import { planNodes, statementsSent } from '../../test/plans'
import { testApp } from '../../test/scenario'

const t = await testApp()

describe('notifications of the bell (SPEC §2.2, §7)', () => {
  it('lists the worker its own notifications, newest first, and lets it dismiss one', async () => {
    const w = await t.worker('EMPLEADO', [])
    const other = await t.worker('EMPLEADO', [])
    const rows = await t.db
      .insert(notificaciones)
      .values([
        {
          titulo: 'Antigua',
          descripcion: 'a',
          tipo: 'info',
          trabajadorId: w.id,
          fechaNotificacion: new Date('2026-11-01T10:00:00Z'),
        },
        {
          titulo: 'Reciente',
          descripcion: 'b',
          tipo: 'PIR',
          trabajadorId: w.id,
          fechaNotificacion: new Date('2026-11-20T10:00:00Z'),
        },
        {
          titulo: 'Rara',
          descripcion: 'c',
          tipo: 'otro',
          trabajadorId: w.id,
          fechaNotificacion: new Date('2026-11-10T10:00:00Z'),
        },
        { titulo: 'Ajena', descripcion: 'd', tipo: 'info', trabajadorId: other.id },
      ])
      .returning()
    const res = await t.as(w, { method: 'GET', url: `/api/trabajadores/${w.id}/notificaciones` })
    expect(res.statusCode).toBe(200)
    expect(res.json().map((n: { titulo: string }) => n.titulo)).toEqual(['Reciente', 'Rara', 'Antigua'])
    // SPEC §3: unknown type falls back to info.
    expect(res.json()[1].tipo).toBe('info')
    expect(res.headers['x-total-count']).toBe('3')

    const foreign = await t.as(w, { method: 'GET', url: `/api/trabajadores/${other.id}/notificaciones` })
    expect(foreign.statusCode).toBe(403)

    const ajena = rows.find((r) => r.titulo === 'Ajena')!
    expect((await t.as(w, { method: 'DELETE', url: `/api/notificaciones/${ajena.id}` })).statusCode).toBe(404)
    const propia = rows.find((r) => r.titulo === 'Antigua')!
    expect((await t.as(w, { method: 'DELETE', url: `/api/notificaciones/${propia.id}` })).statusCode).toBe(204)
    const after = await t.as(w, { method: 'GET', url: `/api/trabajadores/${w.id}/notificaciones` })
    expect(after.json()).toHaveLength(2)
  })

  it('pages them as every list does (page, pageSize; limit, its older name); a bad page is a 400 in Spanish', async () => {
    const w = await t.worker('EMPLEADO', [])
    await t.db.execute(sql`insert into notificaciones (titulo, descripcion, trabajador_id, fecha_notificacion)
      select 'Aviso ' || i, 'x', ${w.id}, timestamptz '2026-11-01T00:00:00Z' + i * interval '1 hour' from generate_series(1, 5) i`)
    const titulos = async (qs: string) => {
      const res = await t.as(w, { method: 'GET', url: `/api/trabajadores/${w.id}/notificaciones?${qs}` })
      expect(res.statusCode, res.body).toBe(200)
      expect(res.headers['x-total-count']).toBe('5')
      return res.json().map((n: { titulo: string }) => n.titulo)
    }
    expect(await titulos('')).toEqual(['Aviso 5', 'Aviso 4', 'Aviso 3', 'Aviso 2', 'Aviso 1'])
    expect(await titulos('page=2&pageSize=2')).toEqual(['Aviso 3', 'Aviso 2'])
    expect(await titulos('page=3&pageSize=2')).toEqual(['Aviso 1'])
    expect(await titulos('limit=2')).toEqual(['Aviso 5', 'Aviso 4'])
    expect(await titulos('page=2&limit=2')).toEqual(['Aviso 3', 'Aviso 2'])
    for (const [qs, field, message] of [
      ['page=0', 'page', 'La página no es válida'],
      ['page=999999999', 'page', 'La página no es válida'],
      ['pageSize=0', 'pageSize', 'El tamaño de página no es válido'],
      ['pageSize=101', 'pageSize', 'El tamaño de página no puede superar 100'],
      ['limit=abc', 'limit', 'El tamaño de página no es válido'],
    ]) {
      const res = await t.as(w, { method: 'GET', url: `/api/trabajadores/${w.id}/notificaciones?${qs}` })
      expect(res.statusCode, qs).toBe(400)
      expect(res.json().fieldErrors, qs).toEqual({ [field as string]: message })
    }
  })

  it('shows the newest of thousands made at one instant (the daily PIR run) reading only its page’s index entries, sorting none', async () => {
    const w = await t.worker('EMPLEADO', [])
    await t.db.execute(sql`insert into notificaciones (titulo, descripcion, trabajador_id, fecha_notificacion, descartada_en)
      select 'Aviso ' || i, 'x', ${w.id}, timestamptz '2026-11-28T00:05:00Z', case when i % 10 = 0 then now() end
      from generate_series(1, 5000) i`)
    await t.db.execute(sql`analyze notificaciones`)
    const { result: res, sent } = await statementsSent(t.db, () =>
      t.as(w, { method: 'GET', url: `/api/trabajadores/${w.id}/notificaciones` }),
    )
    expect(res.statusCode).toBe(200)
    const titulos = res.json().map((n: { titulo: string }) => n.titulo)
    // Ties on the instant fall back to the id, newest first; the dismissed (every tenth) are left out.
    expect(titulos.slice(0, 3)).toEqual(['Aviso 4999', 'Aviso 4998', 'Aviso 4997'])
    // The page's statement as the app sent it, run again under EXPLAIN ANALYZE.
    const page = sent.find((q) => /from "notificaciones"/.test(q.text) && /order by/i.test(q.text))
    expect(page).toBeDefined()
    const plan = await planNodes(t.db, page!, { analyze: true })
    expect(plan.map((n) => n['Node Type'])).not.toContain('Sort')
    expect(plan.map((n) => n['Node Type'])).not.toContain('Incremental Sort')
    const scan = plan.find((n) => n['Index Name'] === 'notificaciones_trabajador_idx')
    // As many entries as the page shows (the bell's page: 50), whatever the thousands behind them.
    expect(res.json()).toHaveLength(50)
    expect(scan?.['Actual Rows']).toBe(50)
  })

  it('requires a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/trabajadores/1/notificaciones' })).statusCode).toBe(401)
    expect((await t.app.inject({ method: 'DELETE', url: '/api/notificaciones/1' })).statusCode).toBe(401)
  })
})

describe('GET /api/notificaciones: the caller’s own, server-paged (SPEC §7, DECISIONS A4)', () => {
  it('lists only the caller’s undismissed notifications, newest first, with X-Total-Count', async () => {
    const w = await t.worker('EMPLEADO', [])
    const other = await t.worker('EMPLEADO', [])
    const at = (d: string) => new Date(`2026-11-${d}T10:00:00Z`)
    await t.db.insert(notificaciones).values([
      { titulo: 'Uno', descripcion: 'a', trabajadorId: w.id, fechaNotificacion: at('01') },
      { titulo: 'Tres', descripcion: 'c', trabajadorId: w.id, fechaNotificacion: at('03') },
      { titulo: 'Dos', descripcion: 'b', trabajadorId: w.id, fechaNotificacion: at('02') },
      { titulo: 'Vieja', descripcion: 'd', trabajadorId: w.id, fechaNotificacion: at('04'), descartadaEn: at('05') },
      { titulo: 'Ajena', descripcion: 'e', trabajadorId: other.id, fechaNotificacion: at('05') },
    ])
    const page = await t.as(w, { method: 'GET', url: '/api/notificaciones?pageSize=2' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['x-total-count']).toBe('3')
    expect(page.json().map((n: { titulo: string }) => n.titulo)).toEqual(['Tres', 'Dos'])
    const second = await t.as(w, { method: 'GET', url: '/api/notificaciones?pageSize=2&page=2' })
    expect(second.json().map((n: { titulo: string }) => n.titulo)).toEqual(['Uno'])
    expect((await t.as(w, { method: 'GET', url: '/api/notificaciones?pageSize=500' })).statusCode).toBe(400)
    expect((await t.app.inject({ method: 'GET', url: '/api/notificaciones' })).statusCode).toBe(401)

    // Its statements are prepared once and reused on every connection (PostgreSQL plans them generically after
    // five calls): each call still gets its own worker, order and page.
    const titles = (res: { json(): unknown }) => (res.json() as Array<{ titulo: string }>).map((n) => n.titulo)
    for (let i = 0; i < 8; i++) {
      const asc = await t.as(w, { method: 'GET', url: `/api/notificaciones?order=asc&pageSize=2&page=${(i % 2) + 1}` })
      expect(asc.headers['x-total-count']).toBe('3')
      expect(titles(asc)).toEqual(i % 2 ? ['Tres'] : ['Uno', 'Dos'])
      const others = await t.as(other, { method: 'GET', url: '/api/notificaciones' })
      expect(others.headers['x-total-count']).toBe('1')
      expect(titles(others)).toEqual(['Ajena'])
    }
  })

  it(`stops counting at ${MAX_EXACT_TOTAL} (D13)`, async () => {
    const w = await t.worker('EMPLEADO', [])
    await t.db.execute(sql`insert into notificaciones (titulo, descripcion, trabajador_id, fecha_notificacion)
      select 'Aviso ' || i, 'x', ${w.id}, timestamptz '2026-01-01T00:00:00Z' + i * interval '1 minute'
      from generate_series(1, ${MAX_EXACT_TOTAL + 2}) i`)
    const res = await t.as(w, { method: 'GET', url: '/api/notificaciones?pageSize=2' })
    expect(res.headers['x-total-count']).toBe(String(MAX_EXACT_TOTAL))
    expect(res.headers['x-total-count-exact']).toBe('false')
    expect(res.json().map((n: { titulo: string }) => n.titulo)).toEqual([
      `Aviso ${MAX_EXACT_TOTAL + 2}`,
      `Aviso ${MAX_EXACT_TOTAL + 1}`,
    ])
  })
})

describe('POST /api/notificaciones (SPEC §7)', () => {
  it('creates one for a worker sharing a company, logged; another company’s worker is 404 and nothing is stored', async () => {
    const [a, b] = await t.db
      .insert(empresas)
      .values([{ nombre: 'Noti A' }, { nombre: 'Noti B' }])
      .returning()
    const admin = await t.worker('ADMIN', [a!.id])
    const mate = await t.worker('EMPLEADO', [a!.id])
    const stranger = await t.worker('EMPLEADO', [b!.id])
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/notificaciones',
      payload: { titulo: 'Revisa el botiquín', descripcion: 'Antes del viernes', tipo: 'TAREA', trabajadorId: mate.id },
    })
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json()).toMatchObject({ titulo: 'Revisa el botiquín', tipo: 'TAREA', trabajadorId: mate.id })
    const mine = await t.as(mate, { method: 'GET', url: '/api/notificaciones' })
    expect(mine.json().map((n: { id: number }) => n.id)).toEqual([res.json().id])
    const [log] = await t.db.select().from(logs).where(eq(logs.trabajadorId, admin.id)).orderBy(desc(logs.id)).limit(1)
    expect(log).toMatchObject({ accion: 'Crear notificación', tipo: 'success', viviendaId: null })

    const before = (await t.db.select().from(notificaciones).where(eq(notificaciones.trabajadorId, stranger.id))).length
    const foreign = await t.as(admin, {
      method: 'POST',
      url: '/api/notificaciones',
      payload: { titulo: 'Hola', descripcion: 'x', tipo: 'info', trabajadorId: stranger.id },
    })
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json().message).toBe(notificacionMessages.trabajadorNoEncontrado)
    const missing = await t.as(admin, {
      method: 'POST',
      url: '/api/notificaciones',
      payload: { titulo: 'Hola', descripcion: 'x', tipo: 'info', trabajadorId: 999_999 },
    })
    expect(missing.statusCode).toBe(404)
    expect((await t.db.select().from(notificaciones).where(eq(notificaciones.trabajadorId, stranger.id))).length).toBe(before)
    const superadmin = await t.worker('SUPERADMIN', [])
    const bySuper = await t.as(superadmin, {
      method: 'POST',
      url: '/api/notificaciones',
      payload: { titulo: 'Hola', descripcion: 'x', trabajadorId: stranger.id },
    })
    expect(bySuper.statusCode).toBe(201)
    expect(bySuper.json().tipo).toBe('info')
  })

  it('validates like every write: each field’s message', async () => {
    const w = await t.worker('EMPLEADO', [])
    const res = await t.as(w, {
      method: 'POST',
      url: '/api/notificaciones',
      payload: { titulo: '', tipo: 'OTRO', fechaNotificacion: '2026-02-30' },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().fieldErrors).toEqual({
      titulo: notificacionMessages.tituloObligatorio,
      descripcion: notificacionMessages.descripcionObligatoria,
      tipo: notificacionMessages.tipoInvalido,
      fechaNotificacion: notificacionMessages.fechaInvalida,
      trabajadorId: notificacionMessages.trabajadorObligatorio,
    })
  })
})

describe('DELETE /api/notificaciones: mark all as read', () => {
  it('dismisses every notification of the caller, none of others', async () => {
    const w = await t.worker('EMPLEADO', [])
    const other = await t.worker('EMPLEADO', [])
    await t.db.insert(notificaciones).values([
      { titulo: 'a', descripcion: 'a', trabajadorId: w.id },
      { titulo: 'b', descripcion: 'b', trabajadorId: w.id },
      { titulo: 'c', descripcion: 'c', trabajadorId: other.id },
    ])
    expect((await t.as(w, { method: 'DELETE', url: '/api/notificaciones' })).statusCode).toBe(204)
    expect((await t.as(w, { method: 'GET', url: '/api/notificaciones' })).json()).toEqual([])
    expect((await t.as(other, { method: 'GET', url: '/api/notificaciones' })).json()).toHaveLength(1)
  })
})
