// The database ceiling of the benchmark harness (harness.ts, openPgCeiling), run as a child process so that its pool and
// the rows it reads are not counted in the app's memory (the RSS budget is the app's) and it shares neither the
// app's event loop. Plain JavaScript: it needs no TypeScript loader.
//
// It lives for as long as its caller measures one call: the first message opens the pool and warms it, each later
// `{ connections, duration }` is one measured run answered with its throughput and latencies, and the end of the
// channel closes the pool. Warm means as warm as the app it is compared with: every connection of the pool opened
// and its backend warmed, and then the statements run for `warmSeconds` untimed, so that V8 has optimised the
// driver's code (a fresh process measured at once ran 1.0-1.3 times slower than one warmed for 2.5 s, on the log's
// page: docs/performance.md).
import pg from 'pg'

const { config, requests, warmUp, warmSeconds = 0, poolSize } = await new Promise((resolve) => process.once('message', resolve))
const pool = new pg.Pool({ ...config, max: poolSize })
pool.on('error', () => {})
let next = 0
// A statement the app runs named (prepared once per connection) is run named here too, and its rows read as
// arrays when the app reads them so (a list's page, the calendar month).
const asQuery = (s) => ({
  ...(s.name ? { name: s.name } : {}),
  text: s.text,
  values: s.params,
  ...(s.rowMode ? { rowMode: s.rowMode } : {}),
})
const once = async () => {
  const list = requests[next++ % requests.length]
  // A transaction's statements (BEGIN … COMMIT) must share one connection, as they did in the app.
  if (!list.some((s) => /^\s*begin\b/i.test(s.text))) {
    for (const s of list) await pool.query(asQuery(s))
    return
  }
  const c = await pool.connect()
  try {
    for (const s of list) await c.query(asQuery(s))
  } finally {
    c.release()
  }
}

/** `connections` loops sending the statements for `duration` seconds; each loop's latencies when `latencies` is given. */
async function loops(connections, duration, latencies) {
  let done = 0
  const until = performance.now() + duration * 1000
  const loop = async () => {
    while (performance.now() < until) {
      const t0 = performance.now()
      await once()
      latencies?.push(performance.now() - t0)
      done++
    }
  }
  await Promise.all(Array.from({ length: connections }, loop))
  return done
}

async function measure({ connections, duration }) {
  const latencies = []
  const started = performance.now()
  const done = await loops(connections, duration, latencies)
  const seconds = (performance.now() - started) / 1000
  return { rps: done / seconds, latencies }
}

try {
  // Every connection of the pool opened and its backend warmed (catalogs, extensions' dictionaries), as the app's
  // long-lived pool is: warming one left the others to open inside the measured time, and flattered the app.
  if (warmUp) await Promise.all(Array.from({ length: poolSize }, once))
  if (warmSeconds > 0) await loops(poolSize, warmSeconds)
  process.send({ ready: true })
} catch (error) {
  process.send({ error: error instanceof Error ? error.message : String(error) })
}
process.on('message', (run) => {
  measure(run).then(
    (result) => process.send(result),
    (error) => process.send({ error: error instanceof Error ? error.message : String(error) }),
  )
})
process.once('disconnect', () => {
  pool.end().finally(() => process.exit(0))
})
