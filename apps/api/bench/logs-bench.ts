/**
 * `npm run bench:logs`: the access log with 1,000,000 entries.
 *
 * For each engine: a fresh migrated database seeded with set-based SQL (3 companies, 30 homes, a SUPERADMIN,
 * an ADMIN of the first company and 10 workers; 1,000,000 entries over the last 365 days, about 2,740 a day,
 * 100,000 per worker, half of them with a home, each change with the values the app writes for it: a resident or
 * home before and after, a document or cash movement created, a contact deleted), `VACUUM ANALYZE`.
 * Then, on the real app (buildApp) on a local port:
 *
 * 1. one day's first page, `GET /api/logs?fecha=…&page=1&pageSize=25` (SPEC §2.11's default size), as the
 *    SUPERADMIN: 300 sequential requests (p50/p95/p99; target p95 < 50 ms); the same as the ADMIN, whose
 *    scope (the workers sharing its company) is in the statement;
 * 2. the same URL with autocannon at 10 connections for 10 s, and the very statements the app sends for one
 *    such request once warm (captured at the driver after 5 requests: the page's statement alone, since the
 *    token's worker and the total are then kept in memory, as under the load) replayed straight through `pg` by
 *    10 loops on a pool of 10 for 10 s; the ratio of the two throughputs (target ≥ 0.5);
 * 3. `GET /api/logs/csv?trabajadorId=…` (100,000 entries) from the API running alone in a child process
 *    (logs-csv-server.ts, production timeouts), read as a stream and thrown away: its idle resident set
 *    before, its peak during (sampled every 5 ms, and the kernel's VmHWM), the time and the rows per second;
 *    once as a browser asks for it (brotli or gzip) and once uncompressed. Target: peak < idle + 50 MB. Then
 *    every entry (1,000,000) uncompressed: the peak must not grow with the size of the export.
 * 4. EXPLAIN (ANALYZE, BUFFERS) of the page's statement.
 *
 *   npm run bench:logs -- --engine embedded|pg|both --duration 10 --connections 10 --requests 300 [--keep]
 */
import { fork } from 'node:child_process'
import { madridDay } from '@vb/shared'
import { sql } from 'drizzle-orm'
import type { ConnectionTarget, Db } from '../src/db/client'
import * as bench from './harness'

const cli = bench.loadCommandLine(
  'npm run bench:logs -- --engine embedded|pg|both --duration 10 --connections 10 --requests 300 [--keep]',
  {
    entries: { type: 'string', default: '1000000', help: 'log entries to seed in all (a tenth of them per worker)' },
  },
)
const { args, engines: ENGINES, load: LOAD } = cli
const ENTRIES = bench.numberOption(args, 'entries')
const WORKERS = 10
const HOMES = 30
const DAYS = 365
const TARGET_P95_MS = 50
const TARGET_RATIO = 0.5
const TARGET_RSS_GROWTH = 50 * 1024 * 1024

interface Seeded {
  superadmin: string
  admin: string
  /** The worker whose entries the CSV exports (a tenth of them). */
  csvWorker: number
  csvRows: number
}

/** Set-based seed of the log, in chunks; the trigram index is built once at the end. */
async function seed(db: Db): Promise<Seeded> {
  await db.execute(sql`insert into empresas (nombre) select 'Empresa ' || g from generate_series(1, 3) g`)
  const empresaIds = await bench.companyIds(db)
  await db.execute(
    sql.raw(`
    insert into viviendas (nombre, empresa_id)
    select 'Calle del Registro ' || h, e.ids[1 + h % 3] from generate_series(1, ${HOMES}) h, (select array_agg(id order by id) ids from empresas) e`),
  )
  const staff = await bench.insertWorkers(db, [
    { email: 'bench-logs-super@demo.es', rol: 'SUPERADMIN', apellidos: 'Super', empresaIds },
    { email: 'bench-logs-admin@demo.es', rol: 'ADMIN', apellidos: 'Admin', empresaIds: empresaIds.slice(0, 1) },
    ...Array.from({ length: WORKERS }, (_, i) => ({
      email: `bench-logs-${i}@demo.es`,
      rol: 'EMPLEADO' as const,
      nombre: 'Trabajador',
      apellidos: `Número ${i}`,
      empresaIds: [empresaIds[i % 3] as number],
    })),
  ])
  const workerIds = staff.slice(2).map((w) => w.id)
  const acciones = [
    ['Inicio de sesión', 'success', '/'],
    ['Modificar usuario', 'warning', '/usuarios'],
    ['Crear documento', 'success', '/documentacion'],
    ['Crear movimiento de caja', 'success', '/caja'],
    ['Eliminar contacto', 'error', '/contactos'],
    ['Modificar vivienda', 'warning', '/viviendas'],
    ['Inicio de sesión fallido', 'error', '/'],
    ['Cierre de sesión', 'info', '/'],
  ]
  await db.execute(sql`drop index logs_busqueda_trgm_idx`)
  const chunk = 200_000
  const secondsPerEntry = (DAYS * 86_400) / ENTRIES
  for (let from = 1; from <= ENTRIES; from += chunk) {
    const to = Math.min(ENTRIES, from + chunk - 1)
    await db.execute(
      sql.raw(`
      insert into logs (fecha, trabajador_id, trabajador_email, trabajador_nombre, trabajador_apellidos, accion, url, tipo,
                        descripcion, vivienda_id, vivienda_nombre, usuario_id, datos)
      select now() - (g * ${secondsPerEntry}) * interval '1 second',
             w.ids[1 + g % ${WORKERS}], 'bench-logs-' || (g % ${WORKERS}) || '@demo.es', 'Trabajador', 'Número ' || (g % ${WORKERS}),
             a.accion[1 + g % 8], a.url[1 + g % 8], a.tipo[1 + g % 8],
             'Registro ' || g || ': ' || a.accion[1 + g % 8] || ' del usuario Nº ' || (g % 5000),
             case when g % 2 = 0 then v.ids[1 + g % ${HOMES}] end,
             case when g % 2 = 0 then 'Calle del Registro ' || (1 + g % ${HOMES}) end,
             case when g % 2 = 0 then g % 5000 end,
             ${bench.seededLogDatos('a.accion[1 + g % 8]', 'g')}
        from generate_series(${from}, ${to}) g,
             (select array[${workerIds.join(',')}] ids) w,
             (select array_agg(id order by id) ids from viviendas) v,
             (select ${bench.sqlArray(acciones.map((a) => a[0] as string))} accion,
                     ${bench.sqlArray(acciones.map((a) => a[2] as string))} url,
                     ${bench.sqlArray(acciones.map((a) => a[1] as string))} tipo) a`),
    )
    process.stdout.write(`${to.toLocaleString('en')} entries… `)
  }
  await db.execute(sql`create index logs_busqueda_trgm_idx on logs using gin (busqueda gin_trgm_ops)`)
  await db.execute(sql`vacuum analyze`)
  console.log()
  return {
    superadmin: 'bench-logs-super@demo.es',
    admin: 'bench-logs-admin@demo.es',
    csvWorker: workerIds[0] as number,
    csvRows: Math.floor(ENTRIES / WORKERS),
  }
}

interface CsvRun {
  label: string
  idle: number
  peak: number
  hwm: number | null
  seconds: number
  rows: number
}

/** The CSV export measured on the API alone in a child process (logs-csv-server.ts). */
async function measureCsv(target: ConnectionTarget, uploadsDir: string, seeded: Seeded): Promise<CsvRun[]> {
  const child = fork(new URL('./logs-csv-server.ts', import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_TARGET: JSON.stringify(target), BENCH_UPLOADS: uploadsDir },
  })
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)))
  try {
    const { port } = await next<{ port: number }>()
    const base = `http://127.0.0.1:${port}`
    const token = await bench.login(base, seeded.superadmin)
    const read = async (encoding: string, filter: string) => {
      const url = `${base}/api/logs/csv${filter}`
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': encoding } })
      if (res.status !== 200) throw new Error(`CSV answered ${res.status}`)
      let bytes = 0
      let rows = -1
      // Streamed and thrown away; the lines are counted on the decoded text (undici decompresses).
      const decoder = new TextDecoder()
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.byteLength
        for (const c of decoder.decode(chunk, { stream: true })) if (c === '\n') rows++
      }
      return { bytes, rows, encoding: res.headers.get('content-encoding') ?? 'identity' }
    }
    // Warm-up: the code paths of the export, once, on a small filter.
    await (
      await fetch(`${base}/api/logs/csv?fecha=${madridDay(new Date())}`, { headers: { authorization: `Bearer ${token}` } })
    ).text()
    const runs: CsvRun[] = []
    const one = `?trabajadorId=${seeded.csvWorker}`
    for (const [label, encoding, filter, expected] of [
      ['as a browser asks (br, gzip)', 'br, gzip', one, seeded.csvRows],
      ['uncompressed', 'identity', one, seeded.csvRows],
      // Every entry: the peak must not grow with the size of the export.
      ['every entry, uncompressed', 'identity', '', ENTRIES],
    ] as const) {
      await bench.settle(500)
      child.send('rss')
      const { rss: idle } = await next<{ rss: number }>()
      child.send('start')
      const t0 = performance.now()
      const { rows, encoding: sent } = await read(encoding, filter)
      const seconds = (performance.now() - t0) / 1000
      child.send('stop')
      const { peak, hwm } = await next<{ peak: number; hwm: number | null }>()
      // Every entry: the seeded ones, and those written since (logins, the downloads themselves).
      if (filter ? rows !== expected : rows < expected) throw new Error(`CSV had ${rows} rows, not ${expected}`)
      runs.push({ label: `${label}: ${sent}`, idle, peak, hwm, seconds, rows })
      console.log(
        `CSV ${label}: ${rows.toLocaleString('en')} rows in ${seconds.toFixed(2)} s, idle ${bench.mb(idle)}, peak ${bench.mb(peak)}${hwm ? ` (VmHWM ${bench.mb(hwm)})` : ''}`,
      )
    }
    return runs
  } finally {
    child.send('exit')
    await new Promise((resolve) => child.once('exit', resolve))
  }
}

async function benchEngine(engine: bench.Engine): Promise<string[]> {
  console.log(`\n######## ${bench.ENGINE_NAMES[engine]} ########`)
  return bench.withEngine(engine, { keep: args.keep, pool: 10 }, async (session) => {
    const { db } = session
    const out: string[] = [`### ${bench.ENGINE_NAMES[engine]}`, '', `- ${session.describe}`]
    const t0 = performance.now()
    const seeded = await seed(db)
    const [size] = await bench.rowsOf(
      db,
      sql`select pg_database_size(current_database()) as b, (select count(*) from logs) as n, pg_total_relation_size('logs') as t`,
    )
    out.push(
      `- seeded ${Number(size?.n).toLocaleString('en')} log entries over ${DAYS} days (${WORKERS} workers, ${seeded.csvRows.toLocaleString('en')} each) in ${((performance.now() - t0) / 1000).toFixed(1)} s with VACUUM ANALYZE; the logs table with its indexes ${Math.round(Number(size?.t) / 1048576)} MB, database ${Math.round(Number(size?.b) / 1048576)} MB`,
    )
    console.log(out.slice(2).join('\n'))
    const capture = bench.captureSql(db)
    const { base } = await session.startApp()
    const token = await bench.login(base, seeded.superadmin)
    const adminToken = await bench.login(base, seeded.admin)
    const day = madridDay(new Date(Date.now() - 100 * 86_400_000))
    const path = `/api/logs?fecha=${day}&page=1&pageSize=25`
    const url = base + path

    const probe = await capture.record(url, { authorization: `Bearer ${token}` })
    if (probe.res.status !== 200) throw new Error(`probe answered ${probe.res.status}`)
    const rows = JSON.parse(probe.body) as unknown[]
    const statements = probe.statements
    out.push(
      `- \`${path}\` as SUPERADMIN: ${rows.length} entries, X-Total-Count ${probe.res.headers.get('x-total-count')}; ${statements.length} statements per request`,
    )
    const page = statements.find((c) => /from "logs"/.test(c.text) && /limit/.test(c.text) && !/count\(/.test(c.text))
    if (page) {
      console.log('\n---- EXPLAIN (ANALYZE, BUFFERS) of the page statement ----')
      for (const line of await capture.explain(page)) console.log(`  ${line}`)
    }

    console.log()
    const {
      seq,
      app: viaApp,
      pg: viaPg,
    } = await bench.measureUrl(url, token, { target: session.target, statements, warmUp: true, settleMs: 1500 }, LOAD)
    const ratio = viaApp.rps / viaPg.rps
    process.stdout.write(`the same page as the ADMIN, ${LOAD.requests} sequential requests… `)
    const asAdmin = await bench.sequential(url, adminToken, LOAD.requests)
    console.log(`p95 ${bench.ms(asAdmin.p95)} ms`)

    const csv = await measureCsv(session.target, session.uploadsDir, seeded)

    const loadErrors = viaApp.non2xx || viaApp.errors ? `, ${viaApp.non2xx} non-2xx, ${viaApp.errors} errors` : ''
    out.push(
      '',
      bench.markdownTable(
        [
          ['measure', 'left'],
          ['result', 'right'],
          ['target', 'right'],
          ['met', 'center'],
        ],
        [
          [
            "one day's first page, SUPERADMIN, 1 user, p50 / p95 / p99",
            `${bench.ms(seq.p50)} / **${bench.ms(seq.p95)}** / ${bench.ms(seq.p99)} ms`,
            `p95 < ${TARGET_P95_MS} ms`,
            bench.yesNo(seq.p95 < TARGET_P95_MS),
          ],
          [
            "one day's first page, ADMIN (scope in the statement), 1 user, p50 / p95",
            `${bench.ms(asAdmin.p50)} / **${bench.ms(asAdmin.p95)}** ms`,
            `p95 < ${TARGET_P95_MS} ms`,
            bench.yesNo(asAdmin.p95 < TARGET_P95_MS),
          ],
          [
            `first page, ${LOAD.connections} connections (autocannon)`,
            `**${Math.round(viaApp.rps)} req/s**, p50 / p95 / p99 ${bench.ms(viaApp.p50)} / ${bench.ms(viaApp.p95)} / ${bench.ms(viaApp.p99)} ms${loadErrors}`,
            '',
            '',
          ],
          [
            `same statements straight through pg, ${LOAD.connections} loops`,
            `${Math.round(viaPg.rps)} req/s, p50 / p95 ${bench.ms(viaPg.p50)} / ${bench.ms(viaPg.p95)} ms`,
            '',
            '',
          ],
          ['ratio app / pg', `**${ratio.toFixed(2)}**`, `≥ ${TARGET_RATIO}`, bench.yesNo(ratio >= TARGET_RATIO)],
          ...csv.map((c) => [
            `CSV of ${c.rows.toLocaleString('en')} entries, ${c.label}: server RSS idle → peak (VmHWM)`,
            `${bench.mb(c.idle)} → ${bench.mb(c.peak)}${c.hwm ? ` (${bench.mb(c.hwm)})` : ''}: **+${bench.mb(Math.max(c.peak, c.hwm ?? 0) - c.idle)}**; ${c.seconds.toFixed(2)} s, **${Math.round(c.rows / c.seconds).toLocaleString('en')} rows/s**`,
            '< +50 MB',
            bench.yesNo(Math.max(c.peak, c.hwm ?? 0) - c.idle < TARGET_RSS_GROWTH),
          ]),
        ],
      ),
    )
    return out
  })
}

bench.runBench(async () => {
  console.log(bench.machineLine())
  const sections: string[] = []
  for (const engine of ENGINES) sections.push((await benchEngine(engine)).join('\n'))
  console.log(`\n${bench.machineLine()}\n\n${sections.join('\n\n')}`)
})
