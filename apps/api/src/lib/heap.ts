import v8 from 'node:v8'

/**
 * How far V8 lets the old generation grow past what survived the last full collection before it collects again, in
 * percent (200: to three times). Left to itself V8 goes up to four times when the app allocates fast, as an API
 * does (each request's rows and answer are garbage a moment later): under the benchmark's load the process then
 * held 280–313 MB, of which about 40 MB survive a full collection. At three times it peaked 20–50 MB lower with the
 * same throughput and p99; at one and a half or two times lower still, but the calendar month's p99 rose by 4–10 ms
 * with the extra full collections (docs/performance.md, "What was changed, and what it gained").
 */
export const HEAP_GROWING_PERCENT = 200

/**
 * Sets the heap's growth for this process, unless node was started with a `--heap-growing-percent` of its own (the
 * operator's choice wins). The server does at start (server.ts), and the benchmarks that run the app in their own
 * process do before starting it, so that they measure what runs. V8 reads the value each time it sizes the heap
 * after a full collection, so setting it once the process runs is enough.
 */
export function limitHeapGrowth(percent = HEAP_GROWING_PERCENT, execArgv = process.execArgv): boolean {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return false
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`)
  return true
}
