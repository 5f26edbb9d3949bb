/**
 * `npm run bench` (target: 100,000 residents in 2,000 homes, a searched residents page answers in under 50 ms
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
import { sql } from 'drizzle-orm'
import type { Db } from '../src/db/client'
import { usuarios } from '../src/db/schema'
import { setCountCacheTtl } from '../src/lib/count-cache'
import { loadedTrigramCounts } from '../src/lib/trigram-counts'
import * as bench from './harness'

const cli = bench.loadCommandLine(
  'npm run bench -- --engine embedded|pg|both --duration 10 --connections 10 --requests 300 --explain main|all|none [--keep]',
  {
    explain: {
      type: 'string',
      default: 'main',
      help: 'EXPLAIN (ANALYZE, BUFFERS) the SQL of: main (the first search), all or none',
    },
    residents: { type: 'string', default: '100000', help: 'residents to seed' },
    homes: { type: 'string', default: '2000', help: 'homes to seed' },
    /**
     * Count every searched total (no count cache, lib/count-cache.ts): what each request costs, comparable
     * statement for statement with the raw-pg ceiling, which replays the SQL of one request made once the app is
     * warm (bench/harness.ts, record).
     */
    'no-count-cache': { type: 'boolean', default: false, help: 'count every searched total (the count cache off)' },
  },
)
const { args, engines: ENGINES, load: LOAD } = cli
if (args['no-count-cache']) setCountCacheTtl(0)
const RESIDENTS = bench.numberOption(args, 'residents')
const HOMES = bench.numberOption(args, 'homes')
const COMPANIES = 3
const TARGET_P95_MS = 50

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

/** Set-based seed: companies, homes, residents with homes (unique valid NIFs), an ADMIN and a SUPERADMIN. */
async function seed(db: Db): Promise<{ superadmin: string; admin: string }> {
  await db.execute(
    sql.raw(`insert into empresas (nombre) select 'Empresa ' || g || ' de viviendas' from generate_series(1, ${COMPANIES}) g`),
  )
  // Homes spread over the companies; 'calle' matches one home in six.
  await db.execute(
    sql.raw(`
    insert into viviendas (nombre, empresa_id)
    select (${bench.sqlArray(VIAS)})[1 + h % ${VIAS.length}] || ' ' || (${bench.sqlArray(CALLES)})[1 + (h * 7) % ${CALLES.length}]
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
    select (${bench.sqlArray(NOMBRES)})[1 + (g * 7) % ${NOMBRES.length}],
           (${bench.sqlArray(APELLIDOS)})[1 + g % ${APELLIDOS.length}] || ' ' ||
             (${bench.sqlArray(APELLIDOS)})[1 + (g * 31 + g / ${APELLIDOS.length}) % ${APELLIDOS.length}],
           n::text || substr('TRWAGMYFPDXBNJZSQVHLCKE', (n % 23)::int + 1, 1),
           (array['PVS', 'PEI', null])[1 + g % 3],
           v.min_id + g % ${HOMES}
    from generate_series(1, ${RESIDENTS}) g
         cross join lateral (select 10000000 + g * 73 as n) nif,
         (select min(id) min_id from viviendas) v`),
  )
  const empresaIds = await bench.companyIds(db)
  await bench.insertWorkers(db, [
    { email: 'bench-superadmin@demo.es', rol: 'SUPERADMIN', apellidos: 'Superadmin', nif: '00000001R', empresaIds },
    { email: 'bench-admin@demo.es', rol: 'ADMIN', apellidos: 'Admin', nif: '00000002W', empresaIds: empresaIds.slice(0, 2) },
  ])
  await db.execute(sql`analyze`)
  return { superadmin: 'bench-superadmin@demo.es', admin: 'bench-admin@demo.es' }
}

// ---------------------------------------------------------------- measuring

interface Row {
  label: string
  status: number
  total: string
  seq?: bench.Stats
  load?: bench.LoadResult
  /** The same SQL statements the app sent for one request, replayed straight through `pg`: the ceiling. */
  raw?: { rps: number; p95: number }
}

function table(rows: Row[]): string {
  const lines = rows.map((r) => {
    if (!r.seq || !r.load) return [r.label, '-', `HTTP ${r.status}`, '-', '-', '-']
    const ratio = r.raw ? r.load.rps / r.raw.rps : Number.NaN
    const ok = r.seq.p95 < TARGET_P95_MS && r.load.p95 < TARGET_P95_MS && ratio >= 0.5
    const errs = r.load.non2xx || r.load.errors ? ` (${r.load.non2xx} non-2xx, ${r.load.errors} errors)` : ''
    const raw = r.raw ? `${Math.round(r.raw.rps)}, ${bench.ms(r.raw.p95)} ms` : '-'
    return [
      r.label,
      r.total,
      `${bench.ms(r.seq.p50)} / ${bench.ms(r.seq.p95)} / ${bench.ms(r.seq.p99)}`,
      `${Math.round(r.load.rps)}${errs}`,
      `${bench.ms(r.load.p50)} / ${bench.ms(r.load.p95)} / ${bench.ms(r.load.p99)}`,
      raw,
      ratio.toFixed(2),
      bench.yesNo(ok),
    ]
  })
  return bench.markdownTable(
    [
      ['URL', 'left'],
      ['matches', 'right'],
      ['1 user p50 / p95 / p99 (ms)', 'right'],
      [`${LOAD.connections} conns req/s`, 'right'],
      [`${LOAD.connections} conns p50 / p95 / p99 (ms)`, 'right'],
      ['same SQL through pg: req/s, p95', 'right'],
      ['app / pg', 'right'],
      [`p95 < ${TARGET_P95_MS} ms and ≥ 0.5`, 'center'],
    ],
    lines,
  )
}

async function benchEngine(
  engine: bench.Engine,
): Promise<{ engine: bench.Engine; describe: string; rows: Row[]; notes: string[] }> {
  console.log(`\n######## ${bench.ENGINE_NAMES[engine]} ########`)
  return bench.withEngine(engine, { keep: args.keep, pool: 10 }, async (session) => {
    const { db } = session
    const notes: string[] = [session.describe]
    const t0 = performance.now()
    const accounts = await seed(db)
    const seedSeconds = (performance.now() - t0) / 1000
    const [{ bytes: size } = {}] = await bench.rowsOf(db, sql`select pg_database_size(current_database()) as bytes`)
    notes.push(
      `seeded ${COMPANIES} companies, ${HOMES} homes, ${RESIDENTS} residents in ${seedSeconds.toFixed(1)} s (with ANALYZE); database size ${bench.mb(Number(size))}`,
    )
    console.log(notes.join('\n'))

    const capture = bench.captureSql(db)
    const { base } = await session.startApp()
    // The residents' trigram counts, which a running server reads on its first search (lib/trigram-counts.ts), read
    // first: the statements captured are then the ones the app sends from then on.
    await loadedTrigramCounts(db, usuarios.busqueda)
    const tokens: Record<Role, string> = {
      SUPERADMIN: await bench.login(base, accounts.superadmin),
      ADMIN: await bench.login(base, accounts.admin),
    }

    const rows: Row[] = []
    for (const s of SCENARIOS) {
      const url = base + s.path
      const probe = await capture.record(url, { authorization: `Bearer ${tokens[s.role]}` })
      const row: Row = {
        label: `${s.label}: \`${s.path}\``,
        status: probe.res.status,
        total: probe.res.headers.get('x-total-count') ?? '?',
      }
      rows.push(row)
      if (probe.res.status !== 200) {
        console.log(`\n${s.path} as ${s.role}: HTTP ${probe.res.status} ${probe.body.slice(0, 200)} (skipped)`)
        continue
      }
      if (args.explain === 'all' || (args.explain === 'main' && s.main)) {
        console.log(`\n---- EXPLAIN (ANALYZE, BUFFERS) of the SQL sent by ${s.path} as ${s.role} (${engine}) ----`)
        for (const c of probe.statements) {
          console.log(`\n${c.text}\n  params: ${JSON.stringify(c.params)}`)
          for (const line of await capture.explain(c)) console.log(`  ${line}`)
          console.log(`  => without EXPLAIN: ${bench.ms(await capture.time(c))} ms (median of 5)`)
        }
      }
      process.stdout.write(`\n${s.label}: `)
      // Requests autocannon left in flight finish before the ceiling runs and the next URL is probed.
      const measured = await bench.measureUrl(
        url,
        tokens[s.role],
        { target: session.target, statements: probe.statements, settleMs: 2000 },
        LOAD,
      )
      Object.assign(row, { seq: measured.seq, load: measured.app, raw: measured.pg })
    }
    const rss = process.memoryUsage().rss
    notes.push(`benchmark process RSS at the end: ${bench.mb(rss)} (the PostgreSQL server runs in its own processes)`)
    return { engine, describe: session.describe, rows, notes }
  })
}

bench.runBench(async () => {
  console.log(bench.machineLine())
  console.log(
    `Sequential: ${LOAD.requests} requests after 20 warm-up ones, one at a time. Load: autocannon, ${LOAD.connections} connections for ${LOAD.duration} s, in a worker thread.`,
  )
  const results = []
  for (const engine of ENGINES) results.push(await benchEngine(engine))
  console.log('\n================ Results ================')
  console.log(
    args['no-count-cache']
      ? 'count cache: off (every searched total counted)'
      : 'count cache: on, as shipped (searched totals kept up to 5 s, dropped by any write; the ceiling replays a request made once the app is warm, its total kept)',
  )
  for (const r of results) {
    console.log(`\n### ${bench.ENGINE_NAMES[r.engine]}\n`)
    for (const n of r.notes) console.log(`- ${n}`)
    console.log(`\n${table(r.rows)}`)
  }
  const [embedded, external] = [results.find((r) => r.engine === 'embedded'), results.find((r) => r.engine === 'pg')]
  if (embedded && external) {
    // Budget: the embedded default within 20 % of an external PostgreSQL, same run.
    const rows = embedded.rows.flatMap((row) => {
      const other = external.rows.find((o) => o.label === row.label)
      if (!row.load || !other?.load) return []
      const ratio = row.load.rps / other.load.rps
      return [[row.label, Math.round(row.load.rps), Math.round(other.load.rps), ratio.toFixed(2), bench.yesNo(ratio >= 0.8)]]
    })
    console.log('\n### Embedded against external, same run\n')
    console.log(
      bench.markdownTable(
        [
          ['URL', 'left'],
          ['embedded req/s', 'right'],
          ['external req/s', 'right'],
          ['embedded / external', 'right'],
          ['within 20 %', 'center'],
        ],
        rows,
      ),
    )
  }
})
