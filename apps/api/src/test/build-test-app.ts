import { randomBytes } from 'node:crypto'
import type { Rol } from '@vb/shared'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import pg from 'pg'
import { type AppOptions, buildApp } from '../app'
import { type Database, type Db, openPglite, openPostgres } from '../db/client'
import { trabajadorEmpresas, trabajadores } from '../db/schema'
import type { Clock } from '../lib/clock'
import type { Mail } from '../lib/mailer'
import { hashPassword } from '../lib/password'

/** Which engine this run uses: `TEST_ENGINE=pg` (with TEST_DATABASE_URL) or the embedded default. */
export const testEngine: 'pglite' | 'pg' = process.env.TEST_ENGINE === 'pg' ? 'pg' : 'pglite'

/** A fresh, migrated database for one test file: PGlite in memory, or a new database on the server. */
async function freshDatabase(): Promise<Database> {
  if (testEngine === 'pglite') return openPglite(null)
  const url = process.env.TEST_DATABASE_URL
  if (!url) throw new Error('TEST_ENGINE=pg necesita TEST_DATABASE_URL')
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const target = new URL(url)
  target.pathname = `/${name}`
  const database = await openPostgres(target.toString(), 4)
  return {
    ...database,
    async close() {
      await database.close()
      const drop = new pg.Client({ connectionString: url })
      await drop.connect()
      await drop.query(`drop database if exists ${name} with (force)`)
      await drop.end()
    },
  }
}

export const TEST_PASSWORD = 'Prueba123'
let cachedHash: Promise<string> | undefined
const passwordHash = () => (cachedHash ??= hashPassword(TEST_PASSWORD))

export interface TestApp {
  app: FastifyInstance
  db: Db
  database: Database
  engine: Database['engine']
  mails: Mail[]
  close(): Promise<void>
  /** Inserts a worker linked to the companies and returns it with a valid bearer token. */
  worker(rol: Rol, empresaIds: number[], extra?: Partial<typeof trabajadores.$inferInsert>): Promise<TestWorker>
  /** app.inject with the worker's token. */
  as(worker: TestWorker | null, options: InjectOptions): Promise<LightMyRequestResponse>
}
export interface TestWorker {
  id: number
  email: string
  rol: Rol
  token: string
}

let counter = 0

export async function buildTestApp(options: Partial<AppOptions> & { clock?: Clock } = {}): Promise<TestApp> {
  const database = await freshDatabase()
  const mails: Mail[] = []
  const app = await buildApp({
    db: database.db,
    listen: database.listen,
    jwtSecret: 'secreto-de-pruebas-que-no-es-de-produccion',
    mailer: { send: async (m) => void mails.push(m) },
    loginLimits: { perEmail: 5, perIp: 1000, windowMs: 15 * 60_000 },
    ...options,
  })
  await app.ready()
  return {
    app,
    db: database.db,
    database,
    engine: database.engine,
    mails,
    async close() {
      await app.close()
      await database.close()
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
    as(worker, opts) {
      const headers = { ...(opts.headers ?? {}), ...(worker ? { authorization: `Bearer ${worker.token}` } : {}) }
      return app.inject({ ...opts, headers })
    },
  }
}
