/**
 * `npm run bench:notificaciones` (DECISIONS D9): how fast a committed notification reaches the browser's
 * open stream when many workers are connected.
 *
 * For each engine: a fresh migrated database; W workers; the real app (buildApp) listening on a local
 * port; S streams open on `GET /api/notificaciones/stream` (S / W per worker, as a worker with several
 * tabs or devices); then N rounds, one at a time: a notification for a random worker is created with
 * `createNotificaciones` in its own transaction, and the time is taken from just before that call until
 * every stream of that worker has received the event (insert + commit + NOTIFY + LISTEN + fan-out + HTTP).
 * Client and server share this process, so the figures include both sides' work on this machine.
 *
 *   npm run bench:notificaciones -- --engine embedded|pg|both --workers 250 --streams 1000 --rounds 300
 */
import { createNotificaciones } from '../src/modules/notificaciones/notificaciones.service'
import * as bench from './harness'

const args = bench.commandLine(
  'npm run bench:notificaciones -- --engine embedded|pg|both --workers 250 --streams 1000 --rounds 300',
  {
    engine: bench.ENGINE_OPTIONS.engine,
    workers: { type: 'string', default: '250', help: 'workers the streams belong to' },
    streams: { type: 'string', default: '1000', help: 'open streams, spread evenly over the workers' },
    rounds: { type: 'string', default: '300', help: 'notifications created one at a time, each timed' },
  },
)
const ENGINES = bench.parseEngines(args.engine)
const WORKERS = bench.numberOption(args, 'workers')
const STREAMS = bench.numberOption(args, 'streams')
const ROUNDS = bench.numberOption(args, 'rounds')

interface Result {
  engine: bench.Engine
  describe: string
  openSeconds: number
  latencies: number[]
  rssMb: number
}

function benchEngine(engine: bench.Engine): Promise<Result> {
  return bench.withEngine(engine, { keep: false, pool: 10 }, async (session) => {
    const { db } = session
    const controller = new AbortController()
    const { app, base } = await session.startApp()
    try {
      // Workers that never log in: their tokens are signed here, so no password hash is needed.
      const rows = await bench.insertWorkers(
        db,
        Array.from({ length: WORKERS }, (_, i) => ({
          email: `bench${i}@bench.es`,
          rol: 'EMPLEADO' as const,
          apellidos: `Trabajador ${i}`,
        })),
        { passwordHash: 'x' },
      )
      const tokens = new Map(rows.map((r) => [r.id, app.jwt.sign({ sub: String(r.id), tv: r.tokenVersion })]))

      // Each stream resolves the waiter of the id it receives.
      const pending = new Map<number, { left: number; done: () => void }>()
      const streamsOf = new Map<number, number>()
      const t0 = performance.now()
      const opening: Promise<void>[] = []
      for (let i = 0; i < STREAMS; i++) {
        const worker = rows[i % rows.length]
        if (!worker) break
        streamsOf.set(worker.id, (streamsOf.get(worker.id) ?? 0) + 1)
        opening.push(
          (async () => {
            const res = await fetch(`${base}/api/notificaciones/stream`, {
              headers: { authorization: `Bearer ${tokens.get(worker.id)}` },
              signal: controller.signal,
            })
            if (res.status !== 200 || !res.body) throw new Error(`stream answered ${res.status}`)
            const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
            void (async () => {
              let buffer = ''
              for (;;) {
                const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }))
                if (done) return
                buffer += value
                let cut = buffer.indexOf('\n\n')
                while (cut >= 0) {
                  const match = /data: \{"id":(\d+)\}/.exec(buffer.slice(0, cut))
                  buffer = buffer.slice(cut + 2)
                  const wait = match ? pending.get(Number(match[1])) : undefined
                  if (wait && --wait.left === 0) wait.done()
                  cut = buffer.indexOf('\n\n')
                }
              }
            })()
          })(),
        )
      }
      await Promise.all(opening)
      for (let i = 0; i < 200 && app.deps.notificationHub.size < STREAMS; i++) await new Promise((r) => setTimeout(r, 25))
      if (app.deps.notificationHub.size !== STREAMS) throw new Error(`only ${app.deps.notificationHub.size} streams subscribed`)
      const openSeconds = (performance.now() - t0) / 1000

      const latencies: number[] = []
      for (let round = 0; round < ROUNDS; round++) {
        const worker = rows[Math.floor(Math.random() * rows.length)]
        if (!worker) continue
        const start = performance.now()
        let id = 0
        const delivered = new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`round ${round}: not delivered in 10 s`)), 10_000)
          const register = (notificacionId: number) => {
            id = notificacionId
            pending.set(notificacionId, {
              left: streamsOf.get(worker.id) ?? 0,
              done: () => {
                clearTimeout(timer)
                resolve()
              },
            })
          }
          // The id is known only once the insert returns; an event can't be announced before its commit.
          void db
            .transaction((tx) => createNotificaciones(tx, [notification(worker.id)]).then(([row]) => register(row?.id ?? 0)))
            .catch(reject)
        })
        await delivered
        latencies.push(performance.now() - start)
        pending.delete(id)
      }
      return {
        engine,
        describe: session.describe,
        openSeconds,
        latencies: latencies.sort((a, b) => a - b),
        rssMb: process.memoryUsage().rss / 1024 / 1024,
      }
    } finally {
      controller.abort()
    }
  })
}

function notification(trabajadorId: number) {
  return { titulo: 'Nueva tarea asignada', descripcion: 'Benchmark', tipo: 'TAREA', trabajadorId, fechaNotificacion: new Date() }
}

bench.runBench(async () => {
  console.log(`${WORKERS} workers, ${STREAMS} open streams (${(STREAMS / WORKERS).toFixed(1)} per worker), ${ROUNDS} rounds`)
  const results: Result[] = []
  for (const engine of ENGINES) {
    const r = await benchEngine(engine)
    results.push(r)
    console.log(
      `\n${r.describe}: ${STREAMS} streams open and subscribed in ${r.openSeconds.toFixed(2)} s; process RSS ${Math.round(r.rssMb)} MB`,
    )
  }
  console.log('\ncommit → event on every stream of the worker (ms)')
  console.log(
    bench.markdownTable(
      [
        ['engine', 'left'],
        ['p50', 'left'],
        ['p95', 'left'],
        ['p99', 'left'],
        ['max', 'left'],
      ],
      results.map(({ engine, latencies: l }) => [
        engine,
        bench.ms(bench.pct(l, 50)),
        bench.ms(bench.pct(l, 95)),
        bench.ms(bench.pct(l, 99)),
        bench.ms(l[l.length - 1] ?? 0),
      ]),
    ),
  )
})
