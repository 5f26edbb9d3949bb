/**
 * `npm run bench:start`: how long `npm start` takes on a fresh clone (after
 * `npm install`: the build and the first initialisation of the embedded PostgreSQL included) and on a
 * restart, and how much memory the API process holds after 600 list requests on the demo data, with
 * PostgreSQL's own memory beside it.
 *
 *   npm run bench:start [-- --requests 600]
 *
 * The fresh clone is played by moving the build output aside (and putting it back at the end) and using a
 * new DATA_DIR; nothing else of the checkout changes.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort, ROOT } from '../src/test/server-process'
import * as bench from './harness'

const args = bench.commandLine('npm run bench:start [-- --requests 600]', {
  requests: { type: 'string', default: '600', help: 'list requests on the demo data before the memory is read' },
})
const REQUESTS = bench.numberOption(args, 'requests')
const BUDGET = { firstStartS: 20, restartS: 5, rssMb: 250 }

interface Started {
  child: ChildProcess
  seconds: number
  base: string
  output: () => string
}

async function npmStart(dataDir: string): Promise<Started> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (d) => {
    output += d
  })
  child.stderr?.on('data', (d) => {
    output += d
  })
  for (;;) {
    if (output.includes('Back-office de viviendas en')) break
    if (child.exitCode !== null) throw new Error(`npm start ended:\n${output}`)
    await new Promise((r) => setTimeout(r, 20))
  }
  return { child, seconds: (performance.now() - started) / 1000, base: `http://127.0.0.1:${port}`, output: () => output }
}

async function stop(s: Started): Promise<void> {
  const exited = new Promise((r) => s.child.once('exit', r))
  // The whole group, as Ctrl-C in a terminal does (npm, and the server it runs).
  process.kill(-(s.child.pid as number), 'SIGINT')
  await exited
}

/** The server's own process: the `node scripts/start.mjs` that npm runs (it imports the server). */
function serverPid(npmPid: number): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8')
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
      const argv = cmd.split('\0')
      if (pgid === npmPid && /(^|\/)node$/.test(argv[0] ?? '') && argv.some((a) => a.endsWith('scripts/start.mjs')))
        return Number(entry)
    } catch {
      /* gone */
    }
  }
  throw new Error('server process not found')
}

const kb = (file: string, field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(file, 'utf8'))?.[1] ?? 0)

/** PostgreSQL's memory: the postmaster and its children, proportional set size (shared memory counted once). */
function postgresMemoryMb(dataDir: string): { processes: number; pssMb: number; rssMb: number } {
  const pgData = path.join(dataDir, 'pg')
  let processes = 0
  let pss = 0
  let rss = 0
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) !== pgData) continue
      processes++
      pss += kb(`/proc/${entry}/smaps_rollup`, 'Pss')
      rss += kb(`/proc/${entry}/status`, 'VmRSS')
    } catch {
      /* gone or not ours */
    }
  }
  return { processes, pssMb: pss / 1024, rssMb: rss / 1024 }
}

bench.runBench(async () => {
  const dist = [path.join(ROOT, 'apps/web/dist'), path.join(ROOT, 'apps/api/dist')]
  const aside = dist.map((d) => `${d}.bench-aside`)
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vb-start-bench-'))
  for (const [i, d] of dist.entries()) if (existsSync(d)) renameSync(d, aside[i] as string)
  try {
    const first = await npmStart(dataDir)
    console.log(`First start (build + new PostgreSQL cluster + migrations + demo data): ${first.seconds.toFixed(1)} s`)
    await stop(first)
    const second = await npmStart(dataDir)
    console.log(`Restart (built, cluster exists): ${second.seconds.toFixed(1)} s`)

    const token = await bench.login(second.base, 'superadmin@demo.es')
    const urls = [
      '/api/usuarios',
      '/api/usuarios?q=a',
      '/api/viviendas',
      '/api/empresas',
      '/api/contactos',
      '/api/usuarios?page=2&sort=vivienda',
    ]
    for (let i = 0; i < REQUESTS; i++) {
      const res = await fetch(`${second.base}${urls[i % urls.length]}`, { headers: { authorization: `Bearer ${token}` } })
      if (res.status !== 200) throw new Error(`${urls[i % urls.length]}: ${res.status}`)
      await res.arrayBuffer()
    }
    const pid = serverPid(second.child.pid as number)
    const rssMb = kb(`/proc/${pid}/status`, 'VmRSS') / 1024
    const pgMem = postgresMemoryMb(dataDir)
    console.log(`API process after ${REQUESTS} list requests: ${rssMb.toFixed(0)} MB RSS`)
    console.log(
      `PostgreSQL beside it: ${pgMem.processes} processes, ${pgMem.pssMb.toFixed(0)} MB PSS (${pgMem.rssMb.toFixed(0)} MB RSS summed, shared memory counted in each)`,
    )
    await stop(second)

    const rows = [
      [
        'first start on a fresh clone, until the URL is printed',
        `${first.seconds.toFixed(1)} s`,
        `< ${BUDGET.firstStartS} s`,
        first.seconds < BUDGET.firstStartS,
      ],
      ['restart', `${second.seconds.toFixed(1)} s`, `< ${BUDGET.restartS} s`, second.seconds < BUDGET.restartS],
      [`API process RSS after ${REQUESTS} list requests`, `${rssMb.toFixed(0)} MB`, `< ${BUDGET.rssMb} MB`, rssMb < BUDGET.rssMb],
      ['PostgreSQL (postmaster and backends), PSS', `${pgMem.pssMb.toFixed(0)} MB`, 'reported', true],
    ] as const
    const columns = [
      ['measure', 'left'],
      ['value', 'right'],
      ['budget', 'right'],
      ['within', 'center'],
    ] as const
    console.log(
      `\n${bench.markdownTable(
        columns,
        rows.map(([what, value, budget, ok]) => [what, value, budget, bench.yesNo(ok)]),
      )}`,
    )
  } finally {
    // The checkout as it was: the build output moved back (the one just made is dropped).
    dist.forEach((d, i) => {
      if (existsSync(aside[i] as string)) {
        rmSync(d, { recursive: true, force: true })
        renameSync(aside[i] as string, d)
      }
    })
    rmSync(dataDir, { recursive: true, force: true })
  }
})
