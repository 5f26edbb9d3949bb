import { isIP } from 'node:net'
import path from 'node:path'
import { z } from 'zod'

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

/**
 * The environment does not say what the server can run with: one Spanish line per variable, said before anything
 * starts (no stack trace). Before, `PORT=abc` failed after the embedded PostgreSQL had started, with Node's English
 * RangeError, and `LOGIN_MAX_FAILURES_PER_EMAIL=cinco` or `DB_POOL_SIZE=diez` started a server without a login
 * limit or without a pool limit (NaN compares false).
 */
export class ConfigError extends Error {
  override name = 'ConfigError'
  constructor(readonly problems: string[]) {
    super(`La configuración no es válida (variables de entorno):\n${problems.map((p) => `  ${p}`).join('\n')}`)
  }
}

/** Their values are never printed, not even when they are wrong. */
const SECRET = new Set(['DATABASE_URL', 'JWT_SECRET', 'SMTP_URL'])

const integer = (min: number, max: number, what: string) =>
  z.string().regex(/^\d+$/, what).transform(Number).pipe(z.number().min(min, what).max(max, what))

const url = (protocols: string[], what: string) =>
  z.string().refine((value) => {
    try {
      const parsed = new URL(value)
      return protocols.includes(parsed.protocol) && parsed.hostname !== ''
    } catch {
      return false
    }
  }, what)

const DURATION_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const
/**
 * JWT_TTL as @fastify/jwt reads it (a string through @lukeed/ms), with its unit required: there, '3600' is 3.6 seconds,
 * not the hour it looks like.
 */
const duration = z.string().refine((value) => {
  const m = /^(\d+) ?([smhd])$/.exec(value)
  if (!m) return false
  const ms = Number(m[1]) * DURATION_MS[m[2] as keyof typeof DURATION_MS]
  return ms >= 60_000 && ms <= 30 * 86_400_000
}, 'una duración con su unidad (s, m, h o d), como 8h, 30m o 1d, entre 1 minuto y 30 días')

/** Fastify's trustProxy (proxy-addr): addresses, CIDRs and its three named ranges. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])
function isProxyAddress(item: string): boolean {
  if (PROXY_NAMES.has(item)) return true
  const [address = '', prefix, ...rest] = item.split('/')
  const family = isIP(address)
  if (family === 0 || rest.length > 0) return false
  if (prefix === undefined) return true
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

const envSchema = z.object({
  PORT: integer(1, 65_535, 'un número de puerto entre 1 y 65535').optional(),
  HOST: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().optional(),
  UPLOADS_DIR: z.string().optional(),
  DB_POOL_SIZE: integer(1, 100, 'un número entero de conexiones entre 1 y 100').optional(),
  JWT_SECRET: z
    .string()
    .min(32, 'un secreto de al menos 32 caracteres (HS256 firma con él las sesiones y los enlaces a archivos)')
    .optional(),
  JWT_TTL: duration.optional(),
  NODE_ENV: z.string().optional(),
  SEED_DEMO: z.enum(['true', 'false'], 'true o false').optional(),
  SMTP_URL: url(['smtp:', 'smtps:'], 'una dirección smtp:// o smtps://, como smtps://usuario:clave@smtp.ejemplo.es').optional(),
  MAIL_FROM: z.string().optional(),
  PUBLIC_URL: url(['http:', 'https:'], 'una dirección http:// o https://, como https://viviendas.ejemplo.es').optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, `uno de ${LOG_LEVELS.join(', ')}`).optional(),
  LOGIN_MAX_FAILURES_PER_EMAIL: integer(1, 1000, 'un número entero de intentos entre 1 y 1000').optional(),
  LOGIN_MAX_FAILURES_PER_IP: integer(1, 100_000, 'un número entero de intentos entre 1 y 100000').optional(),
  LOGIN_WINDOW_MINUTES: integer(1, 1440, 'un número entero de minutos entre 1 y 1440').optional(),
  TRUST_PROXY: z
    .string()
    .refine(
      (value) => value === 'true' || value === 'false' || value.split(',').every((item) => isProxyAddress(item.trim())),
      'true, false, o direcciones IP o CIDR de los proxies separadas por comas (como 10.0.0.1,192.168.0.0/16)',
    )
    .optional(),
})

/**
 * The environment, checked (ConfigError lists every variable that is wrong). A variable set to an empty string is
 * taken as unset, as `.env` files and compose files leave them.
 */
export function readConfig(env: NodeJS.ProcessEnv, root: string): Config {
  const given = Object.fromEntries(
    Object.keys(envSchema.shape)
      // The secret as given (a space is part of it); every other value without the spaces around it.
      .map((name) => [name, name === 'JWT_SECRET' ? env[name] : env[name]?.trim()] as const)
      .filter(([, value]) => value !== undefined && value.trim() !== ''),
  )
  const parsed = envSchema.safeParse(given)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0])
      const shown = SECRET.has(name) ? name : `${name}=${JSON.stringify(given[name])}`
      return `${shown} no es válido: ha de ser ${issue.message}.`
    })
    throw new ConfigError([...new Set(problems)])
  }
  const e = parsed.data
  const port = e.PORT ?? 3000
  const host = e.HOST ?? '127.0.0.1'
  const production = e.NODE_ENV === 'production'
  const dataDir = path.resolve(root, e.DATA_DIR ?? 'data')
  return {
    port,
    host,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    uploadsDir: e.UPLOADS_DIR ? path.resolve(root, e.UPLOADS_DIR) : path.join(dataDir, 'uploads'),
    jwtSecret: e.JWT_SECRET,
    tokenTtl: e.JWT_TTL ?? '8h',
    production,
    seedDemo: !production && e.SEED_DEMO !== 'false',
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? 'Back-office de viviendas <no-reply@localhost>',
    publicUrl: e.PUBLIC_URL ?? `http://${host}:${port}`,
    logLevel: e.LOG_LEVEL ?? 'info',
    // Unset or 'false': no proxy; 'true': any hop; otherwise the proxies' addresses as given.
    trustProxy: e.TRUST_PROXY === undefined || e.TRUST_PROXY === 'false' ? false : e.TRUST_PROXY === 'true' || e.TRUST_PROXY,
    loginLimits: {
      perEmail: e.LOGIN_MAX_FAILURES_PER_EMAIL ?? 5,
      perIp: e.LOGIN_MAX_FAILURES_PER_IP ?? 20,
      windowMs: (e.LOGIN_WINDOW_MINUTES ?? 15) * 60_000,
    },
    webDist: path.resolve(root, 'apps/web/dist'),
    poolSize: e.DB_POOL_SIZE ?? 10,
  }
}
