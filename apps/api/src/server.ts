import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app'
import { ConfigError, readConfig } from './config'
import { type Database, DatabaseUnreachableError, openDatabase } from './db/client'
import { type EmbeddedPostgres, StartError, startEmbeddedPostgres } from './db/embedded'
import { scheduleDaily } from './lib/daily'
import { ensurePrivateDir, ensurePrivateFile, readPrivateFile, UnsafePathError, writePrivateFile } from './lib/data-dir'
import { limitHeapGrowth } from './lib/heap'
import { smtpMailer } from './lib/mailer'
import { warmUpExtracto } from './modules/caja-usuario/caja-usuario.extracto'
import { runDailyJobs } from './modules/daily-jobs'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoIfEmpty } from './seed/demo'

/** The repository root, from src/ (tsx) or dist/ (built). */
function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  while (!existsSync(path.join(dir, 'apps', 'api')) && path.dirname(dir) !== dir) dir = path.dirname(dir)
  return dir
}

/** Start-up notices before the logger exists (permissions tightened, an orphan reclaimed…). */
const notice = (message: string) => console.log(message)

/** DECISIONS S2: JWT_SECRET, or in the embedded default a random one kept (0600) in the data directory. */
function jwtSecretFor(config: ReturnType<typeof readConfig>): string {
  if (config.jwtSecret) return config.jwtSecret
  const file = path.join(config.dataDir, 'jwt-secret')
  if (!existsSync(file)) writePrivateFile(file, randomBytes(48).toString('base64url'))
  ensurePrivateFile(file, notice)
  return readPrivateFile(file).trim()
}

/** The address taken or not this machine's is said in Spanish, with what to change (PORT, HOST). */
async function listenOn(app: FastifyInstance, host: string, port: number) {
  try {
    await app.listen({ port, host })
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const where = `${host}:${port}`
    const said: Record<string, string> = {
      EADDRINUSE: `El puerto ${port} ya está en uso en ${host}: otro programa (¿otro servidor arrancado?) escucha en él. Pare ese programa o elija otro puerto con PORT.`,
      EACCES: `No hay permiso para escuchar en ${where}: los puertos por debajo de 1024 necesitan privilegios. Elija otro puerto con PORT.`,
      EADDRNOTAVAIL: `La dirección ${host} no es de esta máquina: no se puede escuchar en ${where}. Corrija HOST (127.0.0.1, o 0.0.0.0 para todas).`,
      ENOTFOUND: `No se encuentra la dirección ${host}: no se puede escuchar en ${where}. Corrija HOST (127.0.0.1, o 0.0.0.0 para todas).`,
    }
    const message = code ? said[code] : undefined
    throw message ? new StartError(message) : err
  }
}

async function main() {
  limitHeapGrowth()
  let embedded: EmbeddedPostgres | undefined
  let database: Database | undefined
  let app: FastifyInstance | undefined
  let daily: { stop(): void } | undefined

  // Graceful shutdown, whenever the signal comes: stop accepting, let in-flight requests finish, close the
  // pool, then stop the embedded PostgreSQL (fast shutdown) before the process exits.
  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    console.log(`Cerrando el servidor (${signal})…`)
    const force = setTimeout(() => {
      console.error('Cierre forzado tras 20 s')
      process.exit(1)
    }, 20_000)
    force.unref()
    try {
      daily?.stop()
      await app?.close()
      await database?.close()
    } finally {
      await embedded?.stop()
      console.log('Base de datos cerrada. Hasta pronto.')
      process.exit(0)
    }
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  let logConnectionError = (err: Error) => console.warn(`Conexión con PostgreSQL perdida: ${err.message}`)
  try {
    const config = readConfig(process.env, repoRoot())
    if (config.production && !config.jwtSecret) {
      throw new StartError('NODE_ENV=production necesita JWT_SECRET: el servidor no arranca sin él.')
    }
    if (!config.databaseUrl) {
      embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, notice, restartOnExit: true })
    } else {
      // Uploads and the generated secret still live in DATA_DIR: private whatever the umask.
      ensurePrivateDir(config.dataDir, 0o700, notice)
    }
    const jwtSecret = jwtSecretFor(config)
    database = await openDatabase(config.databaseUrl ?? (embedded as EmbeddedPostgres).connection, {
      poolSize: config.poolSize,
      onConnectionError: (err) => logConnectionError(err),
    })
    const seeded = config.seedDemo && (await seedDemoIfEmpty(database.db, new Date(), { uploadsDir: config.uploadsDir }))

    app = await buildApp({
      db: database.db,
      listen: database.listen,
      jwtSecret,
      uploadsDir: config.uploadsDir,
      tokenTtl: config.tokenTtl,
      webDist: config.webDist,
      publicUrl: config.publicUrl,
      loginLimits: config.loginLimits,
      trustProxy: config.trustProxy,
      mailer: config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : undefined,
      logger: {
        level: config.logLevel,
        // No secrets in logs: tokens, passwords and cookies are redacted.
        redact: ['req.headers.authorization', 'req.headers.cookie', 'body.password', 'body.passwordNueva', 'body.passwordActual'],
      },
    })
    const log = app.log
    logConnectionError = (err) => log.warn({ err: err.message }, 'Conexión con PostgreSQL perdida; se reemplaza')

    await listenOn(app, config.host, config.port)
    const url = `http://${config.host}:${config.port}`
    const engine = embedded
      ? `PostgreSQL ${embedded.major} integrado en ${embedded.dataDir} (registro: ${embedded.logFile})`
      : `PostgreSQL en ${database.describe} (DATABASE_URL)`
    const lines = [`Back-office de viviendas en ${url}`, `Base de datos: ${engine}`, `API: ${url}/api/docs`]
    if (!config.production && config.seedDemo) {
      lines.push(`Cuentas de demostración (contraseña ${DEMO_PASSWORD}):`)
      for (const a of DEMO_ACCOUNTS) lines.push(`  ${a.email.padEnd(22)} ${a.rol}${a.temporal ? ' (contraseña temporal)' : ''}`)
    }
    if (seeded) lines.push('Datos de demostración cargados.')
    console.log(`\n${lines.join('\n')}\n`)

    // DECISIONS D3: PIR notifications at start-up and every day at 00:05 Madrid (and the uploads sweep).
    // Every process runs them; the database keeps each notification to once. Then the statement PDF is
    // warmed up. Both after the start-up message, off the path of the first requests' answer.
    const { deps } = app
    daily = scheduleDaily(() => runDailyJobs(deps), deps.clock, log)
    setImmediate(() => {
      runDailyJobs(deps)
        .catch((err) => log.error({ err }, 'start-up jobs failed'))
        .then(() => warmUpExtracto(deps.clock.now()))
        .catch((err) => log.warn({ err }, 'statement PDF warm-up failed'))
    })
  } catch (err) {
    if (
      err instanceof StartError ||
      err instanceof ConfigError ||
      err instanceof UnsafePathError ||
      err instanceof DatabaseUnreachableError
    ) {
      console.error(`\n${err.message}\n`)
    } else console.error(err)
    await app?.close().catch(() => {})
    await database?.close().catch(() => {})
    await embedded?.stop().catch(() => {})
    process.exit(1)
  }
}

void main()
