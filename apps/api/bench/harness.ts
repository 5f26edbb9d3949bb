/**
 * What every API benchmark does around its own measurement, written once: the command line (with `--help`),
 * the engine (the embedded server under ./bench-data, or a fresh `bench_<time>` database on
 * BENCH_DATABASE_URL), seeding helpers, the real app on a local port, logging in, one user's sequential
 * requests, autocannon in a child process, the same SQL replayed straight through `pg` (the ceiling), and
 * the Markdown tables the results are printed as.
 */
import { fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os, { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type ParseArgsConfig, parseArgs } from 'node:util'
import type { Rol } from '@vb/shared'
import { type SQL, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app'
import { type ConnectionTarget, clientConfig, type Database, type Db, openDatabase, SESSION_OPTIONS } from '../src/db/client'
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../src/db/embedded'
import { trabajadorEmpresas, trabajadores } from '../src/db/schema'
import { limitHeapGrowth } from '../src/lib/heap'
import { hashPassword } from '../src/lib/password'
import { adminQuery, withDatabase } from '../src/test/databases'

const ROOT = path.resolve(import.meta.dirname, '../../..')

// ---------------------------------------------------------------- command line

/** An option of a benchmark: its parseArgs type and default, and a line for `--help`. */
export type BenchOption = { type: 'string'; default: string; help: string } | { type: 'boolean'; default: boolean; help: string }
type BenchValues<O extends Record<string, BenchOption>> = {
  [K in keyof O]: O[K] extends { type: 'boolean' } ? boolean : string
}

/** The options most benchmarks take: which engines, and keeping the seeded database. */
export const ENGINE_OPTIONS = {
  engine: { type: 'string', default: 'both', help: 'embedded, pg or both (pg: BENCH_DATABASE_URL)' },
  keep: { type: 'boolean', default: false, help: 'keep the seeded database and say where it is, to investigate it afterwards' },
} as const satisfies Record<string, BenchOption>

/** The options of a benchmark that loads one URL: one user's requests, then autocannon and the pg ceiling. */
export const LOAD_OPTIONS = {
  duration: { type: 'string', default: '10', help: 'seconds of each autocannon run and of each pg ceiling run' },
  connections: { type: 'string', default: '10', help: 'autocannon connections, and the pg pool and loops of the ceiling' },
  requests: { type: 'string', default: '300', help: 'sequential requests of one user (after 20 to warm up)' },
} as const satisfies Record<string, BenchOption>

/**
 * Parses the command line (unknown options are an error) and answers `--help` with the usage line and
 * every option's default, so a run never starts on a misspelt option.
 */
export function commandLine<O extends Record<string, BenchOption>>(usage: string, options: O): BenchValues<O> {
  const config: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean', short: 'h', default: false } }
  for (const [name, { help: _help, ...option }] of Object.entries(options)) config[name] = option
  let values: Record<string, unknown>
  try {
    values = parseArgs({ options: config }).values
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${helpText(usage, options)}`)
    process.exit(2)
  }
  if (values.help) {
    console.log(helpText(usage, options))
    process.exit(0)
  }
  return values as BenchValues<O>
}

/**
 * The command line of a benchmark that loads URLs on each engine: ENGINE_OPTIONS, LOAD_OPTIONS and its own
 * `options`, with the engines and the load read from them.
 */
export function loadCommandLine<O extends Record<string, BenchOption>>(usage: string, options: O) {
  const args = commandLine(usage, { ...ENGINE_OPTIONS, ...LOAD_OPTIONS, ...options })
  return { args, engines: parseEngines(String(args.engine)), load: loadOf(args) }
}

function helpText(usage: string, options: Record<string, BenchOption>): string {
  const lines = Object.entries(options).map(([name, o]) => {
    const flag = o.type === 'boolean' ? `--${name}` : `--${name} <value>`
    return `  ${flag.padEnd(24)} ${o.help}${o.type === 'string' ? ` (default ${o.default})` : ''}`
  })
  return [`usage: ${usage}`, '', ...lines, `  ${'--help'.padEnd(24)} this text`].join('\n')
}

/** A numeric option (zero or more), refused with a clear message when it is not one. */
export function numberOption(values: Record<string, unknown>, name: string): number {
  const n = Number(values[name])
  if (!Number.isFinite(n) || n < 0) {
    console.error(`--${name} must be a number, not ${String(values[name])}`)
    process.exit(2)
  }
  return n
}

// ---------------------------------------------------------------- engines

/** `embedded`: the server `npm start` runs by default; `pg`: an external PostgreSQL (BENCH_DATABASE_URL). */
export type Engine = 'embedded' | 'pg'
export const ENGINE_NAMES: Record<Engine, string> = { embedded: 'embedded PostgreSQL (default)', pg: 'external PostgreSQL' }

export function parseEngines(value: string): Engine[] {
  if (value === 'both') return ['embedded', 'pg']
  if (value === 'embedded' || value === 'pg') return [value]
  console.error('--engine must be embedded, pg or both')
  process.exit(2)
}

export interface Opened {
  database: Database
  /** Where the benchmark's database is, for EXPLAIN with `psql` and the ceiling measured through `pg`. */
  target: ConnectionTarget
  describe: string
  /** A fresh uploads folder for the app under test (removed by cleanup). */
  uploadsDir: string
  cleanup(): Promise<void>
}

/**
 * A fresh database for a benchmark, migrated as at start-up: the embedded server in a temporary data
 * directory under ./bench-data (durable, as `npm start` runs it), or a new `bench_<time>` database on
 * BENCH_DATABASE_URL's server (default the local PostgreSQL). `cleanup` closes and removes it, unless `keep`.
 */
export async function openBenchDatabase(engine: Engine, { keep, pool }: { keep: boolean; pool: number }): Promise<Opened> {
  let server: EmbeddedPostgres | undefined
  let admin: ConnectionTarget
  let dir: string | undefined
  if (engine === 'embedded') {
    dir = path.join(ROOT, 'bench-data', `embedded-${Date.now()}`)
    server = await startEmbeddedPostgres({ dataDir: dir })
    admin = server.admin
  } else {
    admin = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres'
  }
  const name = `bench_${Date.now()}`
  await adminQuery(admin, `create database ${name}`)
  const target = withDatabase(admin, name)
  // Seeding takes longer than a request may: no statement timeout for the benchmark's own pool.
  const database = await openDatabase(target, { poolSize: pool, statementTimeoutMs: 0 })
  const [version] = await rowsOf(database.db, sql`show server_version`)
  // Under the system's temporary folder: made 0700 by the app, it must not sit on the path the embedded
  // server's system user has to traverse (bench-data).
  const uploadsDir = path.join(mkdtempSync(path.join(tmpdir(), 'vb-bench-')), 'uploads')
  const where = server ? `embedded in ${path.relative(ROOT, dir as string)}` : `at ${database.describe}`
  return {
    database,
    target,
    describe: `PostgreSQL ${version?.server_version} ${where}, database ${name} (pool of ${pool})`,
    uploadsDir,
    async cleanup() {
      await database.close()
      rmSync(path.dirname(uploadsDir), { recursive: true, force: true })
      if (keep) {
        console.log(`Kept the database ${name}${dir ? ` in ${dir} (start it again with DATA_DIR=${dir})` : ''}`)
        await server?.stop()
        return
      }
      await adminQuery(admin, `drop database if exists ${name} with (force)`)
      await server?.stop()
      if (dir) rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** An opened engine, with the real app to start on it once the data is in. */
export interface BenchSession extends Opened {
  db: Db
  /** The real app (buildApp, no web files, no request log) listening on a free local port; `configure` runs before it listens. */
  startApp(
    configure?: (app: FastifyInstance) => void,
    overrides?: Partial<Parameters<typeof buildApp>[0]>,
  ): Promise<{ app: FastifyInstance; base: string }>
}

/**
 * Opens the engine, hands it to `run`, and then closes the app (if `run` started it) and removes the
 * database, whatever happened.
 */
export async function withEngine<T>(
  engine: Engine,
  options: { keep: boolean; pool: number },
  run: (session: BenchSession) => Promise<T>,
): Promise<T> {
  const opened = await openBenchDatabase(engine, options)
  let app: FastifyInstance | undefined
  try {
    return await run({
      ...opened,
      db: opened.database.db,
      async startApp(configure, overrides) {
        // The heap's growth the server sets at start (server.ts).
        limitHeapGrowth()
        app = await buildApp({
          db: opened.database.db,
          listen: opened.database.listen,
          jwtSecret: 'bench-secret-not-for-production',
          uploadsDir: opened.uploadsDir,
          logger: false,
          ...overrides,
        })
        configure?.(app)
        await app.listen({ port: 0, host: '127.0.0.1' })
        const address = app.server.address()
        return { app, base: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` }
      },
    })
  } finally {
    await app?.close()
    await opened.cleanup()
  }
}

// ---------------------------------------------------------------- seeding

/** The password of the benchmarks' workers (the demo one, so a kept database can be logged into). */
export const BENCH_PASSWORD = 'Demo1234'

/** Rows of a raw query (both drivers answer `{ rows }`). */
export async function rowsOf(db: Db, query: SQL): Promise<Record<string, unknown>[]> {
  return ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows
}

/** A SQL array literal of texts, for seeds that pick words by modular arithmetic. */
export const sqlArray = (words: string[]) => `ARRAY[${words.map((w) => `'${w.replaceAll("'", "''")}'`).join(',')}]`

/**
 * The values before and after (`datos`) of a seeded log entry, as the app writes them for its action (DECISIONS L3:
 * the whole record on each side of a change; a document or cash movement with its file's name, type and SHA-256):
 * a SQL expression of the action's name `accion` and the entry's number `g`. Actions the app writes no values
 * for (logins, logouts) get null.
 */
export function seededLogDatos(accion: string, g: string): string {
  const sha = `md5(${g}::text) || md5((${g} + 1)::text)`
  const usuario = (apellidos: string) =>
    `jsonb_build_object('id', ${g} % 5000 + 1, 'nombre', 'Lucía', 'apellidos', ${apellidos}, 'nif', lpad((${g} % 99999999)::text, 8, '0') || 'T',
       'gradoDependencia', 'PVS', 'fotoUrl', null,
       'viviendas', jsonb_build_array(jsonb_build_object('id', ${g} % 200 + 1, 'nombre', 'Calle del Registro ' || (${g} % 200 + 1), 'empresaId', ${g} % 20 + 1)))`
  const archivo = `jsonb_build_object('nombre', 'justificante-' || ${g} || '.pdf', 'mime', 'application/pdf', 'tamano', 48213 + ${g} % 1000, 'sha256', ${sha})`
  const vivienda = (nombre: string) =>
    `jsonb_build_object('id', ${g} % 200 + 1, 'nombre', ${nombre}, 'empresaId', ${g} % 20 + 1, 'empresa', jsonb_build_object('id', ${g} % 20 + 1, 'nombre', 'Empresa ' || (${g} % 20 + 1)))`
  return `case ${accion}
    when 'Modificar usuario' then jsonb_build_object('antes', ${usuario(`'García ' || ${g}`)}, 'despues', ${usuario(`'García López ' || ${g}`)})
    when 'Crear documento' then jsonb_build_object('despues', jsonb_build_object('id', ${g}, 'titulo', 'PIR', 'archivoUrl', '/api/uploads/' || ${g},
       'archivo', ${archivo}, 'fecha', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'usuarioId', ${g} % 5000 + 1))
    when 'Crear movimiento de caja' then jsonb_build_object('despues', jsonb_build_object('id', ${g}, 'concepto', 'Compra de farmacia', 'cantidad', '-12.35',
       'fecha', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'usuarioId', ${g} % 5000 + 1,
       'justificante', jsonb_build_object('url', '/api/uploads/' || ${g}) || ${archivo} - 'tamano'))
    when 'Eliminar contacto' then jsonb_build_object('antes', jsonb_build_object('id', ${g}, 'nombreComercial', 'Suministros ' || ${g}, 'agente', 'Marta Ruiz',
       'correo', 'pedidos' || ${g} || '@suministros.es', 'telefono', '600123456', 'fotoUrl', null, 'empresaId', ${g} % 20 + 1,
       'empresa', jsonb_build_object('id', ${g} % 20 + 1, 'nombre', 'Empresa ' || (${g} % 20 + 1))))
    when 'Modificar vivienda' then jsonb_build_object('antes', ${vivienda(`'Calle del Registro ' || ${g}`)}, 'despues', ${vivienda(`'Calle del Registro ' || ${g} || ' bis'`)})
  end`
}

/** The ids of every company, in order. */
export async function companyIds(db: Db): Promise<number[]> {
  return (await rowsOf(db, sql`select id from empresas order by id`)).map((r) => Number(r.id))
}

export interface BenchWorker {
  email: string
  rol: Rol
  nombre?: string
  apellidos?: string
  nif?: string
  /** Companies it belongs to. */
  empresaIds?: number[]
}

/**
 * Active workers with a permanent password (BENCH_PASSWORD unless `passwordHash` is given, e.g. a dummy
 * for workers that never log in), linked to their companies; returns their ids and token versions.
 */
export async function insertWorkers(
  db: Db,
  workers: BenchWorker[],
  { passwordHash }: { passwordHash?: string } = {},
): Promise<Array<{ id: number; email: string; tokenVersion: number }>> {
  const hash = passwordHash ?? (await hashPassword(BENCH_PASSWORD))
  const rows = await db
    .insert(trabajadores)
    .values(
      workers.map((w) => ({
        nombre: w.nombre ?? 'Bench',
        apellidos: w.apellidos ?? w.rol,
        email: w.email,
        nif: w.nif ?? '12345678Z',
        rol: w.rol,
        activo: true,
        passwordHash: hash,
        passwordTemporal: false,
      })),
    )
    .returning({ id: trabajadores.id, email: trabajadores.email, tokenVersion: trabajadores.tokenVersion })
  const links = workers.flatMap((w, i) => (w.empresaIds ?? []).map((empresaId) => ({ trabajadorId: rows[i]!.id, empresaId })))
  if (links.length) await db.insert(trabajadorEmpresas).values(links)
  return rows
}

// ---------------------------------------------------------------- requests

/** Logs in through the API, as the browser does, and returns the token. */
export async function login(base: string, email: string, password = BENCH_PASSWORD): Promise<string> {
  const res = await fetch(`${base}/api/auth/trabajadores/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { token: string }).token
}

export interface Captured {
  text: string
  params: unknown[]
  /** A named prepared statement's name (the token's worker, the calendar month): the ceiling runs it named too. */
  name?: string
  /** Rows as arrays, as the app reads a list or the calendar month: the ceiling reads them the same way. */
  rowMode?: 'array'
}

/**
 * Records the SQL the app sends while `on` (drizzle calls `$client.query` for both drivers), and runs a
 * statement on the same pool without recording it: EXPLAIN, or a plain timing.
 */
export function captureSql(db: Db) {
  type Query = (...a: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>
  const client = (db as unknown as { $client: { query: Query; connect?: () => Promise<{ query: Query }> } }).$client
  const original = client.query.bind(client)
  const state = { on: false, captured: [] as Captured[] }
  const recording =
    (query: Query): Query =>
    (q: unknown, params?: unknown, ...rest: unknown[]) => {
      if (state.on) {
        const config =
          typeof q === 'string' ? { text: q } : (q as { text: string; name?: string; values?: unknown[]; rowMode?: string })
        const { text, name, rowMode } = config
        state.captured.push({
          text,
          params: (params as unknown[]) ?? config.values ?? [],
          ...(name ? { name } : {}),
          ...(rowMode === 'array' ? { rowMode } : {}),
        })
      }
      return query(q, params, ...rest)
    }
  client.query = recording(original)
  // A transaction runs on a client checked out of the pool: its statements are recorded too. (pg's own
  // pool.query checks out with a callback: that path is left as it is, pool.query is recorded above.)
  const connect = client.connect?.bind(client) as ((...a: unknown[]) => unknown) | undefined
  if (connect)
    client.connect = ((...a: unknown[]) => {
      if (a.length || !state.on) return connect(...a)
      return (connect() as Promise<{ query: Query; release: (...r: unknown[]) => void }>).then((checkedOut) => {
        const query = checkedOut.query.bind(checkedOut)
        const release = checkedOut.release.bind(checkedOut)
        checkedOut.query = recording(query)
        checkedOut.release = (...r: unknown[]) => {
          checkedOut.query = query
          release(...r)
        }
        return checkedOut
      })
    }) as typeof client.connect
  return {
    state,
    /**
     * What one request sends once the app is warm, as under a load of that same request: its statements, in order,
     * with its response (the body read as text). `warmUp` requests go first, so that what the app keeps between
     * requests (the token's worker, a list's total) is kept, and the ceiling replays what the load's requests send
     * rather than a first request's extra statements (before 2026-11-27 the first request was recorded).
     */
    async record(url: string, headers: Record<string, string>, warmUp = 5) {
      for (let i = 0; i < warmUp; i++) await (await fetch(url, { headers })).arrayBuffer()
      state.captured = []
      state.on = true
      let res: Response
      try {
        res = await fetch(url, { headers })
      } finally {
        state.on = false
      }
      return { res, body: await res.text(), statements: [...state.captured] }
    },
    explain: async (c: Captured) =>
      (await original(`explain (analyze, buffers) ${c.text}`, c.params)).rows.map((r) => String(r['QUERY PLAN'])),
    /** Median of 5 plain executions: EXPLAIN ANALYZE's own clock calls inflate times */
    time: async (c: Captured) => {
      const times: number[] = []
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now()
        await original(c.text, c.params)
        times.push(performance.now() - t0)
      }
      return times.sort((a, b) => a - b)[2] ?? 0
    },
  }
}

export interface Stats {
  p50: number
  p95: number
  p99: number
  max: number
}

/** The nearest-rank percentile of sorted values. */
export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0

export function stats(times: number[]): Stats {
  const s = [...times].sort((a, b) => a - b)
  return { p50: pct(s, 50), p95: pct(s, 95), p99: pct(s, 99), max: s.at(-1) ?? 0 }
}

/** One user: `n` requests one after the other, after 20 to warm up; any answer but 200 stops the run. */
export async function sequential(url: string, token: string, n: number): Promise<Stats & { headers?: Headers }> {
  const headers = { authorization: `Bearer ${token}` }
  for (let i = 0; i < 20; i++) await (await fetch(url, { headers })).arrayBuffer()
  const times: number[] = []
  let last: Response | undefined
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    last = await fetch(url, { headers })
    await last.arrayBuffer()
    times.push(performance.now() - t0)
    if (last.status !== 200) throw new Error(`${url} answered ${last.status}`)
  }
  return { ...stats(times), headers: last?.headers }
}

export interface LoadResult {
  /** Completed requests. */
  requests: number
  rps: number
  p50: number
  p95: number
  p99: number
  non2xx: number
  errors: number
  /** Every 2xx latency in ms, when the run was asked for them (`raw`). */
  latencies?: number[]
}

/** What else a load run sends: a method and JSON body, or a different path (from `paths`, in turn) per request. */
export interface AutocannonRequest {
  method?: 'GET' | 'POST'
  body?: unknown
  paths?: string[]
}

/**
 * autocannon on one URL, in a child process so that it shares neither the server's event loop nor its memory
 * (the process's RSS is the app's).
 */
export function autocannon(
  url: string,
  token: string,
  load: { connections: number; duration: number; raw?: boolean },
  request: AutocannonRequest = {},
): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./load-worker.mjs', import.meta.url)), { execArgv: [] })
    child.send({ url, token, ...load, ...request })
    child.once('message', (m: LoadResult & { error?: string }) => {
      child.disconnect()
      if (m.error) reject(new Error(m.error))
      else resolve(m)
    })
    child.once('error', reject)
  })
}

/** How long both sides of a comparison run a call untimed before it is measured (openPgCeiling, all-bench.ts). */
export const WARM_SECONDS = 3

/** One call's database ceiling, kept warm between its measured runs (openPgCeiling). */
export interface PgCeiling {
  /** `connections` loops replaying the statements for `duration` seconds. */
  run(load: { connections: number; duration: number }): Promise<Stats & { rps: number; latencies: number[] }>
  close(): void
}

/**
 * The ceiling: the statements one request of the app sent (captured at the driver, the token's worker included when it
 * is read), replayed by loops through a `pg` pool of the app's size. What the app adds on top (HTTP, Fastify,
 * validation, serialisation) is the gap between the two. Given the statements of several requests (a search with a
 * new term each time), the loops take them in turn, as the app's requests did. It runs in a child process
 * (ceiling-worker.mjs), like the load: its pool and rows are not the app's memory; the process lives until `close`,
 * so that every run of one call is measured on the same warm process, as the app's are. `warmUp` sends the
 * statements once on every connection, as the app's pool is warm, and then for `warmSeconds` untimed, as the app has
 * run its code before (a process measured at once is measured with its code not yet optimised).
 */
export async function openPgCeiling(
  target: ConnectionTarget,
  statements: Captured[] | Captured[][],
  { pool: poolSize, warmUp = false, warmSeconds = 0 }: { pool: number; warmUp?: boolean; warmSeconds?: number },
): Promise<PgCeiling> {
  const requests = (Array.isArray(statements[0]) ? statements : [statements]) as Captured[][]
  // The app's session settings (no JIT), so that the same statements are planned and run the same way.
  const job = { config: { ...clientConfig(target), options: SESSION_OPTIONS }, requests, warmUp, warmSeconds, poolSize }
  // 'advanced': parameters keep their types (dates, buffers) on the way to the child.
  const child = fork(fileURLToPath(new URL('./ceiling-worker.mjs', import.meta.url)), { execArgv: [], serialization: 'advanced' })
  type Answer = { ready?: boolean; rps: number; latencies: number[]; error?: string }
  let pending: { resolve: (m: Answer) => void; reject: (e: Error) => void } | undefined
  // A child that dies before answering (out of memory, killed) fails the run instead of hanging it.
  let ended: Error | undefined
  child.on('message', (m: Answer) => {
    const p = pending
    pending = undefined
    if (m.error) p?.reject(new Error(m.error))
    else p?.resolve(m)
  })
  child.once('exit', (code, signal) => {
    ended = new Error(`ceiling-worker.mjs ended before answering (${signal ?? code})`)
    pending?.reject(ended)
  })
  child.once('error', (error) => pending?.reject(error))
  const ask = (message: unknown) =>
    new Promise<Answer>((resolve, reject) => {
      if (ended) return reject(ended)
      pending = { resolve, reject }
      child.send(message as never)
    })
  const first = new Promise<Answer>((resolve, reject) => {
    pending = { resolve, reject }
  })
  child.send(job as never)
  try {
    await first
  } catch (error) {
    child.kill()
    throw error
  }
  return {
    async run(load) {
      const result = await ask(load)
      return { rps: result.rps, ...stats(result.latencies), latencies: result.latencies }
    },
    close() {
      ended ??= new Error('ceiling-worker.mjs closed')
      if (child.connected) child.disconnect()
    },
  }
}

/** One measured run of a ceiling (openPgCeiling) at `connections` loops and a pool of `pool` (default the same). */
export async function pgCeiling(
  target: ConnectionTarget,
  statements: Captured[] | Captured[][],
  {
    connections,
    duration,
    warmUp = false,
    pool = connections,
  }: { connections: number; duration: number; warmUp?: boolean; pool?: number },
): Promise<Stats & { rps: number; latencies: number[] }> {
  const ceiling = await openPgCeiling(target, statements, { pool, warmUp, warmSeconds: warmUp ? WARM_SECONDS : 0 })
  try {
    return await ceiling.run({ connections, duration })
  } finally {
    ceiling.close()
  }
}

/** Lets requests a load run left in flight finish before the next measurement starts. */
export const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** How hard one URL is loaded: LOAD_OPTIONS as numbers. */
export interface Load {
  duration: number
  connections: number
  requests: number
}

export function loadOf(values: Record<string, unknown>): Load {
  return {
    duration: numberOption(values, 'duration'),
    connections: numberOption(values, 'connections'),
    requests: numberOption(values, 'requests'),
  }
}

/**
 * The three measures of one URL, saying how each went as it goes: one user's sequential requests, autocannon
 * at `load.connections`, and, once the requests autocannon left in flight have finished (`settleMs`), the
 * statements one request sent replayed through `pg` at the same concurrency.
 */
export async function measureUrl(
  url: string,
  token: string,
  ceiling: { target: ConnectionTarget; statements: Captured[]; warmUp?: boolean; settleMs: number },
  load: Load,
): Promise<{ seq: Stats; app: LoadResult; pg: Stats & { rps: number } }> {
  const { connections, duration } = load
  process.stdout.write(`${load.requests} sequential requests… `)
  const seq = await sequential(url, token, load.requests)
  process.stdout.write(`p95 ${ms(seq.p95)} ms; autocannon ${connections} connections × ${duration} s… `)
  const app = await autocannon(url, token, { connections, duration })
  process.stdout.write(`${Math.round(app.rps)} req/s, p95 ${ms(app.p95)} ms; `)
  await settle(ceiling.settleMs)
  process.stdout.write(`the same ${ceiling.statements.length} statements through pg, ${connections} loops × ${duration} s… `)
  const pg = await pgCeiling(ceiling.target, ceiling.statements, { connections, duration, warmUp: ceiling.warmUp })
  console.log(`${Math.round(pg.rps)} req/s, ratio ${(app.rps / pg.rps).toFixed(2)}`)
  return { seq, app, pg }
}

// ---------------------------------------------------------------- printing

export const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(1))
export const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`
export const yesNo = (ok: boolean) => (ok ? 'yes' : 'NO')

/** The machine a run was measured on, as the first line of its output. */
export function machineLine(): string {
  const cpus = os.cpus()
  return `Machine: ${cpus.length} × ${cpus[0]?.model.trim()}, ${mb(os.totalmem())} RAM, Node ${process.version}, ${new Date().toISOString()}`
}

const RULES = { left: '---', right: '---:', center: ':---:' } as const

/** A Markdown table: each column a title and an alignment; a row may have fewer cells (a failed measure). */
export function markdownTable(
  columns: ReadonlyArray<readonly [title: string, align: keyof typeof RULES]>,
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
) {
  const line = (cells: ReadonlyArray<string | number>) => `|${cells.map((c) => (c === '' ? ' ' : ` ${c} `)).join('|')}|`
  return [
    line(columns.map(([title]) => title)),
    `|${columns.map(([, align]) => RULES[align]).join('|')}|`,
    ...rows.map(line),
  ].join('\n')
}

/** Runs a benchmark's main function; any error is printed and ends the process with 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((err) => {
    console.error(err)
    process.exit(1)
  })
}
