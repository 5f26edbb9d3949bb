import path from 'node:path'

/** Every environment variable the server reads (README: Configuration). */
export interface Config {
  port: number
  host: string
  databaseUrl?: string
  dataDir: string
  /** DECISIONS S5, R: uploaded files (UPLOADS_DIR, default DATA_DIR/uploads; shared by every API process). */
  uploadsDir: string
  jwtSecret?: string
  tokenTtl: string
  production: boolean
  seedDemo: boolean
  smtpUrl?: string
  mailFrom: string
  publicUrl: string
  logLevel: string
  /** Fastify `trustProxy`: behind a reverse proxy, the client address comes from X-Forwarded-For. */
  trustProxy: boolean | string
  loginLimits: { perEmail: number; perIp: number; windowMs: number }
  webDist: string
  /** DB_POOL_SIZE: connections each API process keeps to PostgreSQL. */
  poolSize: number
}

export function readConfig(env: NodeJS.ProcessEnv, root: string): Config {
  const port = Number(env.PORT ?? 3000)
  const host = env.HOST ?? '127.0.0.1'
  const production = env.NODE_ENV === 'production'
  return {
    port,
    host,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(root, env.DATA_DIR ?? 'data'),
    uploadsDir: env.UPLOADS_DIR
      ? path.resolve(root, env.UPLOADS_DIR)
      : path.join(path.resolve(root, env.DATA_DIR ?? 'data'), 'uploads'),
    jwtSecret: env.JWT_SECRET || undefined,
    tokenTtl: env.JWT_TTL ?? '8h',
    production,
    seedDemo: !production && env.SEED_DEMO !== 'false',
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Back-office de viviendas <no-reply@localhost>',
    publicUrl: env.PUBLIC_URL ?? `http://${host}:${port}`,
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    loginLimits: {
      perEmail: Number(env.LOGIN_MAX_FAILURES_PER_EMAIL ?? 5),
      perIp: Number(env.LOGIN_MAX_FAILURES_PER_IP ?? 20),
      windowMs: Number(env.LOGIN_WINDOW_MINUTES ?? 15) * 60_000,
    },
    webDist: path.resolve(root, 'apps/web/dist'),
    poolSize: Number(env.DB_POOL_SIZE ?? 10),
  }
}

/** TRUST_PROXY: unset/false → none; true → any hop; otherwise comma-separated proxy addresses/CIDRs. */
function parseTrustProxy(value: string | undefined): boolean | string {
  if (!value || value === 'false') return false
  if (value === 'true') return true
  return value
}
