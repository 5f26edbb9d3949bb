import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { testEngine } from '../test/build-test-app'
import { gone, isAlive, login, postmasterPid, ROOT, type ServerProcess, startServer } from '../test/server-process'

/**
 * DECISIONS R (embedded default, embedded safety) and D15: the real server process on its own PostgreSQL,
 * started, stopped, killed and restarted as an operator's office PC would see it.
 */
const isRoot = process.getuid?.() === 0
const started: ServerProcess[] = []
const dirs: string[] = []

async function start(options: Parameters<typeof startServer>[0]) {
  const server = await startServer(options)
  started.push(server)
  return server
}

/** A new DATA_DIR on a path with spaces and accents (the last bad-input case). */
function newDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'vb datos ñandú '))
  dirs.push(dir)
  return dir
}

/** A direct connection to the app's database of a running embedded server (socket + password file). */
async function connect(dataDir: string): Promise<pg.Client> {
  const lines = readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')
  const client = new pg.Client({
    host: lines[4],
    port: Number(lines[3]),
    user: 'postgres',
    password: readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim(),
    database: 'viviendas',
  })
  await client.connect()
  return client
}

async function createEmpresa(base: string, token: string, nombre: string) {
  return fetch(`${base}/api/empresas`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ nombre }),
  })
}

afterAll(async () => {
  for (const s of started) {
    if (s.child.exitCode === null && s.child.signalCode === null) {
      s.child.kill('SIGTERM')
      await s.exited
    }
  }
  for (const dir of dirs) {
    const pid = postmasterPid(dir)
    if (isAlive(pid)) process.kill(pid as number, 'SIGINT')
    await gone(pid, 10_000)
    rmSync(dir, { recursive: true, force: true })
  }
})

// These start real server processes on the embedded engine; the TEST_DATABASE_URL run has nothing to add.
describe.skipIf(testEngine() === 'pg')('the embedded PostgreSQL server', () => {
  it('initialises a private, durable cluster, seeds it once, and a second start on the same DATA_DIR is refused', async () => {
    const dataDir = newDataDir()
    const first = await start({ dataDir })
    await first.ready()
    expect(first.output()).toContain('superadmin@demo.es')
    expect(first.output()).toContain('PostgreSQL 18 integrado')
    // Private: folders 0700 (0710 for the system user's group when root), secrets 0600, a socket and no TCP port.
    expect(statSync(dataDir).mode & 0o777).toBe(isRoot ? 0o710 : 0o700)
    for (const sub of ['pg', 'run']) expect(statSync(path.join(dataDir, sub)).mode & 0o777).toBe(0o700)
    for (const file of ['pg-password', 'jwt-secret', 'postgresql.log']) {
      expect(statSync(path.join(dataDir, file)).mode & 0o777).toBe(0o600)
    }
    expect(readdirSync(path.join(dataDir, 'run'))).toContain('.s.PGSQL.5432')
    const db = await connect(dataDir)
    try {
      const settings = await db.query(
        "select name, setting from pg_settings where name in ('fsync', 'synchronous_commit', 'full_page_writes', 'listen_addresses')",
      )
      expect(Object.fromEntries(settings.rows.map((r) => [r.name, r.setting]))).toEqual({
        fsync: 'on',
        synchronous_commit: 'on',
        full_page_writes: 'on',
        listen_addresses: '',
      })
      expect(Number((await db.query('show server_version_num')).rows[0].server_version_num)).toBeGreaterThanOrEqual(160000)
    } finally {
      await db.end()
    }
    if (isRoot) {
      // PostgreSQL refuses root: it runs as the unprivileged system user.
      const owner = execFileSync('ps', ['-o', 'user=', '-p', String(postmasterPid(dataDir))], { encoding: 'utf8' }).trim()
      expect(owner).toBe('viviendas-pg')
    }

    const second = await start({ dataDir })
    expect(await second.exited).toBe(1)
    expect(second.output()).toContain('ya está en uso por otro proceso')

    // SIGTERM to the Node process alone: PostgreSQL is stopped before the process exits.
    const pgPid = postmasterPid(dataDir)
    const stopping = Date.now()
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    expect(await gone(pgPid, 5000)).toBe(true)
    expect(Date.now() - stopping).toBeLessThan(10_000)
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false)

    // A restart opens the same data and does not seed again.
    const third = await start({ dataDir })
    await third.ready()
    expect(third.output()).not.toContain('Datos de demostración cargados')
    // SIGINT (Ctrl-C) to the Node process alone: the same clean stop.
    third.child.kill('SIGINT')
    expect(await third.exited).toBe(0)
  }, 120_000)

  it('after the Node process alone is killed, the next start reclaims the orphaned server and the data is there', async () => {
    const dataDir = newDataDir()
    const first = await start({ dataDir, detached: true })
    await first.ready()
    const token = await login(first.base)
    expect((await createEmpresa(first.base, token, 'Empresa Antes Del Golpe')).status).toBe(201)
    const orphan = postmasterPid(dataDir)
    first.child.kill('SIGKILL')
    await first.exited
    expect(isAlive(orphan)).toBe(true)

    const second = await start({ dataDir, detached: true })
    await second.ready()
    expect(second.output()).toContain('huérfano')
    expect(isAlive(orphan)).toBe(false)
    const token2 = await login(second.base)
    const list = await fetch(`${second.base}/api/empresas?q=antes del golpe`, { headers: { authorization: `Bearer ${token2}` } })
    expect(((await list.json()) as Array<{ nombre: string }>).map((e) => e.nombre)).toEqual(['Empresa Antes Del Golpe'])
    // A signal to the server's whole process group (a terminal's Ctrl-C) stops both in order.
    const pgPid = postmasterPid(dataDir)
    process.kill(-(second.child.pid as number), 'SIGINT')
    expect(await second.exited).toBe(0)
    expect(await gone(pgPid, 5000)).toBe(true)
  }, 120_000)

  it('after a kill -9 of everything during a write burst, recovery keeps every acknowledged write', async () => {
    const dataDir = newDataDir()
    const first = await start({ dataDir })
    await first.ready()
    const token = await login(first.base)
    const acknowledged: number[] = []
    let stop = false
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await createEmpresa(first.base, token, `Ráfaga ${w}-${i}`)
          if (res.status === 201) acknowledged.push(((await res.json()) as { id: number }).id)
        } catch {
          return // the server is gone
        }
      }
    }
    const writers = [1, 2, 3, 4].map(writer)
    while (acknowledged.length < 60) await new Promise((r) => setTimeout(r, 20))
    const pgPid = postmasterPid(dataDir) as number
    first.child.kill('SIGKILL')
    process.kill(pgPid, 'SIGKILL')
    stop = true
    await Promise.all(writers)
    await first.exited
    await gone(pgPid, 5000)

    const second = await start({ dataDir })
    await second.ready()
    const db = await connect(dataDir)
    try {
      const found = await db.query('select count(*)::int as n from empresas where id = any($1::int[])', [acknowledged])
      expect(found.rows[0].n).toBe(acknowledged.length)
    } finally {
      await db.end()
    }
    expect(readFileSync(path.join(dataDir, 'postgresql.log'), 'utf8')).toMatch(
      /redo (starts|done)|database system was interrupted/,
    )
  }, 120_000)

  it('refuses a DATA_DIR made by another PostgreSQL major version and says how to move the data', async () => {
    const dataDir = newDataDir()
    mkdirSync(path.join(dataDir, 'pg'), { mode: 0o700 })
    writeFileSync(path.join(dataDir, 'pg', 'PG_VERSION'), '15\n')
    const server = await start({ dataDir })
    expect(await server.exited).toBe(1)
    expect(server.output()).toContain('la creó PostgreSQL 15')
    expect(server.output()).toContain('db:backup')
    expect(server.output()).toContain('db:restore')
    // Never opened: nothing was added to it.
    expect(readdirSync(path.join(dataDir, 'pg'))).toEqual(['PG_VERSION'])
  }, 60_000)

  it.runIf(isRoot)(
    'as root, stops before touching anything when a parent of DATA_DIR is out of the system user’s reach',
    async () => {
      const closed = mkdtempSync(path.join(tmpdir(), 'vb-cerrada-'))
      dirs.push(closed)
      expect(statSync(closed).mode & 0o777).toBe(0o700)
      const dataDir = path.join(closed, 'datos')
      const server = await start({ dataDir })
      expect(await server.exited).toBe(1)
      expect(server.output()).toContain(`no puede atravesar ${closed}`)
      expect(server.output()).toContain('DATABASE_URL')
      expect(server.output()).toContain('No se ha creado ni modificado nada')
      expect(existsSync(dataDir)).toBe(false)
    },
    60_000,
  )

  it.runIf(isRoot)(
    'starts as an ordinary user too (PostgreSQL then runs as that user)',
    async (ctx) => {
      const user = 'vb-prueba'
      try {
        execFileSync('id', ['-u', user], { stdio: 'ignore' })
      } catch {
        execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', user])
      }
      const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }))
      const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }))
      // The checkout must be readable by other users for this one to run the code at all.
      let dir = ROOT
      while (dir !== path.dirname(dir)) {
        if ((statSync(dir).mode & 0o005) !== 0o005) ctx.skip(`${dir} is not readable by other users`)
        dir = path.dirname(dir)
      }
      const dataDir = newDataDir()
      chownSync(dataDir, uid, gid)
      const server = await start({ dataDir, uid, gid })
      await server.ready()
      const owner = execFileSync('ps', ['-o', 'user=', '-p', String(postmasterPid(dataDir))], { encoding: 'utf8' }).trim()
      expect(owner).toBe(user)
      expect(statSync(path.join(dataDir, 'pg')).uid).toBe(uid)
      await login(server.base)
      server.child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
    },
    90_000,
  )

  it('keeps DATA_DIR private whatever the umask, and tightens an existing folder with looser modes, saying so', async () => {
    const dataDir = newDataDir()
    chmodSync(dataDir, 0o777)
    // umask 000: every file and folder would be world-readable and writable if the modes were left to it.
    const server = await start({ dataDir, env: { VB_UMASK: '000' } })
    await server.ready()
    expect(server.output()).toMatch(/Permisos de .* ajustados de 0777 a 07[01]0/)
    expect(statSync(dataDir).mode & 0o777).toBe(isRoot ? 0o710 : 0o700)
    for (const sub of ['pg', 'run']) expect(statSync(path.join(dataDir, sub)).mode & 0o777).toBe(0o700)
    for (const file of ['pg-password', 'jwt-secret', 'postgresql.log', 'server.lock']) {
      expect(statSync(path.join(dataDir, file)).mode & 0o777, file).toBe(0o600)
    }
    // PostgreSQL's own files: nothing readable by other users.
    const loose = execFileSync('find', [path.join(dataDir, 'pg'), '-perm', '/o=rwx'], { encoding: 'utf8' }).trim()
    expect(loose).toBe('')
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
  }, 60_000)

  it('refuses to start in production without JWT_SECRET, before starting anything', async () => {
    const dataDir = newDataDir()
    const prod = await start({ dataDir, env: { NODE_ENV: 'production' } })
    expect(await prod.exited).toBe(1)
    expect(prod.output()).toContain('JWT_SECRET')
    expect(existsSync(path.join(dataDir, 'pg'))).toBe(false)
  }, 30_000)
})
