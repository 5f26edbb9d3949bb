/**
 * `npm run bench:caja`: a resident with 20,000 cash movements among 1,000,000.
 *
 * For each engine: a fresh migrated database seeded with set-based SQL (3 companies, 60 homes, 2,000
 * residents, 1,000,000 movements; the measured resident has 20,000 of them over five years, 500 in the last
 * full month), `VACUUM ANALYZE`; the real app (buildApp) on a local port, logged in as an ADMIN of two of
 * the three companies (the scope is in every statement). Then:
 *
 * 1. the first page of the ledger, `GET /api/caja-usuario?nif=…&page=1&pageSize=10` (with its total and
 *    the balances): 300 sequential requests (p50/p95/p99; target p95 < 50 ms);
 * 2. the same URL with autocannon at 10 connections for 10 s, and, in the same run, the very statements the
 *    app sends for one such request once warm (captured at the driver after 5 requests, as under the load: the
 *    token's worker is then kept in memory) sent straight through `pg` by 10 concurrent loops on a pool of 10
 *    for 10 s; the ratio of the two throughputs (target ≥ 0.5);
 * 3. the statement PDF of the last full month (500 movements), 20 times in a row (target < 1 s);
 * 4. EXPLAIN (ANALYZE, BUFFERS) of the ledger statement.
 *
 *   npm run bench:caja -- --engine embedded|pg|both --duration 10 --connections 10 --requests 300 [--keep]
 */
import { lastFullMonth, nifCheckLetter } from '@vb/shared'
import { sql } from 'drizzle-orm'
import type { Db } from '../src/db/client'
import * as bench from './harness'

const cli = bench.loadCommandLine(
  'npm run bench:caja -- --engine embedded|pg|both --duration 10 --connections 10 --requests 300 [--keep]',
  {
    movements: { type: 'string', default: '1000000', help: 'cash movements to seed in all' },
    mine: { type: 'string', default: '20000', help: `the measured resident's movements (more than 500: the last full month's)` },
  },
)
const { args, engines: ENGINES, load: LOAD } = cli
const MOVEMENTS = bench.numberOption(args, 'movements')
const MINE = bench.numberOption(args, 'mine')
const IN_MONTH = 500
const RESIDENTS = 2000
const HOMES = 60
const TARGET_P95_MS = 50
const TARGET_RATIO = 0.5
const TARGET_PDF_MS = 1000

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
  const [target] = await bench.rowsOf(db, sql`select u.id, u.nif from usuarios u order by u.id limit 1 offset ${HOMES - 1}`)
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
  const empresaIds = await bench.companyIds(db)
  await bench.insertWorkers(db, [
    {
      email: 'bench-caja-admin@demo.es',
      rol: 'ADMIN',
      apellidos: 'Admin',
      nif: `00000003${nifCheckLetter(3)}`,
      empresaIds: empresaIds.slice(0, 2),
    },
  ])
  // Index-only scans need the visibility map: as autovacuum would leave it.
  await db.execute(sql`vacuum analyze`)
  return { nif: String(target?.nif), admin: 'bench-caja-admin@demo.es' }
}

async function benchEngine(engine: bench.Engine): Promise<string[]> {
  console.log(`\n######## ${bench.ENGINE_NAMES[engine]} ########`)
  return bench.withEngine(engine, { keep: args.keep, pool: 10 }, async (session) => {
    const { db } = session
    const out: string[] = [`### ${bench.ENGINE_NAMES[engine]}`, '', `- ${session.describe}`]
    const t0 = performance.now()
    const { nif, admin } = await seed(db)
    const [size] = await bench.rowsOf(
      db,
      sql`select pg_database_size(current_database()) as b, (select count(*) from caja_usuario) as n`,
    )
    out.push(
      `- seeded ${RESIDENTS} residents, ${Number(size?.n).toLocaleString('en')} movements (${MINE.toLocaleString('en')} of the measured resident, ${IN_MONTH} in the last full month) in ${((performance.now() - t0) / 1000).toFixed(1)} s with VACUUM ANALYZE; database ${Math.round(Number(size?.b) / 1048576)} MB`,
    )
    console.log(out.slice(2).join('\n'))
    const capture = bench.captureSql(db)
    const { base } = await session.startApp()
    const token = await bench.login(base, admin)
    const path = `/api/caja-usuario?nif=${nif}&page=1&pageSize=10`
    const url = base + path

    const probe = await capture.record(url, { authorization: `Bearer ${token}` })
    if (probe.res.status !== 200) throw new Error(`probe answered ${probe.res.status}`)
    const body = JSON.parse(probe.body) as Array<{ saldo: string }>
    const statements = probe.statements
    out.push(
      `- \`${path}\` as ADMIN: ${body.length} rows, X-Total-Count ${probe.res.headers.get('x-total-count')}, X-Saldo ${probe.res.headers.get('x-saldo')} (first row's running balance ${body[0]?.saldo}); ${statements.length} statements per request`,
    )
    const ledger = statements.find((c) => c.text.includes('with titular'))
    if (ledger) {
      console.log('\n---- EXPLAIN (ANALYZE, BUFFERS) of the ledger statement ----')
      for (const line of await capture.explain(ledger)) console.log(`  ${line}`)
    }

    console.log()
    const measured = await bench.measureUrl(
      url,
      token,
      { target: session.target, statements, warmUp: true, settleMs: 1500 },
      LOAD,
    )
    const { seq, app: viaApp, pg: viaPg } = measured
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
      else out.push(`- first statement PDF (fonts loaded): ${bench.ms(performance.now() - t)} ms`)
      pdfBytes = buf.byteLength
    }
    const pdf = bench.stats(pdfTimes)
    console.log(`p95 ${bench.ms(pdf.p95)} ms`)

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
            'first page, 1 user, p50 / p95 / p99',
            `${bench.ms(seq.p50)} / **${bench.ms(seq.p95)}** / ${bench.ms(seq.p99)} ms`,
            `p95 < ${TARGET_P95_MS} ms`,
            bench.yesNo(seq.p95 < TARGET_P95_MS),
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
          [
            `statement PDF, ${IN_MONTH} movements (${Math.round(pdfBytes / 1024)} KB), p50 / p95 / max`,
            `${bench.ms(pdf.p50)} / **${bench.ms(pdf.p95)}** / ${bench.ms(pdf.max)} ms`,
            `< ${TARGET_PDF_MS} ms`,
            bench.yesNo(pdf.max < TARGET_PDF_MS),
          ],
        ],
      ),
    )
    return out
  })
}

bench.runBench(async () => {
  console.log(bench.machineLine())
  const results: string[][] = []
  for (const engine of ENGINES) results.push(await benchEngine(engine))
  console.log('\n================ Results ================\n')
  for (const r of results) console.log(`${r.join('\n')}\n`)
})
