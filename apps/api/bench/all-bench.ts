/**
 * `npm run bench:all`: the whole product at a large operator's size, every screen's first call, on each engine.
 *
 * 1. Seeds, set-based (multi-row INSERT … SELECT from generate_series, in chunks): 20 companies, 2,000 homes,
 *    100,000 residents, 200,000 documents, 1,000,000 cash movements, 1,000,000 log entries, 200,000 budgets,
 *    200 workers with 50,000 tasks and 100,000 calendar tasks (`--scale` multiplies the sizes, for a quick look).
 * 2. Starts the real app (buildApp) on a local port and, per call, at 1, 10 and 50 connections (autocannon in a
 *    child process): requests/s, p50, p95, p99 and errors. In the same run, two ceilings at the same concurrency:
 *    the framework's (an authenticated route that does nothing else: the token, its worker (kept in memory,
 *    lib/live-cache.ts, read once), Fastify) and the database's (the very statements one request of the call sent, captured at the driver,
 *    replayed through `pg` on a pool of the app's size, no HTTP, in a child process). Each call's throughput is
 *    printed as a fraction of both, and of the two in series (1 / (1/pg + 1/framework): the statements and an empty
 *    request one after the other, what a call costs at least; shown, not budgeted, docs/performance.md). The call
 *    and its database ceiling take turns (call, ceiling, call, ceiling,
 *    half the duration each), so that a slow spell of the shared machine falls on both; a call that sends no
 *    statement takes turns with the framework ceiling instead. Both sides are warm before the first of them: the
 *    call and its ceiling each run for WARM_SECONDS untimed, and the ceiling's process serves all of the call's
 *    runs (a ceiling started afresh for each run was measured with its driver's code not yet optimised).
 * 3. The statement PDF of a month and the CSV of 100,000 log entries are files: 3 runs each, time and rows/s.
 * 4. The budget at 10 connections: p99 < 50 ms, no error, at least half the database ceiling (for a call that
 *    sends no statement, half the framework ceiling), the process
 *    under 300 MB RSS at that level (the process holds the app: autocannon and the database ceiling run in child
 *    processes; the peak at any level, 50 connections included, is printed beside it). Login is outside it: scrypt
 *    costs ~70 ms of CPU and 32 MB per hash on purpose.
 *
 * Results: the Markdown tables on stdout, `bench/results/all.json`, and one SVG chart per call in
 * `bench/results/all/` (requests/s and p95 against connections, both engines, with the ceilings).
 *
 *   npm run bench:all -- --engine embedded|pg|both --duration 5 --levels 1,10,50 --scale 1 [--keep]
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import type { Db } from '../src/db/client'
import { usuarios } from '../src/db/schema'
import { loadedTrigramCounts } from '../src/lib/trigram-counts'
import * as bench from './harness'

const ROOT = path.resolve(import.meta.dirname, '../../..')
const args = bench.commandLine(
  'npm run bench:all -- --engine embedded|pg|both --duration 5 --levels 1,10,50 --scale 1 [--keep]',
  {
    ...bench.ENGINE_OPTIONS,
    duration: { type: 'string', default: '5', help: 'seconds of each load run and of each ceiling run' },
    levels: { type: 'string', default: '1,10,50', help: 'connections of each run, comma-separated' },
    scale: { type: 'string', default: '1', help: 'multiplies every size (1 = the large operator)' },
    out: { type: 'string', default: 'bench/results', help: 'where all.json and the charts go' },
    'seed-only': { type: 'boolean', default: false, help: 'seed, keep the database, say where it is, and stop' },
    calls: { type: 'string', default: '', help: 'only these calls (keys, comma-separated; the framework ceiling always runs)' },
    pool: { type: 'string', default: '10', help: "the app's pool (DB_POOL_SIZE), and the database ceiling's" },
    'engine-result': { type: 'string', default: '', help: 'internal: one engine, its result written to this file' },
  },
)
const ENGINES = bench.parseEngines(String(args.engine))
const DURATION = bench.numberOption(args, 'duration')
const LEVELS = String(args.levels)
  .split(',')
  .map((v) => Number(v))
  .filter((v) => v > 0)
const SCALE = Number(args.scale)
const CHOSEN = String(args.calls).split(',').filter(Boolean)
/** `--calls`: a run of some calls, to try a change; the table of the documentation is a run of all. */
const chosen = (call: { key: string }) => CHOSEN.length === 0 || call.key === 'techo' || CHOSEN.includes(call.key)
const POOL = bench.numberOption(args, 'pool')
const BUDGET = { p99: 50, ratio: 0.5, rssMb: 300, at: 10 }
/** Each level's duration is measured in this many slices, interleaved with the ceiling's. */
const SLICES = 2
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length

/** Slices of equal duration as one run: their mean throughput, and the percentiles of all their latencies. */
function merged(loads: bench.LoadResult[]): bench.LoadResult {
  const latencies = loads.flatMap((l) => l.latencies ?? [])
  const { p50, p95, p99 } = bench.stats(latencies)
  return {
    requests: loads.reduce((n, l) => n + l.requests, 0),
    rps: mean(loads.map((l) => l.rps)),
    p50,
    p95,
    p99,
    non2xx: loads.reduce((n, l) => n + l.non2xx, 0),
    errors: loads.reduce((n, l) => n + l.errors, 0),
  }
}

const n = (full: number, min = 1) => Math.max(min, Math.round(full * SCALE))
const SIZE = {
  companies: 20,
  homes: n(2000, 20),
  residents: n(100_000, 200),
  documents: n(200_000, 400),
  movements: n(1_000_000, 2000),
  logs: n(1_000_000, 2000),
  budgets: n(200_000, 400),
  workers: 200,
  tasks: n(50_000, 500),
  calendar: n(100_000, 1000),
}

// 40 first names and 40 surnames, combined independently (mixed radix on the row number), so that a full name
// matches about 1 resident in 1,600, as in a real office, and a common surname about 1 in 20.
const NOMBRES = [
  'Ana',
  'José',
  'María',
  'Antonio',
  'Carmen',
  'Manuel',
  'Lucía',
  'Francisco',
  'Isabel',
  'Javier',
  'Dolores',
  'David',
  'Pilar',
  'Daniel',
  'Teresa',
  'Carlos',
  'Rosa',
  'Miguel',
  'Cristina',
  'Rafael',
  'Marta',
  'Pedro',
  'Laura',
  'Alejandro',
  'Elena',
  'Fernando',
  'Raquel',
  'Pablo',
  'Sara',
  'Jorge',
  'Mercedes',
  'Luis',
  'Beatriz',
  'Alberto',
  'Julia',
  'Sergio',
  'Nuria',
  'Ramón',
  'Silvia',
  'Enrique',
]
const APELLIDOS = [
  'García',
  'Fernández',
  'González',
  'Rodríguez',
  'López',
  'Martínez',
  'Sánchez',
  'Pérez',
  'Gómez',
  'Martín',
  'Jiménez',
  'Ruiz',
  'Hernández',
  'Díaz',
  'Moreno',
  'Muñoz',
  'Álvarez',
  'Romero',
  'Alonso',
  'Gutiérrez',
  'Navarro',
  'Torres',
  'Domínguez',
  'Vázquez',
  'Ramos',
  'Gil',
  'Ramírez',
  'Serrano',
  'Blanco',
  'Molina',
  'Morales',
  'Suárez',
  'Ortega',
  'Delgado',
  'Castro',
  'Ortiz',
  'Rubio',
  'Marín',
  'Sanz',
  'Núñez',
]
const NIF_LETTERS = `'TRWAGMYFPDXBNJZSQVHLCKE'`

interface Seeded {
  admin: string
  superadmin: string
  empresaId: number
  viviendaId: number
  usuarioId: number
  nif: string
  trabajadorId: number
  /** A day of the log, and a range holding about 100,000 entries. */
  logDay: string
  csvRange: { desde: string; hasta: string; rows: number }
  month: { desde: string; hasta: string; movements: number }
}

const madridDay = (d: Date) => d.toLocaleDateString('sv-SE', { timeZone: 'Europe/Madrid' })

async function exec(db: Db, text: string) {
  await db.execute(sql.raw(text))
}

/** A non-negative pseudo-random number from a row number (PostgreSQL's integer hash). */
const spread = (column: string) => `(hashint4(${column})::bigint & 2147483647)`

async function seed(db: Db): Promise<Seeded> {
  const t0 = performance.now()
  const step = (what: string) => process.stdout.write(`${what} (${((performance.now() - t0) / 1000).toFixed(0)} s)… `)
  await exec(db, `insert into empresas (nombre) select 'Empresa ' || g from generate_series(1, ${SIZE.companies}) g`)
  await exec(
    db,
    `insert into viviendas (nombre, empresa_id)
     select 'Calle ' || (${bench.sqlArray(APELLIDOS)})[1 + ${spread('h')} % 40] || ', ' || h, e.ids[1 + h % ${SIZE.companies}]
       from generate_series(0, ${SIZE.homes - 1}) h, (select array_agg(id order by id) ids from empresas) e`,
  )
  step('homes')
  // Residents spread over the homes at random (a hash of the row number: names, grade and company independent,
  // as in an office, so that an ADMIN of half the companies meets its residents all along any sort order);
  // unique NIFs with their check letter.
  await exec(
    db,
    `insert into usuarios (nombre, apellidos, nif, grado_dependencia, vivienda_id)
     select (${bench.sqlArray(NOMBRES)})[1 + (g / 40) % 40],
            (${bench.sqlArray(APELLIDOS)})[1 + g % 40] || ' ' || (${bench.sqlArray(APELLIDOS)})[1 + (g / 1600) % 40],
            k::text || substr(${NIF_LETTERS}, (k % 23)::int + 1, 1), (array['PVS', 'PEI', null])[1 + g % 3],
            v.min_id + ${spread('g')} % ${SIZE.homes}
       from generate_series(0, ${SIZE.residents - 1}) g cross join lateral (select 10000000 + g * 73 as k) nif,
            (select min(id) min_id from viviendas) v`,
  )
  step('residents')
  // Two documents a resident: its PIR (some expired, some about to) and a report.
  await exec(
    db,
    `insert into documentos_usuario (titulo, archivo_url, fecha, usuario_id)
     select case when g % 2 = 0 then 'PIR' else 'Informe social ' || g end, 'https://example.org/doc/' || g,
            now() - ((g * 13) % 700 || ' days')::interval, u.min_id + (g / 2) % ${SIZE.residents}
       from generate_series(0, ${SIZE.documents - 1}) g, (select min(id) min_id from usuarios) u`,
  )
  step('documents')
  const chunk = 250_000
  for (let from = 0; from < SIZE.movements; from += chunk) {
    const to = Math.min(SIZE.movements, from + chunk) - 1
    await exec(
      db,
      `insert into caja_usuario (concepto, cantidad, fecha, usuario_id)
       select 'Movimiento ' || g, (case when (g * 37) % 9999 = 4999 then 1 else (g * 37) % 9999 - 4999 end) / 100.0,
              now() - ((g % 1800) || ' days')::interval - ((g % 1440) || ' minutes')::interval,
              u.min_id + g % ${SIZE.residents}
         from generate_series(${from}, ${to}) g, (select min(id) min_id from usuarios) u`,
    )
  }
  step('cash')
  await exec(
    db,
    `insert into presupuestos (descripcion, precio, fecha_prevista, estado, vivienda_id)
     select 'Presupuesto ' || g, ((g * 37) % 500000 + 100) / 100.0,
            now() + (((g / ${SIZE.homes}) * 37 + g) % 400 - 100 || ' days')::interval,
            (array['PENDIENTE_APROBACION', 'APROBADO', 'REALIZADO'])[1 + (g / ${SIZE.homes}) % 3],
            v.min_id + g % ${SIZE.homes}
       from generate_series(0, ${SIZE.budgets - 1}) g, (select min(id) min_id from viviendas) v`,
  )
  step('budgets')
  const empresaIds = await bench.companyIds(db)
  const [admin] = await bench.insertWorkers(db, [
    { email: 'bench-all-admin@demo.es', rol: 'ADMIN', apellidos: 'Admin', nif: '00000002W', empresaIds: empresaIds.slice(0, 10) },
    { email: 'bench-all-super@demo.es', rol: 'SUPERADMIN', apellidos: 'Super', nif: '00000001R', empresaIds },
  ])
  const staff = await bench.insertWorkers(
    db,
    Array.from({ length: SIZE.workers }, (_, i) => ({
      email: `bench-all-${i}@demo.es`,
      rol: 'EMPLEADO' as const,
      nombre: NOMBRES[i % 10] as string,
      apellidos: `${APELLIDOS[((i / 10) % 10) | 0]} ${i}`,
      nif: `${20_000_000 + i}${'TRWAGMYFPDXBNJZSQVHLCKE'[(20_000_000 + i) % 23]}`,
      empresaIds: [empresaIds[i % SIZE.companies] as number],
    })),
    { passwordHash: 'x' },
  )
  // Each worker's tasks in homes of its company (worker i and home h share company i % 20 and h % 20).
  await exec(
    db,
    `insert into tareas_trabajador (titulo, descripcion, fecha, prioridad, completada, vivienda_id, trabajador_id)
     select 'Tarea ' || g, 'Descripción de la tarea ' || g, now() + ((g % 60) - 20 || ' days')::interval,
            (array['ALTA', 'MEDIA', 'BAJA'])[1 + g % 3], g % 3 = 0,
            v.min_id + ((g % ${SIZE.workers}) % ${SIZE.companies}) + ${SIZE.companies} * ((g / ${SIZE.workers}) % (${SIZE.homes} / ${SIZE.companies})),
            w.ids[1 + g % ${SIZE.workers}]
       from generate_series(0, ${SIZE.tasks - 1}) g, (select min(id) min_id from viviendas) v,
            (select array[${staff.map((w) => w.id).join(',')}] ids) w`,
  )
  step('worker tasks')
  // Calendar tasks over 1,000 days around today, each for one resident of its company (one in 50 for all, below).
  await exec(
    db,
    `insert into planing_tareas (fecha, titulo, descripcion, notificable, empresa_id, todos)
     select now() - interval '900 days' + ((g * 1000.0 / ${SIZE.calendar}) || ' days')::interval + ((g * 7) % 780 || ' minutes')::interval,
            'Tarea del planing ' || g, 'Descripción ' || g, g % 10 = 0, e.ids[1 + g % ${SIZE.companies}], g % 50 = 0
       from generate_series(0, ${SIZE.calendar - 1}) g, (select array_agg(id order by id) ids from empresas) e`,
  )
  await exec(
    db,
    `insert into planing_tarea_usuarios (tarea_id, usuario_id)
     select p.id, u.id from planing_tareas p
       cross join lateral (select u.id from usuarios u join viviendas v on v.id = u.vivienda_id
                            where v.empresa_id = p.empresa_id and u.id >= (select min(id) from usuarios) + (p.id * 37) % ${SIZE.residents}
                            order by u.id limit 1) u
      where not p.todos`,
  )
  // A task for everyone holds every resident of its company, as the app stores 'all' (SPEC §7): about 5,000
  // links per task. Those of the last 60 days and the future (about 320 tasks, 1.6 million links), where the
  // calendar month read below falls; older ones are left without, to keep the seed in minutes.
  await exec(
    db,
    `insert into planing_tarea_usuarios (tarea_id, usuario_id)
     select p.id, u.id from planing_tareas p
       join viviendas v on v.empresa_id = p.empresa_id
       join usuarios u on u.vivienda_id = v.id
      where p.todos and p.fecha >= now() - interval '60 days'`,
  )
  step('calendar')
  await exec(
    db,
    `insert into notificaciones (titulo, descripcion, tipo, trabajador_id, fecha_notificacion)
     select 'Aviso ' || g, 'Notificación número ' || g, 'info', ${admin?.id}, now() - (g || ' hours')::interval
       from generate_series(1, 100) g`,
  )
  // The log: a year of entries by the workers, half of them about a home, each change with the values the app
  // writes for it (bench.seededLogDatos).
  await exec(db, 'drop index logs_busqueda_trgm_idx')
  const perEntry = (365 * 86_400) / SIZE.logs
  for (let from = 0; from < SIZE.logs; from += chunk) {
    const to = Math.min(SIZE.logs, from + chunk) - 1
    await exec(
      db,
      `insert into logs (fecha, trabajador_id, trabajador_email, trabajador_nombre, trabajador_apellidos, accion, url, tipo,
                         descripcion, vivienda_id, vivienda_nombre, usuario_id, datos)
       select now() - (g * ${perEntry}) * interval '1 second', w.ids[1 + g % ${SIZE.workers}],
              'bench-all-' || (g % ${SIZE.workers}) || '@demo.es', 'Trabajador', 'Número ' || (g % ${SIZE.workers}),
              (array['Inicio de sesión', 'Modificar usuario', 'Crear documento', 'Crear movimiento de caja'])[1 + g % 4],
              (array['/', '/usuarios', '/documentacion', '/caja'])[1 + g % 4],
              (array['success', 'warning', 'success', 'success'])[1 + g % 4],
              'Registro ' || g, case when g % 2 = 0 then v.min_id + g % ${SIZE.homes} end,
              case when g % 2 = 0 then 'Calle ' || (g % ${SIZE.homes}) end, null,
              ${bench.seededLogDatos(`(array['Inicio de sesión', 'Modificar usuario', 'Crear documento', 'Crear movimiento de caja'])[1 + g % 4]`, 'g')}
         from generate_series(${from}, ${to}) g, (select min(id) min_id from viviendas) v,
              (select array[${staff.map((w) => w.id).join(',')}] ids) w`,
    )
  }
  await exec(db, 'create index logs_busqueda_trgm_idx on logs using gin (busqueda gin_trgm_ops)')
  step('log')
  await exec(db, 'vacuum analyze')
  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`)

  // What the calls look at: the first company's first home, its first resident, its first worker.
  const [home] = await bench.rowsOf(db, sql`select min(id) as id from viviendas where empresa_id = ${empresaIds[0]}`)
  const [resident] = await bench.rowsOf(db, sql`select id, nif from usuarios where vivienda_id = ${home?.id} order by id limit 1`)
  const worker = staff[0] as { id: number }
  const now = new Date()
  const logDay = madridDay(new Date(now.getTime() - 2 * 86_400_000))
  // About 100,000 entries: as many days back as that takes, up to yesterday. Not today: the run's own writes (a
  // cash movement created, the logins, the CSV's downloads) log entries today, which the file would hold beyond
  // the count taken here (before 2026-11-28 03:00 it did: its rows/s were counted on fewer rows than it wrote).
  const days = Math.max(1, Math.round((100_000 / SIZE.logs) * 365))
  const desde = madridDay(new Date(now.getTime() - (days + 1) * 86_400_000))
  const hasta = madridDay(new Date(now.getTime() - 86_400_000))
  const [csv] = await bench.rowsOf(
    db,
    sql`select count(*)::int as n from logs
         where fecha >= (${desde}::date)::timestamp at time zone 'Europe/Madrid'
           and fecha < (${hasta}::date + 1)::timestamp at time zone 'Europe/Madrid'`,
  )
  const monthStart = new Date(now.getFullYear(), now.getMonth() - 1, 1)
  const month = {
    desde: madridDay(new Date(monthStart.getTime() + 12 * 3_600_000)),
    hasta: madridDay(new Date(now.getFullYear(), now.getMonth(), 0, 12)),
  }
  // The measured resident is a busy one: 300 movements in the month of its statement.
  await exec(
    db,
    `insert into caja_usuario (concepto, cantidad, fecha, usuario_id)
     select 'Compra del mes ' || g, (case when g % 7 = 0 then 50 else -((g * 37) % 2000 + 1) / 100.0 end),
            ('${month.desde}'::date + ((g * 2) % 28 || ' days')::interval + interval '9 hours' + (g || ' minutes')::interval) at time zone 'Europe/Madrid',
            ${resident?.id}
       from generate_series(1, 300) g`,
  )
  const [inMonth] = await bench.rowsOf(
    db,
    sql`select count(*)::int as n from caja_usuario where usuario_id = ${resident?.id}
          and fecha >= (${month.desde}::date)::timestamp at time zone 'Europe/Madrid'
          and fecha < (${month.hasta}::date + 1)::timestamp at time zone 'Europe/Madrid'`,
  )
  return {
    admin: 'bench-all-admin@demo.es',
    superadmin: 'bench-all-super@demo.es',
    empresaId: empresaIds[0] as number,
    viviendaId: Number(home?.id),
    usuarioId: Number(resident?.id),
    nif: String(resident?.nif),
    trabajadorId: worker.id,
    logDay,
    csvRange: { desde, hasta, rows: Number(csv?.n) },
    month: { ...month, movements: Number(inMonth?.n) },
  }
}

// ---------------------------------------------------------------- the calls

interface Call {
  key: string
  label: string
  path: string
  as: 'admin' | 'superadmin'
  method?: 'GET' | 'POST'
  body?: unknown
  /** A different path per request (a search with a new term each time: the count cache cannot help). */
  paths?: string[]
  /** Not a budget call: a ceiling. */
  ceiling?: boolean
}

function calls(s: Seeded): Call[] {
  const page = 'page=1&pageSize=20'
  const terms = NOMBRES.flatMap((nombre) => APELLIDOS.map((apellido) => `${nombre} ${apellido}`))
  const firstOf = new Date(`${s.month.desde}T12:00:00Z`)
  const gridStart = new Date(firstOf.getTime() - ((firstOf.getUTCDay() + 6) % 7) * 86_400_000)
  const gridEnd = new Date(gridStart.getTime() + 41 * 86_400_000)
  const day = (d: Date) => d.toISOString().slice(0, 10)
  return [
    {
      key: 'techo',
      label: 'framework ceiling: an authenticated route, nothing else',
      path: '/api/bench/techo',
      as: 'admin',
      ceiling: true,
    },
    {
      key: 'login',
      label: 'login (scrypt, outside the budget)',
      path: '/api/auth/trabajadores/login',
      as: 'admin',
      method: 'POST',
      body: { email: s.admin, password: bench.BENCH_PASSWORD },
    },
    {
      key: 'usuarios-buscar',
      label: 'residents: search (same term, count cached)',
      path: `/api/usuarios?q=garcia&${page}`,
      as: 'admin',
    },
    {
      key: 'usuarios-buscar-sin-cache',
      label: 'residents: search (a new term each request, no cache)',
      path: `/api/usuarios?q=${encodeURIComponent(terms[0] as string)}&${page}`,
      paths: terms.map((t) => `/api/usuarios?q=${encodeURIComponent(t)}&${page}`),
      as: 'admin',
    },
    ...['nombre', 'apellidos', 'nif', 'gradoDependencia', 'vivienda'].map(
      (sort): Call => ({
        key: `usuarios-orden-${sort}`,
        label: `residents: sorted by ${sort}`,
        path: `/api/usuarios?sort=${sort}&order=asc&${page}`,
        as: 'admin',
      }),
    ),
    {
      key: 'documentos',
      label: 'documents of a resident',
      path: `/api/documentos-usuario?nif=${s.nif}&page=1&pageSize=10`,
      as: 'admin',
    },
    { key: 'caja', label: 'cash: page and balance', path: `/api/caja-usuario?nif=${s.nif}&page=1&pageSize=10`, as: 'admin' },
    { key: 'trabajadores', label: 'workers', path: `/api/trabajadores?${page}`, as: 'admin' },
    // The log screen's first page (its default size is 25 entries, logs-page.tsx), not 50 as before 2026-11-27.
    {
      key: 'logs',
      label: 'logs: one day',
      path: `/api/logs?fecha=${s.logDay}&sort=fecha&order=desc&page=1&pageSize=25`,
      as: 'superadmin',
    },
    {
      key: 'calendario',
      label: 'calendar month',
      path: `/api/planing-tareas/calendario?desde=${day(gridStart)}&hasta=${day(gridEnd)}&empresaId=${s.empresaId}`,
      as: 'admin',
    },
    {
      key: 'tareas',
      label: "a worker's pending tasks",
      path: `/api/tareas-trabajador?trabajadorId=${s.trabajadorId}&completada=false&page=1&pageSize=12&sort=fecha&order=asc`,
      as: 'admin',
    },
    {
      key: 'presupuestos',
      label: "a home's budgets, one state",
      path: `/api/presupuestos?viviendaId=${s.viviendaId}&estado=PENDIENTE_APROBACION&page=1&pageSize=10`,
      as: 'admin',
    },
    // What the budgets screen asks first (presupuestos-page.tsx: the company chosen in the top bar, by planned
    // date, 10 a page); the call above is the issue's, a home in one state.
    {
      key: 'presupuestos-empresa',
      label: "a company's budgets by date",
      path: `/api/presupuestos?empresaId=${s.empresaId}&sort=fechaPrevista&order=asc&page=1&pageSize=10`,
      as: 'admin',
    },
    { key: 'notificaciones', label: 'notification poll', path: '/api/notificaciones', as: 'admin' },
    {
      key: 'caja-crear',
      label: 'cash movement created',
      path: '/api/caja-usuario',
      as: 'admin',
      method: 'POST',
      body: { concepto: 'Compra de la prueba de carga', cantidad: '1.25', fecha: day(new Date()), usuarioId: s.usuarioId },
    },
    { key: 'inicio', label: "/inicio's pending counts", path: `/api/inicio/pendientes?empresaId=${s.empresaId}`, as: 'admin' },
  ]
}

// ---------------------------------------------------------------- measuring

interface Point {
  connections: number
  rps: number
  p50: number
  p95: number
  p99: number
  errors: number
  /** The same statements through pg at the same concurrency (pool of POOL). */
  db?: { rps: number; p95: number }
  /** The framework ceiling at the same concurrency. */
  framework?: number
  rssMb: number
}
interface CallResult {
  key: string
  label: string
  path: string
  statements: number
  points: Point[]
}
interface FileResult {
  label: string
  rows: number
  ms: number[]
  rowsPerSecond: number
  bytes: number
}
interface EngineResult {
  engine: bench.Engine
  describe: string
  seedSeconds: number
  /** The peak RSS at the budget's level (BUDGET.at connections), login excepted: what the budget holds. */
  peakRssAtBudgetMb: number
  /** The peak RSS at any level (50 connections included), login excepted: reported, not budgeted. */
  peakRssMb: number
  calls: CallResult[]
  files: FileResult[]
}

// The process's RSS, sampled every 100 ms: the app's (autocannon and the database ceiling run in child
// processes). `peakRss` is the peak of the budgeted calls at any level, `peakAtBudget` at the budget's level (the
// budget: "at 10 connections … the API under 300 MB"); `levelPeak` that of the current load run.
let peakRss = 0
let peakAtBudget = 0
let levelPeak = 0
const rssNow = () => {
  const rss = process.memoryUsage().rss
  if (rss > levelPeak) levelPeak = rss
  return rss
}

async function benchEngine(engine: bench.Engine): Promise<EngineResult> {
  console.log(`\n######## ${bench.ENGINE_NAMES[engine]} ########`)
  return bench.withEngine(engine, { keep: args.keep || args['seed-only'], pool: POOL }, async (session) => {
    console.log(session.describe)
    const t0 = performance.now()
    const seeded = await seed(session.db)
    const seedSeconds = (performance.now() - t0) / 1000
    if (args['seed-only']) {
      console.log(`Seeded in ${seedSeconds.toFixed(0)} s: ${session.describe}`, seeded)
      return { engine, describe: session.describe, seedSeconds, peakRssAtBudgetMb: 0, peakRssMb: 0, calls: [], files: [] }
    }
    const capture = bench.captureSql(session.db)
    // The login limiter counts attempts in flight, so a load of logins is refused by design: here its limits
    // are out of reach (its SQL still runs on every login).
    const { base } = await session.startApp(
      (app) => {
        app.get('/api/bench/techo', async () => ({ ok: true }))
      },
      { loginLimits: { perEmail: 1e9, perIp: 1e9, windowMs: 60_000 } },
    )
    const tokens = { admin: await bench.login(base, seeded.admin), superadmin: await bench.login(base, seeded.superadmin) }
    // A running server has read the residents' trigram counts since its first search (lib/trigram-counts.ts): read
    // before the calls, so that the statements captured for the ceilings are the ones the app sends from then on.
    await loadedTrigramCounts(session.db, usuarios.busqueda)
    peakRss = 0
    peakAtBudget = 0
    const sampler = setInterval(rssNow, 100)
    const results: CallResult[] = []
    const framework = new Map<number, number>()
    try {
      for (const call of calls(seeded).filter(chosen)) {
        const token = tokens[call.as]
        const headers: Record<string, string> = {
          authorization: `Bearer ${token}`,
          ...(call.body ? { 'content-type': 'application/json' } : {}),
        }
        const send = (to = call.path) =>
          fetch(`${base}${to}`, {
            method: call.method ?? 'GET',
            headers,
            body: call.body ? JSON.stringify(call.body) : undefined,
          })
        // Warm up, then record the statements of one request.
        for (let i = 0; i < 5; i++) await (await send()).arrayBuffer()
        capture.state.captured = []
        capture.state.on = true
        const probe = await send()
        capture.state.on = false
        const statements = [...capture.state.captured]
        const size = (await probe.arrayBuffer()).byteLength
        if (probe.status >= 300) throw new Error(`${call.path} answered ${probe.status}`)
        // A new term each request: the ceiling replays the statements of 40 requests with terms of their own
        // (the last ones of the list, not warmed up, so their totals are counted as the app's are).
        const perRequest: (typeof statements)[] = []
        for (const other of call.paths?.slice(-40) ?? []) {
          capture.state.captured = []
          capture.state.on = true
          await (await send(other)).arrayBuffer()
          capture.state.on = false
          perRequest.push([...capture.state.captured])
        }
        const ceilingStatements = call.paths ? perRequest : statements
        console.log(
          `\n${call.label}: ${call.method ?? 'GET'} ${call.path.slice(0, 90)} → ${probe.status}, ${size} bytes, ${statements.length} statements`,
        )
        const points: Point[] = []
        // A call that sends no statement (what it reads is kept in memory: lib/live-cache.ts, the count cache) has
        // no database ceiling: it is held to half the framework ceiling instead, measured beside it.
        const noStatements = !call.ceiling && ceilingStatements.flat().length === 0
        // Both sides warm before anything is measured, as a server is after its first minutes: the app runs the call
        // (its one path: a warm-up with the new terms would leave their totals in the count cache) and the ceiling,
        // one process for all of this call's runs, runs its statements, each for WARM_SECONDS untimed.
        await bench.autocannon(
          `${base}${call.path}`,
          token,
          { connections: BUDGET.at, duration: bench.WARM_SECONDS },
          { method: call.method, body: call.body },
        )
        await bench.settle(500)
        const pgCeiling =
          call.ceiling || noStatements
            ? undefined
            : await bench.openPgCeiling(session.target, ceilingStatements, {
                pool: POOL,
                warmUp: true,
                warmSeconds: bench.WARM_SECONDS,
              })
        try {
          for (const connections of LEVELS) {
            levelPeak = rssNow()
            // Interleaved: the call, its ceiling, the call, its ceiling, each for half the duration. A slow spell of this
            // shared machine (its speed changes within seconds) then falls on both sides of the ratio, not on one.
            const loads: bench.LoadResult[] = []
            const ceilings: Array<{ rps: number; latencies: number[] }> = []
            let rss = 0
            for (let slice = 0; slice < SLICES; slice++) {
              loads.push(
                await bench.autocannon(
                  `${base}${call.path}`,
                  token,
                  { connections, duration: DURATION / SLICES, raw: true },
                  { method: call.method, body: call.body, paths: call.paths },
                ),
              )
              rss = Math.max(rss, levelPeak, rssNow())
              // Login hashes each password with scrypt (16 MB of memory per hash, by design): it reports, not budgeted.
              if (call.key !== 'login' && rss > peakRss) peakRss = rss
              if (call.key !== 'login' && connections === BUDGET.at && rss > peakAtBudget) peakAtBudget = rss
              await bench.settle(500)
              if (call.ceiling) continue
              if (noStatements) {
                const techo = await bench.autocannon(`${base}/api/bench/techo`, token, {
                  connections,
                  duration: DURATION / SLICES,
                  raw: true,
                })
                ceilings.push({ rps: techo.rps, latencies: techo.latencies ?? [] })
              } else {
                ceilings.push(await (pgCeiling as bench.PgCeiling).run({ connections, duration: DURATION / SLICES }))
              }
              await bench.settle(300)
            }
            const load = merged(loads)
            const ceiling = ceilings.length
              ? { rps: mean(ceilings.map((c) => c.rps)), ...bench.stats(ceilings.flatMap((c) => c.latencies)) }
              : undefined
            const db = noStatements ? undefined : ceiling
            if (call.ceiling) framework.set(connections, load.rps)
            const point: Point = {
              connections,
              rps: load.rps,
              p50: load.p50,
              p95: load.p95,
              p99: load.p99,
              errors: load.errors + load.non2xx,
              db: db && { rps: db.rps, p95: db.p95 },
              framework: noStatements ? ceiling?.rps : framework.get(connections),
              rssMb: Math.round(rss / 1024 / 1024),
            }
            points.push(point)
            console.log(
              `  ${String(connections).padStart(2)} conns: ${Math.round(load.rps)} req/s, p50/p95/p99 ${bench.ms(load.p50)}/${bench.ms(load.p95)}/${bench.ms(load.p99)} ms, ` +
                `${point.errors} errors${db ? `; pg ${Math.round(db.rps)} req/s (${(load.rps / db.rps).toFixed(2)})` : ''}` +
                `${point.framework && !call.ceiling ? `; framework ${(load.rps / point.framework).toFixed(2)}` : ''}` +
                `${db && point.framework ? `; in series ${(load.rps / seriesCeiling(db.rps, point.framework)).toFixed(2)}` : ''}; RSS ${point.rssMb} MB`,
            )
          }
        } finally {
          pgCeiling?.close()
        }
        results.push({ key: call.key, label: call.label, path: call.path, statements: statements.length, points })
      }
      const files = await measureFiles(base, tokens, seeded)
      return {
        engine,
        describe: session.describe,
        seedSeconds,
        peakRssAtBudgetMb: Math.round(peakAtBudget / 1024 / 1024),
        peakRssMb: Math.round(peakRss / 1024 / 1024),
        calls: results,
        files,
      }
    } finally {
      clearInterval(sampler)
    }
  })
}

async function measureFiles(base: string, tokens: Record<'admin' | 'superadmin', string>, s: Seeded): Promise<FileResult[]> {
  const files = [
    {
      label: `statement PDF of one month (${s.month.movements} movements)`,
      url: `/api/caja-usuario/extracto?nif=${s.nif}&desde=${s.month.desde}&hasta=${s.month.hasta}`,
      token: tokens.admin,
      rows: s.month.movements,
    },
    {
      label: `CSV of the log, ${s.csvRange.rows.toLocaleString('en')} entries`,
      url: `/api/logs/csv?desde=${s.csvRange.desde}&hasta=${s.csvRange.hasta}`,
      token: tokens.superadmin,
      rows: s.csvRange.rows,
    },
  ]
  const out: FileResult[] = []
  for (const f of files) {
    const times: number[] = []
    let bytes = 0
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now()
      const res = await fetch(`${base}${f.url}`, { headers: { authorization: `Bearer ${f.token}` } })
      bytes = (await res.arrayBuffer()).byteLength
      if (res.status !== 200) throw new Error(`${f.url} answered ${res.status}`)
      times.push(performance.now() - t0)
      rssNow()
    }
    const median = [...times].sort((a, b) => a - b)[1] as number
    out.push({ label: f.label, rows: f.rows, ms: times, rowsPerSecond: f.rows / (median / 1000), bytes })
    console.log(
      `${f.label}: ${times.map((t) => bench.ms(t)).join(', ')} ms, ${Math.round(f.rows / (median / 1000))} rows/s, ${bytes} bytes`,
    )
  }
  return out
}

// ---------------------------------------------------------------- printing

/**
 * The pg and framework ceilings in series: the requests/s of a server that only sent the call's statements and then
 * answered an empty authenticated request, one after the other on the same machine (1 / (1/pg + 1/framework)). For a
 * statement of a fraction of a millisecond, half of the pg ceiling alone asks the HTTP side to cost less than the
 * statement; this column is what the team may hold such calls to instead (docs/performance.md). Printed, not budgeted.
 */
const seriesCeiling = (pg: number, framework: number) => 1 / (1 / pg + 1 / framework)

function table(r: EngineResult): string {
  const rows = r.calls.flatMap((c) =>
    c.points.map((p) => {
      const dbRatio = p.db ? p.rps / p.db.rps : undefined
      const fwRatio = p.framework && c.key !== 'techo' ? p.rps / p.framework : undefined
      const seriesRatio = p.db && fwRatio !== undefined ? p.rps / seriesCeiling(p.db.rps, p.framework as number) : undefined
      // Login hashes the password with scrypt on purpose (about 100 ms of CPU): it reports, like the files.
      const budgeted = p.connections === BUDGET.at && c.key !== 'techo' && c.key !== 'login'
      // Half the pg ceiling; a call that sends no statement, half the framework ceiling.
      const ok = p.p99 < BUDGET.p99 && p.errors === 0 && (dbRatio ?? fwRatio ?? 1) >= BUDGET.ratio
      return [
        p.connections === c.points[0]?.connections ? c.label : '',
        p.connections,
        Math.round(p.rps),
        `${bench.ms(p.p50)} / ${bench.ms(p.p95)} / ${bench.ms(p.p99)}`,
        p.errors,
        p.db ? Math.round(p.db.rps) : '-',
        dbRatio === undefined ? '-' : dbRatio.toFixed(2),
        fwRatio === undefined ? '-' : fwRatio.toFixed(2),
        seriesRatio === undefined ? '-' : seriesRatio.toFixed(2),
        budgeted ? bench.yesNo(ok) : '',
      ]
    }),
  )
  return bench.markdownTable(
    [
      ['call', 'left'],
      ['conns', 'right'],
      ['req/s', 'right'],
      ['p50 / p95 / p99 (ms)', 'right'],
      ['errors', 'right'],
      ['same SQL through pg, req/s', 'right'],
      ['of the pg ceiling', 'right'],
      ['of the framework ceiling', 'right'],
      ['of both in series', 'right'],
      [`budget at ${BUDGET.at}`, 'center'],
    ],
    rows,
  )
}

function filesTable(r: EngineResult): string {
  return bench.markdownTable(
    [
      ['file', 'left'],
      ['3 runs (ms)', 'right'],
      ['rows/s', 'right'],
      ['size', 'right'],
    ],
    r.files.map((f) => [f.label, f.ms.map((t) => bench.ms(t)).join(', '), Math.round(f.rowsPerSecond), bench.mb(f.bytes)]),
  )
}

/** One call's chart: requests/s (left) and p95 (right) against connections, each engine, with the ceilings. */
function chart(key: string, label: string, results: EngineResult[]): string {
  const W = 320
  const H = 200
  const pad = { l: 48, r: 10, t: 24, b: 30 }
  const colours: Record<bench.Engine, string> = { embedded: '#0d6efd', pg: '#d63384' }
  const panel = (
    x0: number,
    title: string,
    series: Array<{ points: Array<[number, number]>; colour: string; dash?: string }>,
  ) => {
    const xs = LEVELS
    const ys = series.flatMap((s) => s.points.map(([, y]) => y)).filter(Number.isFinite)
    const yMax = Math.max(1, ...ys) * 1.1
    const px = (c: number) => x0 + pad.l + (xs.indexOf(c) / Math.max(1, xs.length - 1)) * (W - pad.l - pad.r)
    const py = (y: number) => pad.t + (1 - y / yMax) * (H - pad.t - pad.b)
    const lines = series
      .filter((s) => s.points.length)
      .map(
        (s) =>
          `<polyline fill="none" stroke="${s.colour}" stroke-width="2"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''} points="${s.points
            .map(([c, y]) => `${px(c).toFixed(1)},${py(y).toFixed(1)}`)
            .join(' ')}"/>`,
      )
    const ticks = xs.map((c) => `<text x="${px(c)}" y="${H - 10}" text-anchor="middle">${c}</text>`)
    return [
      `<text x="${x0 + W / 2}" y="14" text-anchor="middle" font-weight="bold">${title}</text>`,
      `<line x1="${x0 + pad.l}" y1="${H - pad.b}" x2="${x0 + W - pad.r}" y2="${H - pad.b}" stroke="#888"/>`,
      `<line x1="${x0 + pad.l}" y1="${pad.t}" x2="${x0 + pad.l}" y2="${H - pad.b}" stroke="#888"/>`,
      `<text x="${x0 + pad.l - 4}" y="${pad.t + 4}" text-anchor="end">${Math.round(yMax)}</text>`,
      `<text x="${x0 + pad.l - 4}" y="${H - pad.b}" text-anchor="end">0</text>`,
      ...ticks,
      ...lines,
    ].join('')
  }
  const of = (r: EngineResult) => r.calls.find((c) => c.key === key)
  const rps = results.flatMap((r) => {
    const c = of(r)
    if (!c) return []
    return [
      { points: c.points.map((p) => [p.connections, p.rps] as [number, number]), colour: colours[r.engine] },
      {
        points: c.points.filter((p) => p.db).map((p) => [p.connections, p.db?.rps ?? 0] as [number, number]),
        colour: colours[r.engine],
        dash: '6 3',
      },
      {
        points: c.points.filter((p) => p.framework).map((p) => [p.connections, p.framework ?? 0] as [number, number]),
        colour: colours[r.engine],
        dash: '2 3',
      },
    ]
  })
  const p95 = results.flatMap((r) => {
    const c = of(r)
    return c ? [{ points: c.points.map((p) => [p.connections, p.p95] as [number, number]), colour: colours[r.engine] }] : []
  })
  const legend = results
    .map((r, i) => `<text x="${10 + i * 150}" y="${H + 14}" fill="${colours[r.engine]}">${r.engine}</text>`)
    .join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * W}" height="${H + 40}" font-family="sans-serif" font-size="11" role="img" aria-label="${label}">
<title>${label}</title>
${panel(0, 'req/s (dashed: pg ceiling; dotted: framework)', rps)}
${panel(W, 'p95 (ms)', p95)}
${legend}<text x="320" y="${H + 14}">connections on the x axis · ${label.replaceAll('&', 'and').replaceAll('<', '')}</text>
</svg>
`
}

bench.runBench(async () => {
  console.log(bench.machineLine())
  console.log(
    `Sizes: ${Object.entries(SIZE)
      .map(([k, v]) => `${v.toLocaleString('en')} ${k}`)
      .join(', ')}`,
  )
  const one = String(args['engine-result'])
  if (one) {
    writeFileSync(one, JSON.stringify(await benchEngine(ENGINES[0] as bench.Engine)))
    return
  }
  // Each engine in a process of its own, so that one engine's peak RSS is not the other's heap left over.
  const results: EngineResult[] = []
  for (const engine of ENGINES) {
    const file = path.join(tmpdir(), `bench-all-${process.pid}-${engine}.json`)
    const argv = process.argv.slice(2).filter((a, i, all) => a !== '--engine' && all[i - 1] !== '--engine')
    const run = spawnSync(
      process.execPath,
      [...process.execArgv, process.argv[1] as string, ...argv, '--engine', engine, '--engine-result', file],
      {
        stdio: 'inherit',
      },
    )
    if (run.status !== 0) throw new Error(`the run on ${engine} failed (exit code ${run.status})`)
    if (args['seed-only']) continue
    results.push(JSON.parse(readFileSync(file, 'utf8')) as EngineResult)
    rmSync(file, { force: true })
  }
  for (const r of results) {
    console.log(`\n### ${bench.ENGINE_NAMES[r.engine]}: ${r.describe}`)
    console.log(
      `Seeded in ${r.seedSeconds.toFixed(0)} s; peak RSS of the app's process (login excepted) at ${BUDGET.at} connections ` +
        `${r.peakRssAtBudgetMb} MB (budget ${BUDGET.rssMb} MB: ${bench.yesNo(r.peakRssAtBudgetMb < BUDGET.rssMb)}), at any level ${r.peakRssMb} MB\n`,
    )
    console.log(table(r))
    console.log('')
    console.log(filesTable(r))
  }
  if (args['seed-only']) return
  const out = path.resolve(ROOT, String(args.out))
  mkdirSync(path.join(out, 'all'), { recursive: true })
  writeFileSync(
    path.join(out, 'all.json'),
    `${JSON.stringify({ machine: bench.machineLine(), scale: SCALE, sizes: SIZE, levels: LEVELS, duration: DURATION, pool: POOL, budget: BUDGET, results }, null, 2)}\n`,
  )
  for (const c of results[0]?.calls ?? []) writeFileSync(path.join(out, 'all', `${c.key}.svg`), chart(c.key, c.label, results))
  console.log(
    `\nWrote ${path.relative(ROOT, path.join(out, 'all.json'))} and ${results[0]?.calls.length ?? 0} charts in ${path.relative(ROOT, path.join(out, 'all'))}/`,
  )
})
