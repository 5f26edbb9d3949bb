import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { buildTestApp, type TestApp } from '../test/build-test-app'
import { withDatabase } from '../test/databases'
import { type ConnectionTarget, DatabaseUnreachableError, openDatabase } from './client'

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t.close()
})

describe("the app's connections (db/client.ts)", () => {
  it('run without JIT compilation, with the statement and idle-transaction timeouts', async () => {
    const client = await t.database.pool.connect()
    try {
      const { rows } = await client.query(
        `select current_setting('jit') as jit, current_setting('statement_timeout') as statement,
                current_setting('idle_in_transaction_session_timeout') as idle, current_setting('application_name') as app`,
      )
      expect(rows[0]).toEqual({ jit: 'off', statement: '5s', idle: '30s', app: 'viviendas-api' })
    } finally {
      client.release()
    }
  })
})

describe('LISTEN (db/client.ts listen)', () => {
  it('that fails to start leaves nothing behind: no retry of its own, so the caller that retries holds the only one', async () => {
    // A server that takes each connection and drops it at once: the LISTEN connection fails while connecting.
    const attempts: number[] = []
    const server = createServer((socket) => {
      attempts.push(Date.now())
      socket.destroy()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const database = await openDatabase(`postgres://nadie@127.0.0.1:${port}/ninguna`, { migrate: false })
    try {
      await expect(database.listen('cambios', () => {})).rejects.toThrow()
      expect(attempts).toHaveLength(1)
      // listenOn's own first retry would come 0.5 s later.
      await new Promise((resolve) => setTimeout(resolve, 1500))
      expect(attempts).toHaveLength(1)
    } finally {
      await database.close()
      server.close()
    }
  })
})

describe('a PostgreSQL that cannot be reached (db/client.ts connectTo)', () => {
  /** What opening a database at `target` fails with. */
  const failure = (target: ConnectionTarget) =>
    openDatabase(target).then(
      () => {
        throw new Error('opened')
      },
      (err: unknown) => err as Error,
    )

  it('says where and why in Spanish: a port nobody listens on, a server that hangs up, a database that does not exist', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo
        probe.close(() => resolve(port))
      })
    })
    const refused = await failure(`postgres://postgres@127.0.0.1:${closed}/viviendas`)
    expect(refused).toBeInstanceOf(DatabaseUnreachableError)
    expect(refused.message).toBe(
      `No se puede conectar con PostgreSQL en 127.0.0.1:${closed}/viviendas (DATABASE_URL): rechaza la conexión: ¿está arrancado y escucha en ese puerto?`,
    )

    const hangsUp = createServer((socket) => socket.destroy())
    await new Promise<void>((resolve) => hangsUp.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = hangsUp.address() as AddressInfo
      const dropped = await failure(`postgres://postgres@127.0.0.1:${port}/viviendas`)
      expect(dropped).toBeInstanceOf(DatabaseUnreachableError)
      expect(dropped.message).toMatch(
        /^No se puede conectar con PostgreSQL en 127\.0\.0\.1:\d+\/viviendas \(DATABASE_URL\): cerró la conexión al conectar/,
      )
    } finally {
      hangsUp.close()
    }

    // The run's own server (embedded or TEST_DATABASE_URL), a database it does not have.
    const missing = await failure(withDatabase(inject('testDatabases').admin, 'no_existe_esta_base'))
    expect(missing).toBeInstanceOf(DatabaseUnreachableError)
    expect(missing.message).toMatch(
      /^No se puede conectar con PostgreSQL en .+: no existe esa base de datos \(.*no_existe_esta_base.*\): créela antes de arrancar\.$/,
    )
  })
})
