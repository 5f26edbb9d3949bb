import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import helmet from 'helmet'
import { afterAll, describe, expect, it } from 'vitest'
import { fixedHeaders } from './app'
import { testApp } from './test/scenario'

const webDist = mkdtempSync(path.join(tmpdir(), 'vb-web-'))
writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><html lang="es"><body><div id="root"></div></body></html>')
writeFileSync(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
const t = await testApp({ webDist })
afterAll(() => rmSync(webDist, { recursive: true, force: true }))

describe('HTTP basics', () => {
  it('sends security headers on every response (DECISIONS S6) and no-store on the API (S2)', async () => {
    // An answer, the web app, a path of it, an unknown API path and a refused call: the same headers on each.
    for (const url of ['/api/empresas', '/', '/empresas', '/api/no-existe', '/api/trabajadores/me?sin=token']) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.headers['content-security-policy']).toContain("default-src 'self'")
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'")
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['x-frame-options']).toBe('DENY')
    }
    const api = await t.app.inject({ method: 'GET', url: '/api/empresas' })
    expect(api.headers['cache-control']).toBe('no-store')
  })

  it('sets, worked out once, the very headers helmet sets on a real response', () => {
    const options = { contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], upgradeInsecureRequests: null } } }
    const req = new IncomingMessage(new Socket())
    const res = new ServerResponse(req)
    res.setHeader('X-Powered-By', 'algo')
    helmet(options)(req, res, () => {})
    const real = Object.fromEntries(Object.entries(res.getHeaders()).map(([k, v]) => [k, String(v)]))
    expect(real['content-security-policy']).toBeDefined()
    expect(fixedHeaders(helmet(options))).toEqual(real)
  })

  it('serves the OpenAPI document generated from the schemas, and its UI', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/api/openapi.json' })
    expect(doc.statusCode).toBe(200)
    const spec = doc.json()
    expect(spec.openapi).toMatch(/^3\./)
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/api/auth/trabajadores/login', '/api/trabajadores/me', '/api/empresas', '/api/empresas/{id}']),
    )
    const loginBody = spec.paths['/api/auth/trabajadores/login'].post.requestBody.content['application/json'].schema
    expect(loginBody.required).toEqual(expect.arrayContaining(['email', 'password']))
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' })
    expect(ui.statusCode).toBe(200)
  })

  it('answers unknown API paths with the A3 404 body, and other paths with the web app', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/no-existe' })
    expect(api.statusCode).toBe(404)
    expect(api.json()).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: 'No se ha encontrado el recurso solicitado.' })
    const spa = await t.app.inject({ method: 'GET', url: '/usuarios' })
    expect(spa.statusCode).toBe(200)
    expect(spa.headers['content-type']).toContain('text/html')
    expect(spa.body).toContain('<div id="root">')
    const missingAsset = await t.app.inject({ method: 'GET', url: '/assets/index-viejo.js' })
    expect(missingAsset.statusCode).toBe(404)
    const file = await t.app.inject({ method: 'GET', url: '/favicon.svg' })
    expect(file.headers['content-type']).toContain('image/svg+xml')
  })

  it('answers 413 to a body over the limit and 415 to a type it does not take', async () => {
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/auth/trabajadores/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.es', password: 'x'.repeat(1024 * 1024 + 10) }),
    })
    expect(big.statusCode).toBe(413)
    expect(big.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'El contenido enviado es demasiado grande.' })
    const xml = await t.app.inject({
      method: 'POST',
      url: '/api/auth/trabajadores/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    })
    expect(xml.statusCode).toBe(415)
    expect(xml.json().code).toBe('UNSUPPORTED_MEDIA_TYPE')
  })

  it('answers 400 with Spanish messages to a body that is not an object and to bad query parameters', async () => {
    const arr = await t.app.inject({ method: 'POST', url: '/api/auth/trabajadores/login', payload: [1, 2] })
    expect(arr.statusCode).toBe(400)
    expect(arr.json().code).toBe('VALIDATION_FAILED')
    const w = await t.worker('SUPERADMIN', [])
    const q = await t.as(w, { method: 'GET', url: '/api/empresas?page=0&order=sideways' })
    expect(q.statusCode).toBe(400)
    expect(q.json().message).toBe('Los parámetros de búsqueda no son válidos.')
    expect(Object.keys(q.json().fieldErrors)).toEqual(expect.arrayContaining(['page', 'order']))
    const id = await t.as(w, { method: 'GET', url: '/api/empresas/abc' })
    expect(id.statusCode).toBe(404)
  })

  it('masks unexpected failures as a clean 500 without SQL or stack', async () => {
    const w = await t.worker('EMPLEADO', [])
    await t.db.execute(sql`alter table notificaciones rename to notificaciones_fuera`)
    try {
      const res = await t.as(w, { method: 'GET', url: `/api/trabajadores/${w.id}/notificaciones` })
      expect(res.statusCode).toBe(500)
      expect(res.json()).toEqual({
        statusCode: 500,
        code: 'INTERNAL',
        message: 'Se ha producido un error interno. Inténtalo más tarde.',
      })
      expect(res.body).not.toMatch(/select|notificaciones|at |\.ts/i)
    } finally {
      await t.db.execute(sql`alter table notificaciones_fuera rename to notificaciones`)
    }
  })
})
