import { Ajv, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>
}
export interface OpenApiDocument {
  openapi: string
  paths: Record<string, Record<string, Operation>>
  components?: Record<string, unknown>
}

/**
 * The API's own contract, read from /api/openapi.json: `check` says whether an answer is one the document
 * declares for that operation (its status, and its JSON body against the schema given for that status).
 * `template` is the documented path, with `{id}` or `:id` for its parameters.
 */
export async function openApiContract(app: FastifyInstance) {
  const doc = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as OpenApiDocument
  const components = asAjvReads(doc.components)
  const ajv = new Ajv({ strict: false, allErrors: true })
  addFormats.default(ajv)
  const compiled = new Map<string, ValidateFunction | null>()
  let checked = 0

  function validator(method: string, template: string, status: number): ValidateFunction | null | undefined {
    const path = template.replace(/:(\w+)/g, '{$1}')
    const key = `${method} ${path} ${status}`
    if (compiled.has(key)) return compiled.get(key)
    const responses = doc.paths[path]?.[method.toLowerCase()]?.responses
    const declared = responses?.[String(status)] ?? responses?.[`${String(status)[0]}XX`] ?? responses?.default
    if (!declared) return undefined
    const schema = declared.content?.['application/json']?.schema
    // Refs point into the document's components: the schema is checked with them beside it.
    const fn = schema ? ajv.compile({ allOf: [asAjvReads(schema)], components }) : null
    compiled.set(key, fn)
    return fn
  }

  return {
    doc,
    /** How many answers were checked so far. */
    checked: () => checked,
    /** What is wrong with this answer, by the document; empty when it is as declared. */
    check(method: string, template: string, res: LightMyRequestResponse): string[] {
      checked++
      const what = `${method} ${template} → ${res.statusCode}`
      const fn = validator(method, template, res.statusCode)
      if (fn === undefined) return [`${what}: status not declared by the document`]
      if (fn === null || res.statusCode === 204) return []
      if (!String(res.headers['content-type'] ?? '').includes('json')) return [`${what}: not JSON`]
      if (fn(res.json())) return []
      return [`${what}: ${fn.errors?.map((e) => `${e.instancePath} ${e.message}`).join('; ')}`]
    },
  }
}

/**
 * OpenAPI 3.0's `nullable` as JSON Schema validators read it: it adds null to an `enum` (the 3.0.3 wording) and
 * means nothing where no `type` is given (any value already includes null).
 */
function asAjvReads<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(asAjvReads) as T
  if (!schema || typeof schema !== 'object') return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) out[key] = asAjvReads(value)
  if (out.nullable === true) {
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null]
    if (out.type === undefined) delete out.nullable
  }
  return out as T
}
