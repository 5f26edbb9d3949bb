import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The web app takes values from the shared package module by module (`@vb/shared/presupuestos`), never from its
 * main entry: `@vb/shared` re-exports every module, so a value from it would build every schema of the product
 * (about a hundred zod schemas) on whichever screen imported it, before that screen's first render. Types are
 * free (`import type` leaves nothing in the build).
 */
const src = path.resolve(import.meta.dirname, '..')
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
  )

describe("the web app's imports of @vb/shared", () => {
  it('take values from a module of the package, and only types from its main entry', () => {
    const offending: string[] = []
    for (const file of files(src)) {
      const text = readFileSync(file, 'utf8')
      const statements =
        text.match(/(?:import|export)\s*(?:type\s*)?\{[^}]*\}\s*from\s*'@vb\/shared'|import\(\s*'@vb\/shared'\s*\)/g) ?? []
      for (const statement of statements) {
        if (/^import\s+type\s*\{/.test(statement)) continue
        offending.push(`${path.relative(src, file)}: ${statement.replace(/\s+/g, ' ')}`)
      }
    }
    expect(offending).toEqual([])
  })
})
