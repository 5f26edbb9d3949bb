import { describe, expect, it } from 'vitest'
import { ConfigError, readConfig } from './config'

const ROOT = '/srv/viviendas'
const problems = (env: Record<string, string>) => {
  try {
    readConfig(env, ROOT)
  } catch (err) {
    if (err instanceof ConfigError) return err.problems
    throw err
  }
  return []
}

describe('readConfig: the environment, checked before anything starts', () => {
  it('with nothing set, the documented defaults', () => {
    const config = readConfig({}, ROOT)
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: '/srv/viviendas/data',
      uploadsDir: '/srv/viviendas/data/uploads',
      tokenTtl: '8h',
      production: false,
      seedDemo: true,
      publicUrl: 'http://127.0.0.1:3000',
      logLevel: 'info',
      trustProxy: false,
      loginLimits: { perEmail: 5, perIp: 20, windowMs: 15 * 60_000 },
      poolSize: 10,
    })
  })

  it('reads every variable it is given; an empty one is unset', () => {
    const config = readConfig(
      {
        PORT: '8080',
        HOST: '0.0.0.0',
        DATABASE_URL: 'postgres://app:clave@db:5432/viviendas',
        DATA_DIR: 'var/datos',
        UPLOADS_DIR: '/mnt/archivos',
        DB_POOL_SIZE: '20',
        JWT_SECRET: 'x'.repeat(32),
        JWT_TTL: '30m',
        NODE_ENV: 'production',
        SMTP_URL: 'smtps://u:p@smtp.ejemplo.es',
        MAIL_FROM: 'Viviendas <avisos@ejemplo.es>',
        PUBLIC_URL: 'https://viviendas.ejemplo.es',
        LOG_LEVEL: 'warn',
        LOGIN_MAX_FAILURES_PER_EMAIL: '3',
        LOGIN_MAX_FAILURES_PER_IP: '50',
        LOGIN_WINDOW_MINUTES: '30',
        TRUST_PROXY: '10.0.0.1, 192.168.0.0/16, loopback',
        SEED_DEMO: '',
      },
      ROOT,
    )
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgres://app:clave@db:5432/viviendas',
      dataDir: '/srv/viviendas/var/datos',
      uploadsDir: '/mnt/archivos',
      poolSize: 20,
      tokenTtl: '30m',
      production: true,
      seedDemo: false,
      smtpUrl: 'smtps://u:p@smtp.ejemplo.es',
      publicUrl: 'https://viviendas.ejemplo.es',
      logLevel: 'warn',
      loginLimits: { perEmail: 3, perIp: 50, windowMs: 30 * 60_000 },
      trustProxy: '10.0.0.1, 192.168.0.0/16, loopback',
    })
    expect(readConfig({ TRUST_PROXY: 'true', PORT: '', SEED_DEMO: 'false' }, ROOT)).toMatchObject({
      trustProxy: true,
      port: 3000,
      seedDemo: false,
    })
  })

  it('a number that is not one, or out of range, is said with the variable, its value and what it must be', () => {
    expect(problems({ PORT: 'abc' })).toEqual(['PORT="abc" no es válido: ha de ser un número de puerto entre 1 y 65535.'])
    expect(problems({ PORT: '99999' })).toEqual(['PORT="99999" no es válido: ha de ser un número de puerto entre 1 y 65535.'])
    expect(problems({ DB_POOL_SIZE: 'diez' })).toEqual([
      'DB_POOL_SIZE="diez" no es válido: ha de ser un número entero de conexiones entre 1 y 100.',
    ])
    expect(problems({ DB_POOL_SIZE: '0' })).toHaveLength(1)
    // Before, NaN: the limiter compared every count with it and never refused a login.
    expect(problems({ LOGIN_MAX_FAILURES_PER_EMAIL: 'cinco' })).toEqual([
      'LOGIN_MAX_FAILURES_PER_EMAIL="cinco" no es válido: ha de ser un número entero de intentos entre 1 y 1000.',
    ])
    expect(problems({ LOGIN_MAX_FAILURES_PER_IP: '2.5', LOGIN_WINDOW_MINUTES: '-1' })).toEqual([
      'LOGIN_MAX_FAILURES_PER_IP="2.5" no es válido: ha de ser un número entero de intentos entre 1 y 100000.',
      'LOGIN_WINDOW_MINUTES="-1" no es válido: ha de ser un número entero de minutos entre 1 y 1440.',
    ])
  })

  it("JWT_TTL needs its unit ('3600' would be 3.6 seconds to the token signer) and a sane length", () => {
    for (const ttl of ['8h', '30m', '1d', '90 s']) expect(problems({ JWT_TTL: ttl }), ttl).toEqual([])
    for (const ttl of ['3600', 'ocho', '8 horas', '10s', '31d', '-8h']) {
      expect(problems({ JWT_TTL: ttl }), ttl).toEqual([
        `JWT_TTL=${JSON.stringify(ttl)} no es válido: ha de ser una duración con su unidad (s, m, h o d), como 8h, 30m o 1d, entre 1 minuto y 30 días.`,
      ])
    }
  })

  it('every wrong variable at once; a secret is named, never shown', () => {
    expect(
      problems({
        JWT_SECRET: 'corto',
        SMTP_URL: 'http://u:clave-smtp@smtp.ejemplo.es',
        DATABASE_URL: 'postgres://u:clave-bd@db/x',
        PUBLIC_URL: 'ftp://viviendas',
        LOG_LEVEL: 'verbose',
        SEED_DEMO: 'no',
        TRUST_PROXY: 'proxy.local',
      }),
    ).toEqual([
      'JWT_SECRET no es válido: ha de ser un secreto de al menos 32 caracteres (HS256 firma con él las sesiones y los enlaces a archivos).',
      'SEED_DEMO="no" no es válido: ha de ser true o false.',
      'SMTP_URL no es válido: ha de ser una dirección smtp:// o smtps://, como smtps://usuario:clave@smtp.ejemplo.es.',
      'PUBLIC_URL="ftp://viviendas" no es válido: ha de ser una dirección http:// o https://, como https://viviendas.ejemplo.es.',
      'LOG_LEVEL="verbose" no es válido: ha de ser uno de fatal, error, warn, info, debug, trace, silent.',
      'TRUST_PROXY="proxy.local" no es válido: ha de ser true, false, o direcciones IP o CIDR de los proxies separadas por comas (como 10.0.0.1,192.168.0.0/16).',
    ])
    const error = new ConfigError(['A', 'B'])
    expect(error.message).toBe('La configuración no es válida (variables de entorno):\n  A\n  B')
  })

  it('TRUST_PROXY: addresses, CIDRs and the named ranges; a bad prefix or a name is refused', () => {
    for (const ok of ['10.0.0.1', '::1', '10.0.0.0/8,fd00::/8', 'loopback, uniquelocal', 'false']) {
      expect(problems({ TRUST_PROXY: ok }), ok).toEqual([])
    }
    for (const bad of ['10.0.0.0/33', '::1/129', '10.0.0.1/8/2', '10.0.0.1,,', 'proxy', '1']) {
      expect(problems({ TRUST_PROXY: bad }), bad).toHaveLength(1)
    }
  })
})
