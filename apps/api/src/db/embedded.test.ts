import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { testEngine } from '../test/build-test-app'
import { freePort, gone, isAlive, login, postmasterPid, ROOT, type ServerProcess, startServer } from '../test/server-process'
import { askedAgain, startEmbeddedPostgres } from './embedded'

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

/** The system user PostgreSQL runs as under root, created if this run has not made it yet. */
function systemUserIds(user: string): { uid: number; gid: number } {
  try {
    execFileSync('id', ['-u', user], { stdio: 'ignore' })
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', user])
  }
  return {
    uid: Number(execFileSync('id', ['-u', user], { encoding: 'utf8' })),
    gid: Number(execFileSync('id', ['-g', user], { encoding: 'utf8' })),
  }
}

/** A process that takes and releases a data directory's lock when told (test/lock-racer.ts). */
function lockRacer(): { child: ChildProcess; send(line: string): void; next(): Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/test/lock-racer.ts'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const lines: string[] = []
  const waiting: Array<(line: string) => void> = []
  let buffer = ''
  child.stdout?.setEncoding('utf8')
  child.stdout?.on('data', (d: string) => {
    buffer += d
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl)
      buffer = buffer.slice(nl + 1)
      const waiter = waiting.shift()
      if (waiter) waiter(line)
      else lines.push(line)
    }
  })
  return {
    child,
    send: (line) => child.stdin?.write(`${line}\n`),
    next: () => {
      const line = lines.shift()
      return line !== undefined ? Promise.resolve(line) : new Promise((resolve) => waiting.push(resolve))
    },
  }
}

/** A file's content, mode and owner: what a write or chown through a link would change. */
const fileState = (file: string) => {
  const st = statSync(file)
  return { content: readFileSync(file, 'utf8'), mode: st.mode & 0o7777, uid: st.uid, gid: st.gid }
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

describe('the owner of a lock just lost (askedAgain)', () => {
  it('asks again while the owner does not answer (bound, not yet listening), and gives up after the attempts', async () => {
    const answers = [undefined, undefined, 4321]
    let asked = 0
    expect(await askedAgain(async () => answers[asked++], { delayMs: 1 })).toBe(4321)
    expect(asked).toBe(3)
    asked = 0
    const nobody = async () => {
      asked++
      return undefined
    }
    expect(await askedAgain(nobody, { attempts: 5, delayMs: 1 })).toBeUndefined()
    expect(asked).toBe(5)
  })
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
        "select name, setting from pg_settings where name in ('fsync', 'synchronous_commit', 'full_page_writes', 'listen_addresses', 'unix_socket_permissions')",
      )
      expect(Object.fromEntries(settings.rows.map((r) => [r.name, r.setting]))).toEqual({
        fsync: 'on',
        synchronous_commit: 'on',
        full_page_writes: 'on',
        listen_addresses: '',
        unix_socket_permissions: '0700',
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

  it('a variable that is wrong stops the start with its Spanish line, before starting anything', async () => {
    const dataDir = newDataDir()
    const server = await start({ dataDir, env: { PORT: 'tres mil', LOGIN_MAX_FAILURES_PER_EMAIL: 'cinco' } })
    expect(await server.exited).toBe(1)
    expect(server.output()).toContain(
      [
        'La configuración no es válida (variables de entorno):',
        '  PORT="tres mil" no es válido: ha de ser un número de puerto entre 1 y 65535.',
        '  LOGIN_MAX_FAILURES_PER_EMAIL="cinco" no es válido: ha de ser un número entero de intentos entre 1 y 1000.',
      ].join('\n'),
    )
    expect(server.output()).not.toMatch(/RangeError|\n\s+at /)
    expect(existsSync(path.join(dataDir, 'pg'))).toBe(false)
  }, 30_000)

  it('a port another program holds is said in Spanish, and the PostgreSQL it had started is stopped', async () => {
    const dataDir = newDataDir()
    const holder = net.createServer()
    const port = await freePort()
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve))
    try {
      const server = await start({ dataDir, env: { PORT: String(port) } })
      expect(await server.exited).toBe(1)
      expect(server.output()).toContain(
        `El puerto ${port} ya está en uso en 127.0.0.1: otro programa (¿otro servidor arrancado?) escucha en él. Pare ese programa o elija otro puerto con PORT.`,
      )
      expect(server.output()).not.toMatch(/EADDRINUSE|\n\s+at /)
      // The cluster was started and migrated, then stopped cleanly: no postmaster left behind.
      expect(existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true)
      expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false)
    } finally {
      holder.close()
    }
  }, 90_000)

  it('a DATABASE_URL it cannot reach stops the start with what to check, in Spanish, without a stack trace', async () => {
    const dataDir = newDataDir()
    const port = await freePort()
    const server = await start({ dataDir, env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/viviendas` } })
    expect(await server.exited).toBe(1)
    expect(server.output()).toContain(
      `No se puede conectar con PostgreSQL en 127.0.0.1:${port}/viviendas (DATABASE_URL): rechaza la conexión: ¿está arrancado y escucha en ese puerto?`,
    )
    expect(server.output()).not.toMatch(/ECONNREFUSED|\n\s+at /)
    expect(existsSync(path.join(dataDir, 'pg'))).toBe(false)
  }, 30_000)

  it('a pg/ that is not a whole cluster (no PG_VERSION, no global/pg_control) stops the start, names the ways out, deletes nothing', async () => {
    const dataDir = newDataDir()
    const first = await start({ dataDir })
    await first.ready()
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    const pgData = path.join(dataDir, 'pg')
    const everything = () => execFileSync('find', [pgData, '-printf', '%p %s\n'], { encoding: 'utf8' })
    const version = readFileSync(path.join(pgData, 'PG_VERSION'), 'utf8')

    rmSync(path.join(pgData, 'PG_VERSION'))
    const before = everything()
    const second = await start({ dataDir })
    expect(await second.exited).toBe(1)
    expect(second.output()).toContain(
      `La carpeta ${pgData} existe pero no es una base de datos completa de PostgreSQL (falta PG_VERSION)`,
    )
    expect(second.output()).toContain('no se borra')
    expect(second.output()).toContain(`mv "${pgData}"`)
    expect(second.output()).toContain('npm run db:restore -- --force')
    expect(everything()).toBe(before)

    writeFileSync(path.join(pgData, 'PG_VERSION'), version)
    renameSync(path.join(pgData, 'global', 'pg_control'), path.join(dataDir, 'pg_control.aparte'))
    const third = await start({ dataDir })
    expect(await third.exited).toBe(1)
    expect(third.output()).toContain(`(falta ${path.join('global', 'pg_control')})`)
    expect(existsSync(path.join(pgData, 'base'))).toBe(true)

    // Put back, it opens with its data.
    renameSync(path.join(dataDir, 'pg_control.aparte'), path.join(pgData, 'global', 'pg_control'))
    const fourth = await start({ dataDir })
    await fourth.ready()
    expect(fourth.output()).not.toContain('Datos de demostración cargados')
    fourth.child.kill('SIGTERM')
    expect(await fourth.exited).toBe(0)
  }, 120_000)

  it('two starts racing for a stale lock: exactly one wins, 100 rounds (a dead pid or a reused live one in server.lock)', async () => {
    const dataDir = newDataDir()
    const racers = [lockRacer(), lockRacer()]
    try {
      for (const r of racers) expect(await r.next()).toBe('ready')
      const deadPid = spawnSync('true').pid
      for (let round = 0; round < 100; round++) {
        // Left by a process that died, or naming a live process that is not a server (a pid reused after a reboot).
        writeFileSync(path.join(dataDir, 'server.lock'), `${round % 2 ? deadPid : process.pid}\n`, { mode: 0o600 })
        for (const r of racers) r.send(`take ${dataDir}`)
        const answers = await Promise.all(racers.map((r) => r.next()))
        expect(
          answers.filter((a) => a === 'won'),
          `round ${round}: ${answers.join(' | ')}`,
        ).toHaveLength(1)
        const winner = racers[answers.indexOf('won')] as (typeof racers)[number]
        expect(answers.find((a) => a !== 'won')).toBe(
          `lost La carpeta de datos ${dataDir} ya está en uso por otro proceso (pid ${winner.child.pid}). Detén ese servidor o usa otra carpeta con DATA_DIR.`,
        )
        expect(readFileSync(path.join(dataDir, 'server.lock'), 'utf8').trim()).toBe(String(winner.child.pid))
        winner.send('release')
        expect(await winner.next()).toBe('released')
      }
    } finally {
      for (const r of racers) r.child.kill()
    }
  }, 120_000)

  it('without /proc (as on macOS), an orphaned server is still recognised through its socket; a stale postmaster.pid naming a reused pid is not', async () => {
    const dataDir = newDataDir()
    const first = await start({ dataDir, detached: true })
    await first.ready()
    const orphan = postmasterPid(dataDir)
    first.child.kill('SIGKILL')
    await first.exited
    expect(isAlive(orphan)).toBe(true)
    const notices: string[] = []
    const server = await startEmbeddedPostgres({ dataDir, procfs: false, notice: (m) => notices.push(m) })
    try {
      expect(notices.join('\n')).toContain(`PostgreSQL huérfano de un arranque anterior (pid ${orphan})`)
      expect(isAlive(orphan)).toBe(false)
    } finally {
      await server.stop()
    }
    // This test process is alive and is no PostgreSQL: its pid in postmaster.pid is stale, whatever /proc says.
    const pgData = path.join(dataDir, 'pg')
    writeFileSync(
      path.join(pgData, 'postmaster.pid'),
      `${process.pid}\n${pgData}\n1700000000\n5432\n${path.join(dataDir, 'run')}\n\n  1234567     12345\nready   \n`,
      { mode: 0o600 },
    )
    const again = await startEmbeddedPostgres({ dataDir, procfs: false, notice: (m) => notices.push(m) })
    await again.stop()
    expect(notices.filter((m) => m.includes('huérfano'))).toHaveLength(1)
  }, 120_000)

  it.runIf(isRoot)(
    'as root, writes and chowns nothing through a symbolic link planted where it writes',
    async () => {
      const { uid, gid } = systemUserIds('viviendas-pg')
      const outside = mkdtempSync(path.join(tmpdir(), 'vb-victima-'))
      dirs.push(outside)
      const victim = path.join(outside, 'passwd')
      writeFileSync(victim, 'root:x:0:0:root:/root:/bin/bash\n', { mode: 0o644 })
      chmodSync(victim, 0o644)
      const intact = fileState(victim)
      const victimDir = path.join(outside, 'etc')
      mkdirSync(victimDir, { mode: 0o755 })
      const intactDir = { mode: statSync(victimDir).mode, uid: statSync(victimDir).uid }

      // run/ belongs to the database's system user, who can plant a link where root writes initdb's password.
      const dataDir = newDataDir()
      const run = path.join(dataDir, 'run')
      mkdirSync(run, { mode: 0o700 })
      chownSync(run, uid, gid)
      symlinkSync(victim, path.join(run, 'initdb-password'))
      // An empty pg/ is initialised (only absent or empty ones are).
      mkdirSync(path.join(dataDir, 'pg'), { mode: 0o700 })
      const first = await start({ dataDir })
      await first.ready()
      expect(fileState(victim)).toEqual(intact)
      expect(existsSync(path.join(run, 'initdb-password'))).toBe(false)
      first.child.kill('SIGTERM')
      expect(await first.exited).toBe(0)

      // Files root writes in DATA_DIR: a link left there is refused, never followed.
      for (const name of ['postgresql.log', 'pg-password', 'jwt-secret']) {
        const real = path.join(dataDir, name)
        renameSync(real, `${real}.aparte`)
        symlinkSync(victim, real)
        const server = await start({ dataDir })
        expect(await server.exited, name).toBe(1)
        expect(server.output()).toContain(`${real} es un enlace simbólico: por seguridad no se sigue`)
        expect(fileState(victim), name).toEqual(intact)
        unlinkSync(real)
        renameSync(`${real}.aparte`, real)
      }
      // Folders root chmods and chowns for the system user: a link in their place is refused.
      for (const name of ['run', 'pg']) {
        const real = path.join(dataDir, name)
        renameSync(real, `${real}.aparte`)
        symlinkSync(victimDir, real)
        const server = await start({ dataDir })
        expect(await server.exited, name).toBe(1)
        expect(server.output()).toContain('es un enlace simbólico')
        expect({ mode: statSync(victimDir).mode, uid: statSync(victimDir).uid }, name).toEqual(intactDir)
        unlinkSync(real)
        renameSync(`${real}.aparte`, real)
      }
      // server.lock only says who owns the folder: a link there is replaced by the new file.
      symlinkSync(victim, path.join(dataDir, 'server.lock'))
      const last = await start({ dataDir })
      await last.ready()
      expect(lstatSync(path.join(dataDir, 'server.lock')).isFile()).toBe(true)
      expect(fileState(victim)).toEqual(intact)
      last.child.kill('SIGTERM')
      expect(await last.exited).toBe(0)
    },
    180_000,
  )
})
