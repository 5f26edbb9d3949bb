import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { createNotificaciones } from '../modules/notificaciones/notificaciones.service'
import { testApp } from '../test/scenario'
import { ACTUALIZANDO_HTML } from './errors'

/** What the server sends a phone, on a small stand-in for the built web app (the real build is checked by dist.test.ts). */

const indexHtml = `<!doctype html><html lang="es"><head><title>Viviendas</title></head><body><div id="root"></div>${'<!-- relleno -->'.repeat(20)}</body></html>`
const script = `export const saludo = ${JSON.stringify('hola '.repeat(400))}\n`

/** A file with the brotli and gzip copies the build writes beside it. */
function writeWithCompressed(file: string, content: string) {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, content)
  writeFileSync(`${file}.br`, brotliCompressSync(content))
  writeFileSync(`${file}.gz`, gzipSync(content))
}

const webDist = mkdtempSync(path.join(tmpdir(), 'vb-web-'))
writeWithCompressed(path.join(webDist, 'index.html'), indexHtml)
writeWithCompressed(path.join(webDist, 'assets', 'index-C0nT3nt5.js'), script)
writeFileSync(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
const t = await testApp({ webDist })
afterAll(() => rmSync(webDist, { recursive: true, force: true }))

const varyList = (value: unknown) =>
  String(value ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim())

describe('web app files', () => {
  it('sends a hashed asset precompressed in the encoding the browser prefers, cached for a year', async () => {
    const br = await t.app.inject({
      method: 'GET',
      url: '/assets/index-C0nT3nt5.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    })
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['content-type']).toContain('javascript')
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(varyList(br.headers.vary)).toContain('accept-encoding')
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script)
    expect(br.rawPayload.length).toBeLessThan(script.length / 5)

    const gz = await t.app.inject({ method: 'GET', url: '/assets/index-C0nT3nt5.js', headers: { 'accept-encoding': 'gzip' } })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script)
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable')

    const plain = await t.app.inject({ method: 'GET', url: '/assets/index-C0nT3nt5.js' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(script)
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(varyList(plain.headers.vary)).toContain('accept-encoding')
  })

  it('sends index.html, at / and at every route the app falls back to, compressed and revalidated on each visit', async () => {
    for (const url of ['/', '/index.html', '/usuarios', '/recuperar-contrase%C3%B1a']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } })
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['content-type'], url).toContain('text/html')
      expect(res.headers['content-encoding'], url).toBe('br')
      expect(res.headers['cache-control'], url).toBe('no-cache')
      expect(varyList(res.headers.vary), url).toContain('accept-encoding')
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(indexHtml)
    }
    const favicon = await t.app.inject({ method: 'GET', url: '/favicon.svg' })
    expect(favicon.headers['cache-control']).toBe('no-cache')
  })

  it('serves a new build written under the running server at once: its index.html and its new chunks', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/assets/pantalla-N3w8u1ld.js' })
    expect(before.statusCode).toBe(404)
    // What `npm run build` does in place: the files of the new build, the old chunk gone.
    const newIndex = indexHtml.replace(
      '<div id="root"></div>',
      '<div id="root"></div><script src="/assets/pantalla-N3w8u1ld.js"></script>',
    )
    const newScript = 'export const nueva = true\n'
    writeWithCompressed(path.join(webDist, 'index.html'), newIndex)
    writeWithCompressed(path.join(webDist, 'assets', 'pantalla-N3w8u1ld.js'), newScript)
    try {
      for (const url of ['/', '/usuarios']) {
        const page = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } })
        expect(brotliDecompressSync(page.rawPayload).toString(), url).toBe(newIndex)
      }
      const chunk = await t.app.inject({
        method: 'GET',
        url: '/assets/pantalla-N3w8u1ld.js',
        headers: { 'accept-encoding': 'gzip' },
      })
      expect(chunk.statusCode).toBe(200)
      expect(chunk.headers['content-encoding']).toBe('gzip')
      expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expect(gunzipSync(chunk.rawPayload).toString()).toBe(newScript)
      // A chunk the new build no longer has is a 404, never index.html in its place.
      for (const name of ['pantalla-N3w8u1ld.js', 'pantalla-N3w8u1ld.js.br', 'pantalla-N3w8u1ld.js.gz']) {
        rmSync(path.join(webDist, 'assets', name))
      }
      const gone = await t.app.inject({
        method: 'GET',
        url: '/assets/pantalla-N3w8u1ld.js',
        headers: { 'accept-encoding': 'br' },
      })
      expect(gone.statusCode).toBe(404)
      expect(gone.json().code).toBe('NOT_FOUND')
    } finally {
      writeWithCompressed(path.join(webDist, 'index.html'), indexHtml)
    }
  })

  it('answers a page URL with 503 and a page that reloads itself while a new build is being written in place', async () => {
    for (const f of ['index.html', 'index.html.br', 'index.html.gz']) rmSync(path.join(webDist, f))
    try {
      for (const url of ['/', '/usuarios', '/caja/12345678Z?page=2']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } })
        expect(res.statusCode, url).toBe(503)
        expect(res.headers['retry-after'], url).toBe('5')
        expect(res.headers['cache-control'], url).toBe('no-store')
        expect(res.headers['content-type'], url).toContain('text/html')
        expect(res.body, url).toBe(ACTUALIZANDO_HTML)
        expect(res.body).toContain('La aplicación se está actualizando.')
        expect(res.body).toContain('<meta http-equiv="refresh" content="5">')
      }
      // Files and the API answer as always.
      expect((await t.app.inject({ method: 'GET', url: '/assets/index-C0nT3nt5.js' })).statusCode).toBe(200)
      expect((await t.app.inject({ method: 'GET', url: '/api/no-existe' })).json().code).toBe('NOT_FOUND')
    } finally {
      writeWithCompressed(path.join(webDist, 'index.html'), indexHtml)
    }
    expect((await t.app.inject({ method: 'GET', url: '/usuarios' })).statusCode).toBe(200)
  })

  it('never sends a file from outside the build, a hidden file or a folder listing', async () => {
    writeFileSync(path.join(webDist, '.env'), 'JWT_SECRET=no')
    // A file beside the build's folder, which a path that climbs out of it would reach.
    const outside = path.join(path.dirname(webDist), `${path.basename(webDist)}-secreto.txt`)
    writeFileSync(outside, 'SECRETO')
    const name = path.basename(outside)
    try {
      for (const url of [
        '/.env',
        '/assets/',
        '/assets',
        `/../${name}`,
        `/%2e%2e/${name}`,
        `/assets/..%2f..%2f${name}`,
        `/assets/%2e%2e/%2e%2e/${name}`,
      ]) {
        const res = await t.app.inject({ method: 'GET', url })
        expect(res.body, url).not.toContain('JWT_SECRET')
        expect(res.body, url).not.toContain('SECRETO')
        expect(res.body, url).not.toContain('index-C0nT3nt5.js')
        expect([200, 400, 403, 404], url).toContain(res.statusCode)
      }
    } finally {
      rmSync(outside, { force: true })
      rmSync(path.join(webDist, '.env'), { force: true })
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/assets/index-C0nT3nt5.js' })
    expect(head.statusCode).toBe(200)
  })

  it('answers a revalidation of index.html with 304 and no body', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br' } })
    const etag = first.headers.etag as string
    expect(etag).toBeTruthy()
    const again = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br', 'if-none-match': etag } })
    expect(again.statusCode).toBe(304)
    expect(again.rawPayload.length).toBe(0)
  })
})

describe('API responses', () => {
  it('compresses a JSON response over 1 KB for a client that accepts it, and keeps no-store', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'accept-encoding': 'br, gzip' } })
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['cache-control']).toBe('no-store')
    const json = JSON.parse(brotliDecompressSync(br.rawPayload).toString())
    expect(json.openapi).toMatch(/^3\./)

    const gz = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip' } })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(json)

    const plain = await t.app.inject({ method: 'GET', url: '/api/openapi.json' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.json()).toEqual(json)
  })

  it('leaves a response under 1 KB as it is', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-existe', headers: { 'accept-encoding': 'br, gzip' } })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.json().code).toBe('NOT_FOUND')
  })

  it('never compresses the notification stream: each event reaches a client that accepts br and gzip at once', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = t.app.server.address() as AddressInfo
    const w = await t.worker('EMPLEADO', [])
    const req = http.get({
      host: '127.0.0.1',
      port,
      path: '/api/notificaciones/stream',
      headers: { authorization: `Bearer ${w.token}`, accept: 'text/event-stream', 'accept-encoding': 'br, gzip, deflate' },
    })
    try {
      const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
        req.on('response', resolve)
        req.on('error', reject)
      })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-encoding']).toBeUndefined()
      expect(res.headers['content-type']).toContain('text/event-stream')
      // Everything the stream sends is kept from the start: an event that arrives while the test is still
      // creating it is not lost between two waits.
      let text = ''
      const waiters = new Set<() => void>()
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8')
        for (const check of [...waiters]) check()
      })
      const seen = (needle: string, ms: number) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => {
            waiters.delete(check)
            reject(new Error(`not seen in ${ms} ms: ${needle}`))
          }, ms)
          const check = () => {
            if (!text.includes(needle)) return
            clearTimeout(timer)
            waiters.delete(check)
            resolve()
          }
          waiters.add(check)
          check()
        })
      // The greeting is written before any event: it arrives as it is, not held by a compressor (which would
      // hold it until the stream ends, never within the wait, however long; 10 s leaves room for a busy machine).
      await seen(': conectado', 10_000)
      const [row] = await createNotificaciones(t.db, [
        { titulo: 'Aviso', descripcion: 'Prueba', tipo: 'TAREA', trabajadorId: w.id, fechaNotificacion: new Date() },
      ])
      await seen(`data: {"id":${row?.id}}`, 10_000)
    } finally {
      req.destroy()
    }
  })
})
