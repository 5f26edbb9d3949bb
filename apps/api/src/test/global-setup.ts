import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { type ConnectionTarget, openDatabase } from '../db/client'
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../db/embedded'
import { adminQuery, type TestEngine, uniqueName, withDatabase } from './databases'

/**
 * Once per API test run (DECISIONS R, tests): the server — the embedded PostgreSQL, started here, or
 * TEST_DATABASE_URL with TEST_ENGINE=pg — and a template database migrated once. Each test file then
 * works on its own copy of it (test/databases.ts).
 */
export default async function setup(project: TestProject) {
  const engine: TestEngine = process.env.TEST_ENGINE === 'pg' ? 'pg' : 'embedded'
  let admin: ConnectionTarget
  let server: EmbeddedPostgres | undefined
  let dataDir: string | undefined
  if (engine === 'pg') {
    const url = process.env.TEST_DATABASE_URL
    if (!url) throw new Error('TEST_ENGINE=pg necesita TEST_DATABASE_URL')
    admin = url
  } else {
    dataDir = mkdtempSync(path.join(tmpdir(), 'vb-api-tests-'))
    // A throw-away cluster: durability settings off, the only place they are.
    server = await startEmbeddedPostgres({ dataDir, durable: false })
    admin = server.admin
  }
  const template = uniqueName('vb_tpl')
  await adminQuery(admin, `create database ${template}`)
  const migrated = await openDatabase(withDatabase(admin, template), { poolSize: 1 })
  await migrated.close()
  project.provide('testDatabases', { engine, admin, template })
  console.log(`API tests on ${engine === 'pg' ? `TEST_DATABASE_URL` : `embedded PostgreSQL ${server?.major}`}`)

  return async () => {
    await adminQuery(admin, `drop database if exists ${template} with (force)`).catch(() => {})
    await server?.stop()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  }
}
