import { LOGIN_FAILED_MESSAGE } from '@vb/shared'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { intentosLogin, logs, trabajadores } from '../../db/schema'
import { emailKey } from '../../lib/login-attempts'
import { buildTestApp, TEST_PASSWORD } from '../../test/build-test-app'
import { makeEmpresa } from '../../test/factories'
import { testApp } from '../../test/scenario'

const t = await testApp()

const login = (email: string, password: string, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/trabajadores/login', payload: { email, password }, remoteAddress: ip })

describe('POST /api/auth/trabajadores/login', () => {
  it('returns a token and the worker without its password hash, and logs the login', async () => {
    const empresa = await makeEmpresa(t.db, { nombre: 'Empresa Login' })
    const w = await t.worker('ADMIN', [empresa.id])
    const res = await login(w.email.toUpperCase(), TEST_PASSWORD)
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.token).toMatch(/^ey/)
    expect(body.trabajador).toMatchObject({ id: w.id, rol: 'ADMIN', empresas: [{ id: empresa.id, nombre: 'Empresa Login' }] })
    expect(JSON.stringify(body)).not.toMatch(/scrypt|passwordHash|tokenVersion/)
    expect(res.headers['cache-control']).toBe('no-store')
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/trabajadores/me',
      headers: { authorization: `Bearer ${body.token}` },
    })
    expect(me.json()).toMatchObject({ id: w.id, email: w.email })
    const entries = await t.db.select().from(logs).where(eq(logs.trabajadorId, w.id))
    expect(entries.map((e) => e.accion)).toContain('Inicio de sesión')
  })

  it('answers the same 401 and message for an unknown e-mail, a wrong password and an inactive worker', async () => {
    const inactive = await t.worker('EMPLEADO', [], { activo: false })
    const active = await t.worker('EMPLEADO', [])
    const answers = await Promise.all([
      login('nadie@prueba.es', TEST_PASSWORD, '10.0.0.2'),
      login(active.email, 'Incorrecta1', '10.0.0.3'),
      login(inactive.email, TEST_PASSWORD, '10.0.0.4'),
    ])
    for (const res of answers) {
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual({ statusCode: 401, code: 'UNAUTHENTICATED', message: LOGIN_FAILED_MESSAGE })
    }
  })

  it('rejects malformed JSON, wrong types and missing fields with Spanish fieldErrors', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/trabajadores/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'El cuerpo de la petición no es un JSON válido.' })
    const missing = await t.app.inject({ method: 'POST', url: '/api/auth/trabajadores/login', payload: {} })
    expect(missing.json()).toMatchObject({
      statusCode: 400,
      fieldErrors: { email: 'El correo es obligatorio', password: 'La contraseña es obligatoria' },
    })
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/trabajadores/login',
      payload: { email: 'no-es-correo', password: 5 },
    })
    expect(wrong.json().fieldErrors).toEqual({ email: 'Correo inválido', password: 'La contraseña es obligatoria' })
  })

  it('answers 429 after repeated failures for one e-mail, even with the right password', async () => {
    const w = await t.worker('EMPLEADO', [])
    for (let i = 0; i < 5; i++) expect((await login(w.email, 'Mala12345', `10.1.0.${i}`)).statusCode).toBe(401)
    const blocked = await login(w.email, TEST_PASSWORD, '10.1.0.99')
    expect(blocked.statusCode).toBe(429)
    expect(blocked.json().code).toBe('RATE_LIMITED')
  })
})

describe('the login limiter keeps its counts in the database (DECISIONS S3, R scale-out)', () => {
  const limits = { perEmail: 3, perIp: 1000, windowMs: 60_000 }
  const at = { now: new Date('2026-11-21T10:00:00Z') }
  /** Another API process on the same database, with its own clock. */
  const otherProcess = () => t.anotherProcess({ jwtSecret: 'otra-clave', clock: { now: () => at.now }, loginLimits: limits })
  /** Failure rows kept for an e-mail (what every process counts). */
  const failuresOf = async (email: string) =>
    (
      await t.db
        .select()
        .from(intentosLogin)
        .where(eq(intentosLogin.clave, emailKey(email)))
    ).length
  const loginOn = (app: Awaited<ReturnType<typeof otherProcess>>, email: string, password: string, ip = '10.5.0.1') =>
    app.inject({ method: 'POST', url: '/api/auth/trabajadores/login', payload: { email, password }, remoteAddress: ip })

  it('counts the failures of every process together, and forgets them once the window has passed', async () => {
    const w = await t.worker('EMPLEADO', [])
    const a = await otherProcess()
    const b = await otherProcess()
    try {
      expect((await loginOn(a, w.email, 'Mala12345')).statusCode).toBe(401)
      expect((await loginOn(b, w.email, 'Mala12345')).statusCode).toBe(401)
      expect((await loginOn(a, w.email.toUpperCase(), 'Mala12345')).statusCode).toBe(401)
      // Three failures across two processes: both refuse, even the right password.
      expect((await loginOn(b, w.email, TEST_PASSWORD)).statusCode).toBe(429)
      expect((await loginOn(a, w.email, TEST_PASSWORD)).statusCode).toBe(429)
      // A restarted process reads the same counts.
      await a.close()
      const restarted = await otherProcess()
      expect((await loginOn(restarted, w.email, TEST_PASSWORD)).statusCode).toBe(429)
      await restarted.close()

      at.now = new Date(at.now.getTime() + limits.windowMs + 1000)
      expect((await loginOn(b, w.email, TEST_PASSWORD)).statusCode).toBe(200)
    } finally {
      await a.close()
      await b.close()
    }
  })

  it("clears the e-mail count on success, and prunes what is past the window: the key's own rows, and stale keys after a day", async () => {
    const w = await t.worker('EMPLEADO', [])
    const app = await otherProcess()
    try {
      expect((await loginOn(app, w.email, 'Mala12345')).statusCode).toBe(401)
      expect((await loginOn(app, w.email, 'Mala12345')).statusCode).toBe(401)
      expect(await failuresOf(w.email)).toBe(2)
      expect((await loginOn(app, w.email, TEST_PASSWORD)).statusCode).toBe(200)
      expect(await failuresOf(w.email)).toBe(0)

      expect((await loginOn(app, 'nadie-viejo@prueba.es', 'Mala12345')).statusCode).toBe(401)
      expect((await loginOn(app, 'nadie-repite@prueba.es', 'Mala12345')).statusCode).toBe(401)
      at.now = new Date(at.now.getTime() + limits.windowMs + 1000)
      // The same key again: its rows past the window go, the new failure stays.
      expect((await loginOn(app, 'nadie-repite@prueba.es', 'Mala12345')).statusCode).toBe(401)
      expect(await failuresOf('nadie-repite@prueba.es')).toBe(1)
      // A key that never comes back is swept a day later by anyone's attempt.
      at.now = new Date(at.now.getTime() + 24 * 3_600_000)
      expect((await loginOn(app, 'nadie-nuevo@prueba.es', 'Mala12345')).statusCode).toBe(401)
      const claves = (await t.db.select({ clave: intentosLogin.clave }).from(intentosLogin)).map((r) => r.clave)
      expect(claves).not.toContain('email:nadie-viejo@prueba.es')
      expect(claves).toContain('email:nadie-nuevo@prueba.es')
    } finally {
      await app.close()
    }
  })
})

describe('tokens (DECISIONS S2)', () => {
  it('refuses missing, forged, alg none and expired tokens with 401', async () => {
    const w = await t.worker('EMPLEADO', [])
    const me = (authorization?: string) =>
      t.app.inject({ method: 'GET', url: '/api/trabajadores/me', headers: authorization ? { authorization } : {} })
    expect((await me()).statusCode).toBe(401)
    const [h, p] = w.token.split('.')
    expect((await me(`Bearer ${h}.${p}.firmafalsa`)).statusCode).toBe(401)
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')
    expect((await me(`Bearer ${none}.${p}.`)).statusCode).toBe(401)
    const expired = t.app.jwt.sign({ sub: String(w.id), tv: 0 }, { expiresIn: -10 } as never)
    expect((await me(`Bearer ${expired}`)).statusCode).toBe(401)
    expect((await me(`Bearer ${w.token}`)).statusCode).toBe(200)
  })

  it('checks a token verified before as carefully: another signature is refused, and it stops at its expiry', async () => {
    const w = await t.worker('EMPLEADO', [])
    const me = (token: string) =>
      t.app.inject({ method: 'GET', url: '/api/trabajadores/me', headers: { authorization: `Bearer ${token}` } })
    const shortLived = t.app.jwt.sign({ sub: String(w.id), tv: 0 }, { expiresIn: 2 } as never)
    expect((await me(shortLived)).statusCode).toBe(200)
    expect((await me(shortLived)).statusCode).toBe(200)
    const [h, p, signature = ''] = shortLived.split('.')
    // Another first character is always another signature (a fixed suffix could, rarely, be the same one).
    const forged = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`
    expect((await me(`${h}.${p}.${forged}`)).statusCode).toBe(401)
    await new Promise((resolve) => setTimeout(resolve, 2100))
    expect((await me(shortLived)).statusCode).toBe(401)
  })

  it('stops a token working once its worker is deactivated', async () => {
    const w = await t.worker('EMPLEADO', [])
    await t.db.update(trabajadores).set({ activo: false }).where(eq(trabajadores.id, w.id))
    const res = await t.as(w, { method: 'GET', url: '/api/trabajadores/me' })
    expect(res.statusCode).toBe(401)
  })
})

describe('behind a reverse proxy (TRUST_PROXY)', () => {
  it('counts failures per forwarded client address, not per proxy', async () => {
    const proxied = await buildTestApp({ trustProxy: true, loginLimits: { perEmail: 100, perIp: 2, windowMs: 60_000 } })
    try {
      const attempt = (forwardedFor: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/auth/trabajadores/login',
          payload: { email: 'nadie@prueba.es', password: 'Mala12345' },
          remoteAddress: '10.9.9.9',
          headers: { 'x-forwarded-for': forwardedFor },
        })
      expect((await attempt('203.0.113.1')).statusCode).toBe(401)
      expect((await attempt('203.0.113.1')).statusCode).toBe(401)
      expect((await attempt('203.0.113.1')).statusCode).toBe(429)
      // Another client behind the same proxy is not locked out.
      expect((await attempt('203.0.113.2')).statusCode).toBe(401)
    } finally {
      await proxied.close()
    }
  })
})
