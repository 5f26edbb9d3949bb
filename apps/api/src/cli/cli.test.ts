import { describe, expect, it } from 'vitest'
import { freePort, runTool } from '../test/server-process'

/** A tool's exit status and what it printed. */
async function run(tool: Parameters<typeof runTool>[0], args: string[], env: Record<string, string> = {}) {
  const r = runTool(tool, args, env)
  return { status: await r.exited, output: r.output() }
}

const USAGE = {
  'admin-create': 'Uso: npm run admin:create -- --email correo@empresa.es',
  'db-backup': 'Uso: npm run db:backup -- ARCHIVO',
  'db-restore': 'Uso: npm run db:restore -- [--force] ARCHIVO',
}
const noStack = /\n\s+at |ERR_PARSE_ARGS|TypeError/

describe('the command-line tools (admin:create, db:backup, db:restore)', () => {
  it('--help prints the usage; an unknown option, a missing value or a value too many is said in Spanish, with the usage', async () => {
    const [help, unknown, missing, extra, positional] = await Promise.all([
      run('db-restore', ['--help']),
      run('admin-create', ['--ayuda']),
      run('admin-create', ['--email']),
      run('db-restore', ['--force=si', 'copia.vbdump']),
      run('admin-create', ['copia.vbdump']),
    ])
    expect(help).toEqual({ status: 0, output: expect.stringContaining(USAGE['db-restore']) })
    expect(unknown).toEqual({
      status: 2,
      output: expect.stringContaining(`Opción desconocida: --ayuda.\n${USAGE['admin-create']}`),
    })
    expect(missing).toEqual({
      status: 2,
      output: expect.stringContaining(`La opción --email necesita un valor.\n${USAGE['admin-create']}`),
    })
    expect(extra).toEqual({
      status: 2,
      output: expect.stringContaining(`La opción --force no lleva valor.\n${USAGE['db-restore']}`),
    })
    expect(positional).toEqual({
      status: 2,
      output: expect.stringContaining(`Argumento de más: copia.vbdump.\n${USAGE['admin-create']}`),
    })
    for (const r of [help, unknown, missing, extra, positional]) expect(r.output).not.toMatch(noStack)
  }, 60_000)

  it('a DATABASE_URL nobody answers at is said in Spanish, where and what to check, without a stack trace', async () => {
    const port = await freePort()
    const url = `postgres://postgres@127.0.0.1:${port}/viviendas`
    const said = `No se puede conectar con PostgreSQL en 127.0.0.1:${port}/viviendas (DATABASE_URL): rechaza la conexión: ¿está arrancado y escucha en ese puerto?`
    const [backup, admin] = await Promise.all([
      run('db-backup', ['/tmp/copia-que-no-se-escribe.vbdump'], { DATABASE_URL: url }),
      run('admin-create', ['--email', 'jefa@empresa.es', '--nombre', 'Ana', '--apellidos', 'Ruiz', '--nif', '12345678Z'], {
        DATABASE_URL: url,
      }),
    ])
    for (const r of [backup, admin]) {
      expect(r.status).toBe(1)
      expect(r.output).toContain(said)
      expect(r.output).not.toMatch(/ECONNREFUSED|\n\s+at /)
    }
  }, 60_000)

  it('a variable that is wrong ends a tool with its Spanish line, as it stops the server', async () => {
    const [backup, restore] = await Promise.all([
      run('db-backup', ['/tmp/copia-que-no-se-escribe.vbdump'], { DB_POOL_SIZE: 'diez' }),
      run('db-restore', ['package.json'], { DATABASE_URL: 'postgres://u@127.0.0.1/x', JWT_TTL: '3600' }),
    ])
    expect(backup.status).toBe(1)
    expect(backup.output).toContain(
      'La configuración no es válida (variables de entorno):\n  DB_POOL_SIZE="diez" no es válido: ha de ser un número entero de conexiones entre 1 y 100.',
    )
    expect(restore.status).toBe(1)
    expect(restore.output).toContain('JWT_TTL="3600" no es válido')
    for (const r of [backup, restore]) expect(r.output).not.toMatch(noStack)
  }, 60_000)
})
