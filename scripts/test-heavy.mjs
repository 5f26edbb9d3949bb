// `npm run test:heavy`: the proofs of docs/security.md at full size, on the embedded PostgreSQL and, when
// TEST_DATABASE_URL is set, on that server: 10 crash rounds of each kind (there, PostgreSQL itself is killed
// too, so run it on a server nothing else is using), 60 s of load, the matrix, the hostile input with 100
// random whole bodies per write, and the faults.
import { spawnSync } from 'node:child_process'

// The crashes first and alone: killing TEST_DATABASE_URL's PostgreSQL would fail whatever else runs on it.
const groups = [
  ['apps/api/src/crash-burst.test.ts'],
  [
    'apps/api/src/load.test.ts',
    'apps/api/src/modules/permissions-matrix.test.ts',
    'apps/api/src/modules/hostile-input.test.ts',
    'apps/api/src/faults.test.ts',
  ],
]
const heavy = { CRASH_ROUNDS: '10', CRASH_KILL_PG: '1', LOAD_SECONDS: '60', HOSTILE_BODIES: '100' }
const engines = [{ name: 'embedded', env: {} }]
if (process.env.TEST_DATABASE_URL) engines.push({ name: 'TEST_DATABASE_URL', env: { TEST_ENGINE: 'pg' } })
else console.log('TEST_DATABASE_URL is not set: the embedded PostgreSQL only')

let failed = 0
for (const engine of engines) {
  console.log(`\n== Heavy suite on ${engine.name}`)
  const started = performance.now()
  let ok = true
  for (const files of groups) {
    const run = spawnSync('npx', ['vitest', 'run', '--project', 'api', ...files], {
      stdio: 'inherit',
      env: { ...process.env, ...heavy, ...engine.env },
    })
    ok &&= run.status === 0
  }
  console.log(`== ${engine.name}: ${ok ? 'OK' : 'FAILED'} in ${((performance.now() - started) / 1000).toFixed(0)} s`)
  if (!ok) failed++
}
process.exit(failed ? 1 : 0)
