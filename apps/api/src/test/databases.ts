import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { type ConnectionTarget, clientConfig, type Database, type OpenOptions, openDatabase } from '../db/client'

/** Which server the API suite runs on: the embedded one (default) or TEST_DATABASE_URL (`TEST_ENGINE=pg`). */
export type TestEngine = 'embedded' | 'pg'

/** What the suite's global set-up hands to every test file (vitest `provide` / `inject`). */
export interface TestDatabases {
  engine: TestEngine
  /** A maintenance connection on that server (CREATE / DROP DATABASE). */
  admin: ConnectionTarget
  /** A database migrated once per run, copied for each test file. */
  template: string
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabases: TestDatabases
  }
}

/** The same server, another database. */
export function withDatabase(target: ConnectionTarget, database: string): ConnectionTarget {
  if (typeof target !== 'string') return { ...target, database }
  const url = new URL(target)
  url.pathname = `/${database}`
  return url.toString()
}

/** Runs statements on a short-lived maintenance connection. */
export async function adminQuery(admin: ConnectionTarget, ...statements: string[]): Promise<void> {
  const client = new pg.Client(clientConfig(admin))
  client.on('error', () => {})
  await client.connect()
  try {
    for (const statement of statements) await client.query(statement)
  } finally {
    await client.end().catch(() => {})
  }
}

export const uniqueName = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`

/**
 * A fresh database for one test file: a copy of the migrated template (`CREATE DATABASE … TEMPLATE`, well
 * under a second), dropped on close.
 */
export async function copyTemplate(dbs: TestDatabases, options: OpenOptions = {}): Promise<Database & { name: string }> {
  const name = uniqueName('t')
  await adminQuery(dbs.admin, `create database ${name} template ${dbs.template}`)
  const database = await openDatabase(withDatabase(dbs.admin, name), { poolSize: 4, migrate: false, ...options })
  return {
    ...database,
    name,
    async close() {
      await database.close()
      await adminQuery(dbs.admin, `drop database if exists ${name} with (force)`)
    },
  }
}
