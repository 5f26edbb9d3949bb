/**
 * `npm run bench:daily`: the daily-work screens at size.
 *
 * For each engine: a fresh migrated database seeded with set-based SQL: 3 companies, 2,000 homes, 200,000
 * budgets (100 a home, the three states in turn), 200 workers and 50,000 worker tasks (250 a worker, in homes of
 * its company, one in three completed), and one month holding 5,000 calendar tasks of one company;
 * `VACUUM ANALYZE`. The real app (buildApp) on a local port, logged in as an ADMIN of two of the three
 * companies (the scope is in every statement). For each URL:
 *
 * 1. one home's budgets in one state, `GET /api/presupuestos?viviendaId=…&estado=PENDIENTE_APROBACION&page=1&pageSize=10`,
 *    and one worker's pending tasks, `GET /api/tareas-trabajador?trabajadorId=…&completada=false&page=1&pageSize=12&sort=fecha&order=asc`:
 *    300 sequential requests (target p95 < 50 ms), autocannon at 10 connections for 10 s, and the very statements
 *    the app sent for one request replayed straight through `pg` by 10 loops on a pool of 10 (target: the app
 *    reaches at least half of that throughput);
 * 2. the calendar month of 5,000 tasks, `GET /api/planing-tareas/calendario?desde&hasta&empresaId` (reported);
 * 3. with `--web` (embedded only, after `npm run build`): the built web app served by the same app, opened in
 *    Chromium on /planing, and the month of 5,000 tasks rendered, measured in the page with the performance API
 *    (`performance.mark` on the click, the resource timing of the calendar call, and the first animation frame
 *    after the grid holds the month's tasks).
 *
 *   npm run bench:daily -- --engine embedded|pg|both --duration 10 --connections 10 --requests 300 [--web] [--keep]
 */
import path from 'node:path'
import { chromium } from '@playwright/test'
import { addDays, addMonthsToMonth, madridDay, nifCheckLetter } from '@vb/shared'
import { sql } from 'drizzle-orm'
import { buildApp } from '../src/app'
import type { Db } from '../src/db/client'
import * as bench from './harness'
import { setSession, timeMonthSwitch } from './planing-render.mjs'

const cli = bench.loadCommandLine(
  'npm run bench:daily -- --engine embedded|pg|both --duration 10 --connections 10 --requests 300 [--web] [--keep]',
  {
    web: { type: 'boolean', default: false, help: 'also render the month of 5,000 tasks in Chromium (needs npm run build)' },
    renders: { type: 'string', default: '15', help: 'month renders timed in Chromium (with --web)' },
  },
)
const { args, engines: ENGINES, load: LOAD } = cli
const HOMES = 2000
const BUDGETS = 200_000
const WORKERS = 200
const TASKS = 50_000
const MONTH_TASKS = 5000
const TARGET_P95_MS = 50
const TARGET_RATIO = 0.5
const TARGET_RENDER_MS = 300
const RENDERS = bench.numberOption(args, 'renders')

const WORDS = [
  'Pintura',
  'Caldera',
  'Persianas',
  'Fontanería',
  'Electricidad',
  'Cocina',
  'Baño',
  'Mobiliario',
  'Ventanas',
  'Tejado',
]

const MONTHS = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
]
/** The calendar's title of a month ('Diciembre de 2026'). */
const monthTitle = (month: string) => {
  const name = MONTHS[Number(month.slice(5)) - 1] as string
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} de ${month.slice(0, 4)}`
}

/** The month after this one (YYYY-MM), so the grid opens on this month and the click moves to the measured one. */
const measuredMonth = addMonthsToMonth(madridDay(new Date()), 1).slice(0, 7)

interface Seeded {
  admin: string
  viviendaId: number
  trabajadorId: number
  empresaId: number
}

async function seed(db: Db): Promise<Seeded> {
  await db.execute(sql`insert into empresas (nombre) select 'Empresa ' || g from generate_series(1, 3) g`)
  await db.execute(
    sql.raw(`
    insert into viviendas (nombre, empresa_id)
    select 'Calle Presupuesto ' || h, e.ids[1 + h % 3] from generate_series(1, ${HOMES}) h, (select array_agg(id order by id) ids from empresas) e`),
  )
  await db.execute(
    sql.raw(`
    insert into presupuestos (descripcion, precio, fecha_prevista, estado, vivienda_id)
    select (${bench.sqlArray(WORDS)})[1 + g % 10] || ' número ' || g, ((g * 37) % 500000 + 100) / 100.0,
           now() + ((g % 400) - 100 || ' days')::interval,
           (array['PENDIENTE_APROBACION', 'APROBADO', 'REALIZADO'])[1 + (g / ${HOMES}) % 3],
           v.min_id + g % ${HOMES}
      from generate_series(0, ${BUDGETS - 1}) g, (select min(id) min_id from viviendas) v`),
  )
  const empresaIds = await bench.companyIds(db)
  await bench.insertWorkers(db, [
    { email: 'bench-daily-admin@demo.es', rol: 'ADMIN', apellidos: 'Admin', empresaIds: empresaIds.slice(0, 2) },
  ])
  const workers = await bench.insertWorkers(
    db,
    Array.from({ length: WORKERS }, (_, i) => ({
      email: `bench-daily-${i}@demo.es`,
      rol: 'EMPLEADO' as const,
      apellidos: `Trabajador ${i}`,
      nif: `${10_000_000 + i}${nifCheckLetter(10_000_000 + i)}`,
      empresaIds: [empresaIds[i % 3] as number],
    })),
    { passwordHash: 'x' },
  )
  // Each worker's tasks in homes of its company: worker i belongs to company i % 3, like the homes h % 3.
  await db.execute(
    sql.raw(`
    insert into tareas_trabajador (titulo, descripcion, fecha, prioridad, completada, vivienda_id, trabajador_id)
    select 'Tarea ' || g, 'Descripción de la tarea ' || g, now() + ((g % 60) - 20 || ' days')::interval,
           (array['ALTA', 'MEDIA', 'BAJA'])[1 + g % 3], g % 3 = 0,
           h.ids[1 + (g / ${WORKERS}) % array_length(h.ids, 1)], w.ids[1 + g % ${WORKERS}]
      from generate_series(0, ${TASKS - 1}) g
      cross join (select array_agg(id order by id) ids from trabajadores where email like 'bench-daily-%@demo.es' and rol = 'EMPLEADO') w
      cross join lateral (
        select array_agg(v.id order by v.id) ids from viviendas v
         where v.empresa_id = (select te.empresa_id from trabajador_empresas te where te.trabajador_id = w.ids[1 + g % ${WORKERS}])
      ) h`),
  )
  // The calendar: 20 residents of the first company, and 5,000 tasks over the measured month.
  const [first] = await bench.rowsOf(db, sql`select min(id) as id from viviendas where empresa_id = ${empresaIds[0]}`)
  await db.execute(
    sql.raw(`
    insert into usuarios (nombre, apellidos, nif, vivienda_id)
    select 'Residente', 'Planing ' || g, (40000000 + g)::text || substr('TRWAGMYFPDXBNJZSQVHLCKE', ((40000000 + g) % 23)::int + 1, 1), ${Number(first?.id)}
      from generate_series(1, 20) g`),
  )
  const start = `${measuredMonth}-01`
  const days = Number(addDays(addMonthsToMonth(start, 1), -1).slice(8))
  await db.execute(
    sql.raw(`
    insert into planing_tareas (fecha, titulo, descripcion, notificable, empresa_id, todos)
    select (timestamp '${start} 07:00' + ((g % ${days}) || ' days')::interval + ((g * 7) % 780 || ' minutes')::interval) at time zone 'Europe/Madrid',
           'Tarea del planing ' || g, 'Descripción ' || g, false, ${empresaIds[0]}, g % 50 = 0
      from generate_series(1, ${MONTH_TASKS}) g`),
  )
  await db.execute(
    sql.raw(`
    insert into planing_tarea_usuarios (tarea_id, usuario_id)
    select p.id, u.ids[1 + p.id % 20] from planing_tareas p, (select array_agg(id order by id) ids from usuarios) u`),
  )
  await db.execute(sql`vacuum analyze`)
  const [home] = await bench.rowsOf(db, sql`select min(id) as id from viviendas where empresa_id = ${empresaIds[0]}`)
  const worker = workers[0] as { id: number }
  return {
    admin: 'bench-daily-admin@demo.es',
    viviendaId: Number(home?.id),
    trabajadorId: worker.id,
    empresaId: empresaIds[0] as number,
  }
}

/** The month of 5,000 tasks rendered in Chromium: `renders` timed switches from the previous month. */
async function renderMonth(base: string, token: string, empresaId: number) {
  const me = await (await fetch(`${base}/api/trabajadores/me`, { headers: { authorization: `Bearer ${token}` } })).json()
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  })
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'es-ES', timezoneId: 'Europe/Madrid' })
    await page.goto(`${base}/api/openapi.json`)
    await page.evaluate(setSession, { token, trabajador: me, empresaId })
    const previous = addMonthsToMonth(`${measuredMonth}-01`, -1).slice(0, 7)
    const target = { day: `${measuredMonth}-15`, title: monthTitle(measuredMonth) }
    const results: Array<{ total: number; render: number; chips: number }> = []
    for (let i = 0; i < RENDERS + 1; i++) {
      await page.goto(`${base}/planing?mes=${previous}`)
      await page.waitForSelector('table.vb-calendar')
      await page.waitForFunction('!document.querySelector(\'[aria-busy="true"]\')')
      const r = await page.evaluate(timeMonthSwitch, target)
      // The first switch also loads the page's code: not counted.
      if (i > 0) results.push(r)
    }
    return { results, version: browser.version() }
  } finally {
    await browser.close()
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
      sql`select pg_database_size(current_database()) as b, (select count(*) from presupuestos) as p, (select count(*) from tareas_trabajador) as t, (select count(*) from planing_tareas) as c`,
    )
    out.push(
      `- seeded ${HOMES.toLocaleString('en')} homes, ${Number(size?.p).toLocaleString('en')} budgets, ${Number(size?.t).toLocaleString('en')} worker tasks of ${WORKERS} workers, ${Number(size?.c).toLocaleString('en')} calendar tasks in ${measuredMonth} in ${((performance.now() - t0) / 1000).toFixed(1)} s with VACUUM ANALYZE; database ${Math.round(Number(size?.b) / 1048576)} MB`,
    )
    console.log(out.slice(2).join('\n'))
    const capture = bench.captureSql(db)
    const { base } = await session.startApp()
    const token = await bench.login(base, seeded.admin)
    const headers = { authorization: `Bearer ${token}` }

    const urls = [
      {
        name: 'one home’s budgets in one state',
        path: `/api/presupuestos?viviendaId=${seeded.viviendaId}&estado=PENDIENTE_APROBACION&page=1&pageSize=10`,
      },
      {
        name: 'one worker’s pending tasks',
        path: `/api/tareas-trabajador?trabajadorId=${seeded.trabajadorId}&completada=false&page=1&pageSize=12&sort=fecha&order=asc`,
      },
    ]
    const rows: Array<Array<string>> = []
    for (const u of urls) {
      const probe = await capture.record(base + u.path, headers)
      if (probe.res.status !== 200) throw new Error(`${u.path} answered ${probe.res.status}: ${probe.body}`)
      const items = JSON.parse(probe.body) as unknown[]
      out.push(
        `- \`${u.path}\`: ${items.length} rows of X-Total-Count ${probe.res.headers.get('x-total-count')}; ${probe.statements.length} statements per request`,
      )
      const main = probe.statements.find((c) => /from "(presupuestos|tareas_trabajador)"/.test(c.text) && /limit/.test(c.text))
      if (main) {
        console.log(`\n---- EXPLAIN (ANALYZE, BUFFERS): ${u.name} ----`)
        for (const line of await capture.explain(main)) console.log(`  ${line}`)
      }
      console.log(`\n${u.name}:`)
      const { seq, app, pg } = await bench.measureUrl(
        base + u.path,
        token,
        { target: session.target, statements: probe.statements, warmUp: true, settleMs: 1500 },
        LOAD,
      )
      const ratio = app.rps / pg.rps
      const errors = app.non2xx || app.errors ? ` (${app.non2xx} non-2xx, ${app.errors} errors)` : ''
      rows.push([
        u.name,
        `${bench.ms(seq.p50)} / **${bench.ms(seq.p95)}**`,
        `${Math.round(app.rps)}${errors}, p95 ${bench.ms(app.p95)} ms`,
        `${Math.round(pg.rps)}, p95 ${bench.ms(pg.p95)} ms`,
        `**${ratio.toFixed(2)}**`,
        bench.yesNo(seq.p95 < TARGET_P95_MS && ratio >= TARGET_RATIO),
      ])
    }

    const desde = addDays(`${measuredMonth}-01`, -((new Date(`${measuredMonth}-01T12:00:00Z`).getUTCDay() + 6) % 7))
    const calendarPath = `/api/planing-tareas/calendario?desde=${desde}&hasta=${addDays(desde, 41)}&empresaId=${seeded.empresaId}`
    const cal = await bench.sequential(base + calendarPath, token, 100)
    const calBody = (await (await fetch(base + calendarPath, { headers })).json()) as Array<{ total: number; tareas: unknown[] }>
    out.push(
      `- calendar month \`${calendarPath.split('?')[0]}\` of ${calBody.reduce((n, d) => n + d.total, 0).toLocaleString('en')} tasks (${calBody.length} days, ${calBody.reduce((n, d) => n + d.tareas.length, 0)} tasks sent): 1 user p50 / p95 ${bench.ms(cal.p50)} / ${bench.ms(cal.p95)} ms`,
    )
    out.push(
      '',
      bench.markdownTable(
        [
          ['URL (ADMIN of 2 of 3 companies)', 'left'],
          ['1 user p50 / p95 (ms)', 'right'],
          [`${LOAD.connections} conns req/s`, 'right'],
          [`same SQL via pg, ${LOAD.connections} loops`, 'right'],
          ['app / pg', 'right'],
          [`p95 < ${TARGET_P95_MS} ms and ratio ≥ ${TARGET_RATIO}`, 'center'],
        ],
        rows,
      ),
    )

    if (args.web && engine === 'embedded') {
      const webDist = path.resolve(import.meta.dirname, '../../web/dist')
      const app = await buildApp({
        db,
        listen: session.database.listen,
        jwtSecret: 'bench-secret-not-for-production',
        uploadsDir: session.uploadsDir,
        webDist,
      })
      await app.listen({ port: 0, host: '127.0.0.1' })
      try {
        const address = app.server.address()
        const webBase = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
        process.stdout.write(`\nrendering the month of ${MONTH_TASKS} tasks in Chromium, ${RENDERS} times… `)
        const { results: renders, version } = await renderMonth(
          webBase,
          await bench.login(webBase, seeded.admin),
          seeded.empresaId,
        )
        const total = bench.stats(renders.map((r) => r.total))
        const render = bench.stats(renders.map((r) => r.render))
        console.log(`p95 ${bench.ms(total.p95)} ms`)
        out.push(
          '',
          `- /planing at 1440 px in Chromium ${version}: the month of ${MONTH_TASKS.toLocaleString('en')} tasks shown as ${renders[0]?.chips} task chips (3 a day, the rest '+N más'), ${RENDERS} switches from the previous month:`,
          '',
          bench.markdownTable(
            [
              ['measure (performance API in the page)', 'left'],
              ['p50 / p95 / max (ms)', 'right'],
              ['target', 'right'],
              ['met', 'center'],
            ],
            [
              [
                'click → month painted (calendar call included)',
                `${bench.ms(total.p50)} / **${bench.ms(total.p95)}** / ${bench.ms(total.max)}`,
                `< ${TARGET_RENDER_MS} ms`,
                bench.yesNo(total.p95 < TARGET_RENDER_MS),
              ],
              [
                'calendar answer received → month painted (render only)',
                `${bench.ms(render.p50)} / **${bench.ms(render.p95)}** / ${bench.ms(render.max)}`,
                '',
                '',
              ],
            ],
          ),
        )
      } finally {
        await app.close()
      }
    }
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
