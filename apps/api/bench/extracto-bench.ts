/**
 * `npm run bench:extracto`: the largest statement PDF allowed (EXTRACTO_MAX_MOVIMIENTOS movements over a
 * year of EXTRACTO_MAX_DIAS days) made while `/api/health` is asked every 10 ms from another thread.
 *
 * For each engine: a fresh migrated database with one resident holding 5,000 movements over the last 365
 * days (one in seven with a concept long enough to wrap); the real app (buildApp) on a local port, logged
 * in as an ADMIN. Then, after one warm-up statement: the health endpoint alone for 2 s (baseline), and the
 * statement `--runs` times in a row while the prober keeps asking. It prints the health latencies during the
 * statements (target: every answer within 100 ms, i.e. the event loop is never blocked long), the time of
 * each statement to its last byte, its size and pages, the server's event-loop delay, and the process RSS
 * (the PDF worker thread included) before, at its peak and after. The PDF is laid out in a worker thread
 * (caja-usuario.extracto.ts), so what remains on the server's event loop is the query and the forwarding.
 *
 *   npm run bench:extracto -- --engine embedded|pg|both --runs 5 [--keep]
 */

import os from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { Worker } from 'node:worker_threads'
import { addDays, EXTRACTO_MAX_DIAS, EXTRACTO_MAX_MOVIMIENTOS, madridDay, nifCheckLetter } from '@vb/shared'
import { type SQL, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../src/app'
import type { Db } from '../src/db/client'
import { trabajadorEmpresas, trabajadores } from '../src/db/schema'
import { hashPassword } from '../src/lib/password'
import { ENGINE_NAMES, type Engine, openBenchDatabase, parseEngines } from './harness'

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'embedded' },
    runs: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
  },
})
const ENGINES = parseEngines(args.engine)
const RUNS = Number(args.runs)
const PASSWORD = 'Demo1234'
const TARGET_HEALTH_MS = 100
const PROBE_EVERY_MS = 10

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '–')
const mb = (bytes: number) => (bytes / 1048576).toFixed(0)
const now = () => performance.timeOrigin + performance.now()

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  return { n: sorted.length, p50: at(50), p95: at(95), p99: at(99), max: sorted.at(-1) ?? Number.NaN }
}

/** One company, home and resident with the largest statement allowed in the year before today; an ADMIN. */
async function seed(db: Db) {
  const today = madridDay(new Date())
  const desde = addDays(today, -(EXTRACTO_MAX_DIAS - 1))
  const id = async (query: SQL) => ((await db.execute(query)) as unknown as { rows: Array<{ id: number }> }).rows[0]?.id as number
  const e = await id(sql`insert into empresas (nombre) values ('Empresa Extracto') returning id`)
  const v = await id(sql`insert into viviendas (nombre, empresa_id) values ('Calle del Extracto 1', ${e}) returning id`)
  const nif = `31234567${nifCheckLetter(31234567)}`
  const u = await id(
    sql`insert into usuarios (nombre, apellidos, nif, vivienda_id) values ('Residente', 'Con Muchos Movimientos', ${nif}, ${v}) returning id`,
  )
  const from = new Date(`${desde}T12:00:00Z`).getTime()
  const step = Math.floor(((EXTRACTO_MAX_DIAS - 1) * 86_400_000) / EXTRACTO_MAX_MOVIMIENTOS)
  await db.execute(sql`
    insert into caja_usuario (concepto, cantidad, fecha, usuario_id)
    select case when g % 7 = 0 then 'Un concepto largo que ocupa varias líneas en el extracto: ' || repeat('compra de farmacia y ropa ', 3)
                else 'Compra número ' || g || ' en la farmacia del barrio' end,
           case when g % 3 = 0 then 12.60 else -3.15 end,
           to_timestamp(${from / 1000}::float8 + g * ${step / 1000}::float8),
           ${u}
      from generate_series(1, ${EXTRACTO_MAX_MOVIMIENTOS}) g`)
  const [admin] = await db
    .insert(trabajadores)
    .values({
      nombre: 'Admin',
      apellidos: 'Extracto',
      email: 'admin.extracto@bench.es',
      nif: '12345678Z',
      rol: 'ADMIN',
      activo: true,
      passwordHash: await hashPassword(PASSWORD),
      passwordTemporal: false,
    })
    .returning()
  await db.insert(trabajadorEmpresas).values({ trabajadorId: admin?.id as number, empresaId: e })
  return { usuarioId: u, desde, hasta: today, email: 'admin.extracto@bench.es' }
}

async function probeHealth(base: string, during: () => Promise<void>) {
  const worker = new Worker(new URL('./health-worker.mjs', import.meta.url), {
    workerData: { url: `${base}/api/health`, interval: PROBE_EVERY_MS },
  })
  const result = new Promise<Array<{ at: number; ms: number; status: number }>>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  await new Promise((r) => setTimeout(r, 200))
  await during()
  worker.postMessage('stop')
  const probes = await result
  await worker.terminate()
  return probes
}

async function benchEngine(engine: Engine): Promise<string[]> {
  console.log(`\n######## ${ENGINE_NAMES[engine]} ########`)
  const opened = await openBenchDatabase(engine, { keep: Boolean(args.keep), pool: 10 })
  const { db } = opened.database
  let app: FastifyInstance | undefined
  const out: string[] = [`### ${ENGINE_NAMES[engine]}`, '', `- ${opened.describe}`]
  try {
    const { usuarioId, desde, hasta, email } = await seed(db)
    out.push(
      `- one resident, ${EXTRACTO_MAX_MOVIMIENTOS} movements from ${desde} to ${hasta} (${EXTRACTO_MAX_DIAS} days): the largest statement allowed`,
    )
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
    const login = await fetch(`${base}/api/auth/trabajadores/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    })
    const { token } = (await login.json()) as { token: string }
    const url = `${base}/api/caja-usuario/extracto?usuarioId=${usuarioId}&desde=${desde}&hasta=${hasta}`
    const statement = async () => {
      const t = performance.now()
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
      const body = Buffer.from(await res.arrayBuffer())
      if (res.status !== 200) throw new Error(`extracto answered ${res.status}: ${body.toString('utf8').slice(0, 200)}`)
      return {
        ms: performance.now() - t,
        bytes: body.length,
        pages: (body.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length,
      }
    }

    const first = await statement()
    out.push(`- first statement (the PDF worker thread started, fonts read): ${ms(first.ms)} ms`)
    const idle = await probeHealth(base, () => new Promise((r) => setTimeout(r, 2000)))

    const windows: Array<[number, number]> = []
    const runs: Array<{ ms: number; bytes: number; pages: number }> = []
    const loop = monitorEventLoopDelay({ resolution: 5 })
    global.gc?.()
    const rssBefore = process.memoryUsage().rss
    let rssPeak = rssBefore
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss)
    }, 10)
    const busy = await probeHealth(base, async () => {
      loop.enable()
      for (let i = 0; i < RUNS; i++) {
        const start = now()
        runs.push(await statement())
        windows.push([start, now()])
      }
      loop.disable()
    })
    clearInterval(sampler)
    const rssAfter = process.memoryUsage().rss
    // Other work on the machine shows in every latency: the idle baseline above and this say how much.
    out.push(`- machine load average (1 min) after the statements: ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} CPUs`)
    const during = busy.filter((p) => windows.some(([a, b]) => p.at >= a && p.at <= b))
    const failed = during.filter((p) => p.status !== 200).length
    const health = stats(during.map((p) => p.ms))
    const base0 = stats(idle.map((p) => p.ms))
    const pdf = stats(runs.map((r) => r.ms))
    const met = health.max < TARGET_HEALTH_MS && !failed
    out.push(
      '',
      '| measure | result | target | met |',
      '|---|---:|---:|:---:|',
      `| /api/health alone, p50 / p99 / max (${base0.n} probes) | ${ms(base0.p50)} / ${ms(base0.p99)} / ${ms(base0.max)} ms | | |`,
      `| /api/health while the statement is made, p50 / p95 / p99 / **max** (${health.n} probes${failed ? `, ${failed} failed` : ''}) | ${ms(health.p50)} / ${ms(health.p95)} / ${ms(health.p99)} / **${ms(health.max)}** ms | every answer < ${TARGET_HEALTH_MS} ms | ${met ? 'yes' : 'NO'} |`,
      `| server event-loop delay during the statements, p99 / max | ${ms(loop.percentile(99) / 1e6)} / ${ms(loop.max / 1e6)} ms | | |`,
      `| statement PDF, ${EXTRACTO_MAX_MOVIMIENTOS} movements, ${runs[0]?.pages} pages, ${Math.round((runs[0]?.bytes ?? 0) / 1024)} KB: p50 / max to the last byte | ${ms(pdf.p50)} / ${ms(pdf.max)} ms | | |`,
      `| process RSS before / peak / after (${RUNS} statements) | ${mb(rssBefore)} / ${mb(rssPeak)} / ${mb(rssAfter)} MB (peak +${mb(rssPeak - rssBefore)} MB) | | |`,
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
