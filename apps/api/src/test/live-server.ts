import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, inject } from 'vitest'
import { adminQuery, uniqueName, withDatabase } from './databases'
import { postmasterPid, type ServerProcess, startServer } from './server-process'

/**
 * The real server as `npm start` runs it, on the suite's engine: its own embedded PostgreSQL in a fresh
 * DATA_DIR, or a fresh database of TEST_DATABASE_URL's server. Everything it started is removed after the file.
 */
export function liveServers() {
  const { engine, admin } = inject('testDatabases')
  const servers: ServerProcess[] = []
  const dirs: string[] = []
  const databases: string[] = []
  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL')
    await Promise.all(servers.map((s) => s.exited))
    for (const db of databases) await adminQuery(admin, `drop database if exists ${db} with (force)`).catch(() => {})
    for (const dir of dirs) {
      const pid = postmasterPid(dir)
      if (pid) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {}
      }
      rmSync(dir, { recursive: true, force: true })
    }
  })
  return {
    engine,
    /** A new place for a server: its DATA_DIR and, on TEST_DATABASE_URL, its database's URL. */
    async place(): Promise<{ dataDir: string; url?: string; env: Record<string, string> }> {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'vb-live-'))
      dirs.push(dataDir)
      if (engine !== 'pg') return { dataDir, env: {} }
      const name = uniqueName('vb_live')
      databases.push(name)
      await adminQuery(admin, `create database ${name}`)
      const url = withDatabase(admin, name) as string
      return { dataDir, url, env: { DATABASE_URL: url } }
    },
    async start(place: { dataDir: string; env: Record<string, string> }): Promise<ServerProcess> {
      const server = await startServer({ dataDir: place.dataDir, env: place.env })
      servers.push(server)
      await server.ready()
      return server
    },
  }
}

/** The app's database, read directly: the URL's, or the embedded server's own (socket and password file). */
export async function connectApp(place: { dataDir: string; url?: string }): Promise<pg.Client> {
  let client: pg.Client
  if (place.url) client = new pg.Client({ connectionString: place.url })
  else {
    const lines = readFileSync(path.join(place.dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')
    client = new pg.Client({
      host: lines[4],
      port: Number(lines[3]),
      user: 'postgres',
      password: readFileSync(path.join(place.dataDir, 'pg-password'), 'utf8').trim(),
      database: 'viviendas',
    })
  }
  await client.connect()
  return client
}

/** A JSON call with the worker's token (no body for GET and DELETE). */
export function call(url: string, token: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') {
  return fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

/** A number as letters only, so a marker fits every name field's pattern. */
export function letters(n: number): string {
  let s = ''
  do {
    s = String.fromCharCode(97 + (n % 26)) + s
    n = Math.floor(n / 26)
  } while (n > 0)
  return s
}
