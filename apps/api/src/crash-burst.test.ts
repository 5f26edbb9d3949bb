import { createHash, randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { verifyPassword } from './lib/password'
import { samplePng } from './lib/sample-files'
import { makeNif } from './test/factories'
import { connectApp, letters, liveServers } from './test/live-server'
import { gone, login, postmasterPid } from './test/server-process'

/**
 * Crashes in the middle of write bursts (docs/security.md): the real server, 8 clients each cycling through
 * every write operation /api/openapi.json documents (a test below fails when one is not in `kinds`), then
 * kill -9 of the Node process or of PostgreSQL once every kind has been acknowledged at least once, a restart,
 * and the database read directly:
 * - every acknowledged create is there, every acknowledged delete is gone, every record edited holds its last
 *   acknowledged value (or the one a later write in flight committed);
 * - nothing is half-written: every change is in the log exactly once and in the order acknowledged, the log
 *   holds no change that is not there, no upload row is without its file and no file without its row.
 * `CRASH_ROUNDS` repeats each crash (the heavy suite runs 10); `CRASH_KILL_PG=1` also kills a backend of
 * TEST_DATABASE_URL's server, which makes that whole PostgreSQL restart and recover (never in `npm test`:
 * other test files share that server).
 */

const live = liveServers()
const { engine } = live
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 1)
const CLIENTS = 8
/** Acknowledged writes before the kill, per round (and at least one of every kind). */
const ACKS_BEFORE_KILL = Number(process.env.CRASH_ACKS ?? 60)
/** Records each client may delete, per kind of delete and round. */
const DELETABLE = 2
const PASSWORD = 'Clave-Segura-2026'

type Json = Record<string, unknown>

/** The server did not acknowledge: it is gone (fetch failed) or its database is (503). */
class NotAcknowledged extends Error {
  constructor(readonly serverGone: boolean) {
    super(serverGone ? 'the server is gone' : 'the database is away')
  }
}

interface Setup {
  empresaId: number
  /** A second company and home, for the link operations. */
  empresaB: number
  viviendaId: number
  viviendaB: number
  usuarioId: number
  me: { id: number; email: string }
  /** Per client, a worker of its own that it logs in and out as, and sends notifications to. */
  own: Worker[]
}
interface Worker {
  id: number
  email: string
  token: string
}

interface Ctx {
  base: string
  token: string
  s: Setup
  c: number
  /** Unique per write: `Crash <letters>` (creates) or `Editado <letters>` (edits). */
  marker: string
  n: number
}
interface Prep {
  base: string
  api: Api
  s: Setup
  db: pg.Client
}
interface Check {
  db: pg.Client
  /** Log entries after this id are the round's. */
  since: number
  base: string
}
interface Tally {
  acknowledged: number
  found: number
  problems: string[]
}
interface Kind {
  kind: string
  /** The /api/openapi.json operations it exercises ('POST /api/empresas'). */
  ops: string[]
  /** Before the burst, once per round: the records its writes need. */
  prepare?(p: Prep): Promise<void>
  /** One write: true when acknowledged, false when refused as expected, undefined when nothing is left to do. */
  write(ctx: Ctx): Promise<boolean | undefined>
  verify(v: Check): Promise<Tally>
}

/** A request of a burst client: NotAcknowledged when the server or its database is away. */
async function send(base: string, token: string | null, method: string, url: string, body?: unknown, ip?: string) {
  let res: Response
  try {
    res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(ip ? { 'x-forwarded-for': ip } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw new NotAcknowledged(true)
  }
  if (res.status >= 500) throw new NotAcknowledged(false)
  return res
}

/** Unexpected answers fail the test: a write the burst sends is always valid. */
async function ok(res: Response, ...statuses: number[]): Promise<Json> {
  if (!statuses.includes(res.status)) throw new Error(`${res.url} ${res.status}: ${await res.text()}`)
  return res.status === 204 ? {} : ((await res.json()) as Json)
}

/** Setting up, before the burst. */
interface Api {
  call(method: string, url: string, body?: unknown, token?: string): Promise<Json>
  upload(token?: string): Promise<{ id: string; url: string }>
}
function apiOf(base: string, token: string): Api {
  const api: Api = {
    async call(method, url, body, as = token) {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { authorization: `Bearer ${as}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      if (res.status >= 300) throw new Error(`${method} ${url} ${res.status}: ${await res.text()}`)
      return res.status === 204 ? {} : ((await res.json()) as Json)
    },
    async upload(as = token) {
      const form = new FormData()
      form.append('file', new Blob([samplePng()], { type: 'image/png' }), 'justificante.png')
      const res = await fetch(`${base}/api/uploads`, { method: 'POST', headers: { authorization: `Bearer ${as}` }, body: form })
      if (res.status !== 201) throw new Error(`upload ${res.status}: ${await res.text()}`)
      return (await res.json()) as { id: string; url: string }
    },
  }
  return api
}

async function uploadIn(base: string, token: string): Promise<{ id: string; url: string }> {
  const form = new FormData()
  form.append('file', new Blob([samplePng()], { type: 'image/png' }), 'justificante.png')
  let res: Response
  try {
    res = await fetch(`${base}/api/uploads`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })
  } catch {
    throw new NotAcknowledged(true)
  }
  if (res.status >= 500) throw new NotAcknowledged(false)
  return (await ok(res, 201)) as { id: string; url: string }
}

const perClient = <T>(make: (c: number) => Promise<T>) => Promise.all(Array.from({ length: CLIENTS }, (_, c) => make(c)))
const tally = (): Tally => ({ acknowledged: 0, found: 0, problems: [] })
const ids = (rows: Array<{ id: unknown }>) => new Set(rows.map((r) => String(r.id)))
const markersIn = (text: string, prefix: string) => [...text.matchAll(new RegExp(`"(${prefix} [a-z]+)"`, 'g'))].map((m) => m[1])

// ---------------------------------------------------------------- creates

/**
 * A create: its answer's id is there after the restart, and the round's rows carrying a marker are exactly
 * the round's creation log entries carrying one (no row without its entry, no entry without its row).
 */
function creates(
  kind: string,
  op: string,
  table: string,
  column: string,
  accion: string,
  body: (s: Setup, marker: string, n: number, c: number) => Json,
  extra: { before?: (ctx: Ctx) => Promise<Json>; acknowledged?: (id: number, ctx: Ctx) => void } = {},
): Kind {
  const url = op.split(' ')[1] as string
  const acked: Array<{ id: number; marker: string }> = []
  return {
    kind,
    ops: [op],
    async write(ctx) {
      const more = extra.before ? await extra.before(ctx) : {}
      const json = await ok(
        await send(ctx.base, ctx.token, 'POST', url, { ...body(ctx.s, ctx.marker, ctx.n, ctx.c), ...more }),
        201,
      )
      const id = createdId(json)
      acked.push({ id, marker: ctx.marker })
      extra.acknowledged?.(id, ctx)
      return true
    },
    async verify({ db }) {
      const t = tally()
      t.acknowledged = acked.length
      const present = ids((await db.query(`select id from ${table} where id = any($1::int[])`, [acked.map((a) => a.id)])).rows)
      const missing = acked.filter((a) => !present.has(String(a.id)))
      if (missing.length) t.problems.push(`${kind}: acknowledged but missing ${missing.map((a) => a.id)}`)
      t.found = acked.length - missing.length
      // Every round's rows and entries (the earlier rounds' rows are still there).
      const rows = (await db.query(`select ${column} as m from ${table} where ${column} like 'Crash %'`)).rows.map((r) => r.m)
      const logged = (
        await db.query('select datos::text as d from logs where accion = $1 and datos is not null', [accion])
      ).rows.flatMap((r) => markersIn(r.d, 'Crash'))
      const withoutEntry = rows.filter((m) => !logged.includes(m))
      const withoutRow = logged.filter((m) => !rows.includes(m))
      if (withoutEntry.length) t.problems.push(`${kind}: created without a log entry: ${withoutEntry}`)
      if (withoutRow.length) t.problems.push(`${kind}: log entries of creations that are not there: ${withoutRow}`)
      if (new Set(logged).size !== logged.length) t.problems.push(`${kind}: a creation logged twice`)
      return t
    },
  }
}

// ---------------------------------------------------------------- edits

interface Target {
  id: number
  initial: string
  /** The states acknowledged, in order. */
  acked: string[]
  /** A write whose answer never came (it may have committed): the client writes this record no more. */
  unacked?: string
}

/**
 * Edits of one record per client, each a new state: after the restart the record holds the last acknowledged
 * state (or the one in flight, if it committed), the log has one entry per committed change in the order
 * acknowledged, and its last entry describes what is stored.
 */
function edits(def: {
  kind: string
  ops: string[]
  /** The client's record, and its state before the burst. */
  target(p: Prep, c: number): Promise<{ id: number; initial: string }>
  /** The k-th state the client writes (undefined: no more changes to make). */
  next(marker: string, k: number, s: Setup): string | undefined
  request(id: number, state: string, previous: string, s: Setup): [string, string, Json?]
  /** The stored state, read directly. */
  stored(db: pg.Client, id: number): Promise<string>
  /** The round's log entries of this record's changes, oldest first: the state each describes, or null. */
  logged(db: pg.Client, since: number, id: number): Promise<Array<string | null>>
  /** Whether the stored state is `state` (passwords: a hash). */
  is?(stored: string, state: string): Promise<boolean>
  /** The answer's statuses that acknowledge the write. */
  okStatus?: number
  /** What the write answered, when the state is only known then (a generated password). */
  answered?(json: Json): string
}): Kind {
  const targets: Target[] = []
  return {
    kind: def.kind,
    ops: def.ops,
    async prepare(p) {
      targets.push(...(await perClient(async (c) => ({ ...(await def.target(p, c)), acked: [] as string[] }))))
    },
    async write(ctx) {
      const target = targets[ctx.c] as Target
      if (target.unacked !== undefined) return undefined
      const state = def.next(ctx.marker, target.acked.length, ctx.s)
      if (state === undefined) return undefined
      const previous = target.acked.at(-1) ?? target.initial
      const [method, url, body] = def.request(target.id, state, previous, ctx.s)
      target.unacked = state
      const json = await ok(await send(ctx.base, ctx.token, method, url, body), def.okStatus ?? 200)
      target.acked.push(def.answered ? def.answered(json) : state)
      target.unacked = undefined
      return true
    },
    async verify({ db, since }) {
      const t = tally()
      for (const target of targets) {
        const a = target.acked.length
        t.acknowledged += a
        const entries = await def.logged(db, since, target.id)
        const stored = await def.stored(db, target.id)
        const where = `${def.kind} ${target.id}`
        const committedInFlight = entries.length === a + 1 && target.unacked !== undefined
        if (entries.length !== a && !committedInFlight) {
          t.problems.push(`${where}: ${entries.length} log entries for ${a} acknowledged changes`)
          continue
        }
        const expected = committedInFlight ? (target.unacked as string) : (target.acked.at(-1) ?? target.initial)
        const is = def.is ? await def.is(stored, expected) : stored === expected
        if (!is) t.problems.push(`${where}: stores ${stored}, expected ${expected}`)
        const outOfOrder = target.acked.filter((state, i) => entries[i] !== null && entries[i] !== state)
        if (outOfOrder.length) t.problems.push(`${where}: log entries ${entries} for the changes acknowledged ${target.acked}`)
        if (entries.length && entries.at(-1) !== null && entries.at(-1) !== stored)
          t.problems.push(`${where}: the last log entry says ${entries.at(-1)}, the record ${stored}`)
        if (is && !outOfOrder.length) t.found += a
      }
      return t
    },
  }
}

/** The round's entries of `accion` about record `id` (its id in the entry's "after"), each read by `state`. */
const entriesOf =
  (accion: string, state: (despues: Json) => string | null) =>
  async (db: pg.Client, since: number, id: number): Promise<Array<string | null>> =>
    (
      await db.query(
        `select datos->'despues' as d from logs where id > $1 and accion = $2 and datos->'despues'->>'id' = $3::text order by id`,
        [since, accion, id],
      )
    ).rows.map((r) => state(r.d as Json))

/** A PATCH of the resource's text field to a marker, on a record made for it. */
function patches(r: Resource) {
  return edits({
    kind: `${r.noun}: edición`,
    ops: [`PATCH /api/${r.path}/{id}`],
    target: async (p) => {
      const initial = `Editable ${unique()}`
      return { id: await make(r, p, initial), initial }
    },
    next: (marker) => marker,
    request: (id, state) => ['PATCH', `/api/${r.path}/${id}`, { [r.field]: state }],
    stored: async (db, id) => (await db.query(`select ${r.column} as v from ${r.table} where id = $1`, [id])).rows[0]?.v,
    logged: entriesOf(`Modificar ${r.noun}`, (d) => d[r.field] as string),
  })
}

// ---------------------------------------------------------------- deletes

/**
 * Deletes of records made for it: every acknowledged one is gone, and a record is gone exactly when the log
 * has its deletion, once (`accion` undefined: the operation is not logged, DECISIONS L1).
 */
function deletes(def: {
  kind: string
  op: string
  table: string
  accion?: string
  make(p: Prep, c: number): Promise<number | string>
  /** Gone: the row, or what the operation does instead (a dismissal). */
  goneWhere?: string
  /** An answer that acknowledges nothing and is expected (dismissed meanwhile by "dismiss all"). */
  tolerate?: number
}): Kind {
  const candidates: Array<Array<number | string>> = []
  const all: Array<number | string> = []
  const acked: Array<number | string> = []
  const idType = def.table === 'uploads' ? 'uuid' : 'int'
  return {
    kind: def.kind,
    ops: [def.op],
    async prepare(p) {
      candidates.push(...(await perClient(async (c) => Promise.all(Array.from({ length: DELETABLE }, () => def.make(p, c))))))
      all.push(...candidates.flat())
    },
    async write(ctx) {
      const id = candidates[ctx.c]?.pop()
      if (id === undefined) return undefined
      const res = await send(ctx.base, ctx.token, 'DELETE', def.op.split(' ')[1]?.replace('{id}', String(id)) as string)
      if (res.status === def.tolerate) return false
      await ok(res, 204)
      acked.push(id)
      return true
    },
    async verify({ db, since }) {
      const t = tally()
      t.acknowledged = acked.length
      const remaining = ids(
        (
          await db.query(`select id from ${def.table} where id = any($1::${idType}[]) and not (${def.goneWhere ?? 'false'})`, [
            all,
          ])
        ).rows,
      )
      const logged = def.accion
        ? (
            await db.query(`select datos->'antes'->>'id' as id from logs where id > $1 and accion = $2`, [since, def.accion])
          ).rows.map((r) => String(r.id))
        : undefined
      for (const id of acked) if (remaining.has(String(id))) t.problems.push(`${def.kind}: acknowledged but still there: ${id}`)
      for (const id of all) {
        const entries = logged?.filter((l) => l === String(id)).length
        const isGone = !remaining.has(String(id))
        if (entries !== undefined && entries !== (isGone ? 1 : 0))
          t.problems.push(`${def.kind} ${id}: ${isGone ? 'gone' : 'there'} with ${entries} log entries of its deletion`)
      }
      t.found = acked.filter((id) => !remaining.has(String(id))).length
      return t
    },
  }
}

// ---------------------------------------------------------------- the kinds

const worker = (s: Setup, apellidos: string, n: number | string) => ({
  nombre: 'Crash',
  apellidos,
  email: `crash${n}@ejemplo.es`,
  nif: makeNif(),
  rol: 'EMPLEADO',
  empresaIds: [s.empresaId],
})
const resident = (s: Setup, apellidos: string) => ({ nombre: 'Residente', apellidos, nif: makeNif(), viviendaId: s.viviendaId })
const movimiento = (s: Setup, concepto: string) => ({ concepto, cantidad: '12.34', fecha: '2026-11-20', usuarioId: s.usuarioId })
const planing = (s: Setup, titulo: string) => ({
  titulo,
  descripcion: 'Ráfaga',
  fecha: '2026-11-20',
  hora: '10:00',
  usuarioIds: [s.usuarioId],
  empresaId: s.empresaId,
  notificable: true,
})
const tarea = (s: Setup, titulo: string) => ({
  titulo,
  descripcion: 'Ráfaga',
  viviendaId: s.viviendaId,
  fecha: '2026-11-20',
  prioridad: 'ALTA',
  trabajadorId: s.me.id,
})
const presupuesto = (s: Setup, descripcion: string) => ({
  descripcion,
  precio: '100.00',
  // The server's real clock is today: a planned date may not be in the past (DECISIONS D6), so one far ahead.
  fechaPrevista: '2099-12-01',
  estado: 'PENDIENTE_APROBACION',
  viviendaId: s.viviendaId,
})
const contacto = (s: Setup, nombreComercial: string, n: number | string) => ({
  nombreComercial,
  agente: 'Ana Pérez',
  correo: `c${n}@ejemplo.es`,
  telefono: '600000000',
  empresaId: s.empresaId,
})
async function documento(p: Prep, titulo: string) {
  const file = await p.api.upload()
  return p.api.call('POST', '/api/documentos-usuario', {
    titulo,
    archivoUrl: file.url,
    fecha: '2026-11-20',
    usuarioId: p.s.usuarioId,
  })
}
const idOf = async (json: Promise<Json>) => (await json).id as number
let serial = 0
/** A text of letters only (people's names allow no digits), new on each call. */
const unique = () => letters(serial++)

/**
 * The resources of the uniform create, edit and delete (lib/resource.ts): each gets a kind of each in the burst,
 * with its log entries 'Crear', 'Modificar' and 'Eliminar' + `noun`.
 */
interface Resource {
  path: string
  table: string
  noun: string
  /** The text column a marker is written to, and its name in the API. */
  column: string
  field: string
  body(s: Setup, text: string, n: number | string, c: number): Json
  /** What a create needs first (a document's file). */
  before?(ctx: Ctx): Promise<Json>
  /** A record made before the burst, when a POST of `body` is not enough. */
  make?(p: Prep, text: string): Promise<number>
  /** The resource has no text edit (a worker task is only completed: its own kind). */
  noEdit?: boolean
}
const RESOURCES: Resource[] = [
  { path: 'empresas', table: 'empresas', noun: 'empresa', column: 'nombre', field: 'nombre', body: (_s, nombre) => ({ nombre }) },
  {
    path: 'viviendas',
    table: 'viviendas',
    noun: 'vivienda',
    column: 'nombre',
    field: 'nombre',
    body: (s, nombre) => ({ nombre, empresaId: s.empresaId }),
  },
  { path: 'usuarios', table: 'usuarios', noun: 'usuario', column: 'apellidos', field: 'apellidos', body: resident },
  {
    path: 'contactos',
    table: 'contactos',
    noun: 'contacto',
    column: 'nombre_comercial',
    field: 'nombreComercial',
    body: contacto,
  },
  {
    path: 'caja-usuario',
    table: 'caja_usuario',
    noun: 'movimiento de caja',
    column: 'concepto',
    field: 'concepto',
    body: movimiento,
  },
  {
    path: 'documentos-usuario',
    table: 'documentos_usuario',
    noun: 'documento',
    column: 'titulo',
    field: 'titulo',
    body: (s, titulo) => ({ titulo, fecha: '2026-11-20', usuarioId: s.usuarioId }),
    before: async (ctx) => ({ archivoUrl: (await uploadIn(ctx.base, ctx.token)).url }),
    make: (p, titulo) => idOf(documento(p, titulo)),
  },
  {
    path: 'planing-tareas',
    table: 'planing_tareas',
    noun: 'tarea del planing',
    column: 'titulo',
    field: 'titulo',
    body: planing,
  },
  {
    path: 'tareas-trabajador',
    table: 'tareas_trabajador',
    noun: 'tarea de trabajador',
    column: 'titulo',
    field: 'titulo',
    body: tarea,
    noEdit: true,
  },
  {
    path: 'presupuestos',
    table: 'presupuestos',
    noun: 'presupuesto',
    column: 'descripcion',
    field: 'descripcion',
    body: presupuesto,
  },
  { path: 'trabajadores', table: 'trabajadores', noun: 'trabajador', column: 'apellidos', field: 'apellidos', body: worker },
]
/** The id a create answers (a worker's is inside its answer, beside its one-time password). */
const createdId = (json: Json) => (json.id ?? (json.trabajador as Json | undefined)?.id) as number
/** A record of the resource made before the burst, through the API. */
const make = async (r: Resource, p: Prep, text: string) =>
  r.make ? r.make(p, text) : createdId(await p.api.call('POST', `/api/${r.path}`, r.body(p.s, text, unique(), 0)))
/** A resource's create, text edit and delete. */
const resourceKinds = (r: Resource): Kind[] => [
  creates(r.noun, `POST /api/${r.path}`, r.table, r.column, `Crear ${r.noun}`, r.body, { before: r.before }),
  ...(r.noEdit ? [] : [patches(r)]),
  deletes({
    kind: `${r.noun}: borrado`,
    op: `DELETE /api/${r.path}/{id}`,
    table: r.table,
    accion: `Eliminar ${r.noun}`,
    make: (p) => make(r, p, `Borrable ${unique()}`),
  }),
]
/** A worker the test can log in as: created, then its temporary password changed to PASSWORD. */
async function loggableWorker(p: Pick<Prep, 'api' | 'base' | 's'>, apellidos: string): Promise<Worker> {
  const made = await p.api.call('POST', '/api/trabajadores', worker(p.s, apellidos, unique()))
  const w = made.trabajador as { id: number; email: string }
  const temporal = await login(p.base, w.email, made.passwordTemporal as string)
  const changed = await p.api.call('PATCH', `/api/trabajadores/${w.id}/cambiar-password`, { passwordNueva: PASSWORD }, temporal)
  return { id: w.id, email: w.email, token: changed.token as string }
}
const countLogs = async (db: pg.Client, since: number, accion: string, where: string, value: unknown) =>
  Number(
    (await db.query(`select count(*) as n from logs where id > $1 and accion = $2 and ${where}`, [since, accion, value])).rows[0]
      .n,
  )
const hashOf = async (db: pg.Client, id: number) =>
  (await db.query('select password_hash as h from trabajadores where id = $1', [id])).rows[0]?.h as string
const sha256 = (token: string) => createHash('sha256').update(token).digest('hex')
/** A client address per request (the server trusts X-Forwarded-For here), so per-address limits stay out of the way. */
const ipOf = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
const newPassword = (n: number) => `Clave-${letters(n)}-9Z`

/**
 * A worker's password changed by itself, or reset by an administrator: the log has one entry per committed
 * change, and the stored hash is the last acknowledged password (or the one in flight, if its entry is there).
 */
function passwordEdits(kind: 'cambiar' | 'restablecer'): Kind {
  const accion = kind === 'cambiar' ? 'Cambio de contraseña' : 'Restablecimiento de contraseña'
  const targets: Array<Worker & { passwords: string[]; unacked?: string }> = []
  return {
    kind: kind === 'cambiar' ? 'contraseña cambiada por su trabajador' : 'contraseña restablecida por un administrador',
    ops: [
      kind === 'cambiar' ? 'PATCH /api/trabajadores/{id}/cambiar-password' : 'POST /api/trabajadores/{id}/restablecer-password',
    ],
    async prepare(p) {
      targets.push(...(await perClient(async () => ({ ...(await loggableWorker(p, 'Con clave')), passwords: [PASSWORD] }))))
    },
    async write(ctx) {
      const target = targets[ctx.c] as (typeof targets)[number]
      if (target.unacked !== undefined) return undefined
      if (kind === 'cambiar') {
        const nueva = newPassword(ctx.n)
        target.unacked = nueva
        const body = { passwordActual: target.passwords.at(-1), passwordNueva: nueva }
        const json = await ok(
          await send(ctx.base, target.token, 'PATCH', `/api/trabajadores/${target.id}/cambiar-password`, body),
          200,
        )
        target.token = json.token as string
        target.passwords.push(nueva)
      } else {
        // The new password is generated by the server: unknown until its answer arrives.
        target.unacked = ''
        const json = await ok(await send(ctx.base, ctx.token, 'POST', `/api/trabajadores/${target.id}/restablecer-password`), 200)
        target.passwords.push(json.passwordTemporal as string)
      }
      target.unacked = undefined
      return true
    },
    async verify({ db, since }) {
      const t = tally()
      for (const target of targets) {
        const a = target.passwords.length - 1
        t.acknowledged += a
        const entries =
          kind === 'cambiar'
            ? await countLogs(db, since, accion, 'trabajador_id = $3', target.id)
            : await countLogs(db, since, accion, `descripcion like '%(' || $3 || ')%'`, target.email)
        const hash = await hashOf(db, target.id)
        if (entries === a) {
          if (!(await verifyPassword(target.passwords.at(-1) as string, hash)))
            t.problems.push(`${kind} ${target.id}: the password acknowledged last is not the stored one`)
          else t.found += a
        } else if (entries === a + 1 && target.unacked !== undefined) {
          const inFlight = target.unacked === '' || (await verifyPassword(target.unacked, hash))
          if (!inFlight || (await verifyPassword(target.passwords.at(-1) as string, hash)))
            t.problems.push(`${kind} ${target.id}: a change in flight is in the log but not stored`)
          else t.found += a
        } else t.problems.push(`${kind} ${target.id}: ${entries} log entries for ${a} acknowledged changes`)
      }
      return t
    },
  }
}

/**
 * POST /api/auth/restablecer with links made for it: a link is spent exactly when the log has its reset and
 * the worker's password is the new one; every acknowledged reset is there.
 */
function linkResets(): Kind {
  const candidates: Array<Array<{ id: number; token: string; password?: string; acked?: boolean }>> = []
  return {
    kind: 'contraseña restablecida con un enlace',
    ops: ['POST /api/auth/restablecer'],
    async prepare(p) {
      candidates.push(
        ...(await perClient(async () =>
          Promise.all(
            Array.from({ length: DELETABLE }, async () => {
              const made = await p.api.call('POST', '/api/trabajadores', worker(p.s, 'Con enlace', unique()))
              const id = (made.trabajador as Json).id as number
              const token = randomBytes(32).toString('base64url')
              await p.db.query(
                `insert into password_resets (trabajador_id, token_hash, expires_at) values ($1, $2, now() + interval '30 minutes')`,
                [id, sha256(token)],
              )
              return { id, token }
            }),
          ),
        )),
      )
    },
    async write(ctx) {
      const link = candidates[ctx.c]?.find((l) => l.password === undefined)
      if (!link) return undefined
      link.password = newPassword(ctx.n)
      const body = { token: link.token, passwordNueva: link.password }
      await ok(await send(ctx.base, null, 'POST', '/api/auth/restablecer', body, ipOf(ctx.n)), 200)
      link.acked = true
      return true
    },
    async verify({ db, since }) {
      const t = tally()
      for (const link of candidates.flat()) {
        if (link.acked) t.acknowledged++
        const spent = (await db.query('select used_at from password_resets where token_hash = $1', [sha256(link.token)])).rows[0]
          ?.used_at
        const entries = await countLogs(db, since, 'Contraseña restablecida', 'trabajador_id = $3', link.id)
        const changed = link.password !== undefined && (await verifyPassword(link.password, await hashOf(db, link.id)))
        if (!(spent ? entries === 1 && changed : entries === 0 && !changed))
          t.problems.push(
            `reset link of ${link.id}: spent ${Boolean(spent)}, ${entries} log entries, password changed ${changed}`,
          )
        else if (link.acked && !spent) t.problems.push(`reset link of ${link.id}: acknowledged but not spent`)
        else if (link.acked) t.found++
      }
      return t
    },
  }
}

/**
 * Logins and logouts of each client's own worker, and its requests for a reset link. A login or logout is a
 * log entry (DECISIONS L1): the round has one per acknowledged call, at most one more per call in flight,
 * and every token a login answered still works after the restart. A reset request is answered before its
 * work (the neutral answer of DECISIONS S4), so nothing acknowledged is there to find: what holds is that no
 * worker ever has two live links.
 */
function sessions(): Kind[] {
  const logins = { attempted: 0, tokens: [] as Array<{ c: number; token: string }> }
  const logouts = { attempted: 0, acked: 0 }
  const sessionLogs = async (db: pg.Client, since: number, s: Setup, accion: string) => {
    let n = 0
    for (const w of s.own) n += await countLogs(db, since, accion, 'trabajador_id = $3', w.id)
    return n
  }
  let setup: Setup
  return [
    {
      kind: 'inicio de sesión',
      ops: ['POST /api/auth/trabajadores/login'],
      async prepare(p) {
        setup = p.s
      },
      async write(ctx) {
        logins.attempted++
        const w = ctx.s.own[ctx.c] as Worker
        const json = await ok(
          await send(ctx.base, null, 'POST', '/api/auth/trabajadores/login', { email: w.email, password: PASSWORD }, ipOf(ctx.n)),
          200,
        )
        logins.tokens.push({ c: ctx.c, token: json.token as string })
        return true
      },
      async verify({ db, since, base }) {
        const t = tally()
        t.acknowledged = logins.tokens.length
        const entries = await sessionLogs(db, since, setup, 'Inicio de sesión')
        if (entries < logins.tokens.length || entries > logins.attempted)
          t.problems.push(`logins: ${entries} log entries for ${logins.tokens.length} acknowledged of ${logins.attempted}`)
        for (const { token } of logins.tokens) {
          const res = await fetch(`${base}/api/trabajadores/me`, { headers: { authorization: `Bearer ${token}` } })
          if (res.status === 200) t.found++
          else t.problems.push(`a token a login answered gets ${res.status} after the restart`)
        }
        return t
      },
    },
    {
      kind: 'cierre de sesión',
      ops: ['POST /api/auth/logout'],
      async write(ctx) {
        logouts.attempted++
        await ok(await send(ctx.base, (ctx.s.own[ctx.c] as Worker).token, 'POST', '/api/auth/logout'), 204)
        logouts.acked++
        return true
      },
      async verify({ db, since }) {
        const entries = await sessionLogs(db, since, setup, 'Cierre de sesión')
        const fine = entries >= logouts.acked && entries <= logouts.attempted
        return {
          acknowledged: logouts.acked,
          found: fine ? logouts.acked : 0,
          problems: fine ? [] : [`logouts: ${entries} log entries for ${logouts.acked} acknowledged of ${logouts.attempted}`],
        }
      },
    },
    {
      kind: 'enlace de recuperación pedido',
      ops: ['POST /api/auth/recuperar'],
      async write(ctx) {
        const w = ctx.s.own[ctx.c] as Worker
        await ok(await send(ctx.base, null, 'POST', '/api/auth/recuperar', { email: w.email }, ipOf(ctx.n)), 202)
        return true
      },
      async verify({ db }) {
        const twice = (
          await db.query(
            'select trabajador_id from password_resets where used_at is null and expires_at > now() group by 1 having count(*) > 1',
          )
        ).rows
        return {
          acknowledged: 0,
          found: 0,
          problems: twice.length ? [`workers with two live reset links: ${twice.map((r) => r.trabajador_id)}`] : [],
        }
      },
    },
  ]
}

/** Every kind of write, with fresh state for one round. */
function makeKinds(): Kind[] {
  const uploads: string[] = []
  const clientLogs: string[] = []
  /** Per client: the notifications to its own worker acknowledged, and how many of them the last acknowledged "dismiss all" covered. */
  const notified: number[][] = Array.from({ length: CLIENTS }, () => [])
  const dismissedUpTo: number[] = Array.from({ length: CLIENTS }, () => 0)
  let dismissAlls = 0
  return [
    ...RESOURCES.flatMap(resourceKinds),
    creates(
      'notificación',
      'POST /api/notificaciones',
      'notificaciones',
      'titulo',
      'Crear notificación',
      (s, m, _n, c) => ({ titulo: m, descripcion: 'Ráfaga', trabajadorId: (s.own[c] as Worker).id }),
      { acknowledged: (id, ctx) => notified[ctx.c]?.push(id) },
    ),
    {
      kind: 'archivo subido',
      ops: ['POST /api/uploads'],
      async write(ctx) {
        uploads.push((await uploadIn(ctx.base, ctx.token)).id)
        return true
      },
      async verify({ db }) {
        const present = ids((await db.query('select id from uploads where id = any($1::uuid[])', [uploads])).rows)
        const missing = uploads.filter((id) => !present.has(id))
        return {
          acknowledged: uploads.length,
          found: uploads.length - missing.length,
          problems: missing.length ? [`uploads: acknowledged but missing ${missing}`] : [],
        }
      },
    },
    {
      kind: 'entrada del registro',
      ops: ['POST /api/logs'],
      async write(ctx) {
        await ok(
          await send(ctx.base, ctx.token, 'POST', '/api/logs', { accion: 'Descarga de prueba', descripcion: ctx.marker }),
          201,
        )
        clientLogs.push(ctx.marker)
        return true
      },
      async verify({ db, since }) {
        const rows = (
          await db.query(`select descripcion from logs where id > $1 and accion = 'Descarga de prueba'`, [since])
        ).rows.map((r) => r.descripcion)
        const missing = clientLogs.filter((m) => rows.filter((r) => r === m).length !== 1)
        return {
          acknowledged: clientLogs.length,
          found: clientLogs.length - missing.length,
          problems: missing.length ? [`POST /api/logs: not there once: ${missing}`] : [],
        }
      },
    },

    edits({
      // A worker task's only change is to be completed (once).
      kind: 'tarea completada',
      ops: ['PATCH /api/tareas-trabajador/{id}'],
      target: async (p) => ({
        id: await idOf(p.api.call('POST', '/api/tareas-trabajador', tarea(p.s, 'Tarea Pendiente'))),
        initial: 'false',
      }),
      next: (_m, k) => (k === 0 ? 'true' : undefined),
      request: (id) => ['PATCH', `/api/tareas-trabajador/${id}`, { completada: true }],
      stored: async (db, id) =>
        (await db.query('select completada::text as v from tareas_trabajador where id = $1', [id])).rows[0]?.v,
      logged: entriesOf('Modificar tarea de trabajador', (d) => String(d.completada)),
    }),
    edits({
      kind: 'presupuesto aprobado o rechazado',
      ops: ['PATCH /api/presupuestos/{id}'],
      target: async (p) => ({
        id: await idOf(p.api.call('POST', '/api/presupuestos', presupuesto(p.s, 'Obra por aprobar'))),
        initial: 'PENDIENTE_APROBACION',
      }),
      next: (_m, k) => ['APROBADO', 'RECHAZADO', 'PENDIENTE_APROBACION'][k % 3] as string,
      request: (id, estado) => ['PATCH', `/api/presupuestos/${id}`, { estado }],
      stored: async (db, id) => (await db.query('select estado as v from presupuestos where id = $1', [id])).rows[0]?.v,
      logged: entriesOf('Modificar presupuesto', (d) => d.estado as string),
    }),
    edits({
      kind: 'usuario trasladado o desvinculado',
      ops: ['POST /api/usuarios/{id}/viviendas/{viviendaId}', 'DELETE /api/usuarios/{id}/viviendas/{viviendaId}'],
      target: async (p) => ({
        id: await idOf(p.api.call('POST', '/api/usuarios', resident(p.s, 'Trasladable'))),
        initial: String(p.s.viviendaId),
      }),
      next: (_m, k, s) => [String(s.viviendaB), '', String(s.viviendaId), ''][k % 4] as string,
      request: (id, state, previous) =>
        state ? ['POST', `/api/usuarios/${id}/viviendas/${state}`] : ['DELETE', `/api/usuarios/${id}/viviendas/${previous}`],
      stored: async (db, id) =>
        (await db.query(`select coalesce(vivienda_id::text, '') as v from usuarios where id = $1`, [id])).rows[0]?.v,
      logged: entriesOf('Modificar usuario', (d) => (d.viviendas as Array<{ id: number }>).map((v) => v.id).join(',')),
    }),
    edits({
      kind: 'trabajador vinculado o desvinculado',
      ops: ['POST /api/trabajadores/{id}/empresas/{empresaId}', 'DELETE /api/trabajadores/{id}/empresas/{empresaId}'],
      target: async (p) => {
        const made = await p.api.call('POST', '/api/trabajadores', worker(p.s, 'Vinculable', unique()))
        return { id: (made.trabajador as Json).id as number, initial: String(p.s.empresaId) }
      },
      next: (_m, k, s) => (k % 2 === 0 ? [s.empresaId, s.empresaB].sort((a, b) => a - b).join(',') : String(s.empresaId)),
      request: (id, state, _previous, s) => [
        state.includes(',') ? 'POST' : 'DELETE',
        `/api/trabajadores/${id}/empresas/${s.empresaB}`,
      ],
      stored: async (db, id) =>
        (
          await db.query(
            `select coalesce(string_agg(empresa_id::text, ',' order by empresa_id), '') as v from trabajador_empresas where trabajador_id = $1`,
            [id],
          )
        ).rows[0]?.v,
      logged: entriesOf('Modificar trabajador', (d) =>
        (d.empresas as Array<{ id: number }>)
          .map((e) => e.id)
          .sort((a, b) => a - b)
          .join(','),
      ),
    }),
    passwordEdits('cambiar'),
    passwordEdits('restablecer'),
    linkResets(),

    deletes({
      kind: 'archivo descartado',
      op: 'DELETE /api/uploads/{id}',
      table: 'uploads',
      make: async (p) => (await p.api.upload()).id,
    }),
    deletes({
      kind: 'notificación descartada',
      op: 'DELETE /api/notificaciones/{id}',
      table: 'notificaciones',
      goneWhere: 'descartada_en is not null',
      make: (p) =>
        idOf(
          p.api.call('POST', '/api/notificaciones', { titulo: 'Descartable', descripcion: 'Ráfaga', trabajadorId: p.s.me.id }),
        ),
    }),
    {
      kind: 'todas las notificaciones descartadas',
      ops: ['DELETE /api/notificaciones'],
      async write(ctx) {
        const upTo = notified[ctx.c]?.length ?? 0
        await ok(await send(ctx.base, (ctx.s.own[ctx.c] as Worker).token, 'DELETE', '/api/notificaciones'), 204)
        dismissedUpTo[ctx.c] = upTo
        dismissAlls++
        return true
      },
      async verify({ db }) {
        // Every notification to the client's worker acknowledged before its last acknowledged "dismiss all" is dismissed.
        const due = notified.flatMap((list, c) => list.slice(0, dismissedUpTo[c]))
        const left = (
          await db.query('select id from notificaciones where id = any($1::int[]) and descartada_en is null', [due])
        ).rows.map((r) => r.id)
        return {
          acknowledged: dismissAlls,
          found: left.length ? 0 : dismissAlls,
          problems: left.length ? [`notifications still shown after "dismiss all" was acknowledged: ${left}`] : [],
        }
      },
    },
    ...sessions(),
  ]
}

async function arrange(base: string, token: string): Promise<Setup> {
  const api = apiOf(base, token)
  const empresaId = await idOf(api.call('POST', '/api/empresas', { nombre: 'Empresa Del Golpe' }))
  const empresaB = await idOf(api.call('POST', '/api/empresas', { nombre: 'Empresa Vecina' }))
  const viviendaId = await idOf(api.call('POST', '/api/viviendas', { nombre: 'Vivienda Del Golpe', empresaId }))
  const viviendaB = await idOf(api.call('POST', '/api/viviendas', { nombre: 'Vivienda Vecina', empresaId }))
  const usuarioId = await idOf(api.call('POST', '/api/usuarios', resident({ viviendaId } as Setup, 'Del Golpe')))
  const me = (await api.call('GET', '/api/trabajadores/me')) as { id: number; email: string }
  const s: Setup = { empresaId, empresaB, viviendaId, viviendaB, usuarioId, me, own: [] }
  s.own = await perClient(() => loggableWorker({ api, base, s }, 'Propio'))
  return s
}

interface Round {
  kinds: Kind[]
  attempted: number
}

/** 8 clients writing every kind in turn until `stop()`; a client ends when the server is gone. */
function burst(base: string, token: string, s: Setup, round: number, kinds: Kind[]) {
  const ackedKinds = new Set<string>()
  let acknowledged = 0
  let attempted = 0
  let stopped = false
  let failure: unknown
  const client = async (c: number) => {
    for (let i = 0; !stopped; i++) {
      const n = round * 1_000_000 + c * 100_000 + i
      const kind = kinds[(c * 5 + i) % kinds.length] as Kind
      const marker = `${kind.ops[0]?.startsWith('PATCH') ? 'Editado' : 'Crash'} ${letters(n)}`
      try {
        attempted++
        const done = await kind.write({ base, token, s, c, marker, n })
        if (done === undefined) attempted--
        if (done) {
          acknowledged++
          ackedKinds.add(kind.kind)
        }
      } catch (err) {
        if (!(err instanceof NotAcknowledged)) {
          // An answer no valid write should get: the test fails with it.
          failure ??= err
          stopped = true
          return
        }
        // The server is gone: this client is done. Its database away (503): it goes on, nothing acknowledged.
        if (err.serverGone) return
        await new Promise((r) => setTimeout(r, 20))
      }
    }
  }
  const clients = Array.from({ length: CLIENTS }, (_, c) => client(c))
  return {
    ready: () => {
      if (failure) throw failure
      return acknowledged >= ACKS_BEFORE_KILL && ackedKinds.size === kinds.length
    },
    missing: () => kinds.filter((k) => !ackedKinds.has(k.kind)).map((k) => k.kind),
    async stop(): Promise<Round> {
      stopped = true
      await Promise.all(clients)
      if (failure) throw failure
      return { kinds, attempted }
    },
  }
}

/** Files and their rows, after the restart. A file whose upload died before its commit is removed by the start-up sweep, which runs just after the server answers: give it a few seconds. */
async function filesMatchRows(db: pg.Client, uploadsDir: string): Promise<string[]> {
  let rows = new Set<string>()
  let files: string[] = []
  for (let wait = 0; wait < 50; wait++) {
    rows = ids((await db.query('select id from uploads')).rows)
    files = readdirSync(uploadsDir).filter((f) => !f.startsWith('.'))
    if (files.every((f) => rows.has(f))) break
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const problems: string[] = []
  const strayFiles = files.filter((f) => !rows.has(f))
  const rowsWithoutFile = [...rows].filter((id) => !files.includes(id))
  if (strayFiles.length) problems.push(`files without their row: ${strayFiles.join(', ')}`)
  if (rowsWithoutFile.length) problems.push(`upload rows without their file: ${rowsWithoutFile.join(', ')}`)
  return problems
}

const totals = { crashes: 0, attempted: 0, acknowledged: 0, found: 0, kinds: 0, operations: 0 }
afterAll(() => {
  // The figures docs/security.md quotes.
  console.log(
    `crashes mid-burst (${engine}): ${totals.crashes} crashes, ${totals.attempted} writes attempted, ` +
      `${totals.acknowledged} acknowledged, ${totals.found} found after restart, ${totals.kinds} kinds of write ` +
      `covering the ${totals.operations} write operations of /api/openapi.json`,
  )
})

async function crashRounds(victim: 'node' | 'postgres') {
  const place = await live.place()
  // Many client addresses from one machine: the per-address limits of login and reset links stay out of the way.
  place.env.TRUST_PROXY = 'true'
  const { dataDir, url } = place
  for (let round = 0; round < ROUNDS; round++) {
    const server = await live.start(place)
    const token = await login(server.base)
    const kinds = makeKinds()
    if (round === 0) {
      // Every write operation the API documents is in the burst.
      const doc = (await (await fetch(`${server.base}/api/openapi.json`)).json()) as { paths: Record<string, Json> }
      const operations = Object.entries(doc.paths).flatMap(([p, ops]) =>
        Object.keys(ops)
          .filter((m) => m !== 'get')
          .map((m) => `${m.toUpperCase()} ${p}`),
      )
      const covered = new Set(kinds.flatMap((k) => k.ops))
      expect(operations.filter((op) => !covered.has(op))).toEqual([])
      expect([...covered].filter((op) => !operations.includes(op))).toEqual([])
      totals.kinds = kinds.length
      totals.operations = operations.length
    }
    const s = await arrange(server.base, token)
    const api = apiOf(server.base, token)
    const setupDb = await connectApp(place)
    let since: number
    try {
      for (const kind of kinds) await kind.prepare?.({ base: server.base, api, s, db: setupDb })
      since = Number((await setupDb.query('select coalesce(max(id), 0) as id from logs')).rows[0].id)
    } finally {
      await setupDb.end()
    }

    const b = burst(server.base, token, s, round, kinds)
    const deadline = Date.now() + 180_000
    while (!b.ready() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    expect(b.missing()).toEqual([])
    if (victim === 'node') server.child.kill('SIGKILL')
    else if (!url) {
      const pgPid = postmasterPid(dataDir) as number
      process.kill(pgPid, 'SIGKILL')
      await gone(pgPid, 10_000)
      // The API answers 503 meanwhile (nothing acknowledged); then the app is stopped and started again.
      await new Promise((r) => setTimeout(r, 1000))
      server.child.kill('SIGKILL')
    } else {
      // TEST_DATABASE_URL's server: SIGKILL of one backend makes the postmaster restart all of them and recover.
      const admin_ = await connectApp(place)
      const { rows } = await admin_.query(
        'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() limit 1',
      )
      await admin_.end()
      process.kill(rows[0].pid, 'SIGKILL')
      await new Promise((r) => setTimeout(r, 3000))
      server.child.kill('SIGKILL')
    }
    const r = await b.stop()
    await server.exited
    if (!url) await gone(postmasterPid(dataDir), 10_000)
    const logBefore = url ? '' : readFileSync(path.join(dataDir, 'postgresql.log'), 'utf8')

    const again = await live.start(place)
    // The embedded PostgreSQL really crashed: it recovered from its WAL (the app restarts it when it dies).
    if (victim === 'postgres' && !url) {
      const log = readFileSync(path.join(dataDir, 'postgresql.log'), 'utf8').slice(logBefore.length)
      expect(log).toMatch(/database system was (interrupted|not properly shut down)|redo starts/)
    }
    const db = await connectApp(place)
    try {
      const problems: string[] = []
      let acknowledged = 0
      let found = 0
      for (const kind of r.kinds) {
        const t = await kind.verify({ db, since, base: again.base })
        problems.push(...t.problems)
        acknowledged += t.acknowledged
        found += t.found
      }
      problems.push(...(await filesMatchRows(db, path.join(dataDir, 'uploads'))))
      expect(problems).toEqual([])
      expect(found).toBe(acknowledged)
      expect(acknowledged).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL)
      totals.crashes++
      totals.attempted += r.attempted
      totals.acknowledged += acknowledged
      totals.found += found
    } finally {
      await db.end()
    }
    again.child.kill('SIGTERM')
    await again.exited
  }
}

describe(`kill -9 in the middle of 8-client write bursts (${engine === 'pg' ? 'TEST_DATABASE_URL' : 'embedded'})`, () => {
  it(
    'of the Node process: after a restart every acknowledged write is there and nothing is half-written',
    async () => {
      await crashRounds('node')
    },
    300_000 * ROUNDS,
  )

  it.skipIf(engine === 'pg' && process.env.CRASH_KILL_PG !== '1')(
    'of PostgreSQL: after recovery every acknowledged write is there and nothing is half-written',
    async () => {
      await crashRounds('postgres')
    },
    300_000 * ROUNDS,
  )
})
