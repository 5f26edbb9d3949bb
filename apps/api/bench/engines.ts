import { rmSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { type Database, openPglite, openPostgres } from '../src/db/client'

export type Engine = 'pglite' | 'pg'

export interface Opened {
  database: Database
  describe: string
  cleanup(): Promise<void>
}

const ROOT = path.resolve(import.meta.dirname, '../../..')

/**
 * A fresh database for a benchmark, migrated as at start-up: PGlite in a temporary directory under
 * ./bench-data, or a new `bench_<time>` database on BENCH_DATABASE_URL's server (default the local
 * PostgreSQL). `cleanup` closes it and removes it, unless `keep`.
 */
export async function openBenchDatabase(engine: Engine, { keep, pool }: { keep: boolean; pool: number }): Promise<Opened> {
  if (engine === 'pglite') {
    const dir = path.join(ROOT, 'bench-data', `pglite-${Date.now()}`)
    const database = await openPglite(dir)
    return {
      database,
      describe: `PGlite (embedded, in-process) in ${path.relative(ROOT, dir)}`,
      async cleanup() {
        await database.close()
        if (keep) console.log(`Kept the PGlite data directory ${dir}`)
        else rmSync(dir, { recursive: true, force: true })
      },
    }
  }
  const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'
  const name = `bench_${Date.now()}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const target = new URL(adminUrl)
  target.pathname = `/${name}`
  const database = await openPostgres(target.toString(), pool)
  // An idle pooled connection that the server closes must not crash the run without a word (once the run
  // is cleaning up, connections still closing when the database is dropped are expected to complain).
  let cleaning = false
  ;(database.db as unknown as { $client: pg.Pool }).$client.on('error', (err) => {
    if (!cleaning) console.error(`PostgreSQL pool: ${err.message}`)
  })
  const result = (await database.db.execute(sql`show server_version`)) as unknown as { rows: Array<{ server_version: string }> }
  return {
    database,
    describe: `PostgreSQL ${result.rows[0]?.server_version} at ${target.host}, database ${name} (pool of ${pool})`,
    async cleanup() {
      cleaning = true
      await database.close()
      if (keep) {
        console.log(`Kept the database: psql ${target}`)
        return
      }
      const drop = new pg.Client({ connectionString: adminUrl })
      await drop.connect()
      await drop.query(`drop database if exists ${name} with (force)`)
      await drop.end()
    },
  }
}
