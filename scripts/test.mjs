// `npm test`: every suite in order (DECISIONS R), stopping at the first failure.
// Each step prints a heading; the last line before the exit is `N passed, M failed`.
import { spawn } from 'node:child_process'

const steps = [
  { name: 'Lint and format (Biome)', command: 'npx biome check .' },
  { name: 'Types (tsc)', command: 'npm run typecheck' },
  // A service importing app.ts (or any other cycle) fails here (docs/architecture.md, where code goes).
  { name: 'Import cycles (madge)', command: 'npm run check:cycles' },
  // The web project may have no unit tests yet: that is not a failure.
  { name: 'Unit tests (shared, web)', command: 'npx vitest run --project shared --project web --passWithNoTests' },
  { name: 'API tests on the embedded PostgreSQL', command: 'npx vitest run --project api' },
  {
    name: 'API tests on PostgreSQL (TEST_DATABASE_URL)',
    command: 'npx vitest run --project api',
    env: { TEST_ENGINE: 'pg' },
    skip: process.env.TEST_DATABASE_URL
      ? null
      : 'TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/postgres)',
  },
  { name: 'Build (web + API)', command: 'npm run build' },
  // The first load's size budget, precompressed files and cache headers, on the build just made.
  { name: 'Delivery checks on the build (sizes, compression, caching)', command: 'npx vitest run --project delivery' },
  { name: 'Browser suite (Playwright, headless Chromium)', command: 'npm run test:e2e' },
]

function run(command, env) {
  return new Promise((resolve) => {
    const child = spawn(command, { stdio: 'inherit', shell: true, env: { ...process.env, ...env } })
    child.on('error', (err) => {
      console.error(err.message)
      resolve(1)
    })
    child.on('exit', (code, signal) => resolve(signal ? 1 : (code ?? 1)))
  })
}

const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1)
let passed = 0
let failed = 0
let skipped = 0
const started = performance.now()

for (const [i, step] of steps.entries()) {
  const heading = `[${i + 1}/${steps.length}] ${step.name}`
  console.log(`\n${'='.repeat(heading.length)}\n${heading}\n${'='.repeat(heading.length)}`)
  if (step.skip) {
    console.log(`SKIPPED: ${step.skip}`)
    skipped += 1
    continue
  }
  console.log(
    `$ ${
      step.env
        ? `${Object.entries(step.env)
            .map(([k, v]) => `${k}=${v} `)
            .join('')}`
        : ''
    }${step.command}`,
  )
  const t0 = performance.now()
  const code = await run(step.command, step.env)
  if (code === 0) {
    passed += 1
    console.log(`OK: ${step.name} (${seconds(t0)} s)`)
  } else {
    failed += 1
    console.error(`FAILED: ${step.name} (exit code ${code}, ${seconds(t0)} s). Later steps were not run.`)
    break
  }
}

console.log(`\nnpm test finished in ${seconds(started)} s${skipped ? ` (${skipped} skipped)` : ''}`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed ? 1 : 0)
