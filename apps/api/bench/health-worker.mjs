// Health prober for extracto-bench.ts, in a worker thread so that its timing does not share the server's
// event loop: GET /api/health every `interval` ms on a kept-alive connection, each answer's start time
// (performance.timeOrigin + now, the same clock as the main thread's) and latency, until told to stop.
import http from 'node:http'
import { parentPort, workerData } from 'node:worker_threads'

const { url, interval } = workerData
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const probes = []
let stopping = false

function probe() {
  return new Promise((resolve) => {
    const started = performance.timeOrigin + performance.now()
    const t = performance.now()
    const req = http.get(url, { agent }, (res) => {
      res.resume()
      res.on('end', () => {
        probes.push({ at: started, ms: performance.now() - t, status: res.statusCode })
        resolve()
      })
    })
    req.on('error', () => {
      probes.push({ at: started, ms: performance.now() - t, status: 0 })
      resolve()
    })
  })
}

parentPort.on('message', (message) => {
  if (message === 'stop') stopping = true
})

while (!stopping) {
  const t = performance.now()
  await probe()
  const wait = interval - (performance.now() - t)
  if (wait > 0) await new Promise((r) => setTimeout(r, wait))
}
agent.destroy()
parentPort.postMessage(probes)
