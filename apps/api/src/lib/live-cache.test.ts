import { eq, sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { Listen } from '../db/client'
import { notificaciones, trabajadorEmpresas, trabajadores } from '../db/schema'
import { buildTestApp, type TestApp } from '../test/build-test-app'
import { makeEmpresa, makeVivienda } from '../test/factories'
import { CAMBIOS_CHANNEL, ChangeFeed, LIVE_CACHE_TTL_MS } from './live-cache'

/** A LISTEN that the test drives: it delivers payloads, loses and regains the connection when told. */
function fakeListen() {
  const handlers: { payload?: (p: string) => void; reconnect?: () => void; lost?: () => void } = {}
  let succeed = true
  const listen: Listen = async (_channel, onPayload, onReconnect, onLost) => {
    if (!succeed) throw new Error('sin conexión')
    handlers.payload = onPayload
    handlers.reconnect = onReconnect
    handlers.lost = onLost
    return async () => {}
  }
  return {
    listen,
    handlers,
    failNext(fail: boolean) {
      succeed = !fail
    },
  }
}

const counter = () => {
  let n = 0
  return {
    load: async () => {
      n += 1
      return { n, lista: [n] }
    },
    get calls() {
      return n
    },
  }
}

describe('LiveCache and ChangeFeed', () => {
  it('serves nothing until the feed listens, then keeps each worker entry until its rows change', async () => {
    const fake = fakeListen()
    const feed = new ChangeFeed(fake.listen)
    const cache = feed.cache<{ n: number; lista: number[] }>('prueba', ['trabajadores'])
    const c = counter()
    // Not listening yet: every call reads.
    await cache.get(1, '', c.load)
    await cache.get(1, '', c.load)
    expect(c.calls).toBe(2)
    expect(cache.size).toBe(0)

    feed.start()
    await feed.ready
    expect(feed.live).toBe(true)
    const first = await cache.get(1, '', c.load)
    expect(await cache.get(1, '', c.load)).toBe(first)
    await cache.get(2, 'a', c.load)
    await cache.get(2, 'b', c.load)
    expect(c.calls).toBe(5)
    expect(cache.size).toBe(3)
    // Shared by concurrent requests: frozen, deep.
    expect(Object.isFrozen(first) && Object.isFrozen(first.lista)).toBe(true)

    // A change to worker 2's rows of a table this cache reads drops worker 2's entries only.
    fake.handlers.payload?.('trabajadores:2')
    expect(cache.size).toBe(1)
    // Another table's changes do not concern it.
    fake.handlers.payload?.('notificaciones:1')
    expect(cache.size).toBe(1)
    // '*' (a restore, a TRUNCATE) and anything unreadable drop everything.
    fake.handlers.payload?.('*')
    expect(cache.size).toBe(0)
    await cache.get(1, '', c.load)
    fake.handlers.payload?.('trabajadores:nada')
    expect(cache.size).toBe(0)
    // So does a write of this process (app.ts calls it once the write has committed).
    await cache.get(1, '', c.load)
    feed.dropAll()
    expect(cache.size).toBe(0)
    // The tests' wait never throws: with the database away it gives up, and the call that follows shows the 503.
    expect(
      await feed.settled(async () => {
        throw new Error('terminating connection due to administrator command')
      }),
    ).toBe(false)
    await feed.stop()
    expect(feed.live).toBe(false)
  })

  it('never keeps a value whose reading overlapped a change', async () => {
    const fake = fakeListen()
    const feed = new ChangeFeed(fake.listen)
    feed.start()
    await feed.ready
    const cache = feed.cache<string>('prueba', ['trabajadores'])
    let release = () => {}
    const reading = cache.get(7, '', () => new Promise<string>((resolve) => (release = () => resolve('antes'))))
    // The change commits while the row is being read: what was read may be the old row.
    fake.handlers.payload?.('trabajadores:7')
    release()
    expect(await reading).toBe('antes')
    expect(cache.size).toBe(0)
    expect(await cache.get(7, '', async () => 'después')).toBe('después')
    expect(cache.size).toBe(1)
    await feed.stop()
  })

  it('keeps nothing while the connection is lost, and starts empty when it is back', async () => {
    const fake = fakeListen()
    const feed = new ChangeFeed(fake.listen)
    feed.start()
    await feed.ready
    const cache = feed.cache<number>('prueba', ['trabajadores'])
    await cache.get(1, '', async () => 1)
    fake.handlers.lost?.()
    expect(feed.live).toBe(false)
    expect(cache.size).toBe(0)
    // Changes now go unheard: nothing is served or kept.
    expect(await cache.get(1, '', async () => 2)).toBe(2)
    expect(await cache.get(1, '', async () => 3)).toBe(3)
    expect(cache.size).toBe(0)
    fake.handlers.reconnect?.()
    expect(feed.live).toBe(true)
    expect(await cache.get(1, '', async () => 4)).toBe(4)
    expect(await cache.get(1, '', async () => 5)).toBe(4)
    await feed.stop()
  })

  it('retries a LISTEN that failed at start, serving nothing meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    try {
      const fake = fakeListen()
      fake.failNext(true)
      const feed = new ChangeFeed(fake.listen)
      feed.start()
      await vi.advanceTimersByTimeAsync(10)
      expect(feed.live).toBe(false)
      fake.failNext(false)
      await vi.advanceTimersByTimeAsync(2_000)
      expect(feed.live).toBe(true)
      await feed.stop()
    } finally {
      vi.useRealTimers()
    }
  })

  it(`lets no entry live longer than ${LIVE_CACHE_TTL_MS / 1000} s, whatever the feed says`, async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    try {
      const fake = fakeListen()
      const feed = new ChangeFeed(fake.listen)
      feed.start()
      await feed.ready
      const cache = feed.cache<{ n: number; lista: number[] }>('prueba', ['trabajadores'])
      const c = counter()
      await cache.get(1, '', c.load)
      vi.advanceTimersByTime(LIVE_CACHE_TTL_MS - 100)
      await cache.get(1, '', c.load)
      expect(c.calls).toBe(1)
      vi.advanceTimersByTime(200)
      await cache.get(1, '', c.load)
      expect(c.calls).toBe(2)
      await feed.stop()
    } finally {
      vi.useRealTimers()
    }
  })
})

// ------------------------------------------------------------------ on the real database

const t: TestApp = await buildTestApp()
afterAll(() => t.close())
await t.app.deps.changes.ready
const empresaA = await makeEmpresa(t.db)
const empresaB = await makeEmpresa(t.db)
const viviendaB = await makeVivienda(t.db, empresaB.id)
const actors = t.app.deps.changes.cache('actor', [])

/** Calls `read` until it gives `expected` (a NOTIFY travels in milliseconds; two seconds is plenty). */
async function eventually<T>(read: () => Promise<T>, expected: T): Promise<number> {
  const start = performance.now()
  for (;;) {
    const value = await read()
    if (Object.is(value, expected) || JSON.stringify(value) === JSON.stringify(expected)) return performance.now() - start
    if (performance.now() - start > 2_000) expect(value).toEqual(expected)
    await new Promise((r) => setTimeout(r, 5))
  }
}

/** Straight SQL on a connection of its own, as another process, the admin command or psql would write. */
async function elsewhere<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await t.database.pool.connect()
  try {
    return await work(client)
  } finally {
    client.release()
  }
}

describe('the token worker kept in memory (plugins/auth.ts)', () => {
  it('is read once, and a deactivation made elsewhere is refused as soon as PostgreSQL announces it', async () => {
    const w = await t.worker('ADMIN', [empresaA.id])
    const status = async () => (await t.as(w, { method: 'GET', url: '/api/trabajadores/me' })).statusCode
    expect(await status()).toBe(200)
    expect(actors.size).toBeGreaterThan(0)
    await elsewhere((c) => c.query('update trabajadores set activo = false where id = $1', [w.id]))
    const ms = await eventually(status, 401)
    expect(ms).toBeLessThan(2_000)
    expect(await status()).toBe(401)
  })

  it('follows a company taken away or given elsewhere, and a role changed', async () => {
    const w = await t.worker('ADMIN', [empresaA.id])
    const reach = async () => (await t.as(w, { method: 'GET', url: `/api/viviendas/${viviendaB.id}` })).statusCode
    expect(await reach()).toBe(404)
    await elsewhere((c) =>
      c.query('insert into trabajador_empresas (trabajador_id, empresa_id) values ($1, $2)', [w.id, empresaB.id]),
    )
    await eventually(reach, 200)
    await elsewhere((c) =>
      c.query('delete from trabajador_empresas where trabajador_id = $1 and empresa_id = $2', [w.id, empresaB.id]),
    )
    await eventually(reach, 404)

    const rol = async () => (await t.as(w, { method: 'GET', url: '/api/trabajadores/me' })).json().rol
    expect(await rol()).toBe('ADMIN')
    await elsewhere((c) => c.query(`update trabajadores set rol = 'EMPLEADO' where id = $1`, [w.id]))
    await eventually(rol, 'EMPLEADO')
  })

  it("drops a worker's entry on any write this process answers, before the answer leaves", async () => {
    const admin = await t.worker('SUPERADMIN', [])
    const w = await t.worker('EMPLEADO', [empresaA.id])
    const bystander = await t.worker('EMPLEADO', [empresaA.id])
    // Straight app.inject: no waiting for NOTIFYs (t.as waits for them).
    const call = (who: typeof w, method: 'GET' | 'PATCH', url: string, payload?: object) =>
      t.app.inject({ method, url, payload, headers: { authorization: `Bearer ${who.token}` } })
    expect((await call(w, 'GET', '/api/trabajadores/me')).statusCode).toBe(200)
    expect((await call(bystander, 'GET', '/api/trabajadores/me')).statusCode).toBe(200)
    expect(actors.size).toBeGreaterThanOrEqual(2)
    // Deactivated through the API: every entry is gone when the answer arrives (the bystander's too, which no
    // NOTIFY names), so the very next call reads the worker again and is refused.
    const off = await call(admin, 'PATCH', `/api/trabajadores/${w.id}`, { activo: false })
    expect(off.statusCode).toBe(200)
    expect(actors.size).toBe(0)
    expect((await call(w, 'GET', '/api/trabajadores/me')).statusCode).toBe(401)
  })

  it('serves nothing kept while its LISTEN is lost, and picks up what it missed when it is back', async () => {
    const w = await t.worker('ADMIN', [empresaA.id])
    const nombre = async () => (await t.as(w, { method: 'GET', url: '/api/trabajadores/me' })).json().nombre
    expect(await nombre()).toBe('Prueba')
    const killed = await elsewhere(async (c) => {
      const { rows } = await c.query(
        `select pg_terminate_backend(pid) as ok from pg_stat_activity where query = 'LISTEN ${CAMBIOS_CHANNEL}' and datname = current_database()`,
      )
      return rows.length
    })
    expect(killed).toBeGreaterThan(0)
    await eventually(async () => t.app.deps.changes.live, false)
    // While nobody listens, a change goes unannounced: it is read anyway, since nothing is served from memory.
    await elsewhere((c) => c.query(`update trabajadores set nombre = 'Sin aviso' where id = $1`, [w.id]))
    expect(await nombre()).toBe('Sin aviso')
    expect(actors.size).toBe(0)
    // Back (db/client.ts reconnects after half a second): it starts from nothing and keeps again.
    await eventually(async () => t.app.deps.changes.live, true)
    expect(await nombre()).toBe('Sin aviso')
    expect(actors.size).toBeGreaterThan(0)
  })

  it('drops everything when the database says everything changed (a restore)', async () => {
    const w = await t.worker('ADMIN', [empresaA.id])
    await t.as(w, { method: 'GET', url: '/api/trabajadores/me' })
    expect(actors.size).toBeGreaterThan(0)
    await elsewhere((c) => c.query(`select pg_notify('${CAMBIOS_CHANNEL}', '*')`))
    await eventually(async () => actors.size, 0)
  })
})

describe('the notification poll kept in memory', () => {
  it('shows a notification written elsewhere as soon as it is announced, and a dismissal at once', async () => {
    const w = await t.worker('EMPLEADO', [empresaA.id])
    const poll = async () => {
      const res = await t.as(w, { method: 'GET', url: '/api/notificaciones' })
      expect(res.statusCode).toBe(200)
      return (res.json() as Array<{ id: number; titulo: string }>).map((n) => n.titulo)
    }
    expect(await poll()).toEqual([])
    await elsewhere((c) =>
      c.query(`insert into notificaciones (titulo, descripcion, trabajador_id) values ('Desde fuera', 'x', $1)`, [w.id]),
    )
    await eventually(poll, ['Desde fuera'])
    const [row] = await t.db.select().from(notificaciones).where(eq(notificaciones.trabajadorId, w.id))
    const dismissed = await t.as(w, { method: 'DELETE', url: `/api/notificaciones/${row?.id}` })
    expect(dismissed.statusCode).toBeLessThan(300)
    expect(await poll()).toEqual([])
  })
})

describe('the change triggers (drizzle/0014_change_feed.sql)', () => {
  it('announce once per worker a committed statement touched, on each table, and * on TRUNCATE', async () => {
    const a = await t.worker('EMPLEADO', [])
    const b = await t.worker('EMPLEADO', [])
    const heard: string[] = []
    const listener = new pg.Client(t.database.pool.options)
    await listener.connect()
    listener.on('notification', (m) => heard.push(m.payload ?? ''))
    await listener.query(`LISTEN ${CAMBIOS_CHANNEL}`)
    const expectHeard = async (expected: string[]) => {
      await eventually(async () => [...heard].sort(), [...expected].sort())
      heard.length = 0
    }
    try {
      await t.db.insert(notificaciones).values([
        { titulo: '1', descripcion: '', trabajadorId: a.id },
        { titulo: '2', descripcion: '', trabajadorId: a.id },
        { titulo: '3', descripcion: '', trabajadorId: b.id },
      ])
      await expectHeard([`notificaciones:${a.id}`, `notificaciones:${b.id}`])
      await t.db.update(notificaciones).set({ titulo: 'otro' }).where(eq(notificaciones.trabajadorId, b.id))
      await expectHeard([`notificaciones:${b.id}`])
      await t.db.update(notificaciones).set({ trabajadorId: b.id }).where(eq(notificaciones.trabajadorId, a.id))
      await expectHeard([`notificaciones:${a.id}`, `notificaciones:${b.id}`])
      await t.db.delete(notificaciones).where(eq(notificaciones.trabajadorId, b.id))
      await expectHeard([`notificaciones:${b.id}`])

      await t.db.insert(trabajadorEmpresas).values({ trabajadorId: a.id, empresaId: empresaA.id })
      await expectHeard([`trabajador_empresas:${a.id}`])
      await t.db.update(trabajadores).set({ nombre: 'Otro' }).where(sql`${trabajadores.id} in (${a.id}, ${b.id})`)
      await expectHeard([`trabajadores:${a.id}`, `trabajadores:${b.id}`])
      // A company deleted takes its links with it (ON DELETE CASCADE): the worker hears of it.
      const suelta = await makeEmpresa(t.db)
      await t.db.insert(trabajadorEmpresas).values({ trabajadorId: b.id, empresaId: suelta.id })
      await expectHeard([`trabajador_empresas:${b.id}`])
      await elsewhere((c) => c.query('delete from empresas where id = $1', [suelta.id]))
      await expectHeard([`trabajador_empresas:${b.id}`])

      // Nothing is announced for a transaction rolled back.
      await t.db
        .transaction(async (tx) => {
          await tx.update(trabajadores).set({ nombre: 'Nunca' }).where(eq(trabajadores.id, a.id))
          throw new Error('vuelta atrás')
        })
        .catch(() => {})
      await t.db.execute(sql`select pg_notify(${CAMBIOS_CHANNEL}, 'marca')`)
      await expectHeard(['marca'])

      await elsewhere(async (c) => {
        await c.query('begin')
        await c.query('truncate notificaciones')
        await c.query('rollback')
      })
      await elsewhere(async (c) => {
        await c.query('begin')
        await c.query('truncate notificaciones')
        await c.query('commit')
      })
      await expectHeard(['*'])
    } finally {
      await listener.end()
    }
  })
})
