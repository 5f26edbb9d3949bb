import { logSchema, trabajadorSchema } from '@vb/shared'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { buildTestApp } from '../test/build-test-app'
import { checked, responseSerializer, wireSchema, writers } from './serializer'

const writerFor = (schema: z.ZodType, check = false) =>
  responseSerializer(check)({ schema, method: 'GET', url: '/prueba', httpStatus: '200' })

describe('response serializer', () => {
  it('compiles the writer of every answer of the API (a schema that falls back to zod is named here)', async () => {
    const t = await buildTestApp()
    try {
      const viaZod = [...writers].filter(([route, kind]) => kind === 'zod' && route.includes(' /api/')).map(([route]) => route)
      expect(viaZod).toEqual([])
      expect(writers.get('GET /api/logs 200')).toBe('compiled')
      expect(writers.get('GET /api/usuarios 200')).toBe('compiled')
    } finally {
      await t.close()
    }
  })

  it('writes only the declared fields, as zod did: a password hash on a row never leaves', () => {
    const schema = z.object({ id: z.number().int(), nombre: z.string(), email: z.string().nullable() })
    const write = writerFor(schema)
    expect(wireSchema(schema)).not.toBeNull()
    const text = write({ id: 1, nombre: 'Ana', email: null, passwordHash: 'scrypt$secreto', tokenVersion: 3 })
    expect(JSON.parse(text)).toEqual({ id: 1, nombre: 'Ana', email: null })
    expect(text).not.toContain('secreto')
  })

  it('writes a page of log entries, nullable objects and free JSON included, exactly as zod would', () => {
    const entry = (id: number) => ({
      id,
      fecha: '2026-11-24T22:59:55.199Z',
      trabajadorId: id % 3 ? 7 : null,
      trabajador: id % 3 ? { id: 7, nombre: 'Ana "la jefa"', apellidos: 'Ruiz\\ \u2028ñ', email: null } : null,
      accion: 'Crear movimiento de caja',
      url: '/caja',
      viviendaId: null,
      vivienda: id % 2 ? { id: 4, nombre: 'Calle Mayor, 1' } : null,
      usuarioId: null,
      tipo: 'success',
      descripcion: '<script>alert(1)</script>',
      antes: id % 4 ? null : { apellidos: 'Antes', lista: [1, 'dos', { tres: null }] },
      despues: id % 4 ? null : 'texto',
    })
    const page = Array.from({ length: 12 }, (_, i) => entry(i))
    const schema = z.array(logSchema)
    expect(writerFor(schema)(page)).toBe(JSON.stringify(z.encode(schema, page as never)))
    // The test mode writes both ways and agrees.
    expect(writerFor(schema, true)(page)).toBe(JSON.stringify(z.encode(schema, page as never)))
  })

  it('leaves to zod a schema whose written form differs from what it reads (a transform, a default)', () => {
    const transformed = z.object({ n: z.string().transform((s) => s.length) })
    const defaulted = z.object({ n: z.number().default(1) })
    expect(wireSchema(transformed)).toBeNull()
    expect(wireSchema(defaulted)).toBeNull()
    writerFor(defaulted)
    expect(writers.get('GET /prueba 200')).toBe('zod')
    expect(writerFor(defaulted)({ n: 2 })).toBe('{"n":2}')
  })

  it('refuses, through zod, an answer that does not fit its schema', () => {
    expect(() => writerFor(z.object({ n: z.number() }), true)({ n: 'tres' })).toThrow()
    expect(() => writerFor(z.array(trabajadorSchema), true)([{ id: 1 }])).toThrow()
  })

  it('in the tests, fails an answer the compiled writer would write differently from zod', () => {
    const viaZod = (data: unknown) => JSON.stringify(data)
    const wrong = (data: unknown) => JSON.stringify(data).replace('Ana', 'Eva')
    expect(checked(viaZod, viaZod, 'GET /x')({ nombre: 'Ana' })).toBe('{"nombre":"Ana"}')
    expect(() => checked(wrong, viaZod, 'GET /x')({ nombre: 'Ana' })).toThrow(/compiled writer wrote/)
  })
})
