import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { type ConnectionTarget, type Database, openDatabase } from '../src/db/client'
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../src/db/embedded'
import { adminQuery, withDatabase } from '../src/test/databases'

/** `embedded`: the server `npm start` runs by default; `pg`: an external PostgreSQL (BENCH_DATABASE_URL). */
export type Engine = 'embedded' | 'pg'
export const ENGINE_NAMES: Record<Engine, string> = { embedded: 'embedded PostgreSQL (default)', pg: 'external PostgreSQL' }

export function parseEngines(value: string): Engine[] {
  if (value === 'both') return ['embedded', 'pg']
  if (value === 'embedded' || value === 'pg') return [value]
  console.error('--engine must be embedded, pg or both')
  process.exit(2)
}

export interface Opened {
  database: Database
  /** Where the benchmark's database is, for EXPLAIN with `psql` and the ceiling measured through `pg`. */
  target: ConnectionTarget
  describe: string
  /** A fresh uploads folder for the app under test (removed by cleanup). */
  uploadsDir: string
  cleanup(): Promise<void>
}

const ROOT = path.resolve(import.meta.dirname, '../../..')

/**
 * A fresh database for a benchmark, migrated as at start-up: the embedded server in a temporary data
 * directory under ./bench-data (durable, as `npm start` runs it), or a new `bench_<time>` database on
 * BENCH_DATABASE_URL's server (default the local PostgreSQL). `cleanup` closes and removes it, unless `keep`.
 */
export async function openBenchDatabase(engine: Engine, { keep, pool }: { keep: boolean; pool: number }): Promise<Opened> {
  let server: EmbeddedPostgres | undefined
  let admin: ConnectionTarget
  let dir: string | undefined
  if (engine === 'embedded') {
    dir = path.join(ROOT, 'bench-data', `embedded-${Date.now()}`)
    server = await startEmbeddedPostgres({ dataDir: dir })
    admin = server.admin
  } else {
    admin = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'
  }
  const name = `bench_${Date.now()}`
  await adminQuery(admin, `create database ${name}`)
  const target = withDatabase(admin, name)
  // Seeding takes longer than a request may: no statement timeout for the benchmark's own pool.
  const database = await openDatabase(target, { poolSize: pool, statementTimeoutMs: 0 })
  const result = (await database.db.execute(sql`show server_version`)) as unknown as { rows: Array<{ server_version: string }> }
  // Under the system's temporary folder: made 0700 by the app, it must not sit on the path the embedded
  // server's system user has to traverse (bench-data).
  const uploadsDir = path.join(mkdtempSync(path.join(tmpdir(), 'vb-bench-')), 'uploads')
  const where = server ? `embedded in ${path.relative(ROOT, dir as string)}` : `at ${database.describe}`
  return {
    database,
    target,
    describe: `PostgreSQL ${result.rows[0]?.server_version} ${where}, database ${name} (pool of ${pool})`,
    uploadsDir,
    async cleanup() {
      await database.close()
      rmSync(path.dirname(uploadsDir), { recursive: true, force: true })
      if (keep) {
        console.log(`Kept the database ${name}${dir ? ` in ${dir} (start it again with DATA_DIR=${dir})` : ''}`)
        await server?.stop()
        return
      }
      await adminQuery(admin, `drop database if exists ${name} with (force)`)
      await server?.stop()
      if (dir) rmSync(dir, { recursive: true, force: true })
    },
  }
}
