import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../test/build-test-app'

/**
 * What Node refuses before Fastify routes a request is answered as every error (DECISIONS A3) and with the
 * security headers of every answer (S6): it was Fastify's English body with neither.
 */
let t: TestApp
let port: number

beforeAll(async () => {
  t = await buildTestApp({ requestTimeoutMs: 1000 })
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  port = (t.app.server.address() as AddressInfo).port
})
afterAll(async () => t?.close())

/** Sends raw bytes and reads everything the server writes until it closes the connection. */
function raw(
  bytes: Buffer | string,
  keepOpen = false,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (c) => chunks.push(c))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [head = '', body = ''] = text.split('\r\n\r\n')
      const [statusLine = '', ...lines] = head.split('\r\n')
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      )
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body })
    })
    socket.write(bytes)
    if (!keepOpen) socket.end()
  })
}

const expectSafe = (headers: Record<string, string>) => {
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'")
  expect(headers['x-content-type-options']).toBe('nosniff')
  expect(headers['x-frame-options']).toBe('DENY')
  expect(headers['content-type']).toBe('application/json; charset=utf-8')
}

describe('requests Node refuses before routing', () => {
  it('an unreadable request line (raw UTF-8 in the path) is a 400 in Spanish, with the security headers', async () => {
    const res = await raw(
      Buffer.concat([
        Buffer.from('GET /api/usuarios?q=JOS'),
        Buffer.from('É', 'utf8'),
        Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
      ]),
    )
    expect(res.status).toBe(400)
    expect(JSON.parse(res.body)).toEqual({ statusCode: 400, code: 'VALIDATION_FAILED', message: 'La petición no es válida.' })
    expectSafe(res.headers)
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body))
  })

  it('headers over the limit are a 431 in Spanish, with the security headers', async () => {
    const res = await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Relleno: ${'a'.repeat(40_000)}\r\n\r\n`)
    expect(res.status).toBe(431)
    expect(JSON.parse(res.body)).toEqual({
      statusCode: 431,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'Las cabeceras de la petición son demasiado grandes.',
    })
    expectSafe(res.headers)
  })

  it('a body that stalls past the request timeout is a 408 in Spanish, with the security headers', async () => {
    // With a valid token, so the route gets as far as reading the body that never finishes.
    const { token } = await t.worker('SUPERADMIN', [])
    const res = await raw(
      `POST /api/empresas HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"nombre": "Emp`,
      true,
    )
    expect(res.status).toBe(408)
    expect(JSON.parse(res.body).code).toBe('VALIDATION_FAILED')
    expect(JSON.parse(res.body).message).toMatch(/^La petición tardó demasiado/)
    expectSafe(res.headers)
  }, 10_000)

  it('an ordinary request on the same server still answers', async () => {
    const res = await raw('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    expect(res.status).toBe(200)
  })
})
