import type { InjectOptions } from 'fastify'
import { describe, expect, it } from 'vitest'
import {
  makeContacto,
  makeDocumento,
  makeMovimientoCaja,
  makePlaningTarea,
  makePresupuesto,
  makeTareaTrabajador,
} from '../test/factories'
import { openApiContract } from '../test/openapi'
import { testScenario } from '../test/scenario'
import { snapshot } from '../test/snapshot'

/**
 * Hostile input on every write the API documents (docs/security.md): for each POST and PATCH of
 * /api/openapi.json, every property of its body in turn gets each hostile value below, and every path id gets
 * each hostile id. Whatever the answer, it is never a 5xx; when the call is refused, no table changed; when it
 * is accepted, a string is stored and answered exactly as sent, never as markup or SQL.
 */

const HOSTILE_STRINGS = [
  'a\u0000b',
  'x'.repeat(10_000),
  'Ana 👩🏽‍⚕️ García',
  "'; drop table usuarios; --",
  '<img src=x onerror="alert(1)">',
  '\ud800',
  '   ',
]
const HOSTILE_NUMBERS: unknown[] = [-1, 0, 2 ** 31, 2 ** 53 + 1, 1e308, 1.5, '1e2', 'doce', Number.NaN]
const HOSTILE_ANY: unknown[] = [null, true, [], {}, [1, 2], { $gt: '' }]
const HOSTILE_IDS = ['-1', '0', '2147483648', '99999999999999999999', 'abc', '1%00', '1.5', '%27%20or%201%3D1']
/** A query parameter's values, as they would arrive in a URL (already encoded). */
const HOSTILE_QUERY = [
  ...HOSTILE_IDS,
  '',
  '%20',
  '2026-02-30',
  '0000-01-01',
  '9999-12-31T99:99',
  'true%00',
  '%25%5F%5C',
  encodeURIComponent('<img src=x onerror="alert(1)">'),
  encodeURIComponent('Ana 👩🏽‍⚕️ García'),
  '%ED%A0%80',
  'x'.repeat(3000),
]

interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  items?: JsonSchema
  format?: string
  $ref?: string
}
interface Operation {
  method: string
  path: string
  body?: JsonSchema
}

const s = await testScenario({ viviendaA: {}, usuarioA: {}, workers: { superadmin: { rol: 'SUPERADMIN', of: ['A'] } } })
const { t } = s

const contract = await openApiContract(t.app)
const doc = contract.doc as unknown as {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
        parameters?: { in: string; name: string }[]
      }
    >
  >
  components?: { schemas?: Record<string, JsonSchema> }
}
const deref = (schema: JsonSchema | undefined): JsonSchema | undefined =>
  schema?.$ref ? doc.components?.schemas?.[schema.$ref.split('/').pop() as string] : schema

const writes: Operation[] = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops)
    .filter(([method]) => method === 'post' || method === 'patch')
    .map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      body: deref(op.requestBody?.content?.['application/json']?.schema),
    })),
)

/** A real record of the scenario's company for each kind of path id, so a valid-looking call reaches its handler. */
const ids: Record<string, number> = {
  empresas: s.empresaA.id,
  viviendas: s.viviendaA.id,
  usuarios: s.usuarioA.id,
  contactos: (await makeContacto(t.db, s.empresaA.id)).id,
  'documentos-usuario': (await makeDocumento(t.db, s.usuarioA.id)).id,
  'caja-usuario': (await makeMovimientoCaja(t.db, s.usuarioA.id)).id,
  'planing-tareas': (await makePlaningTarea(t.db, [s.usuarioA.id], { empresaId: s.empresaA.id })).id,
  presupuestos: (await makePresupuesto(t.db, s.viviendaA.id)).id,
  'tareas-trabajador': (await makeTareaTrabajador(t.db, s.superadmin.id, s.viviendaA.id)).id,
  trabajadores: (await t.worker('EMPLEADO', [s.empresaA.id])).id,
}
function realUrl(path: string, hostileParam?: { name: string; value: string }): string {
  const resource = path.split('/')[2] as string
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (hostileParam?.name === name) return hostileParam.value
    if (name === 'empresaId') return String(s.empresaA.id)
    if (name === 'viviendaId') return String(s.viviendaA.id)
    return String(ids[resource] ?? 1)
  })
}

const valuesFor = (schema: JsonSchema | undefined): unknown[] => {
  const types = new Set(
    [schema, ...(schema?.anyOf ?? []), ...(schema?.oneOf ?? [])].flatMap((x) => (x?.type ? [x.type].flat() : [])),
  )
  return [
    ...(types.has('string') ? HOSTILE_STRINGS : []),
    ...(types.has('integer') || types.has('number') ? HOSTILE_NUMBERS : []),
    ...HOSTILE_ANY,
    'x'.repeat(10_000),
  ]
}

/** Random whole bodies per write (the heavy suite tries more); the seed is printed, and HOSTILE_SEED repeats a run. */
const WHOLE_BODIES = Number(process.env.HOSTILE_BODIES ?? 8)
const SEED = Number(process.env.HOSTILE_SEED ?? Math.floor(Math.random() * 2 ** 31))
let state = SEED
/** A small seeded generator (a linear congruential one): the same seed gives the same bodies. */
const random = () => {
  state = (state * 1103515245 + 12345) % 2 ** 31
  return state / 2 ** 31
}
const plausibleFor = (schema: JsonSchema | undefined): unknown[] => {
  const types = new Set(
    [schema, ...(schema?.anyOf ?? []), ...(schema?.oneOf ?? [])].flatMap((x) => (x?.type ? [x.type].flat() : [])),
  )
  return [
    ...(types.has('string') ? ['Texto Válido', 'María José Núñez', '2026-11-20', '10:30', '12.50', 'ALTA'] : []),
    ...(types.has('integer') || types.has('number') ? [...Object.values(ids), 1] : []),
    ...(types.has('boolean') ? [true, false] : []),
    ...(types.has('array') ? [[ids.usuarios], []] : []),
  ]
}

interface Tried {
  op: string
  method: string
  path: string
  request: InjectOptions
  field?: string
  value?: unknown
  /** A whole random body. */
  body?: Record<string, unknown>
}
const tried: Tried[] = []
for (const op of writes) {
  const label = `${op.method} ${op.path}`
  const url = realUrl(op.path)
  for (const [field, schema] of Object.entries(op.body?.properties ?? {}))
    for (const value of valuesFor(schema))
      tried.push({
        op: label,
        method: op.method,
        path: op.path,
        field,
        value,
        request: { method: op.method as 'POST', url, payload: { [field]: value } },
      })
  // Unknown and prototype-polluting fields are never stored.
  tried.push({
    op: label,
    method: op.method,
    path: op.path,
    request: {
      method: op.method as 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__":{"rol":"SUPERADMIN"},"constructor":{"prototype":{"activo":true}},"campoDesconocido":1}',
    },
  })
  tried.push({
    op: label,
    method: op.method,
    path: op.path,
    request: { method: op.method as 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{"a":' },
  })
  // Whole bodies: each property left out, or given a plausible or a hostile value of its type, at random.
  for (let k = 0; k < WHOLE_BODIES; k++) {
    const body: Record<string, unknown> = {}
    for (const [field, schema] of Object.entries(op.body?.properties ?? {})) {
      if (random() < 0.25) continue
      const values = random() < 0.5 ? plausibleFor(schema) : valuesFor(schema)
      if (values.length) body[field] = values[Math.floor(random() * values.length)]
    }
    tried.push({
      op: label,
      method: op.method,
      path: op.path,
      body,
      request: { method: op.method as 'POST', url, payload: body },
    })
  }
  for (const name of [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string))
    for (const value of HOSTILE_IDS)
      tried.push({
        op: label,
        method: op.method,
        path: op.path,
        request: { method: op.method as 'POST', url: realUrl(op.path, { name, value }), payload: {} },
      })
}

/** Every read with query parameters (a stream excepted): each parameter in turn gets each hostile value, then twice. */
const reads = Object.entries(doc.paths).flatMap(([path, ops]) =>
  ops.get && !path.includes('stream')
    ? [{ path, query: (ops.get.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name) }]
    : [],
)
const readCalls = reads.flatMap(({ path, query }) => [
  ...query.flatMap((name) => [
    ...HOSTILE_QUERY.map((value) => ({ path, url: `${realUrl(path)}?${name}=${value}` })),
    { path, url: `${realUrl(path)}?${name}=1&${name}=2` },
  ]),
  ...[...path.matchAll(/\{(\w+)\}/g)].flatMap((m) =>
    HOSTILE_IDS.map((value) => ({ path, url: realUrl(path, { name: m[1] as string, value }) })),
  ),
])

describe('hostile query strings and ids on every read of /api/openapi.json', () => {
  it(`never answers 5xx, and answers as the document declares, a refusal with its message (${readCalls.length} calls)`, async () => {
    expect(reads.filter((r) => r.query.length > 0).length).toBeGreaterThan(15)
    const failures: string[] = []
    let refused = 0
    for (const c of readCalls) {
      const res = await t.as(s.superadmin, { method: 'GET', url: c.url })
      const what = `GET ${c.url.slice(0, 100)} → ${res.statusCode}`
      failures.push(...contract.check('GET', c.path, res).map((f) => `${what}: ${f}`))
      if (res.statusCode >= 500) failures.push(`${what} ${res.body.slice(0, 200)}`)
      else if (res.statusCode >= 400) {
        refused++
        const body = res.json() as { message?: unknown }
        if (typeof body.message !== 'string' || !body.message) failures.push(`${what}: no message`)
      }
    }
    console.log(`hostile reads: ${reads.length} read operations, ${readCalls.length} calls, ${refused} refused`)
    expect(failures).toEqual([])
  }, 600_000)
})

describe('hostile input on every write operation of /api/openapi.json', () => {
  it('finds the writes to try in the document', () => {
    expect(writes.length).toBeGreaterThan(25)
    expect(writes.filter((w) => w.body?.properties).length).toBeGreaterThan(15)
  })

  it(`never answers 5xx, changes nothing when it refuses, and stores strings as sent (${tried.length} calls)`, async () => {
    const failures: string[] = []
    let refused = 0
    let accepted = 0
    for (const c of tried) {
      const before = await snapshot(t.db)
      const res = await t.as(s.superadmin, c.request)
      const what = `${c.op} ${c.field ?? ''}=${JSON.stringify(c.value)?.slice(0, 40)} → ${res.statusCode}`
      failures.push(...contract.check(c.method, c.path, res).map((f) => `${what}: ${f}`))
      if (res.statusCode >= 500) failures.push(`${what} ${res.body.slice(0, 200)}`)
      else if (res.statusCode >= 400) {
        refused++
        if ((await snapshot(t.db)) !== before) failures.push(`${what}: refused but a table changed`)
        const body = res.json() as { message?: unknown }
        if (typeof body.message !== 'string' || !body.message) failures.push(`${what}: no message`)
      } else {
        accepted++
        const body = res.headers['content-type']?.toString().includes('json') ? (res.json() as Record<string, unknown>) : {}
        const sent = c.body ? Object.entries(c.body) : c.field ? [[c.field, c.value] as const] : []
        for (const [field, value] of sent)
          if (typeof value === 'string' && typeof body[field] === 'string' && value.trim() === value)
            if (body[field] !== value && body[field] !== value.toUpperCase() && body[field] !== value.normalize('NFC'))
              failures.push(`${what}: stored ${field} ${JSON.stringify(body[field]).slice(0, 60)}`)
        for (const key of ['__proto__', 'constructor', 'campoDesconocido'])
          if (Object.hasOwn(body, key)) failures.push(`${what}: answered the unknown field ${key}`)
      }
    }
    console.log(
      `hostile input: ${writes.length} write operations, ${tried.length} calls, ${refused} refused, ${accepted} accepted, ${contract.checked()} answers as /api/openapi.json declares (whole bodies: seed ${SEED})`,
    )
    expect(failures).toEqual([])
  }, 600_000)
})
