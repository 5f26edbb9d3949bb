/**
 * `npm run bench` (issue: 100,000 residents in 2,000 homes, a searched residents page answers in under 50 ms
 * at p95, on PostgreSQL and on the embedded default).
 *
 * For each engine: a fresh migrated database, seeded with set-based SQL; the real app (buildApp, no web
 * dist) listening on a local port; for each URL a sequential loop (one user: honest latency) and an
 * autocannon run in a worker thread (a few concurrent users: throughput and latency under load);
 * EXPLAIN (ANALYZE, BUFFERS) of the SQL the app really sent for the main search.
 *
 *   npm run bench -- --engine embedded|pg|both --duration 10 --connections 4 --requests 300 --explain main|all|none [--keep]
 *
 * PostgreSQL: BENCH_DATABASE_URL names a server and a database to connect to for administration
 * (default postgres://postgres@127.0.0.1:5432/postgres); a fresh `bench_<time>` database is created on it
 * and dropped at the end. Embedded: a temporary data directory under ./bench-data, removed at the end.
 */
import os from 'node:os'
import { parseArgs } from 'node:util'
import { Worker } from 'node:worker_threads'
import { type SQL, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { buildApp } from '../src/app'
import { type ConnectionTarget, clientConfig, type Db } from '../src/db/client'
import { trabajadorEmpresas, trabajadores } from '../src/db/schema'
import { setCountCacheTtl } from '../src/lib/count-cache'
import { hashPassword } from '../src/lib/password'
import { ENGINE_NAMES, type Engine, type Opened, openBenchDatabase, parseEngines } from './engines'

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'both' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    requests: { type: 'string', default: '300' },
    explain: { type: 'string', default: 'main' },
    residents: { type: 'string', default: '100000' },
    homes: { type: 'string', default: '2000' },
    /** Keep the seeded database (and print where it is) to investigate it afterwards. */
    keep: { type: 'boolean', default: false },
    /**
     * Count every searched total (no count cache, lib/count-cache.ts): what each request costs, comparable
     * statement for statement with the raw-pg ceiling, which replays the first (uncached) request's SQL.
     */
    'no-count-cache': { type: 'boolean', default: false },
  },
})
if (args['no-count-cache']) setCountCacheTtl(0)
const ENGINES = parseEngines(args.engine)
const DURATION = Number(args.duration)
const CONNECTIONS = Number(args.connections)
const SEQUENTIAL = Number(args.requests)
const RESIDENTS = Number(args.residents)
const HOMES = Number(args.homes)
const COMPANIES = 3
const TARGET_P95_MS = 50
const PASSWORD = 'Demo1234'

type Role = 'SUPERADMIN' | 'ADMIN'

interface Scenario {
  label: string
  role: Role
  path: string
  /** Its SQL is EXPLAINed with `--explain main`. */
  main?: boolean
}

const SCENARIOS: Scenario[] = [
  { label: 'search "gar" (SUPERADMIN)', role: 'SUPERADMIN', path: '/api/usuarios?q=gar&page=1&pageSize=10', main: true },
  { label: 'search "gar" (ADMIN, 2 of 3 companies)', role: 'ADMIN', path: '/api/usuarios?q=gar&page=1&pageSize=10' },
  { label: 'first page, no search', role: 'SUPERADMIN', path: '/api/usuarios?page=1&pageSize=10' },
  {
    label: 'search "gar", sort vivienda desc',
    role: 'SUPERADMIN',
    path: '/api/usuarios?q=gar&page=1&pageSize=10&sort=vivienda&order=desc',
  },
  { label: 'homes search "calle"', role: 'SUPERADMIN', path: '/api/viviendas?q=calle&page=1&pageSize=10' },
]

// ---------------------------------------------------------------- data

// biome-ignore format: a word list
const NOMBRES = [
  'José', 'María', 'Lucía', 'Ángel', 'Íñigo', 'Begoña', 'Carmen', 'Antonio', 'Manuel', 'Francisco', 'Dolores',
  'Pilar', 'Jesús', 'Rocío', 'Álvaro', 'Inés', 'Raúl', 'Sofía', 'Martín', 'Andrés', 'Ramón', 'Concepción',
  'Encarnación', 'Mónica', 'Óscar', 'Nuria', 'Adrián', 'Marta', 'Tomás', 'Víctor', 'Elena', 'Joaquín', 'Rosario',
  'Sergio', 'Gabriel', 'Edgar', 'Margarita', 'Amparo', 'Julián', 'Noelia',
]
// biome-ignore format: a word list
const APELLIDOS = [
  'García', 'Garrido', 'Garzón', 'Garcés', 'Fernández', 'González', 'Rodríguez', 'López', 'Martínez', 'Sánchez',
  'Pérez', 'Gómez', 'Martín', 'Jiménez', 'Ruiz', 'Hernández', 'Díaz', 'Moreno', 'Muñoz', 'Álvarez', 'Romero',
  'Alonso', 'Gutiérrez', 'Navarro', 'Torres', 'Domínguez', 'Vázquez', 'Ramos', 'Gil', 'Ramírez', 'Serrano',
  'Blanco', 'Molina', 'Morales', 'Suárez', 'Ortega', 'Delgado', 'Castro', 'Ortiz', 'Rubio', 'Marín', 'Sanz',
  'Núñez', 'Iglesias', 'Medina', 'Vargas', 'Gallego', 'Peña', 'Cortés', 'Lozano',
]
const VIAS = ['Calle', 'Avenida', 'Plaza', 'Paseo', 'Camino', 'Ronda']
// biome-ignore format: a word list
const CALLES = [
  'Mayor', 'del Sol', 'de Alcalá', 'de la Constitución', 'Príncipe de Vergara', 'Gran Vía', 'de Cervantes',
  'San Andrés', 'Real', 'de Goya', 'del Carmen', 'Nueva', 'de la Estación', 'Santa María', 'de Andalucía',
  'de la Castellana', 'de España', 'del Río', 'de la Iglesia', 'San José', 'de Úbeda', 'de los Álamos',
]

/** Rows of a raw query (both drivers answer `{ rows }`). */
async function rowsOf(db: Db, query: SQL): Promise<Record<string, unknown>[]> {
  return ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows
}

/** A SQL array literal of texts, indexed 1-based by modular arithmetic in the seed. */
const sqlArray = (words: string[]) => `ARRAY[${words.map((w) => `'${w.replaceAll("'", "''")}'`).join(',')}]`

/** Set-based seed: companies, homes, residents with homes (unique valid NIFs), an ADMIN and a SUPERADMIN. */
async function seed(db: Db): Promise<{ superadmin: string; admin: string }> {
  await db.execute(
    sql.raw(`insert into empresas (nombre) select 'Empresa ' || g || ' de viviendas' from generate_series(1, ${COMPANIES}) g`),
  )
  // Homes spread over the companies; 'calle' matches one home in six.
  await db.execute(
    sql.raw(`
    insert into viviendas (nombre, empresa_id)
    select (${sqlArray(VIAS)})[1 + h % ${VIAS.length}] || ' ' || (${sqlArray(CALLES)})[1 + (h * 7) % ${CALLES.length}]
             || ', ' || (1 + h % 150) || ' (' || h || ')',
           e.ids[1 + h % ${COMPANIES}]
    from generate_series(1, ${HOMES}) h,
         (select array_agg(id order by id) ids from empresas) e`),
  )
  // Residents: two surnames and a name from the lists (García, Garrido, Garzón, Garcés, Edgar and Margarita
  // match 'gar'); NIF = 8 digits, unique, with its check letter; evenly spread over the homes.
  await db.execute(
    sql.raw(`
    insert into usuarios (nombre, apellidos, nif, grado_dependencia, vivienda_id)
    select (${sqlArray(NOMBRES)})[1 + (g * 7) % ${NOMBRES.length}],
           (${sqlArray(APELLIDOS)})[1 + g % ${APELLIDOS.length}] || ' ' ||
             (${sqlArray(APELLIDOS)})[1 + (g * 31 + g / ${APELLIDOS.length}) % ${APELLIDOS.length}],
           n::text || substr('TRWAGMYFPDXBNJZSQVHLCKE', (n % 23)::int + 1, 1),
           (array['PVS', 'PEI', null])[1 + g % 3],
           v.min_id + g % ${HOMES}
    from generate_series(1, ${RESIDENTS}) g
         cross join lateral (select 10000000 + g * 73 as n) nif,
         (select min(id) min_id from viviendas) v`),
  )
  const passwordHash = await hashPassword(PASSWORD)
  const workers = await db
    .insert(trabajadores)
    .values(
      [
        { nombre: 'Bench', apellidos: 'Superadmin', email: 'bench-superadmin@demo.es', nif: '00000001R', rol: 'SUPERADMIN' },
        { nombre: 'Bench', apellidos: 'Admin', email: 'bench-admin@demo.es', nif: '00000002W', rol: 'ADMIN' },
      ].map((w) => ({ ...w, activo: true, passwordHash, passwordTemporal: false })),
    )
    .returning({ id: trabajadores.id, rol: trabajadores.rol })
  const empresaIds = (await rowsOf(db, sql`select id from empresas order by id`)).map((r) => Number(r.id))
  const links = workers.flatMap((w) =>
    (w.rol === 'SUPERADMIN' ? empresaIds : empresaIds.slice(0, 2)).map((empresaId) => ({ trabajadorId: w.id, empresaId })),
  )
  await db.insert(trabajadorEmpresas).values(links)
  await db.execute(sql`analyze`)
  return { superadmin: 'bench-superadmin@demo.es', admin: 'bench-admin@demo.es' }
}

// ---------------------------------------------------------------- engines

const openEngine = (engine: Engine): Promise<Opened> => openBenchDatabase(engine, { keep: Boolean(args.keep), pool: 10 })

// ---------------------------------------------------------------- SQL capture for EXPLAIN

interface Captured {
  text: string
  params: unknown[]
}

/** Records the SQL the app sends while `on` (drizzle calls `$client.query` for both drivers). */
function captureSql(db: Db) {
  const client = (db as unknown as { $client: { query: (...a: unknown[]) => Promise<{ rows: Record<string, unknown>[] }> } })
    .$client
  const original = client.query.bind(client)
  const state = { on: false, captured: [] as Captured[] }
  client.query = (q: unknown, params?: unknown, ...rest: unknown[]) => {
    if (state.on) {
      const text = typeof q === 'string' ? q : (q as { text: string }).text
      state.captured.push({ text, params: (params as unknown[]) ?? [] })
    }
    return original(q, params, ...rest)
  }
  return {
    state,
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

// ---------------------------------------------------------------- measuring

interface Row {
  label: string
  status: number
  total: string
  seq?: { p50: number; p95: number; p99: number }
  load?: { rps: number; p50: number; p95: number; p99: number; non2xx: number; errors: number }
  /** The same SQL statements the app sent for one request, replayed straight through `pg`: the ceiling. */
  raw?: { rps: number; p95: number }
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0

async function sequential(url: string, token: string, n: number) {
  const headers = { authorization: `Bearer ${token}` }
  for (let i = 0; i < 20; i++) await (await fetch(url, { headers })).arrayBuffer() // warm-up
  const times: number[] = []
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    const res = await fetch(url, { headers })
    await res.arrayBuffer()
    times.push(performance.now() - t0)
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`)
  }
  times.sort((a, b) => a - b)
  return { p50: pct(times, 50), p95: pct(times, 95), p99: pct(times, 99) }
}

function load(url: string, token: string): Promise<NonNullable<Row['load']>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      workerData: { url, token, connections: CONNECTIONS, duration: DURATION },
    })
    worker.once('message', (m) => (m.error ? reject(new Error(m.error)) : resolve(m)))
    worker.once('error', reject)
  })
}

/**
 * The ceiling: the statements one request of the app sent (captured at the driver, auth included), replayed
 * with the same concurrency through a `pg` pool of the same size, for the same time. What the app adds on
 * top (HTTP, Fastify, validation, serialisation) is the gap between the two.
 */
async function rawCeiling(target: ConnectionTarget, statements: Captured[]): Promise<NonNullable<Row['raw']>> {
  const pool = new pg.Pool({ ...clientConfig(target), max: CONNECTIONS })
  pool.on('error', () => {})
  const latencies: number[] = []
  const until = performance.now() + DURATION * 1000
  let done = 0
  const runner = async () => {
    while (performance.now() < until) {
      const t0 = performance.now()
      for (const st of statements) await pool.query(st.text, st.params)
      latencies.push(performance.now() - t0)
      done++
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: CONNECTIONS }, runner))
  const seconds = (performance.now() - started) / 1000
  await pool.end()
  latencies.sort((a, b) => a - b)
  return { rps: done / seconds, p95: pct(latencies, 95) }
}

async function login(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/trabajadores/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  })
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { token: string }).token
}

const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(1))
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`

function table(rows: Row[]): string {
  const head = `| URL | matches | 1 user p50 / p95 / p99 (ms) | ${CONNECTIONS} conns req/s | ${CONNECTIONS} conns p50 / p95 / p99 (ms) | same SQL through pg: req/s, p95 | app / pg | p95 < ${TARGET_P95_MS} ms and ≥ 0.5 |`
  const lines = [head, '|---|---:|---:|---:|---:|---:|---:|:---:|']
  for (const r of rows) {
    if (!r.seq || !r.load) {
      lines.push(`| ${r.label} | - | HTTP ${r.status} | - | - | - |`)
      continue
    }
    const ratio = r.raw ? r.load.rps / r.raw.rps : Number.NaN
    const ok = r.seq.p95 < TARGET_P95_MS && r.load.p95 < TARGET_P95_MS && ratio >= 0.5 ? 'yes' : 'NO'
    const errs = r.load.non2xx || r.load.errors ? ` (${r.load.non2xx} non-2xx, ${r.load.errors} errors)` : ''
    const raw = r.raw ? `${Math.round(r.raw.rps)}, ${ms(r.raw.p95)} ms` : '-'
    lines.push(
      `| ${r.label} | ${r.total} | ${ms(r.seq.p50)} / ${ms(r.seq.p95)} / ${ms(r.seq.p99)} | ${Math.round(r.load.rps)}${errs} | ${ms(r.load.p50)} / ${ms(r.load.p95)} / ${ms(r.load.p99)} | ${raw} | ${ratio.toFixed(2)} | ${ok} |`,
    )
  }
  return lines.join('\n')
}

async function benchEngine(engine: Engine): Promise<{ engine: Engine; describe: string; rows: Row[]; notes: string[] }> {
  console.log(`\n######## ${ENGINE_NAMES[engine]} ########`)
  const opened = await openEngine(engine)
  const { db } = opened.database
  const notes: string[] = [opened.describe]
  let app: FastifyInstance | undefined
  try {
    const t0 = performance.now()
    const accounts = await seed(db)
    const seedSeconds = (performance.now() - t0) / 1000
    const [{ bytes: size } = {}] = await rowsOf(db, sql`select pg_database_size(current_database()) as bytes`)
    notes.push(
      `seeded ${COMPANIES} companies, ${HOMES} homes, ${RESIDENTS} residents in ${seedSeconds.toFixed(1)} s (with ANALYZE); database size ${mb(Number(size))}`,
    )
    console.log(notes.join('\n'))

    const capture = captureSql(db)
    app = await buildApp({
      db,
      listen: opened.database.listen,
      jwtSecret: 'bench-secret-not-for-production',
      uploadsDir: opened.uploadsDir,
      logger: false,
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address()
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    const tokens: Record<Role, string> = {
      SUPERADMIN: await login(base, accounts.superadmin),
      ADMIN: await login(base, accounts.admin),
    }

    const rows: Row[] = []
    for (const s of SCENARIOS) {
      const url = base + s.path
      const headers = { authorization: `Bearer ${tokens[s.role]}` }
      capture.state.captured = []
      capture.state.on = true
      const probe = await fetch(url, { headers })
      capture.state.on = false
      const body = await probe.text()
      const row: Row = {
        label: `${s.label}: \`${s.path}\``,
        status: probe.status,
        total: probe.headers.get('x-total-count') ?? '?',
      }
      rows.push(row)
      if (probe.status !== 200) {
        console.log(`\n${s.path} as ${s.role}: HTTP ${probe.status} ${body.slice(0, 200)} (skipped)`)
        continue
      }
      if (args.explain === 'all' || (args.explain === 'main' && s.main)) {
        console.log(`\n---- EXPLAIN (ANALYZE, BUFFERS) of the SQL sent by ${s.path} as ${s.role} (${engine}) ----`)
        for (const c of capture.state.captured) {
          console.log(`\n${c.text}\n  params: ${JSON.stringify(c.params)}`)
          for (const line of await capture.explain(c)) console.log(`  ${line}`)
          console.log(`  => without EXPLAIN: ${ms(await capture.time(c))} ms (median of 5)`)
        }
      }
      process.stdout.write(`\n${s.label}: ${SEQUENTIAL} sequential requests… `)
      row.seq = await sequential(url, tokens[s.role], SEQUENTIAL)
      process.stdout.write(`p95 ${ms(row.seq.p95)} ms; autocannon ${CONNECTIONS} connections × ${DURATION} s… `)
      row.load = await load(url, tokens[s.role])
      process.stdout.write(`${Math.round(row.load.rps)} req/s, p95 ${ms(row.load.p95)} ms; the same SQL through pg… `)
      // Requests autocannon left in flight finish before the ceiling runs and the next URL is probed.
      await new Promise((resolve) => setTimeout(resolve, 2000))
      row.raw = await rawCeiling(opened.target, [...capture.state.captured])
      console.log(
        `${Math.round(row.raw.rps)} req/s (${capture.state.captured.length} statements), ratio ${(row.load.rps / row.raw.rps).toFixed(2)}`,
      )
    }
    const rss = process.memoryUsage().rss
    notes.push(`benchmark process RSS at the end: ${mb(rss)} (the PostgreSQL server runs in its own processes)`)
    return { engine, describe: opened.describe, rows, notes }
  } finally {
    await app?.close()
    await opened.cleanup()
  }
}

async function main() {
  const cpus = os.cpus()
  console.log(
    `Machine: ${cpus.length} × ${cpus[0]?.model.trim()}, ${mb(os.totalmem())} RAM, Node ${process.version}, ${new Date().toISOString()}`,
  )
  console.log(
    `Sequential: ${SEQUENTIAL} requests after 20 warm-up ones, one at a time. Load: autocannon, ${CONNECTIONS} connections for ${DURATION} s, in a worker thread.`,
  )
  const results = []
  for (const engine of ENGINES) results.push(await benchEngine(engine))
  console.log('\n================ Results ================')
  console.log(
    args['no-count-cache']
      ? 'count cache: off (every searched total counted)'
      : 'count cache: on, as shipped (searched totals kept up to 5 s, dropped by any write; the ceiling replays the first, uncached request)',
  )
  for (const r of results) {
    console.log(`\n### ${ENGINE_NAMES[r.engine]}\n`)
    for (const n of r.notes) console.log(`- ${n}`)
    console.log(`\n${table(r.rows)}`)
  }
  const [embedded, external] = [results.find((r) => r.engine === 'embedded'), results.find((r) => r.engine === 'pg')]
  if (embedded && external) {
    // Issue 'one engine' budget: the embedded default within 20 % of an external PostgreSQL, same run.
    console.log('\n### Embedded against external, same run\n')
    console.log(`| URL | embedded req/s | external req/s | embedded / external | within 20 % |\n|---|---:|---:|---:|:---:|`)
    for (const row of embedded.rows) {
      const other = external.rows.find((o) => o.label === row.label)
      if (!row.load || !other?.load) continue
      const ratio = row.load.rps / other.load.rps
      console.log(
        `| ${row.label} | ${Math.round(row.load.rps)} | ${Math.round(other.load.rps)} | ${ratio.toFixed(2)} | ${ratio >= 0.8 ? 'yes' : 'NO'} |`,
      )
    }
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
