import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..')

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** Everything a child process prints, stdout and stderr together, as it comes. */
function collected(child: ChildProcess): () => string {
  let output = ''
  child.stdout?.on('data', (d) => {
    output += d
  })
  child.stderr?.on('data', (d) => {
    output += d
  })
  return () => output
}

export interface ServerProcess {
  child: ChildProcess
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>
  base: string
  /** Resolves once the start banner is printed; rejects if the process ends first. */
  ready(): Promise<void>
  output(): string
}

/**
 * The real server (`apps/api/src/server.ts` through tsx) as a separate process, the way `npm start` runs
 * it, on its own DATA_DIR and port.
 */
export async function startServer(
  options: { dataDir: string; env?: Record<string, string>; uid?: number; gid?: number; detached?: boolean } = {
    dataDir: '',
  },
): Promise<ServerProcess> {
  const port = await freePort()
  // VB_UMASK runs the server under that umask (through sh), as a careless shell would.
  const umask = options.env?.VB_UMASK
  const command = umask ? '/bin/sh' : process.execPath
  const args = umask
    ? ['-c', `umask ${umask} && exec "$0" --import tsx apps/api/src/server.ts`, process.execPath]
    : ['--import', 'tsx', 'apps/api/src/server.ts']
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: options.dataDir, PORT: String(port), LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.gid } : {}),
  })
  const output = collected(child)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const base = `http://127.0.0.1:${port}`
  const ready = async () => {
    for (let i = 0; i < 240; i++) {
      if (output().includes('Back-office de viviendas en')) return
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited: ${output()}`)
      await new Promise((r) => setTimeout(r, 250))
    }
    throw new Error(`server did not start: ${output()}`)
  }
  return { child, exited, base, ready, output }
}

/** The postmaster's pid of an embedded cluster, from DATA_DIR/pg/postmaster.pid. */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    return Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0])
  } catch {
    return undefined
  }
}

export function isAlive(pid: number | undefined): boolean {
  if (!pid) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Waits until the process is gone, up to `ms`. */
export async function gone(pid: number | undefined, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true
    await new Promise((r) => setTimeout(r, 50))
  }
  return !isAlive(pid)
}

export async function login(base: string, email = 'superadmin@demo.es', password = 'Demo1234'): Promise<string> {
  const res = await fetch(`${base}/api/auth/trabajadores/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  if (res.status !== 200) throw new Error(`login ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { token: string }).token
}

/** A command-line tool (`apps/api/src/cli/<tool>.ts`) run as `npm run` runs it: tsx, from the repository root. */
export function runTool(
  tool: 'admin-create' | 'db-backup' | 'db-restore',
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', `apps/api/src/cli/${tool}.ts`, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output = collected(child)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, output, exited }
}
