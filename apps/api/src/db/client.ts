import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ExtractTablesWithRelations } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/node-postgres'
import { migrate } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core'
import pg from 'pg'
import type { ConnectionConfig } from './embedded'
import * as schema from './schema'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>
/** A database handle or an open transaction: services accept either. */
export type DbOrTx = Db | Tx

/** Stops a LISTEN started by `Database.listen`. */
export type Unlisten = () => Promise<void>
/**
 * PostgreSQL LISTEN on a channel: `onPayload` runs for each NOTIFY committed by any process. `onLost` runs
 * as soon as the connection is lost (from then until `onReconnect`, NOTIFYs are missed); after it is back
 * and listening again, `onReconnect` runs.
 */
export type Listen = (
  channel: string,
  onPayload: (payload: string) => void,
  onReconnect?: () => void,
  onLost?: () => void,
) => Promise<Unlisten>

/** Where the database is: a DATABASE_URL, or the embedded server's socket and password. */
export type ConnectionTarget = string | ConnectionConfig

export interface Database {
  db: Db
  pool: pg.Pool
  listen: Listen
  /** Human description for the start-up log (never the password). */
  describe: string
  close(): Promise<void>
}

export interface OpenOptions {
  /** Connections in the pool (DB_POOL_SIZE; 10 suits the 2-core default). */
  poolSize?: number
  /** Run the committed migrations under an advisory lock (default true). */
  migrate?: boolean
  /**
   * Server-side statement timeout and client-side query timeout for the pool, in ms (0: none). While the
   * database is unreachable a request answers 503 within this time instead of hanging.
   */
  statementTimeoutMs?: number
  /** A pooled or LISTEN connection was lost (it is replaced; nothing crashes). */
  onConnectionError?: (err: Error) => void
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

/**
 * Settings of every connection of the app (and of the benchmark's database ceiling, which replays its
 * statements). No JIT compilation: PostgreSQL compiles a statement whose estimated cost passes
 * jit_above_cost, and the calendar month's estimate did once a task for everyone held thousands of residents:
 * 520 ms of compiling for a statement that runs in 5 ms (docs/performance.md). This API's statements are short.
 */
export const SESSION_OPTIONS = '-c jit=off'

/** pg client settings for a target, without timeouts (those are the pool's). */
export function clientConfig(target: ConnectionTarget): pg.ClientConfig {
  return typeof target === 'string' ? { connectionString: target } : { ...target }
}

/** 'postgres://host:port/db' without credentials, or the embedded socket folder. */
export function describeTarget(target: ConnectionTarget): string {
  if (typeof target !== 'string') return `socket ${target.host}, base de datos ${target.database}`
  try {
    const url = new URL(target)
    return `${url.hostname}:${url.port || 5432}${url.pathname}`
  } catch {
    return 'DATABASE_URL'
  }
}

/** PostgreSQL cannot be reached: the message says where and why, for the person starting the server or a tool. */
export class DatabaseUnreachableError extends Error {
  override name = 'DatabaseUnreachableError'
}

/** Why a connection failed, in words for the person who set DATABASE_URL (pg's own text kept when it says more). */
function whyUnreachable(err: { code?: string; message?: string }): string {
  const detail = err.message ? ` (${err.message})` : ''
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'rechaza la conexión: ¿está arrancado y escucha en ese puerto?'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'no se encuentra ese servidor: revise el nombre del host'
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'no responde: revise la dirección y que la red o el cortafuegos lo dejen pasar'
    case '28P01':
      return `la contraseña o el usuario no son válidos${detail}`
    case '28000':
      return `no admite a este usuario desde aquí${detail}`
    case '3D000':
      return `no existe esa base de datos${detail}: créela antes de arrancar`
    case '53300':
      return `no admite más conexiones${detail}`
    case '57P03':
      return `está arrancando o parándose${detail}: inténtelo de nuevo en unos segundos`
  }
  if (/timeout/i.test(err.message ?? ''))
    return 'no responde en 5 s: revise la dirección y que la red o el cortafuegos lo dejen pasar'
  if (/terminated|ECONNRESET|closed/i.test(`${err.code} ${err.message}`)) {
    return 'cerró la conexión al conectar: ¿es un servidor PostgreSQL? Si exige SSL, añada ?sslmode=require a la URL'
  }
  return `no acepta la conexión${detail}`
}

/** Connects, or fails with a DatabaseUnreachableError that says where and why. */
export async function connectTo<C>(target: ConnectionTarget, connect: () => Promise<C>): Promise<C> {
  try {
    return await connect()
  } catch (err) {
    const where = typeof target === 'string' ? `${describeTarget(target)} (DATABASE_URL)` : describeTarget(target)
    const why = whyUnreachable(err as Error & { code?: string })
    throw new DatabaseUnreachableError(`No se puede conectar con PostgreSQL en ${where}: ${why}${why.endsWith('?') ? '' : '.'}`, {
      cause: err,
    })
  }
}

/** Migrates, one process at a time: several processes starting together wait on an advisory lock. */
export async function runMigrations(pool: pg.Pool, folder = migrationsFolder()): Promise<void> {
  const client = await pool.connect()
  try {
    await client.query('select pg_advisory_lock(727274)')
    try {
      await migrate(drizzle(client, drizzleOptions) as never, { migrationsFolder: folder })
    } finally {
      await client.query('select pg_advisory_unlock(727274)').catch(() => {})
    }
  } finally {
    client.release()
  }
}

/** Runs the migrations of `folder` on a database, on a connection of its own. */
export async function migrateTarget(target: ConnectionTarget, folder = migrationsFolder()): Promise<void> {
  // As the app's pool: a server that never answers fails the start after 5 s instead of hanging it.
  const pool = new pg.Pool({ ...clientConfig(target), max: 1, connectionTimeoutMillis: 5000, application_name: 'viviendas-api' })
  pool.on('error', () => {})
  try {
    // The first connection of a start or a tool: one that fails says where and why, in Spanish.
    await connectTo(target, () => pool.connect()).then((client) => client.release())
    await runMigrations(pool, folder)
  } finally {
    await pool.end()
  }
}

/**
 * One pg pool and the Drizzle node-postgres driver, for the embedded server and DATABASE_URL alike
 * (DECISIONS D15). A connection that PostgreSQL terminates (a restart, a failover, pg_terminate_backend, a
 * proxy's idle timeout) is dropped from the pool and reported, never an unhandled 'error' that kills the
 * process; requests meanwhile fail fast and answer 503.
 */
export async function openDatabase(target: ConnectionTarget, options: OpenOptions = {}): Promise<Database> {
  const timeout = options.statementTimeoutMs ?? 5000
  const onError = options.onConnectionError ?? (() => {})
  const pool = new pg.Pool({
    ...clientConfig(target),
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: 'viviendas-api',
    ...(timeout > 0 ? { statement_timeout: timeout, query_timeout: timeout + 1000 } : {}),
    // A transaction left open by a bug never holds its locks for long.
    idle_in_transaction_session_timeout: 30_000,
    options: SESSION_OPTIONS,
  })
  // An idle client whose connection dies is removed by the pool, which then emits this.
  pool.on('error', onError)
  try {
    // On a connection of their own, without a request's limits (5 s a statement): a migration that fills a new
    // column or table for a large operator's data takes seconds (0016's lists: about 2 s at 100,000 tasks).
    if (options.migrate ?? true) await migrateTarget(target)
  } catch (err) {
    await pool.end().catch(() => {})
    throw err
  }
  const db = drizzle(pool, drizzleOptions) as unknown as Db
  return {
    db,
    pool,
    describe: describeTarget(target),
    listen: (channel, onPayload, onReconnect, onLost) =>
      listenOn(target, checkChannel(channel), onPayload, onReconnect, onLost, onError),
    async close() {
      await pool.end()
    },
  }
}

/**
 * LISTEN on a dedicated connection (a pooled one would be handed to other queries). When it drops it
 * reconnects with a doubling pause (0.5 s up to 30 s) and listens again; `onReconnect` then says that
 * NOTIFYs may have been missed. One that fails to start rejects and leaves nothing behind: the caller retries.
 */
async function listenOn(
  target: ConnectionTarget,
  channel: string,
  onPayload: (payload: string) => void,
  onReconnect: (() => void) | undefined,
  onLost: (() => void) | undefined,
  onError: (err: Error) => void,
): Promise<Unlisten> {
  let stopped = false
  let client: pg.Client | undefined
  let retry: NodeJS.Timeout | undefined
  let delay = 500

  const scheduleRetry = () => {
    if (stopped || retry) return
    retry = setTimeout(() => {
      retry = undefined
      connect().then(
        () => {
          delay = 500
          onReconnect?.()
        },
        () => {
          delay = Math.min(delay * 2, 30_000)
          scheduleRetry()
        },
      )
    }, delay)
    retry.unref()
  }

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ ...clientConfig(target), connectionTimeoutMillis: 5000, keepAlive: true })
    next.on('notification', (message) => {
      if (message.channel === channel) onPayload(message.payload ?? '')
    })
    // Until it listens, a failure is the caller's (connect rejects): retrying here as well would leave a second
    // LISTEN that nobody stops when the caller retries on its own.
    let listening = false
    let failedEarly = false
    const lost = (err?: Error) => {
      if (client !== next) return
      if (!listening) {
        failedEarly = true
        return
      }
      client = undefined
      onLost?.()
      if (err) onError(err)
      next.end().catch(() => {})
      scheduleRetry()
    }
    next.on('error', lost)
    next.on('end', () => lost())
    client = next
    try {
      await next.connect()
      await next.query(`LISTEN ${channel}`)
      // Lost between the LISTEN's answer and here: a failure to start like any other.
      if (failedEarly) throw new Error('La conexión de LISTEN se perdió al empezar')
      listening = true
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
