// `npm run bench:web`: the first visit on a phone, measured. Builds the app, starts the real server on
// a fresh embedded database with the demo data, and runs Lighthouse (the npm package) in Debian's Chromium on the
// login page from a cold cache and, after logging in through the form as the demo SUPERADMIN, on every screen
// (their cache is what the login left, as for a worker who has just signed in). Mobile and desktop presets.
// Each run also measures two floors, served apart by this script, in the same browser with the same settings: an
// empty page (scripts/bench-web-floor/vacia.html: no script, no stylesheet, this machine and Lighthouse alone) and
// React alone (scripts/bench-web-floor/index.html, built by Vite as the app is, one heading; measured with its files
// cached, as the screens are). The screens are read beside them, as bench:all reads each call beside its ceilings.
// Prints a table, and beside it each screen's long tasks by what they ran (modules evaluated, handlers and renders,
// style and layout…, from the trace Lighthouse recorded: scripts/bench-web-tasks.mjs), writes bench/results/web.json
// (summary) and bench/results/raw/*.json (full reports, ignored by git), and exits with 1 when a budget is missed (the
// floors have none).
//
// Options: --no-build (use the current apps/web/dist and apps/api/dist), --runs N (default 3: the run with the
// median performance score is kept), --preset mobile|desktop|both (default both), --pages login,usuarios,… (default
// every screen).
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import react from '@vitejs/plugin-react'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse, { desktopConfig } from 'lighthouse'
import puppeteer from 'puppeteer-core'
import { build as viteBuild } from 'vite'
import { longTasks } from './bench-web-tasks.mjs'

const root = path.resolve(import.meta.dirname, '..')
const resultsDir = path.join(root, 'bench', 'results')
const rawDir = path.join(resultsDir, 'raw')

const { values: args } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    runs: { type: 'string', default: '3' },
    preset: { type: 'string', default: 'both' },
    pages: { type: 'string', default: '' },
  },
})
const runs = Math.max(1, Number(args.runs) || 1)
const presets = args.preset === 'both' ? ['mobile', 'desktop'] : [args.preset]
for (const p of presets) if (p !== 'mobile' && p !== 'desktop') throw new Error(`--preset: mobile, desktop o both (no ${p})`)

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
// We run as root on a closed network: no sandbox, no GPU, nothing that phones home.
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]
const ACCOUNT = { email: 'superadmin@demo.es', password: 'Demo1234' }
// Every screen (apps/web/src/app/screens.ts); a resident's records take the NIF of the first demo resident.
const ALL_PAGES = [
  { id: 'login', path: '/', cold: true },
  { id: 'inicio', path: '/inicio' },
  { id: 'usuarios', path: '/usuarios' },
  { id: 'viviendas', path: '/viviendas' },
  { id: 'empresas', path: '/empresas' },
  { id: 'contactos', path: '/contactos' },
  { id: 'documentacion', path: '/documentacion/{nif}' },
  { id: 'caja', path: '/caja/{nif}' },
  { id: 'trabajadores', path: '/trabajadores' },
  { id: 'logs', path: '/logs' },
  { id: 'planing', path: '/planing' },
  { id: 'tareas', path: '/tareas' },
  { id: 'presupuestos', path: '/presupuestos' },
  { id: 'informes', path: '/informes' },
  { id: 'configuracion', path: '/configuracion' },
  { id: 'integraciones', path: '/integraciones' },
  { id: 'ficha-trabajador', path: '/ficha-trabajador' },
  { id: 'configuracionUsuario', path: '/configuracionUsuario' },
  { id: 'cambiar-password-con-actual', path: '/cambiar-password-con-actual' },
]
/**
 * The floors: nothing of ours. The empty page's blocking time and score are the host's and Lighthouse's own; React's
 * add what the framework costs to start (its files cached by a first visit, as a screen's are after the login).
 */
const FLOORS = [
  { id: 'vacia', path: '/vacia', floor: 'empty' },
  { id: 'react', path: '/react/', floor: 'react', warm: true },
]
const PAGES = (args.pages || ALL_PAGES.map((p) => p.id).join(',')).split(',').map((id) => {
  const page = ALL_PAGES.find((p) => p.id === id.trim())
  if (!page) throw new Error(`--pages: ${ALL_PAGES.map((p) => p.id).join(', ')} (no ${id})`)
  return page
})

/** The budgets: mobile performance on every screen; accessibility and best practices on every screen and preset. */
const BUDGETS = {
  loginBytes: 200_000,
  performance: 90,
}

function run(command, commandArgs, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { stdio: 'inherit', cwd: root, ...options })
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${commandArgs.join(' ')}: exit ${code}`))))
  })
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address()
      srv.close(() => resolve(port))
    })
  })
}

async function startServer() {
  const port = await freePort()
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vb-bench-web-'))
  const child = spawn(process.execPath, ['apps/api/dist/server.js'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: '' },
  })
  const base = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server stopped (exit ${child.exitCode})`)
    try {
      if ((await fetch(`${base}/api/openapi.json`)).ok) break
    } catch {}
    if (Date.now() > deadline) throw new Error('the server did not answer within 120 s')
    await new Promise((r) => setTimeout(r, 250))
  }
  return {
    base,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

const FLOOR_DIR = path.join(root, 'scripts', 'bench-web-floor')
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' }

/** Serves the floors apart from the app (they must hold nothing of ours): the empty page, and React built by Vite. */
async function startFloorServer() {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'vb-bench-web-floor-'))
  await viteBuild({
    root: FLOOR_DIR,
    base: '/react/',
    configFile: false,
    logLevel: 'error',
    plugins: [react()],
    build: { outDir, emptyOutDir: true },
  })
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://floor')
    if (url.pathname === '/vacia') {
      res.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-store' })
      return res.end(readFileSync(path.join(FLOOR_DIR, 'vacia.html')))
    }
    const file = url.pathname === '/react/' ? 'index.html' : url.pathname.replace(/^\/react\//, '')
    const full = path.join(outDir, file)
    if (!url.pathname.startsWith('/react/') || !full.startsWith(outDir) || !existsSync(full)) {
      res.writeHead(404)
      return res.end()
    }
    const type = TYPES[path.extname(full)] ?? 'application/octet-stream'
    // As the app's: the page revalidated, its hashed files kept.
    const cache = file === 'index.html' ? 'no-cache' : 'public, max-age=31536000, immutable'
    res.writeHead(200, { 'content-type': type, 'cache-control': cache })
    res.end(readFileSync(full))
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    async stop() {
      await new Promise((resolve) => server.close(resolve))
      rmSync(outDir, { recursive: true, force: true })
    },
  }
}

let nif
/** The NIF of the first demo resident, for the screens of a resident's records. */
async function demoNif(base) {
  if (nif) return nif
  const login = await fetch(`${base}/api/auth/trabajadores/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ACCOUNT),
  })
  const { token } = await login.json()
  const residents = await fetch(`${base}/api/usuarios?page=1&pageSize=1`, { headers: { authorization: `Bearer ${token}` } })
  nif = (await residents.json())[0].nif
  return nif
}

/** Logs in through the form, as a worker would, and waits until the first screen has settled. */
async function logIn(page, base) {
  await page.goto(`${base}/`, { waitUntil: 'networkidle2' })
  await page.locator('input[autocomplete="username"]').fill(ACCOUNT.email)
  await page.locator('#login-password').fill(ACCOUNT.password)
  await Promise.all([page.waitForFunction(() => location.pathname === '/inicio'), page.locator('button[type="submit"]').click()])
  // The notification stream stays open, so "idle" means at most that one request in flight.
  await page.waitForNetworkIdle({ idleTime: 500, concurrency: 1 })
}

function summarise(lhr, preset, pageDef) {
  const audit = (id) => lhr.audits[id]
  const items = audit('resource-summary')?.details?.items ?? []
  const scriptBytes = items.find((i) => i.resourceType === 'script')?.transferSize ?? 0
  const requests = items.find((i) => i.resourceType === 'total')?.requestCount ?? 0
  const failing = []
  for (const key of ['accessibility', 'best-practices']) {
    for (const ref of lhr.categories[key].auditRefs) {
      const a = lhr.audits[ref.id]
      if (ref.weight > 0 && a.score !== null && a.score < 1) failing.push(ref.id)
    }
  }
  const consoleErrors = (audit('errors-in-console')?.details?.items ?? []).map((i) => String(i.description).slice(0, 200))
  return {
    preset,
    page: pageDef.id,
    url: pageDef.path,
    cache: pageDef.floor ? `floor: ${pageDef.floor}` : pageDef.cold ? 'cold' : 'after login',
    ...(pageDef.floor ? { floor: pageDef.floor } : {}),
    // Lighthouse's CPU benchmark of this run: lower means the machine was busier (it scales every CPU figure).
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    performance: Math.round(lhr.categories.performance.score * 100),
    accessibility: Math.round(lhr.categories.accessibility.score * 100),
    bestPractices: Math.round(lhr.categories['best-practices'].score * 100),
    fcpMs: Math.round(audit('first-contentful-paint').numericValue),
    lcpMs: Math.round(audit('largest-contentful-paint').numericValue),
    tbtMs: Math.round(audit('total-blocking-time').numericValue),
    cls: Number(audit('cumulative-layout-shift').numericValue.toFixed(3)),
    bytes: Math.round(audit('total-byte-weight').numericValue),
    scriptBytes,
    requests,
    ...(failing.length ? { failingAudits: failing } : {}),
    ...(consoleErrors.length ? { consoleErrors } : {}),
    // What the first visit downloads, file by file (mobile only: the desktop run downloads the same files).
    ...(pageDef.cold && preset === 'mobile'
      ? {
          transfers: (audit('network-requests')?.details?.items ?? []).map((r) => ({
            url: r.url.replace(/^https?:\/\/[^/]+/, ''),
            type: r.resourceType,
            transferSize: r.transferSize,
          })),
        }
      : {}),
  }
}

/**
 * One Lighthouse run (its report and its artifacts, the trace among them); a run whose trace came out broken (it happens
 * now and then) is tried again, twice at most.
 */
async function runLighthouse(url, flags, config, page) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, flags, config, page)
    const error = result ? result.lhr.runtimeError : { code: 'NO_RESULT', message: 'Lighthouse returned nothing' }
    if (!error) return result
    if (attempt === 3) throw new Error(`${url}: ${error.code} ${error.message}`)
    process.stdout.write(`  ${url}: ${error.code}, trying again\n`)
  }
}

async function measure(base, floorBase, preset, runIndex, chromiumVersion) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS })
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null })
  chromiumVersion.value ??= await browser.version()
  const out = []
  try {
    const page = await browser.newPage()
    const config = preset === 'desktop' ? desktopConfig : undefined
    // The floors last, in the tab the screens left (their storage is another origin's: nothing is reset).
    for (const pageDef of [...PAGES, ...FLOORS]) {
      if (!pageDef.cold && !pageDef.floor && !out.some((r) => r.loggedIn)) {
        await logIn(page, base)
        out.push({ loggedIn: true })
      }
      const flags = {
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        // The cold run clears the origin's storage and the HTTP cache; the others keep the session and the cache.
        disableStorageReset: !pageDef.cold,
      }
      const url = pageDef.floor ? `${floorBase}${pageDef.path}` : `${base}${pageDef.path.replace('{nif}', await demoNif(base))}`
      if (pageDef.warm) await page.goto(url, { waitUntil: 'load' })
      const { lhr, artifacts } = await runLighthouse(url, flags, config, page)
      writeFileSync(path.join(rawDir, `${preset}-${pageDef.id}-${runIndex + 1}.json`), JSON.stringify(lhr))
      const tasks = longTasks(artifacts.Trace, lhr.configSettings.throttling.cpuSlowdownMultiplier)
      out.push({ ...summarise(lhr, preset, pageDef), longTasks: tasks })
      process.stdout.write(
        `  ${preset} ${pageDef.path} run ${runIndex + 1}: performance ${out.at(-1).performance}, TBT ${out.at(-1).tbtMs} ms; ` +
          `long tasks ${Math.round(tasks.ms)} ms, modules run ${Math.round(tasks.modules)}, handlers & renders ${Math.round(tasks.script)}\n`,
      )
    }
  } finally {
    await browser.disconnect()
    chrome.kill()
  }
  return out.filter((r) => !r.loggedIn)
}

const median = (rows) => [...rows].sort((a, b) => a.performance - b.performance)[Math.floor((rows.length - 1) / 2)]

function checkBudgets(results) {
  const checks = []
  const find = (preset, id) => results.find((r) => r.preset === preset && r.page === id)
  const login = find('mobile', 'login')
  if (login)
    checks.push({
      budget: 'mobile: first visit to login over the wire',
      limit: `< ${BUDGETS.loginBytes} B`,
      actual: login.bytes,
      ok: login.bytes < BUDGETS.loginBytes,
    })
  for (const r of results.filter((x) => x.preset === 'mobile' && !x.floor))
    checks.push({
      budget: `mobile: performance ${r.url}`,
      limit: `>= ${BUDGETS.performance}`,
      actual: r.performance,
      ok: r.performance >= BUDGETS.performance,
    })
  for (const r of results.filter((x) => !x.floor)) {
    checks.push({
      budget: `${r.preset}: accessibility ${r.url}`,
      limit: '100',
      actual: r.accessibility,
      ok: r.accessibility === 100,
    })
    checks.push({
      budget: `${r.preset}: best practices ${r.url}`,
      limit: '100',
      actual: r.bestPractices,
      ok: r.bestPractices === 100,
    })
  }
  return checks
}

const floorOf = (results, preset, kind) => results.find((r) => r.preset === preset && r.floor === kind)
const beyond = (results, r, kind) =>
  r.floor ? '' : `${Math.max(0, r.tbtMs - (floorOf(results, r.preset, kind)?.tbtMs ?? 0))} ms`

/** A Markdown table, columns from `firstNumber` on right-aligned (as the docs' tables are). */
function printMarkdown(header, rows, firstNumber) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)))
  const line = (cells) =>
    `| ${cells.map((c, i) => (i >= firstNumber ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join(' | ')} |`
  console.log(line(header))
  console.log(`|${widths.map((w, i) => (i >= firstNumber ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`)
  for (const row of rows) console.log(line(row))
}

/**
 * What the long tasks of each screen's kept run spent their time on (scripts/bench-web-tasks.mjs): milliseconds as
 * traced, before Lighthouse's CPU slowdown, of the tasks that block once slowed down. The score moves with the machine;
 * these say which part of a screen's start to cut.
 */
function printLongTasks(results) {
  const kinds = ['modules', 'script', 'styleLayoutPaint', 'document', 'gc', 'other']
  const header = [
    'preset',
    'page',
    'long tasks',
    'their ms',
    'modules run',
    'handlers & renders',
    'style, layout, paint',
    'document',
    'GC',
    'other',
  ]
  const rows = results
    .filter((r) => r.longTasks)
    .map((r) => [r.preset, r.url, r.longTasks.count, Math.round(r.longTasks.ms), ...kinds.map((k) => Math.round(r.longTasks[k]))])
  printMarkdown(header, rows, 2)
}

function printTable(results) {
  const header = [
    'preset',
    'page',
    'cache',
    'perf',
    'a11y',
    'best pr.',
    'FCP',
    'LCP',
    'TBT',
    // The page's blocking time beyond each floor's (the same preset's, in this run).
    'TBT − empty',
    'TBT − React',
    'CLS',
    'over the wire',
    'JS',
    'requests',
    // Lighthouse's CPU benchmark of this machine at that moment (higher is faster): read the scores beside it.
    'CPU index',
  ]
  const rows = results.map((r) => [
    r.preset,
    r.url,
    r.cache,
    r.performance,
    r.accessibility,
    r.bestPractices,
    `${(r.fcpMs / 1000).toFixed(1)} s`,
    `${(r.lcpMs / 1000).toFixed(1)} s`,
    `${r.tbtMs} ms`,
    beyond(results, r, 'empty'),
    beyond(results, r, 'react'),
    r.cls,
    `${(r.bytes / 1000).toFixed(1)} kB`,
    `${(r.scriptBytes / 1000).toFixed(1)} kB`,
    r.requests,
    r.benchmarkIndex,
  ])
  printMarkdown(header, rows, 3)
}

async function main() {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM} (set CHROMIUM_PATH, or apt-get install chromium)`)
  if (!args['no-build']) await run('npm', ['run', 'build'])
  if (!existsSync(path.join(root, 'apps/web/dist/index.html'))) throw new Error('apps/web/dist is missing: run npm run build')
  mkdirSync(rawDir, { recursive: true })
  const loadBefore = os.loadavg()[0]
  const floor = await startFloorServer()
  const chromiumVersion = {}
  const all = []
  try {
    const server = await startServer()
    try {
      for (const preset of presets) {
        for (let i = 0; i < runs; i++) all.push(...(await measure(server.base, floor.base, preset, i, chromiumVersion)))
      }
    } finally {
      await server.stop()
    }
  } finally {
    await floor.stop()
  }
  const results = []
  for (const preset of presets) {
    for (const p of [...PAGES, ...FLOORS]) results.push(median(all.filter((r) => r.preset === preset && r.page === p.id)))
  }
  const budgets = checkBudgets(results)
  console.log(
    `\nLighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, ${chromiumVersion.value}, median of ${runs} run(s) by performance score\n`,
  )
  printTable(results)
  console.log('\nThe long tasks of the same runs, by what they ran (ms as traced, before the CPU slowdown):\n')
  printLongTasks(results)
  console.log('')
  for (const preset of presets) {
    for (const [kind, what] of [
      ['empty', 'an empty page (no script, no stylesheet): this machine and Lighthouse alone'],
      ['react', 'React alone, its files cached: the framework besides'],
    ]) {
      const f = floorOf(results, preset, kind)
      console.log(
        `floor ${preset}, ${what}: performance ${f.performance}, TBT ${f.tbtMs} ms, FCP ${(f.fcpMs / 1000).toFixed(1)} s, CPU index ${f.benchmarkIndex}`,
      )
    }
  }
  console.log('')
  for (const b of budgets) console.log(`${b.ok ? 'ok  ' : 'MISS'} ${b.budget}: ${b.actual} (budget ${b.limit})`)
  for (const r of results) {
    if (r.failingAudits) console.log(`${r.preset} ${r.url}: failing audits ${r.failingAudits.join(', ')}`)
    for (const e of r.consoleErrors ?? []) console.log(`${r.preset} ${r.url}: console error ${e}`)
  }
  const summary = {
    date: new Date().toISOString(),
    loadAverage: { start: Number(loadBefore.toFixed(2)), end: Number(os.loadavg()[0].toFixed(2)) },
    machine: {
      cpus: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
    chromium: chromiumVersion.value,
    runs,
    account: ACCOUNT.email,
    results,
    budgets,
  }
  writeFileSync(path.join(resultsDir, 'web.json'), `${JSON.stringify(summary, null, 2)}\n`)
  console.log(
    `\nSummary: ${path.relative(root, path.join(resultsDir, 'web.json'))}; full reports: ${path.relative(root, rawDir)}/`,
  )
  if (budgets.some((b) => !b.ok)) process.exitCode = 1
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
