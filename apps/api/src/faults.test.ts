import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { INVALID_TEXT_MESSAGE, passwordMessages } from '@vb/shared'
import { eq, sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { clientConfig, type Database, openDatabase } from './db/client'
import { type EmbeddedPostgres, startEmbeddedPostgres } from './db/embedded'
import { logs, passwordResets, usuarios, viviendas } from './db/schema'
import { createNotificaciones } from './modules/notificaciones/notificaciones.service'
import { buildTestApp, freshDatabase, TEST_PASSWORD, type TestApp, type TestWorker } from './test/build-test-app'
import { withDatabase } from './test/databases'
import { makeEmpresa, makeNif, makeUsuario, makeVivienda } from './test/factories'
import { testScenario } from './test/scenario'
import { DatabaseProxy } from './test/tcp-proxy'

/**
 * Faults and races: each protection has a test that fails without it, on the embedded
 * server and on TEST_DATABASE_URL (the run's engine).
 */
const dbs = inject('testDatabases')
const UNAVAILABLE = 'El servicio no está disponible en este momento. Inténtalo de nuevo en unos minutos.'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const scenario = await testScenario({
  empresaA: { nombre: 'Empresa Fallos' },
  empresaB: false,
  workers: { superadmin: { rol: 'SUPERADMIN', of: ['A'] } },
})
const { t, empresaA: empresa, superadmin } = scenario

/** An SSE reader over a real socket: collects the events' names. */
async function openStream(base: string, token: string) {
  const controller = new AbortController()
  const res = await fetch(`${base}/api/notificaciones/stream`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  })
  const events: string[] = []
  let ended = false
  const reading = (async () => {
    const reader = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ''
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        buffer += value
        for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
          const name = /^event: (.+)$/m.exec(buffer.slice(0, cut))?.[1]
          if (name) events.push(name)
          buffer = buffer.slice(cut + 2)
        }
      }
    } catch {
      /* aborted */
    }
    ended = true
  })()
  return {
    status: res.status,
    events,
    ended: () => ended,
    close: async () => {
      controller.abort()
      await reading
    },
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition') {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await check()) return
    await sleep(50)
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe('a dropped database connection never kills the server (item 1)', () => {
  let direct: Database & { name: string }
  let proxy: DatabaseProxy
  let viaProxy: Database
  let app: TestApp
  let base: string
  let w: TestWorker

  beforeAll(async () => {
    direct = await freshDatabase()
    proxy = new DatabaseProxy(DatabaseProxy.upstreamOf(dbs.admin))
    await proxy.start()
    viaProxy = await openDatabase(proxy.target(withDatabase(dbs.admin, direct.name)), { poolSize: 4, migrate: false })
    app = await buildTestApp({ database: viaProxy })
    await app.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`
    const e = await makeEmpresa(direct.db)
    w = await app.worker('ADMIN', [e.id])
  })
  afterAll(async () => {
    await app.close()
    await proxy.close()
    await direct.close()
  })

  const get = (url = '/api/empresas') => fetch(`${base}${url}`, { headers: { authorization: `Bearer ${w.token}` } })

  it('survives PostgreSQL terminating every pooled and LISTEN connection mid-traffic; the stream resyncs and hears new notifications', async () => {
    const stream = await openStream(base, w.token)
    expect(stream.status).toBe(200)
    const statuses: number[] = []
    let stop = false
    const traffic = (async () => {
      while (!stop) statuses.push((await get()).status)
    })()
    await sleep(300)
    const admin = new pg.Client(clientConfig(dbs.admin))
    await admin.connect()
    const killed = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [direct.name],
    )
    await admin.end()
    expect(killed.rowCount).toBeGreaterThanOrEqual(2) // the pool's and the LISTEN's
    await sleep(1500)
    stop = true
    await traffic
    // Never a 500, never a crash; a few requests may meet a dead connection (503), then all answer.
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([])
    expect((await get()).status).toBe(200)
    // LISTEN came back by itself and told the open stream it may have missed something.
    await waitFor(() => stream.events.includes('resync'), 10_000, 'resync event')
    await createNotificaciones(direct.db, [{ titulo: 'Tras el corte', descripcion: 'x', tipo: 'info', trabajadorId: w.id }])
    await waitFor(() => stream.events.includes('notificacion'), 10_000, 'notification after reconnect')
    await stream.close()
  }, 30_000)

  it('while PostgreSQL is unreachable every call answers 503 with the Spanish message, /api/ready 503, /api/health 200; it recovers by itself', async () => {
    await proxy.cut()
    try {
      const started = Date.now()
      const res = await get()
      expect(Date.now() - started).toBeLessThan(5000)
      expect(res.status).toBe(503)
      expect(await res.json()).toEqual({ statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE })
      expect(res.headers.get('retry-after')).toBeTruthy()
      // The login and a write answer the same, and nothing crashes.
      const login = await fetch(`${base}/api/auth/trabajadores/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: w.email, password: TEST_PASSWORD }),
      })
      expect(login.status).toBe(503)
      expect((await fetch(`${base}/api/ready`)).status).toBe(503)
      expect((await fetch(`${base}/api/health`)).status).toBe(200)
    } finally {
      await proxy.restore()
    }
    await waitFor(async () => (await get()).status === 200, 10_000, 'recovery')
    expect((await fetch(`${base}/api/ready`)).status).toBe(200)
  }, 30_000)

  it('a network that swallows packets still gets an answer within 5 s (connection and statement timeouts)', async () => {
    proxy.blackHole()
    try {
      const started = Date.now()
      const res = await get()
      expect(res.status).toBe(503)
      expect(Date.now() - started).toBeLessThan(6500)
    } finally {
      await proxy.restore()
    }
    await waitFor(async () => (await get()).status === 200, 15_000, 'recovery')
  }, 30_000)
})

describe.skipIf(dbs.engine === 'pg')('the embedded server stopped and started again under load (item 1)', () => {
  it('answers 503s while it is down and 200s once it is back, without a restart of the API', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vb-caida-'))
    let server: EmbeddedPostgres = await startEmbeddedPostgres({ dataDir, durable: false })
    const database = await openDatabase(server.connection, { poolSize: 4 })
    const app = await buildTestApp({ database })
    try {
      const w = await app.worker('SUPERADMIN', [])
      const statuses: number[] = []
      let stop = false
      const traffic = (async () => {
        while (!stop) {
          statuses.push((await app.as(w, { method: 'GET', url: '/api/empresas' })).statusCode)
          await sleep(20)
        }
      })()
      await sleep(300)
      await server.stop()
      await sleep(1500)
      server = await startEmbeddedPostgres({ dataDir, durable: false })
      await waitFor(async () => (await app.as(w, { method: 'GET', url: '/api/empresas' })).statusCode === 200, 15_000, 'recovery')
      await sleep(300)
      stop = true
      await traffic
      expect(statuses).toContain(503)
      expect(statuses.at(-1)).toBe(200)
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([])
    } finally {
      await app.close()
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})

describe('no lost updates (item 2)', () => {
  it('25 rounds of an ADMIN renaming a home while a SUPERADMIN moves it: both changes survive every time', async () => {
    const a = await makeEmpresa(t.db)
    const b = await makeEmpresa(t.db)
    const admin = await t.worker('ADMIN', [a.id, b.id])
    for (let round = 0; round < 25; round++) {
      const home = await makeVivienda(t.db, a.id, { nombre: `Calle Carrera ${round}` })
      const [rename, move] = await Promise.all([
        t.as(admin, { method: 'PATCH', url: `/api/viviendas/${home.id}`, payload: { nombre: `Calle Renombrada ${round}` } }),
        t.as(superadmin, { method: 'PATCH', url: `/api/viviendas/${home.id}`, payload: { empresaId: b.id } }),
      ])
      expect([rename.statusCode, move.statusCode]).toEqual([200, 200])
      const [row] = await t.db.select().from(viviendas).where(eq(viviendas.id, home.id))
      expect(row).toMatchObject({ nombre: `Calle Renombrada ${round}`, empresaId: b.id })
    }
  }, 60_000)

  it('concurrent edits of one resident all succeed (no spurious 404) and each writes only its own field', async () => {
    const home = await makeVivienda(t.db, empresa.id)
    const u = await makeUsuario(t.db, home.id, { nombre: 'Original', apellidos: 'Apellido Original' })
    const admin = await t.worker('ADMIN', [empresa.id])
    const results = await Promise.all([
      t.as(admin, { method: 'PATCH', url: `/api/usuarios/${u.id}`, payload: { nombre: 'Nuevo' } }),
      t.as(superadmin, { method: 'PATCH', url: `/api/usuarios/${u.id}`, payload: { apellidos: 'Apellido Nuevo' } }),
      t.as(admin, { method: 'PATCH', url: `/api/usuarios/${u.id}`, payload: { gradoDependencia: 'PEI' } }),
    ])
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200])
    const [row] = await t.db.select().from(usuarios).where(eq(usuarios.id, u.id))
    expect(row).toMatchObject({ nombre: 'Nuevo', apellidos: 'Apellido Nuevo', gradoDependencia: 'PEI' })
    // Each log entry's "before" was read under the lock: they chain.
    const entries = await t.db.select().from(logs).where(eq(logs.usuarioId, u.id)).orderBy(logs.id)
    const chain = entries.map((e) => e.datos as { antes: { nombre: string }; despues: { nombre: string } })
    for (let i = 1; i < chain.length; i++) expect(chain[i]?.antes).toEqual(chain[i - 1]?.despues)
  })

  it('two concurrent deletes of one record: one 204, one 404, one log entry', async () => {
    const home = await makeVivienda(t.db, empresa.id, { nombre: 'Calle Doble Borrado' })
    const [first, second] = await Promise.all([
      t.as(superadmin, { method: 'DELETE', url: `/api/viviendas/${home.id}` }),
      t.as(superadmin, { method: 'DELETE', url: `/api/viviendas/${home.id}` }),
    ])
    expect([first.statusCode, second.statusCode].sort()).toEqual([204, 404])
    const entries = await t.db
      .select()
      .from(logs)
      .where(sql`${logs.accion} = 'Eliminar vivienda' and ${logs.viviendaId} = ${home.id}`)
    expect(entries).toHaveLength(1)
  })
})

describe('attempt limits hold under a burst and across processes (item 3)', () => {
  const loginOn = (app: TestApp['app'], email: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/auth/trabajadores/login', payload: { email, password }, remoteAddress: '10.9.9.9' })

  it('60 concurrent wrong passwords for one e-mail: 5 are checked, 55 answer 429 with Retry-After, then even the right one waits', async () => {
    const w = await t.worker('EMPLEADO', [])
    const results = await Promise.all(Array.from({ length: 60 }, () => loginOn(t.app, w.email, 'Equivocada1')))
    const codes = results.map((r) => r.statusCode)
    expect(codes.filter((c) => c === 401)).toHaveLength(5)
    expect(codes.filter((c) => c === 429)).toHaveLength(55)
    const limited = results.find((r) => r.statusCode === 429)
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0)
    expect(limited?.json().code).toBe('RATE_LIMITED')
    expect((await loginOn(t.app, w.email, TEST_PASSWORD)).statusCode).toBe(429)
    const failures = await t.db
      .select()
      .from(logs)
      .where(sql`${logs.accion} = 'Inicio de sesión fallido' and ${logs.trabajadorId} = ${w.id}`)
    expect(failures).toHaveLength(5)
  }, 60_000)

  it('200 wrong passwords for one e-mail from 200 addresses at once (and X-Forwarded-For lies): still 5 checked', async () => {
    const w = await t.worker('EMPLEADO', [])
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/trabajadores/login',
          payload: { email: w.email, password: 'Equivocada1' },
          remoteAddress: `10.${(i >> 8) & 255}.${i & 255}.${(i * 7) & 255}`,
          headers: { 'x-forwarded-for': `203.0.113.${i & 255}` },
        }),
      ),
    )
    const codes = results.map((r) => r.statusCode)
    expect(codes.filter((c) => c === 401)).toHaveLength(5)
    expect(codes.filter((c) => c === 429)).toHaveLength(195)
    expect(codes.some((c) => c >= 500)).toBe(false)
  }, 60_000)

  it('two API processes on one database share the count', async () => {
    const w = await t.worker('EMPLEADO', [])
    const other = await t.anotherProcess()
    try {
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => loginOn(i % 2 ? other : t.app, w.email, 'Equivocada1')),
      )
      expect(results.filter((r) => r.statusCode === 401)).toHaveLength(5)
    } finally {
      await other.close()
    }
  }, 60_000)

  it('guards the current password of a password change the same way, and logs each wrong guess', async () => {
    const w = await t.worker('EMPLEADO', [])
    const change = (passwordActual: string) =>
      t.as(w, {
        method: 'PATCH',
        url: `/api/trabajadores/${w.id}/cambiar-password`,
        payload: { passwordActual, passwordNueva: 'NuevaClave9' },
      })
    const results = await Promise.all(Array.from({ length: 8 }, () => change('Equivocada1')))
    expect(results.map((r) => r.statusCode).sort()).toEqual([400, 400, 400, 400, 400, 429, 429, 429])
    expect((await change(TEST_PASSWORD)).statusCode).toBe(429)
    const logged = await t.db
      .select()
      .from(logs)
      .where(sql`${logs.accion} = 'Cambio de contraseña fallido' and ${logs.trabajadorId} = ${w.id}`)
    expect(logged).toHaveLength(5)
  }, 60_000)

  it('sends at most 3 reset links an hour per e-mail, whatever the burst', async () => {
    const w = await t.worker('EMPLEADO', [])
    t.mails.length = 0
    const asks = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.app.inject({ method: 'POST', url: '/api/auth/recuperar', payload: { email: w.email }, remoteAddress: `10.8.0.${i}` }),
      ),
    )
    expect(asks.map((a) => a.statusCode)).toEqual([202, 202, 202, 202, 202, 202])
    await t.app.deps.background.idle()
    expect(t.mails.filter((m) => m.to === w.email)).toHaveLength(3)
  })
})

describe('passwords (item 4)', () => {
  const ask = async (email: string) => {
    t.mails.length = 0
    await t.app.inject({ method: 'POST', url: '/api/auth/recuperar', payload: { email }, remoteAddress: '10.7.7.7' })
    await t.app.deps.background.idle()
    return t.mails.at(-1)?.text.match(/#token=([\w-]+)/)?.[1] as string
  }
  const reset = (token: string, passwordNueva: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/restablecer', payload: { token, passwordNueva }, remoteAddress: '10.7.7.8' })

  it('a new link supersedes the older ones, and any password change spends every outstanding link', async () => {
    const w = await t.worker('EMPLEADO', [])
    const first = await ask(w.email)
    const second = await ask(w.email)
    expect((await reset(first, 'Primera123')).statusCode).toBe(400)
    // A change with the current password kills the second link too.
    const changed = await t.as(w, {
      method: 'PATCH',
      url: `/api/trabajadores/${w.id}/cambiar-password`,
      payload: { passwordActual: TEST_PASSWORD, passwordNueva: 'Cambiada123' },
    })
    expect(changed.statusCode).toBe(200)
    expect((await reset(second, 'Segunda123')).statusCode).toBe(400)
    // A reset through a link spends any other link of the worker (one planted beside it here).
    const link = await ask(w.email)
    const planted = 'enlace-plantado-para-la-prueba-0123456789'
    await t.db.insert(passwordResets).values({
      trabajadorId: w.id,
      tokenHash: createHash('sha256').update(planted).digest('hex'),
      expiresAt: new Date(Date.now() + 600_000),
    })
    expect((await reset(link, 'Tercera123')).statusCode).toBe(200)
    expect((await reset(planted, 'Cuarta1234')).statusCode).toBe(400)
  })

  it('refuses a new password equal to the current or temporary one (400 on passwordNueva), and keeps the link usable', async () => {
    const w = await t.worker('EMPLEADO', [])
    const same = await t.as(w, {
      method: 'PATCH',
      url: `/api/trabajadores/${w.id}/cambiar-password`,
      payload: { passwordActual: TEST_PASSWORD, passwordNueva: TEST_PASSWORD },
    })
    expect(same.statusCode).toBe(400)
    expect(same.json().fieldErrors).toEqual({ passwordNueva: passwordMessages.igualActual })
    const temporal = await t.worker('EMPLEADO', [], { passwordTemporal: true })
    const sameTemp = await t.as(temporal, {
      method: 'PATCH',
      url: `/api/trabajadores/${temporal.id}/cambiar-password`,
      payload: { passwordNueva: TEST_PASSWORD },
    })
    expect(sameTemp.json().fieldErrors).toEqual({ passwordNueva: 'La nueva contraseña debe ser distinta de la actual' })
    const link = await ask(w.email)
    expect((await reset(link, TEST_PASSWORD)).json().fieldErrors).toEqual({ passwordNueva: passwordMessages.igualActual })
    expect((await reset(link, 'Distinta123')).statusCode).toBe(200)
  })
})

describe('the log is history (item 5)', () => {
  it('the database refuses UPDATE, DELETE and TRUNCATE of log entries', async () => {
    const [entry] = await t.db.select().from(logs).limit(1)
    expect(entry).toBeDefined()
    await expect(
      t.db
        .update(logs)
        .set({ accion: 'Borrado' })
        .where(eq(logs.id, entry?.id as number)),
    ).rejects.toThrow()
    await expect(t.db.delete(logs).where(eq(logs.id, entry?.id as number))).rejects.toThrow()
    await expect(t.db.execute(sql`truncate logs`)).rejects.toThrow()
    const [still] = await t.db
      .select()
      .from(logs)
      .where(eq(logs.id, entry?.id as number))
    expect(still).toEqual(entry)
  })

  it('deleting a home rewrites none of its entries: they keep its id and name', async () => {
    const home = await makeVivienda(t.db, empresa.id, { nombre: 'Calle Que Se Va' })
    await t.as(superadmin, { method: 'PATCH', url: `/api/viviendas/${home.id}`, payload: { nombre: 'Calle Que Se Va 2' } })
    expect((await t.as(superadmin, { method: 'DELETE', url: `/api/viviendas/${home.id}` })).statusCode).toBe(204)
    const entries = await t.db.select().from(logs).where(eq(logs.viviendaId, home.id)).orderBy(logs.id)
    expect(entries.map((e) => [e.accion, e.viviendaNombre])).toEqual([
      ['Modificar vivienda', 'Calle Que Se Va 2'],
      ['Eliminar vivienda', 'Calle Que Se Va 2'],
    ])
    // Who, by name too: the worker may be deleted later.
    for (const e of entries)
      expect([e.trabajadorNombre, e.trabajadorApellidos]).toEqual(['Prueba', expect.stringMatching(/^Trabajador \d+$/)])
  })
})

describe('bounded resources (item 6)', () => {
  it('keeps at most 10 open streams per worker: 2,000 opens leave 10, the oldest closed first', async () => {
    const w = await t.worker('EMPLEADO', [])
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    const open: Array<Awaited<ReturnType<typeof openStream>>> = []
    let max = 0
    for (let i = 0; i < 2000; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => openStream(base, w.token)))
      open.push(...batch)
      max = Math.max(max, t.app.deps.notificationHub.size)
      // Streams the server closed are gone for the client too; let go of them.
      for (const s of open.filter((s) => s.ended())) await s.close()
      open.splice(0, open.length, ...open.filter((s) => !s.ended()))
    }
    await waitFor(() => t.app.deps.notificationHub.size === 10, 5000, '10 streams')
    expect(max).toBeLessThanOrEqual(10)
    await waitFor(() => open.filter((s) => !s.ended()).length === 10, 5000, 'clients see 10 open')
    for (const s of open) await s.close()
  }, 120_000)

  it('cuts a request whose body stalls (30 s by default)', async () => {
    expect(t.app.server.requestTimeout).toBe(30_000)
    expect(t.app.server.headersTimeout).toBe(10_000)
    const quick = await buildTestApp({ database: t.database, requestTimeoutMs: 1000 })
    await quick.app.listen({ port: 0, host: '127.0.0.1' })
    const port = (quick.app.server.address() as AddressInfo).port
    try {
      const started = Date.now()
      let client: ReturnType<typeof httpRequest> | undefined
      const status = await new Promise<number | string>((resolve) => {
        // With a valid token, so the route gets as far as reading the body that never finishes.
        client = httpRequest({
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/api/empresas',
          headers: { 'content-type': 'application/json', 'content-length': '100', authorization: `Bearer ${superadmin.token}` },
        })
        client.on('response', (res) => resolve(res.statusCode ?? 0))
        client.on('error', () => resolve('closed'))
        client.write('{"nombre": "Emp')
      })
      client?.destroy()
      expect([408, 'closed']).toContain(status)
      expect(Date.now() - started).toBeLessThan(5000)
    } finally {
      await quick.close({ keepDatabase: true })
    }
  })

  it('ids at the edges of a PostgreSQL integer answer 400 or 404 with the A3 body, never 500', async () => {
    for (const id of ['2147483648', '1e16', '0x1', '-1', '1.5', '0', '99999999999999999999']) {
      const res = await t.as(superadmin, { method: 'GET', url: `/api/viviendas/${id}` })
      expect(res.statusCode, id).toBe(404)
      expect(res.json().code).toBe('NOT_FOUND')
      const filter = await t.as(superadmin, { method: 'GET', url: `/api/viviendas?empresaId=${id}` })
      expect(filter.statusCode, id).toBe(400)
      expect(filter.json().code).toBe('VALIDATION_FAILED')
    }
    for (const empresaId of [2147483648, 1e16, -1, 1.5]) {
      const res = await t.as(superadmin, {
        method: 'POST',
        url: '/api/viviendas',
        payload: { nombre: 'Calle Límite', empresaId },
      })
      expect(res.statusCode, String(empresaId)).toBe(400)
      expect(res.json().fieldErrors.empresaId).toBeTruthy()
    }
    const link = await t.as(superadmin, { method: 'POST', url: '/api/usuarios/1/viviendas/2147483648' })
    expect(link.statusCode).toBe(404)
  })

  it('refuses a NUL byte or a lone surrogate in any text with 400 and a Spanish message, storing nothing', async () => {
    for (const nombre of ['Empresa\u0000Nula', 'Empresa \ud800 Rota']) {
      const res = await t.as(superadmin, { method: 'POST', url: '/api/empresas', payload: { nombre } })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: INVALID_TEXT_MESSAGE,
        fieldErrors: { nombre: INVALID_TEXT_MESSAGE },
      })
    }
    const query = await t.as(superadmin, { method: 'GET', url: '/api/empresas?q=%00' })
    expect(query.statusCode).toBe(400)
    const raw = await t.as(superadmin, {
      method: 'POST',
      url: '/api/empresas',
      headers: { 'content-type': 'application/json' },
      payload: '{"nombre": "Empresa \\ud83d Mitad"}',
    })
    expect(raw.statusCode).toBe(400)
  })

  it('logs a client’s bad input at info without a stack, and our own failures at error', async () => {
    const lines: Array<Record<string, unknown>> = []
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
        done()
      },
    })
    const logged = await buildTestApp({ database: t.database, logger: { level: 'info', stream: sink } })
    try {
      const w = await logged.worker('SUPERADMIN', [])
      await logged.as(w, { method: 'GET', url: '/api/viviendas/2147483648' })
      await logged.as(w, { method: 'POST', url: '/api/empresas', payload: { nombre: '' } })
      const clientErrors = lines.filter((l) => l.msg === 'client error')
      expect(clientErrors.length).toBe(2)
      for (const l of clientErrors) {
        expect(l.level).toBe(30)
        expect(JSON.stringify(l)).not.toMatch(/stack|at .*\.ts:/)
      }
    } finally {
      await logged.close({ keepDatabase: true })
    }
  })
})

describe('names as people write them (item 7, DECISIONS D12)', () => {
  it('stores NFC, accepts apostrophes, hyphens, periods and ª, and finds a name however its accents were typed', async () => {
    const home = await makeVivienda(t.db, empresa.id)
    const decomposed = 'Jose\u0301 Mari\u0301a'
    const created = await t.as(superadmin, {
      method: 'POST',
      url: '/api/usuarios',
      payload: { nombre: decomposed, apellidos: "O'Neill-Núñez", nif: makeNif(), viviendaId: home.id },
    })
    expect(created.statusCode, created.body).toBe(201)
    expect(created.json().nombre).toBe('José María')
    expect(created.json().nombre).toBe(decomposed.normalize('NFC'))
    const mj = await t.as(superadmin, {
      method: 'POST',
      url: '/api/usuarios',
      payload: { nombre: 'Mª José', apellidos: 'St. John', nif: makeNif(), viviendaId: home.id },
    })
    expect(mj.statusCode, mj.body).toBe(201)
    for (const q of ['jose maria', 'José María', decomposed, "o'neill"]) {
      const found = await t.as(superadmin, { method: 'GET', url: `/api/usuarios?q=${encodeURIComponent(q)}` })
      expect(
        (found.json() as Array<{ id: number }>).map((u) => u.id),
        q,
      ).toContain(created.json().id)
    }
    // What SPEC still refuses keeps SPEC's message.
    const digits = await t.as(superadmin, {
      method: 'POST',
      url: '/api/usuarios',
      payload: { nombre: 'Ana3', apellidos: 'Pérez', nif: makeNif(), viviendaId: home.id },
    })
    expect(digits.json().fieldErrors).toEqual({ nombre: 'El nombre solo puede contener letras y espacios' })
  })
})

describe('one door (item 9)', () => {
  it('decides by the matched route: an encoded or odd-cased /api path still needs a token', async () => {
    for (const url of ['/%61pi/empresas', '/api/%65mpresas', '/api//empresas', '/api/empresas/']) {
      const res = await t.app.inject({ method: 'GET', url })
      expect([401, 404], url).toContain(res.statusCode)
      expect(res.body).not.toContain('Empresa Fallos')
    }
  })

  it('every /api operation of the OpenAPI document answers 401 without a token, unless it declares itself public', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { security?: unknown[] }>>
    }
    const publicOps: string[] = []
    let checked = 0
    for (const [route, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const url = route.replace(/\{[^}]+\}/g, '1')
        if (Array.isArray(op.security) && op.security.length === 0) {
          publicOps.push(`${method.toUpperCase()} ${route}`)
          continue
        }
        const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url })
        expect(res.statusCode, `${method} ${route}`).toBe(401)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(20)
    expect(publicOps.sort()).toEqual(
      [
        'GET /api/health',
        'GET /api/ready',
        'POST /api/auth/recuperar',
        'POST /api/auth/restablecer',
        'POST /api/auth/trabajadores/login',
        // A signed, short-lived link authenticates it instead of a bearer token (DECISIONS S2, S5).
        'GET /api/uploads/{id}/contenido',
      ].sort(),
    )
  })
})
