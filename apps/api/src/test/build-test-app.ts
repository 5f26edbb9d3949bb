import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Rol } from '@vb/shared'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { inject } from 'vitest'
import { type AppOptions, buildApp } from '../app'
import type { Database, Db, OpenOptions } from '../db/client'
import { trabajadorEmpresas, trabajadores } from '../db/schema'
import type { Clock } from '../lib/clock'
import { setCountCacheTtl } from '../lib/count-cache'
import type { Mail } from '../lib/mailer'
import { hashPassword } from '../lib/password'
import { copyTemplate, type TestEngine } from './databases'

/** The server this run uses: the embedded PostgreSQL or TEST_DATABASE_URL (set by the global set-up). */
export const testEngine = (): TestEngine => inject('testDatabases').engine

/** A fresh database for one test file: a copy of the run's migrated template. */
export function freshDatabase(options: OpenOptions = {}): Promise<Database & { name: string }> {
  return copyTemplate(inject('testDatabases'), options)
}

export const TEST_PASSWORD = 'Prueba123'
export const TEST_JWT_SECRET = 'secreto-de-pruebas-que-no-es-de-produccion'

/** A temporary uploads folder for an app built outside buildTestApp. */
export const tempUploadsDir = () => path.join(mkdtempSync(path.join(tmpdir(), 'vb-subidas-')), 'uploads')
let cachedHash: Promise<string> | undefined
const passwordHash = () => (cachedHash ??= hashPassword(TEST_PASSWORD))

export interface TestApp {
  app: FastifyInstance
  db: Db
  database: Database
  engine: TestEngine
  mails: Mail[]
  /** This app's uploads folder (a temporary one, removed on close). */
  uploadsDir: string
  /**
   * Closes the app and its database and removes its uploads folder; `keepDatabase` leaves the database open,
   * for an app built on another test app's database.
   */
  close(options?: { keepDatabase?: boolean }): Promise<void>
  /** Inserts a worker linked to the companies and returns it with a valid bearer token. */
  worker(rol: Rol, empresaIds: number[], extra?: Partial<typeof trabajadores.$inferInsert>): Promise<TestWorker>
  /** app.inject with the worker's token, once the app has heard of every change committed so far. */
  as(worker: TestWorker | null, options: InjectOptions): Promise<LightMyRequestResponse>
  /**
   * Once the app has heard of every change committed so far (lib/live-cache.ts): for a test that writes in SQL
   * and then calls app.inject itself.
   */
  settled(): Promise<void>
  /**
   * Another API process on the same database and uploads folder, as a second server would be: the same JWT
   * secret and the real clock unless `options` say otherwise. The caller closes it.
   */
  anotherProcess(options?: Partial<AppOptions>): Promise<FastifyInstance>
}
export interface TestWorker {
  id: number
  email: string
  rol: Rol
  token: string
}

let counter = 0

/** What buildTestApp takes: the app's options, a clock, and a database to use instead of a fresh copy. */
export type TestAppOptions = Partial<AppOptions> & { clock?: Clock; database?: Database }

/**
 * The app on a fresh database (or on `database`, e.g. one reached through a DatabaseProxy), with a
 * mailer that keeps what it sends and a helper to make workers with tokens.
 */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { database: given, ...appOptions } = options
  // Tests arrange data straight in SQL (factories), which no write request announces: list totals are
  // counted every time here, except in lib/count-cache.test.ts, which turns the cache on to test it.
  setCountCacheTtl(0)
  const database = given ?? (await freshDatabase())
  const mails: Mail[] = []
  const uploadsDir = appOptions.uploadsDir ?? path.join(mkdtempSync(path.join(tmpdir(), 'vb-subidas-')), 'uploads')
  let app: FastifyInstance
  try {
    app = await buildApp({
      db: database.db,
      listen: database.listen,
      jwtSecret: TEST_JWT_SECRET,
      uploadsDir,
      mailer: { send: async (m) => void mails.push(m) },
      loginLimits: { perEmail: 5, perIp: 1000, windowMs: 15 * 60_000 },
      checkResponses: true,
      ...appOptions,
    })
    await app.ready()
  } catch (err) {
    if (!appOptions.uploadsDir) rmSync(path.dirname(uploadsDir), { recursive: true, force: true })
    if (!given) await database.close().catch(() => {})
    throw err
  }
  // Tests write workers and their companies straight in SQL, and then call at once: what the app keeps of them
  // (lib/live-cache.ts) has heard of those writes first, as another process's request would a moment later.
  const settled = async () => {
    await app.deps.changes.settled((payload) => database.pool.query("select pg_notify('cambios', $1)", [payload]))
  }
  return {
    app,
    db: database.db,
    database,
    engine: testEngine(),
    mails,
    uploadsDir,
    async close({ keepDatabase = false } = {}) {
      try {
        await app.close()
        if (!keepDatabase) await database.close()
      } finally {
        if (!appOptions.uploadsDir) rmSync(path.dirname(uploadsDir), { recursive: true, force: true })
      }
    },
    async worker(rol, empresaIds, extra = {}) {
      counter += 1
      const [row] = await database.db
        .insert(trabajadores)
        .values({
          nombre: 'Prueba',
          apellidos: `Trabajador ${counter}`,
          email: `t${counter}.${randomBytes(3).toString('hex')}@prueba.es`,
          nif: '12345678Z',
          rol,
          activo: true,
          passwordHash: await passwordHash(),
          passwordTemporal: false,
          ...extra,
        })
        .returning()
      if (!row) throw new Error('worker not created')
      if (empresaIds.length) {
        await database.db.insert(trabajadorEmpresas).values(empresaIds.map((empresaId) => ({ trabajadorId: row.id, empresaId })))
      }
      const token = app.jwt.sign({ sub: String(row.id), tv: row.tokenVersion })
      return { id: row.id, email: row.email, rol, token }
    },
    async as(worker, opts) {
      const headers = { ...(opts.headers ?? {}), ...(worker ? { authorization: `Bearer ${worker.token}` } : {}) }
      await settled()
      return app.inject({ ...opts, headers })
    },
    settled,
    anotherProcess(options = {}) {
      return buildApp({
        db: database.db,
        listen: database.listen,
        uploadsDir,
        jwtSecret: TEST_JWT_SECRET,
        checkResponses: true,
        ...options,
      })
    },
  }
}
