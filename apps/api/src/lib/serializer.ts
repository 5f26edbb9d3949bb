import fastJsonStringify from 'fast-json-stringify'
import type { FastifySerializerCompiler } from 'fastify'
import { ResponseSerializationError } from 'fastify-type-provider-zod'
import { type ZodType, z } from 'zod'

type JsonSchema = Record<string, unknown>
type Serialize = (data: unknown) => string

/**
 * A response's zod schema as JSON Schema, or null when a serializer compiled from it could write something
 * other than what zod would: the schema must say the same read as input and as output (no transform, codec,
 * default or pipe changes what is written), and everything in it must be representable.
 */
export function wireSchema(schema: ZodType): JsonSchema | null {
  try {
    const output = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' }) as JsonSchema
    const input = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'throw' }) as JsonSchema
    // Output mode closes objects (additionalProperties: false) and input mode does not: that is all that may
    // differ. Only the declared properties are written either way.
    const open = (s: JsonSchema) => JSON.stringify(s, (key, value) => (key === 'additionalProperties' ? undefined : value))
    if (open(output) !== open(input)) return null
    return nullableAsKeyword(output) as JsonSchema
  } catch {
    return null
  }
}

/**
 * `anyOf: [X, {type: 'null'}]` (zod's `.nullable()`) as X with `nullable: true`, which the compiled writer
 * handles directly; an anyOf makes it validate every value against each branch to choose one.
 */
function nullableAsKeyword(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableAsKeyword)
  if (node === null || typeof node !== 'object') return node
  const out: JsonSchema = {}
  for (const [key, value] of Object.entries(node)) out[key] = nullableAsKeyword(value)
  const anyOf = out.anyOf as JsonSchema[] | undefined
  if (anyOf?.length === 2) {
    const other = anyOf.find((branch) => branch.type !== 'null')
    const hasNull = anyOf.some((branch) => branch.type === 'null' && Object.keys(branch).length === 1)
    if (hasNull && other) {
      const { anyOf: _anyOf, ...rest } = out
      // Anything at all (z.unknown().nullable()) needs no keyword; a typed branch becomes nullable.
      if (Object.keys(other).length === 0) return rest
      if (typeof other.type === 'string') return { ...rest, ...other, nullable: true }
    }
  }
  return out
}

/** How each route's answers are written, by `METHOD url status`: what the tests and the curious can see. */
export const writers = new Map<string, 'compiled' | 'zod'>()

/**
 * The response serializer (set in app.ts). Every answer is written from its route's zod schema, so only the
 * declared fields leave the server (a worker's password hash on a row never does). Where the schema allows
 * it, the writer is compiled once from its JSON Schema (fast-json-stringify, Fastify's own): about three
 * times quicker than encoding with zod and then JSON.stringify (106 against 313 µs for a page of 50 log
 * entries), and one list page's largest cost in the app after the database. Other schemas are encoded with
 * zod as before.
 *
 * A compiled writer does not validate: a value of the wrong type is converted rather than refused. With
 * `check` (every API test), each answer is also written the zod way and the two must be the same text, so a
 * schema and its compiled writer that disagree fail the test suite instead of a user.
 */
export function responseSerializer(check: boolean): FastifySerializerCompiler<unknown> {
  return ({ schema, method, url, httpStatus }) => {
    const zodSchema = schema as ZodType
    const viaZod: Serialize = (data) => {
      const result = z.safeEncode(zodSchema, data as never)
      if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error })
      return JSON.stringify(result.data)
    }
    const json = wireSchema(zodSchema)
    let compiled: Serialize | null = null
    if (json) {
      try {
        compiled = fastJsonStringify(json) as Serialize
      } catch {
        compiled = null
      }
    }
    writers.set(`${method} ${url} ${httpStatus}`, compiled ? 'compiled' : 'zod')
    if (!compiled) return viaZod
    return check ? checked(compiled, viaZod, `${method} ${url}`) : compiled
  }
}

/** A compiled writer that also writes the zod way and throws when the two texts differ (the tests' mode). */
export function checked(compiled: Serialize, viaZod: Serialize, route: string): Serialize {
  return (data) => {
    const expected = viaZod(data)
    const written = compiled(data)
    if (written !== expected) throw new Error(`${route}: the compiled writer wrote ${written} where zod wrote ${expected}`)
    return written
  }
}
