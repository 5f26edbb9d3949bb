import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../test/build-test-app'

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
