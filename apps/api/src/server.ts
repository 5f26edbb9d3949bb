import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp } from './app'
import { readConfig } from './config'
import { type Database, DataDirLockedError, openPglite, openPostgres } from './db/client'
import { smtpMailer } from './lib/mailer'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, isEmpty, seedDemo } from './seed/demo'

/** The repository root, from src/ (tsx) or dist/ (built). */
function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  while (!existsSync(path.join(dir, 'apps', 'api')) && path.dirname(dir) !== dir) dir = path.dirname(dir)
  return dir
}

/** DECISIONS S2: JWT_SECRET, or in the embedded default a random one kept in the data directory. */
async function jwtSecretFor(config: ReturnType<typeof readConfig>): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret
  if (config.production) throw new Error('NODE_ENV=production necesita JWT_SECRET: el servidor no arranca sin él.')
  await mkdir(config.dataDir, { recursive: true })
  const file = path.join(config.dataDir, 'jwt-secret')
  if (!existsSync(file)) writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 })
  return readFileSync(file, 'utf8').trim()
}

async function main() {
  const config = readConfig(process.env, repoRoot())
  const jwtSecret = await jwtSecretFor(config)
  let database: Database
  try {
    database = config.databaseUrl ? await openPostgres(config.databaseUrl) : await openPglite(config.dataDir)
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message)
      process.exit(1)
    }
    throw err
  }
  const seeded = config.seedDemo && (await isEmpty(database.db))
  if (seeded) await seedDemo(database.db)

  const app = await buildApp({
    db: database.db,
    listen: database.listen,
    jwtSecret,
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

  // Graceful shutdown: stop accepting, let in-flight requests finish, then close the database.
  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'Cerrando el servidor…')
    const force = setTimeout(() => {
      app.log.error('Cierre forzado tras 10 s')
      process.exit(1)
    }, 10_000)
    force.unref()
    try {
      await app.close()
    } finally {
      await database.close()
      app.log.info('Base de datos cerrada. Hasta pronto.')
      process.exit(0)
    }
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  await app.listen({ port: config.port, host: config.host })
  const url = `http://${config.host}:${config.port}`
  const engine = database.engine === 'pglite' ? `PostgreSQL embebido (PGlite) en ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'
  const lines = [`Back-office de viviendas en ${url}`, `Base de datos: ${engine}`, `API: ${url}/api/docs`]
  if (!config.production && config.seedDemo) {
    lines.push(`Cuentas de demostración (contraseña ${DEMO_PASSWORD}):`)
    for (const a of DEMO_ACCOUNTS) lines.push(`  ${a.email.padEnd(22)} ${a.rol}${a.temporal ? ' (contraseña temporal)' : ''}`)
  }
  if (seeded) lines.push('Datos de demostración cargados.')
  app.log.info(lines.join('\n'))
  console.log(`\n${lines.join('\n')}\n`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
