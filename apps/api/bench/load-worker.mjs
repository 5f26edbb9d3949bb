// Load generator for the benchmark harness (harness.ts), run in a worker thread so that autocannon does not share the
// server's event loop. Plain JavaScript: it needs no TypeScript loader inside the worker.
// Inside a worker thread autocannon hands back its raw counters (no aggregated percentiles), so the
// latencies are collected from its 'response' events and the percentiles computed here.
import { parentPort, workerData } from 'node:worker_threads'
import autocannon from 'autocannon'

const { url, token, connections, duration } = workerData
const latencies = []

const instance = autocannon({ url, connections, duration, headers: { authorization: `Bearer ${token}` } }, (err, result) => {
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
  })
})
// Every 2xx response time in ms (autocannon's own summary has p97.5 and p99, not p95).
instance.on('response', (_client, statusCode, _bytes, responseTime) => {
  if (statusCode < 300) latencies.push(responseTime)
})
