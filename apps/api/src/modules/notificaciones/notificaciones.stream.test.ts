import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { notificaciones } from '../../db/schema'
import { TEST_PASSWORD, type TestApp } from '../../test/build-test-app'
import { testApp } from '../../test/scenario'
import { openNotificationStream } from '../../test/sse'
import { createNotificaciones } from './notificaciones.service'

/** DECISIONS D9: new notifications pushed at once over Server-Sent Events, through LISTEN/NOTIFY. */

const t = await testApp()
await t.app.listen({ port: 0, host: '127.0.0.1' })
const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`

const nueva = (trabajadorId: number, titulo = 'Nueva tarea asignada'): typeof notificaciones.$inferInsert => ({
  titulo,
  descripcion: 'Tienes una tarea nueva.',
  tipo: 'TAREA',
  trabajadorId,
  fechaNotificacion: new Date(),
})

/** Waits until the hub counts `n` open streams (a stream subscribes before its headers are sent). */
async function streamsOpen(app: TestApp['app'], n: number) {
  for (let i = 0; i < 100 && app.deps.notificationHub.size !== n; i++) await new Promise((r) => setTimeout(r, 20))
  expect(app.deps.notificationHub.size).toBe(n)
}

describe('GET /api/notificaciones/stream', () => {
  it('refuses a call without a valid token with 401, like any call', async () => {
    const res = await t.as(null, { method: 'GET', url: '/api/notificaciones/stream' })
    expect(res.statusCode).toBe(401)
    expect(res.json().code).toBe('UNAUTHENTICATED')
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/notificaciones/stream',
      headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIiwidHYiOjB9.' },
    })
    expect(forged.statusCode).toBe(401)
  })

  it('pushes the id of each notification committed for this worker, and nothing of others or of rollbacks', async () => {
    const w = await t.worker('EMPLEADO', [])
    const other = await t.worker('EMPLEADO', [])
    const stream = await openNotificationStream(base, w)
    try {
      expect(stream.res.status).toBe(200)
      expect(stream.res.headers.get('content-type')).toContain('text/event-stream')
      expect(stream.res.headers.get('cache-control')).toBe('no-store')
      expect(stream.res.headers.get('x-content-type-options')).toBe('nosniff')

      await createNotificaciones(t.db, [nueva(other.id)])
      await expect(
        t.db.transaction(async (tx) => {
          await createNotificaciones(tx, [nueva(w.id, 'Deshecha')])
          throw new Error('rollback')
        }),
      ).rejects.toThrow('rollback')
      const [mine] = await t.db.transaction((tx) => createNotificaciones(tx, [nueva(w.id)]))

      const event = await stream.next()
      expect(event).toEqual({ event: 'notificacion', data: JSON.stringify({ id: mine?.id }) })
      const [second] = await createNotificaciones(t.db, [nueva(w.id, 'Otra')])
      expect(await stream.next()).toEqual({ event: 'notificacion', data: JSON.stringify({ id: second?.id }) })
    } finally {
      stream.close()
    }
  })

  it('reaches every open stream of the worker, and forgets a stream the browser closed', async () => {
    const w = await t.worker('ADMIN', [])
    await streamsOpen(t.app, 0)
    const a = await openNotificationStream(base, w)
    const b = await openNotificationStream(base, w)
    await streamsOpen(t.app, 2)
    const [row] = await createNotificaciones(t.db, [nueva(w.id)])
    const expected = { event: 'notificacion', data: JSON.stringify({ id: row?.id }) }
    expect(await a.next()).toEqual(expected)
    expect(await b.next()).toEqual(expected)
    a.close()
    b.close()
    await streamsOpen(t.app, 0)
  })

  it('hears what another API process on the same database committed (LISTEN/NOTIFY)', async () => {
    const other = await t.anotherProcess()
    await other.listen({ port: 0, host: '127.0.0.1' })
    try {
      const w = await t.worker('SUPERADMIN', [])
      const stream = await openNotificationStream(`http://127.0.0.1:${(other.server.address() as AddressInfo).port}`, w)
      await streamsOpen(other, 1)
      // Written through the first app's connection, heard by the second app's LISTEN.
      const [row] = await createNotificaciones(t.db, [nueva(w.id)])
      expect(await stream.next()).toEqual({ event: 'notificacion', data: JSON.stringify({ id: row?.id }) })
      stream.close()
    } finally {
      await other.close()
    }
  })

  it('forgets a browser that leaves while its stream is still being set up', async () => {
    // The first stream of a process starts its LISTEN; hold that until the browser has gone.
    let reached = () => {}
    const listenCalled = new Promise<void>((resolve) => {
      reached = resolve
    })
    let release = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    let listened = () => {}
    const listening = new Promise<void>((resolve) => {
      listened = resolve
    })
    const slow = await t.anotherProcess({
      listen: async (channel, onPayload, onReconnect, onLost) => {
        // The app's own LISTEN for its caches (lib/live-cache.ts) goes through as it is.
        if (channel !== 'notificaciones') return t.database.listen(channel, onPayload, onReconnect, onLost)
        reached()
        await gate
        const unlisten = await t.database.listen(channel, onPayload, onReconnect)
        listened()
        return unlisten
      },
    })
    await slow.listen({ port: 0, host: '127.0.0.1' })
    try {
      const w = await t.worker('EMPLEADO', [])
      // The server-side end of the browser's request, to know when the server has seen it go.
      const gone = new Promise<void>((resolve) => slow.server.once('request', (_req, res) => res.once('close', () => resolve())))
      const controller = new AbortController()
      const opening = fetch(`http://127.0.0.1:${(slow.server.address() as AddressInfo).port}/api/notificaciones/stream`, {
        headers: { authorization: `Bearer ${w.token}` },
        signal: controller.signal,
      }).catch(() => null)
      await listenCalled
      controller.abort()
      await opening
      // The server has seen the browser go before the LISTEN completes.
      await gone
      release()
      await listening
      // The subscription's continuation runs right after the LISTEN resolves; one turn of the loop later
      // it must have dropped the stream it no longer has a browser for.
      await new Promise((r) => setImmediate(r))
      expect(slow.deps.notificationHub.size).toBe(0)
    } finally {
      release()
      await slow.close()
    }
  })

  it('ends open streams when the server shuts down, so closing never hangs', async () => {
    const other = await t.anotherProcess()
    await other.listen({ port: 0, host: '127.0.0.1' })
    const w = await t.worker('EMPLEADO', [])
    const stream = await openNotificationStream(`http://127.0.0.1:${(other.server.address() as AddressInfo).port}`, w)
    await streamsOpen(other, 1)
    const started = Date.now()
    await other.close()
    expect(Date.now() - started).toBeLessThan(3000)
    expect(await stream.next()).toBeNull()
    expect(other.deps.notificationHub.size).toBe(0)
  })

  it("ends the worker's streams when its password changes; the old token cannot reopen one, the new can", async () => {
    const w = await t.worker('ADMIN', [])
    const bystander = await t.worker('ADMIN', [])
    const stream = await openNotificationStream(base, w)
    const other = await openNotificationStream(base, bystander)
    await streamsOpen(t.app, 2)
    const changed = await t.as(w, {
      method: 'PATCH',
      url: `/api/trabajadores/${w.id}/cambiar-password`,
      payload: { passwordActual: TEST_PASSWORD, passwordNueva: 'NuevaClave1' },
    })
    expect(changed.statusCode).toBe(200)
    expect(await stream.next()).toBeNull()
    // Another worker's stream is untouched and still hears its notifications.
    const [row] = await createNotificaciones(t.db, [nueva(bystander.id)])
    expect(await other.next()).toEqual({ event: 'notificacion', data: JSON.stringify({ id: row?.id }) })
    other.close()

    const stale = await fetch(`${base}/api/notificaciones/stream`, { headers: { authorization: `Bearer ${w.token}` } })
    expect(stale.status).toBe(401)
    const fresh = await openNotificationStream(base, { ...w, token: changed.json().token })
    expect(fresh.res.status).toBe(200)
    fresh.close()
  })

  it('ends the stream when the token expires', async () => {
    const w = await t.worker('EMPLEADO', [])
    const shortLived = {
      ...w,
      token: t.app.jwt.sign({ sub: String(w.id), tv: (t.app.jwt.decode(w.token) as { tv: number }).tv }, { expiresIn: 3 }),
    }
    const stream = await openNotificationStream(base, shortLived)
    expect(stream.res.status).toBe(200)
    expect(await stream.next(8000)).toBeNull()
  })
})
