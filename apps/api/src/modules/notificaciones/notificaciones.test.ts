import { describe, expect, it } from 'vitest'
import { notificaciones } from '../../db/schema'
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

  it('requires a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/trabajadores/1/notificaciones' })).statusCode).toBe(401)
    expect((await t.app.inject({ method: 'DELETE', url: '/api/notificaciones/1' })).statusCode).toBe(401)
  })
})
