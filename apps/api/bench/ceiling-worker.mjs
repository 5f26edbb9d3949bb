// The database ceiling of the benchmark harness (harness.ts, pgCeiling), run as a child process so that its pool and
// the rows it reads are not counted in the app's memory (the RSS budget is the app's) and it shares neither the
// app's event loop. Plain JavaScript: it needs no TypeScript loader.
import pg from 'pg'

const { config, requests, connections, duration, warmUp, poolSize } = await new Promise((resolve) =>
  process.once('message', resolve),
)
const pool = new pg.Pool({ ...config, max: poolSize })
pool.on('error', () => {})
let next = 0
// A statement the app runs named (prepared once per connection) is run named here too.
const asQuery = (s) => (s.name ? { name: s.name, text: s.text, values: s.params } : { text: s.text, values: s.params })
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
try {
  // Every connection of the pool opened and its backend warmed (catalogs, extensions' dictionaries), as the app's
  // long-lived pool is: warming one left the others to open inside the measured time, and flattered the app.
  if (warmUp) await Promise.all(Array.from({ length: Math.max(connections, 1) }, once))
  const latencies = []
  let done = 0
  const until = performance.now() + duration * 1000
  const loop = async () => {
    while (performance.now() < until) {
      const t0 = performance.now()
      await once()
      latencies.push(performance.now() - t0)
      done++
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: connections }, loop))
  const seconds = (performance.now() - started) / 1000
  process.send({ rps: done / seconds, latencies })
} catch (error) {
  process.send({ error: error instanceof Error ? error.message : String(error) })
} finally {
  await pool.end()
}
