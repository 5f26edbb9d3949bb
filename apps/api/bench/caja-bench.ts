/**
 * `npm run bench:caja` (issue 9, Speed): a resident with 20,000 cash movements among 1,000,000.
 *
 * For each engine: a fresh migrated database seeded with set-based SQL (3 companies, 60 homes, 2,000
 * residents, 1,000,000 movements; the measured resident has 20,000 of them over five years, 500 in the last
 * full month), `VACUUM ANALYZE`; the real app (buildApp) on a local port, logged in as an ADMIN of two of
 * the three companies (the scope is in every statement). Then:
 *
 * 1. the first page of the ledger, `GET /api/caja-usuario?nif=…&page=1&pageSize=10` (with its total and
 *    the balances): 300 sequential requests (p50/p95/p99; target p95 < 50 ms);
 * 2. the same URL with autocannon at 10 connections for 10 s, and, in the same run, the very statements the
 *    app sent for one such request (captured at the driver: the token's worker, the resident, the ledger)
 *    sent straight through `pg` by 10 concurrent loops on a pool of 10 for 10 s; the ratio of the two
 *    throughputs (target ≥ 0.5);
 * 3. the statement PDF of the last full month (500 movements), 20 times in a row (target < 1 s);
 * 4. EXPLAIN (ANALYZE, BUFFERS) of the ledger statement.
 *
 *   npm run bench:caja -- --engine embedded|pg|both --duration 10 --connections 10 --requests 300 [--keep]
 */
import os from 'node:os'
import { parseArgs } from 'node:util'
import { Worker } from 'node:worker_threads'
import { lastFullMonth, nifCheckLetter } from '@vb/shared'
import { type SQL, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { buildApp } from '../src/app'
import { clientConfig, type Db } from '../src/db/client'
import { trabajadorEmpresas, trabajadores } from '../src/db/schema'
import { hashPassword } from '../src/lib/password'
import { ENGINE_NAMES, type Engine, openBenchDatabase, parseEngines } from './engines'

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'both' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    requests: { type: 'string', default: '300' },
    movements: { type: 'string', default: '1000000' },
    mine: { type: 'string', default: '20000' },
    keep: { type: 'boolean', default: false },
  },
})
const ENGINES = parseEngines(args.engine)
const DURATION = Number(args.duration)
const CONNECTIONS = Number(args.connections)
const SEQUENTIAL = Number(args.requests)
const MOVEMENTS = Number(args.movements)
const MINE = Number(args.mine)
const IN_MONTH = 500
const RESIDENTS = 2000
const HOMES = 60
const PASSWORD = 'Demo1234'
const TARGET_P95_MS = 50
const TARGET_RATIO = 0.5
const TARGET_PDF_MS = 1000

const rowsOf = async (db: Db, query: SQL) => ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows

/** Set-based seed; returns the measured resident's NIF and the ADMIN's e-mail. */
async function seed(db: Db): Promise<{ nif: string; admin: string }> {
  await db.execute(sql`insert into empresas (nombre) select 'Empresa ' || g from generate_series(1, 3) g`)
  await db.execute(
    sql.raw(`
    insert into viviendas (nombre, empresa_id)
    select 'Calle Caja ' || h, e.ids[1 + h % 3] from generate_series(1, ${HOMES}) h, (select array_agg(id order by id) ids from empresas) e`),
  )
  await db.execute(
    sql.raw(`
    insert into usuarios (nombre, apellidos, nif, vivienda_id)
    select 'Residente', 'Caja ' || g, n::text || substr('TRWAGMYFPDXBNJZSQVHLCKE', (n % 23)::int + 1, 1), v.min_id + g % ${HOMES}
      from generate_series(1, ${RESIDENTS}) g cross join lateral (select 30000000 + g * 97 as n) nif, (select min(id) min_id from viviendas) v`),
  )
  // The measured resident: the first one, in a home of the first company (g = ${HOMES} lands on min_id).
  const [target] = await rowsOf(db, sql`select u.id, u.nif from usuarios u order by u.id limit 1 offset ${HOMES - 1}`)
  const targetId = Number(target?.id)
  const month = lastFullMonth(new Date())
  const others = MOVEMENTS - MINE
  // Amounts from -49.99 to 49.99, never 0; dates over five years.
  const amount = (g: string) => `(case when (${g} * 37) % 9999 = 4999 then 1 else (${g} * 37) % 9999 - 4999 end) / 100.0`
  await db.execute(
    sql.raw(`
    insert into caja_usuario (concepto, cantidad, fecha, usuario_id)
    select 'Movimiento ' || g, ${amount('g')}, now() - ((g % 1800) || ' days')::interval - ((g % 1440) || ' minutes')::interval,
           u.min_id + (g % (${RESIDENTS} - 1)) + (case when u.min_id + (g % (${RESIDENTS} - 1)) >= ${targetId} then 1 else 0 end)
      from generate_series(1, ${others}) g, (select min(id) min_id from usuarios) u`),
  )
  await db.execute(
    sql.raw(`
    insert into caja_usuario (concepto, cantidad, fecha, usuario_id)
    select 'Gasto ' || g, ${amount('g')}, timestamp '${month.desde}' - ((g % 1800 + 1) || ' days')::interval + ((g % 600) || ' minutes')::interval, ${targetId}
      from generate_series(1, ${MINE - IN_MONTH}) g`),
  )
  await db.execute(
    sql.raw(`
    insert into caja_usuario (concepto, cantidad, fecha, usuario_id)
    select 'Compra del mes número ' || g, ${amount('g')}, (timestamp '${month.desde} 08:00' + (g * 80 || ' minutes')::interval) at time zone 'Europe/Madrid', ${targetId}
      from generate_series(1, ${IN_MONTH}) g`),
  )
  const passwordHash = await hashPassword(PASSWORD)
  const [admin] = await db
    .insert(trabajadores)
    .values({
      nombre: 'Bench',
      apellidos: 'Admin',
      email: 'bench-caja-admin@demo.es',
      nif: `00000003${nifCheckLetter(3)}`,
      rol: 'ADMIN',
      activo: true,
      passwordHash,
      passwordTemporal: false,
    })
    .returning({ id: trabajadores.id })
  const empresaIds = (await rowsOf(db, sql`select id from empresas order by id`)).map((r) => Number(r.id))
  await db.insert(trabajadorEmpresas).values(empresaIds.slice(0, 2).map((empresaId) => ({ trabajadorId: admin!.id, empresaId })))
  // Index-only scans need the visibility map: as autovacuum would leave it.
  await db.execute(sql`vacuum analyze`)
  return { nif: String(target?.nif), admin: 'bench-caja-admin@demo.es' }
}

interface Captured {
  text: string
  params: unknown[]
}

/** Records the SQL the app sends while `on` (drizzle calls `$client.query`). */
function captureSql(db: Db) {
  const client = (db as unknown as { $client: { query: (...a: unknown[]) => Promise<unknown> } }).$client
  const original = client.query.bind(client)
  const state = { on: false, captured: [] as Captured[] }
  client.query = (q: unknown, params?: unknown, ...rest: unknown[]) => {
    if (state.on) {
      const text = typeof q === 'string' ? q : (q as { text: string }).text
      state.captured.push({ text, params: (params as unknown[]) ?? [] })
    }
    return original(q, params, ...rest)
  }
  return state
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
const stats = (times: number[]) => {
  const s = [...times].sort((a, b) => a - b)
  return { p50: pct(s, 50), p95: pct(s, 95), p99: pct(s, 99), max: s.at(-1) ?? 0 }
}
const ms = (v: number) => v.toFixed(1)

async function sequential(url: string, token: string, n: number) {
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

function load(
  url: string,
  token: string,
): Promise<{ rps: number; p50: number; p95: number; p99: number; non2xx: number; errors: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      workerData: { url, token, connections: CONNECTIONS, duration: DURATION },
    })
    worker.once('message', (m) => (m.error ? reject(new Error(m.error)) : resolve(m)))
    worker.once('error', reject)
  })
}

/** The captured statements of one request, sent straight through `pg` by CONNECTIONS loops for DURATION s. */
async function direct(target: Parameters<typeof clientConfig>[0], statements: Captured[]) {
  const pool = new pg.Pool({ ...clientConfig(target), max: CONNECTIONS })
  const latencies: number[] = []
  let done = 0
  const deadline = performance.now() + DURATION * 1000
  const loop = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now()
      for (const s of statements) await pool.query(s.text, s.params)
      latencies.push(performance.now() - t0)
      done++
    }
  }
  // Warm-up, then the measured run.
  for (const s of statements) await pool.query(s.text, s.params)
  const started = performance.now()
  await Promise.all(Array.from({ length: CONNECTIONS }, loop))
  const seconds = (performance.now() - started) / 1000
  await pool.end()
  return { rps: done / seconds, ...stats(latencies) }
}

async function login(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/trabajadores/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  })
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status}`)
  return ((await res.json()) as { token: string }).token
}

async function benchEngine(engine: Engine): Promise<string[]> {
  console.log(`\n######## ${ENGINE_NAMES[engine]} ########`)
  const opened = await openBenchDatabase(engine, { keep: Boolean(args.keep), pool: 10 })
  const { db } = opened.database
  let app: FastifyInstance | undefined
  const out: string[] = [`### ${ENGINE_NAMES[engine]}`, '', `- ${opened.describe}`]
  try {
    const t0 = performance.now()
    const { nif, admin } = await seed(db)
    const [size] = await rowsOf(
      db,
      sql`select pg_database_size(current_database()) as b, (select count(*) from caja_usuario) as n`,
    )
    out.push(
      `- seeded ${RESIDENTS} residents, ${Number(size?.n).toLocaleString('en')} movements (${MINE.toLocaleString('en')} of the measured resident, ${IN_MONTH} in the last full month) in ${((performance.now() - t0) / 1000).toFixed(1)} s with VACUUM ANALYZE; database ${Math.round(Number(size?.b) / 1048576)} MB`,
    )
    console.log(out.slice(2).join('\n'))
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
    const token = await login(base, admin)
    const path = `/api/caja-usuario?nif=${nif}&page=1&pageSize=10`
    const url = base + path

    capture.captured = []
    capture.on = true
    const probe = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
    capture.on = false
    const body = (await probe.json()) as Array<{ saldo: string }>
    if (probe.status !== 200) throw new Error(`probe answered ${probe.status}`)
    out.push(
      `- \`${path}\` as ADMIN: ${body.length} rows, X-Total-Count ${probe.headers.get('x-total-count')}, X-Saldo ${probe.headers.get('x-saldo')} (first row's running balance ${body[0]?.saldo}); ${capture.captured.length} statements per request`,
    )
    const ledger = capture.captured.find((c) => c.text.includes('with titular'))
    if (ledger) {
      console.log('\n---- EXPLAIN (ANALYZE, BUFFERS) of the ledger statement ----')
      const plan = await (db as unknown as { $client: pg.Pool }).$client.query(
        `explain (analyze, buffers) ${ledger.text}`,
        ledger.params,
      )
      for (const r of plan.rows) console.log(`  ${r['QUERY PLAN']}`)
    }

    process.stdout.write(`\n${SEQUENTIAL} sequential requests… `)
    const seq = await sequential(url, token, SEQUENTIAL)
    console.log(`p95 ${ms(seq.p95)} ms`)
    process.stdout.write(`autocannon ${CONNECTIONS} connections × ${DURATION} s… `)
    const viaApp = await load(url, token)
    console.log(`${Math.round(viaApp.rps)} req/s`)
    await new Promise((r) => setTimeout(r, 1500))
    process.stdout.write(
      `the same ${capture.captured.length} statements straight through pg, ${CONNECTIONS} loops × ${DURATION} s… `,
    )
    const viaPg = await direct(opened.target, capture.captured)
    console.log(`${Math.round(viaPg.rps)} req/s`)
    const ratio = viaApp.rps / viaPg.rps

    process.stdout.write('statement PDF of the last full month, 20 times… ')
    const pdfTimes: number[] = []
    let pdfBytes = 0
    for (let i = 0; i < 21; i++) {
      const t = performance.now()
      const res = await fetch(`${base}/api/caja-usuario/extracto?nif=${nif}`, { headers: { authorization: `Bearer ${token}` } })
      const buf = await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`extracto answered ${res.status}`)
      // The first one also loads the fonts: reported apart.
      if (i > 0) pdfTimes.push(performance.now() - t)
      else out.push(`- first statement PDF (fonts loaded): ${ms(performance.now() - t)} ms`)
      pdfBytes = buf.byteLength
    }
    const pdf = stats(pdfTimes)
    console.log(`p95 ${ms(pdf.p95)} ms`)

    const yes = (ok: boolean) => (ok ? 'yes' : 'NO')
    out.push(
      '',
      '| measure | result | target | met |',
      '|---|---:|---:|:---:|',
      `| first page, 1 user, p50 / p95 / p99 | ${ms(seq.p50)} / **${ms(seq.p95)}** / ${ms(seq.p99)} ms | p95 < ${TARGET_P95_MS} ms | ${yes(seq.p95 < TARGET_P95_MS)} |`,
      `| first page, ${CONNECTIONS} connections (autocannon) | **${Math.round(viaApp.rps)} req/s**, p50 / p95 / p99 ${ms(viaApp.p50)} / ${ms(viaApp.p95)} / ${ms(viaApp.p99)} ms${viaApp.non2xx || viaApp.errors ? `, ${viaApp.non2xx} non-2xx, ${viaApp.errors} errors` : ''} | | |`,
      `| same statements straight through pg, ${CONNECTIONS} loops | ${Math.round(viaPg.rps)} req/s, p50 / p95 ${ms(viaPg.p50)} / ${ms(viaPg.p95)} ms | | |`,
      `| ratio app / pg | **${ratio.toFixed(2)}** | ≥ ${TARGET_RATIO} | ${yes(ratio >= TARGET_RATIO)} |`,
      `| statement PDF, ${IN_MONTH} movements (${Math.round(pdfBytes / 1024)} KB), p50 / p95 / max | ${ms(pdf.p50)} / **${ms(pdf.p95)}** / ${ms(pdf.max)} ms | < ${TARGET_PDF_MS} ms | ${yes(pdf.max < TARGET_PDF_MS)} |`,
    )
    return out
  } finally {
    await app?.close()
    await opened.cleanup()
  }
}

async function main() {
  const cpus = os.cpus()
  console.log(
    `Machine: ${cpus.length} × ${cpus[0]?.model.trim()}, ${Math.round(os.totalmem() / 1048576)} MB RAM, Node ${process.version}, ${new Date().toISOString()}`,
  )
  const results: string[][] = []
  for (const engine of ENGINES) results.push(await benchEngine(engine))
  console.log('\n================ Results ================\n')
  for (const r of results) console.log(`${r.join('\n')}\n`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
