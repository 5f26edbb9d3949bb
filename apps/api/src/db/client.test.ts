import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../test/build-test-app'
import { openDatabase } from './client'

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
