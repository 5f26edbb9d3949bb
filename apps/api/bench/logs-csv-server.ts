/**
 * The API alone in a process of its own, for `npm run bench:logs`' CSV measure: the resident set size it
 * reports is the server's, with nothing of the benchmark's client in it. Started by logs-bench.ts (fork, IPC):
 * it opens BENCH_TARGET (a connection target as JSON, already migrated and seeded), listens on a free local
 * port and answers the parent's messages:
 *
 * - 'rss': its resident set size now;
 * - 'start': begins a measurement (resets the kernel's peak, VmHWM, where Linux allows, and samples every 5 ms);
 * - 'stop': the peak since 'start' (the sampled one, and VmHWM when available);
 * - 'exit': closes and exits.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { buildApp } from '../src/app'
import { type ConnectionTarget, openDatabase } from '../src/db/client'

const target = JSON.parse(process.env.BENCH_TARGET ?? 'null') as ConnectionTarget
const uploadsDir = process.env.BENCH_UPLOADS ?? ''

/** The kernel's high-water mark of this process's resident set (Linux), in bytes. */
function vmHwm(): number | null {
  try {
    const line = readFileSync('/proc/self/status', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmHWM:'))
    return line ? Number(line.replace(/\D+/g, '')) * 1024 : null
  } catch {
    return null
  }
}

async function main() {
  const database = await openDatabase(target, { poolSize: 10, migrate: false })
  const app = await buildApp({
    db: database.db,
    listen: database.listen,
    jwtSecret: 'bench-secret-not-for-production',
    uploadsDir,
    // Warnings only (an export cut short says why), on stderr.
    logger: { level: 'warn' },
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  let peak = 0
  let sampler: NodeJS.Timeout | undefined
  process.on('message', (message: string) => {
    if (message === 'rss') process.send?.({ rss: process.memoryUsage.rss() })
    if (message === 'start') {
      try {
        // 5: reset the peak resident set size (Documentation/filesystems/proc.rst, clear_refs).
        writeFileSync('/proc/self/clear_refs', '5')
      } catch {
        // Not Linux, or not allowed: the sampled peak is reported alone.
      }
      peak = process.memoryUsage.rss()
      sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage.rss())
      }, 5)
    }
    if (message === 'stop') {
      clearInterval(sampler)
      peak = Math.max(peak, process.memoryUsage.rss())
      process.send?.({ peak, hwm: vmHwm() })
    }
    if (message === 'exit') {
      void app
        .close()
        .then(() => database.close())
        .then(() => process.exit(0))
    }
  })
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 })
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
