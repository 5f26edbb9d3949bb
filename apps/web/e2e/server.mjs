// The browser suite's server (playwright.config.ts, webServer): the built API on a fresh embedded database in a
// folder of its own, which it removes once the server has stopped. Playwright stops it with SIGTERM sent to the
// whole process group, so the server (which stops its embedded PostgreSQL on SIGTERM) gets it too; this process
// only waits for it to finish, then removes the folder (about 50 MB a run, which used to stay in the temp folder).
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../../..')
const given = process.env.E2E_DATA_DIR
const dataDir = given ?? mkdtempSync(path.join(tmpdir(), 'vb-e2e-'))

const server = spawn(process.execPath, [path.join(root, 'apps/api/dist/server.js')], {
  cwd: root,
  env: { ...process.env, DATA_DIR: dataDir },
  stdio: 'inherit',
})

let stopping = false
const stop = (signal) => {
  // The server has the signal from its group already when Playwright sends it; sent again when only this process
  // got it (a Ctrl+C of this script alone, say).
  if (stopping) return
  stopping = true
  setTimeout(() => server.kill(signal), 200).unref()
}
process.on('SIGTERM', () => stop('SIGTERM'))
process.on('SIGINT', () => stop('SIGINT'))

server.on('exit', (code, signal) => {
  if (!given) rmSync(dataDir, { recursive: true, force: true })
  process.exit(code ?? (signal ? 1 : 0))
})
