// `npm start` (DECISIONS R: "builds what is needed, then serves"). The build runs only when its inputs
// changed since the last one (a fingerprint of the sources, configs and lock file, kept beside the output),
// so a restart does not pay for a build; then the server runs in this same process, so signals reach it
// directly.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const inputs = [
  'package-lock.json',
  'packages/shared/src',
  'apps/api/src',
  'apps/api/drizzle',
  'apps/api/build.mjs',
  'apps/api/package.json',
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
]
const stampFile = path.join(root, 'apps/api/dist/.build-fingerprint')
const outputs = ['apps/api/dist/server.js', 'apps/web/dist/index.html']

/** Paths, sizes and modification times of every input file: cheap, and changes whenever a file does. */
function fingerprint() {
  const hash = createHash('sha256')
  const visit = (p) => {
    if (!existsSync(p)) return
    const st = statSync(p)
    if (st.isDirectory()) {
      for (const entry of readdirSync(p).sort()) {
        if (entry === 'node_modules' || entry === 'dist' || entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue
        visit(path.join(p, entry))
      }
    } else {
      hash.update(`${path.relative(root, p)}\0${st.size}\0${st.mtimeMs}\n`)
    }
  }
  for (const input of inputs) visit(path.join(root, input))
  return hash.digest('hex')
}

const current = fingerprint()
const built = outputs.every((o) => existsSync(path.join(root, o))) && existsSync(stampFile)
if (!built || readFileSync(stampFile, 'utf8').trim() !== current) {
  console.log(built ? 'Los fuentes han cambiado: se vuelve a construir la aplicación…' : 'Construyendo la aplicación…')
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
  if (result.status !== 0) process.exit(result.status ?? 1)
  writeFileSync(stampFile, `${current}\n`)
} else {
  console.log('La aplicación ya está construida y al día.')
}

await import(pathToFileURL(path.join(root, 'apps/api/dist/server.js')).href)
