// Load generator for the benchmark harness (harness.ts), run as a child process so that autocannon shares neither
// the server's event loop nor its memory. Plain JavaScript: it needs no TypeScript loader.
// The latencies are collected from autocannon's 'response' events and the percentiles computed here (its own
// summary has p97.5 and p99, not p95).
import autocannon from 'autocannon'

const workerData = await new Promise((resolve) => process.once('message', resolve))
const parentPort = { postMessage: (m) => process.send(m) }
const { url, token, connections, duration, method = 'GET', body, paths, raw = false } = workerData
const latencies = []
const headers = { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }
let next = 0
// With `paths`, each request takes the next one (a search with a different term each time).
const requests = paths?.length
  ? [{ method, setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }]
  : undefined

// skipAggregateResult: the raw counters (totalCompletedRequests), as autocannon hands them to a worker thread.
const options = { url, connections, duration, method, headers, skipAggregateResult: true }
if (requests) options.requests = requests
if (body !== undefined) options.body = JSON.stringify(body)
const instance = autocannon(options, (err, result) => {
  if (err) {
    parentPort.postMessage({ error: err.message })
    return
  }
  latencies.sort((a, b) => a - b)
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? Number.NaN
  parentPort.postMessage({
    requests: result.totalCompletedRequests,
    rps: result.totalCompletedRequests / result.duration,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    // `raw`: every latency too, for a caller that merges several runs (all-bench.ts's interleaved slices).
    ...(raw ? { latencies } : {}),
  })
})
// Every 2xx response time in ms (autocannon's own summary has p97.5 and p99, not p95).
instance.on('response', (_client, statusCode, _bytes, responseTime) => {
  if (statusCode < 300) latencies.push(responseTime)
})
