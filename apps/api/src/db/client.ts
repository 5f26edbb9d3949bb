import { closeSync, existsSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import type { ExtractTablesWithRelations } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import * as schema from './schema'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>
/** A database handle or an open transaction: services accept either. */
export type DbOrTx = Db | Tx

/** Stops a LISTEN started by `Database.listen`. */
export type Unlisten = () => Promise<void>
/** PostgreSQL LISTEN on a channel: `onPayload` runs for each NOTIFY committed by any process. */
export type Listen = (channel: string, onPayload: (payload: string) => void) => Promise<Unlisten>

export interface Database {
  db: Db
  engine: 'pglite' | 'postgres'
  listen: Listen
  close(): Promise<void>
}

/** Channel names are fixed identifiers in our code, never user input; refuse anything else. */
function checkChannel(channel: string): string {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`Canal de notificación no válido: ${channel}`)
  return channel
}

/** The folder of committed migrations, found from this file in src/ and in the built dist/. */
export function migrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'drizzle')
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate
    dir = path.dirname(dir)
  }
  throw new Error('No se encuentra la carpeta de migraciones (apps/api/drizzle)')
}

const drizzleOptions = { schema, casing: 'snake_case' as const }

export class DataDirLockedError extends Error {}

/**
 * DECISIONS R, embedded safety: one process owns a PGlite data directory. The lock holds the owner's
 * pid; a lock left by a dead process is taken over.
 */
function acquireLock(dataDir: string): () => void {
  const lockPath = path.join(dataDir, 'server.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return () => {
        try {
          unlinkSync(lockPath)
        } catch {
          /* already gone */
        }
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10)
      if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) {
        throw new DataDirLockedError(
          `La carpeta de datos ${dataDir} ya está en uso por otro proceso (pid ${pid}). ` +
            'Detén ese servidor o usa otra carpeta con DATA_DIR.',
        )
      }
      unlinkSync(lockPath)
    }
  }
  throw new DataDirLockedError(`No se pudo bloquear la carpeta de datos ${dataDir}`)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Embedded PostgreSQL; `dataDir` null keeps it in memory (tests). */
export async function openPglite(dataDir: string | null): Promise<Database> {
  let release = () => {}
  let target: string | undefined
  if (dataDir) {
    await mkdir(dataDir, { recursive: true })
    release = acquireLock(dataDir)
    target = path.join(dataDir, 'pgdata')
  }
  try {
    const client = await PGlite.create(target, { extensions: { unaccent, pg_trgm } })
    const db = drizzlePglite(client, drizzleOptions) as unknown as Db
    await migratePglite(db as never, { migrationsFolder: migrationsFolder() })
    return {
      db,
      engine: 'pglite',
      // The same instance delivers its own committed NOTIFYs: one process owns the data directory.
      listen: async (channel, onPayload) => {
        const stop = await client.listen(checkChannel(channel), onPayload)
        return async () => {
          if (!client.closed) await stop()
        }
      },
      async close() {
        try {
          await client.close()
        } finally {
          release()
        }
      },
    }
  } catch (err) {
    release()
    throw err
  }
}

/** Real PostgreSQL (DATABASE_URL). */
export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize })
  const db = drizzlePg(pool, drizzleOptions) as unknown as Db
  // Concurrent processes starting together: one migrates, the others wait on the advisory lock.
  const lockClient = await pool.connect()
  try {
    await lockClient.query('select pg_advisory_lock(727274)')
    await migratePg(db as never, { migrationsFolder: migrationsFolder() })
  } finally {
    await lockClient.query('select pg_advisory_unlock(727274)').catch(() => {})
    lockClient.release()
  }
  return {
    db,
    engine: 'postgres',
    listen: (channel, onPayload) => listenPostgres(url, checkChannel(channel), onPayload),
    async close() {
      await pool.end()
    },
  }
}

/**
 * LISTEN on a dedicated connection (a pooled one would be handed to other queries). When the connection
 * drops (a server restart), it reconnects every few seconds; meanwhile the 15 s poll still serves.
 */
async function listenPostgres(url: string, channel: string, onPayload: (payload: string) => void): Promise<Unlisten> {
  let stopped = false
  let client: pg.Client | undefined
  let retry: NodeJS.Timeout | undefined

  const scheduleRetry = () => {
    if (stopped || retry) return
    retry = setTimeout(() => {
      retry = undefined
      connect().catch(scheduleRetry)
    }, 3000)
    retry.unref()
  }

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url })
    next.on('notification', (message) => {
      if (message.channel === channel) onPayload(message.payload ?? '')
    })
    const lost = () => {
      if (client !== next) return
      client = undefined
      next.end().catch(() => {})
      scheduleRetry()
    }
    next.on('error', lost)
    next.on('end', lost)
    client = next
    try {
      await next.connect()
      await next.query(`LISTEN ${channel}`)
    } catch (err) {
      if (client === next) client = undefined
      next.end().catch(() => {})
      throw err
    }
    if (stopped) await next.end().catch(() => {})
  }

  await connect()
  return async () => {
    stopped = true
    if (retry) clearTimeout(retry)
    const current = client
    client = undefined
    await current?.end().catch(() => {})
  }
}
