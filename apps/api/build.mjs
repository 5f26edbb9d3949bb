// Bundles the API (and the shared package it imports as TypeScript) into dist/server.js.
// Dependencies stay external and are loaded from node_modules at run time.
import { readFileSync } from 'node:fs'
import { build } from 'esbuild'

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'))
const external = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies ?? {})].filter(
  (d) => d !== '@vb/shared',
)

await build({
  entryPoints: {
    server: 'src/server.ts',
    'admin-create': 'src/cli/admin-create.ts',
    // The statement PDF's worker thread, found by the server beside itself (dist/extracto-worker.js).
    'extracto-worker': 'src/modules/caja-usuario/caja-usuario.extracto-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: [...external, 'zod', 'zod/*', 'drizzle-orm/*'],
  logLevel: 'warning',
})
