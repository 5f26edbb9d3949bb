import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import Fastify, { type FastifyInstance } from 'fastify'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MissingFontError, pdfFonts, usePdfFontFiles } from '../lib/fonts'
import { registerErrorHandling } from './errors'

/**
 * Errors say what failed: only the database driver's failures are an outage (503, Retry-After); a file
 * missing on disk is a 404 and a missing PDF font a 500, each with a log line of its own.
 */
const lines: Array<Record<string, unknown>> = []
let app: FastifyInstance

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
      done()
    },
  })
  app = Fastify({ logger: { level: 'info', stream: sink } })
  registerErrorHandling(app)
  // A file the server expected (an upload's, say) that is not on disk.
  app.get('/archivo', async () => readFile(path.join(tmpdir(), 'vb-no-existe', 'a1b2c3')))
  // The PDF fonts, read from a package that is not installed.
  app.get('/fuente', async () => {
    usePdfFontFiles({ regular: '/no/existe/DejaVuSans.ttf', bold: '/no/existe/DejaVuSans-Bold.ttf' })
    try {
      return pdfFonts()
    } finally {
      usePdfFontFiles()
    }
  })
  // PostgreSQL's socket is gone (the embedded server restarting): the driver's ENOENT of `connect`.
  app.get('/base-de-datos', async () => {
    const client = new pg.Client({ host: path.join(tmpdir(), 'vb-sin-socket'), port: 5432, user: 'x', database: 'x' })
    client.on('error', () => {})
    await client.connect()
    return {}
  })
  await app.ready()
})
afterAll(async () => {
  await app.close()
})

const logged = (msg: string) => lines.filter((l) => l.msg === msg)

describe('errors say what failed', () => {
  it('a file missing on disk answers 404 with its own log line, not an outage', async () => {
    const res = await app.inject({ method: 'GET', url: '/archivo' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: 'No se ha encontrado el archivo.' })
    expect(res.headers['retry-after']).toBeUndefined()
    expect(logged('file missing on disk')).toEqual([
      expect.objectContaining({ level: 50, path: path.join(tmpdir(), 'vb-no-existe', 'a1b2c3') }),
    ])
    expect(logged('database unavailable')).toEqual([])
  })

  it('a missing PDF font answers 500 with its own log line', async () => {
    const res = await app.inject({ method: 'GET', url: '/fuente' })
    expect([res.statusCode, res.json().code]).toEqual([500, 'INTERNAL'])
    expect(res.headers['retry-after']).toBeUndefined()
    expect(logged('PDF font missing')).toEqual([expect.objectContaining({ level: 50, font: '/no/existe/DejaVuSans.ttf' })])
    expect(logged('database unavailable')).toEqual([])
    // The default fonts are back.
    expect(() => pdfFonts()).not.toThrow(MissingFontError)
  })

  it('the database driver failing to connect is still an outage: 503 with Retry-After', async () => {
    const res = await app.inject({ method: 'GET', url: '/base-de-datos' })
    expect(res.statusCode).toBe(503)
    expect(res.headers['retry-after']).toBe('30')
    expect(logged('database unavailable')).toHaveLength(1)
  })
})
