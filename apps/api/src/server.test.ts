import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

/**
 * The real server process on an embedded database (DECISIONS R, embedded safety): first start seeds
 * the demo data, a second process on the same directory is refused, SIGTERM closes cleanly, and an
 * acknowledged write survives even a hard kill.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
const dataDir = mkdtempSync(path.join(tmpdir(), 'vb-server-'))
const children: ChildProcess[] = []
let port = 3900 + Math.floor(Math.random() * 90)

function start(env: Record<string, string> = {}) {
  port += 1
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let output = ''
  child.stdout?.on('data', (d) => {
    output += d
  })
  child.stderr?.on('data', (d) => {
    output += d
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const base = `http://127.0.0.1:${port}`
  const ready = async () => {
    for (let i = 0; i < 120; i++) {
      if (output.includes('Back-office de viviendas en')) return
      if (child.exitCode !== null) throw new Error(`server exited: ${output}`)
      await new Promise((r) => setTimeout(r, 250))
    }
    throw new Error(`server did not start: ${output}`)
  }
  return { child, exited, base, ready, output: () => output }
}

async function loginSuper(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/trabajadores/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'superadmin@demo.es', password: 'Demo1234' }),
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { token: string }).token
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
})

describe('server process on the embedded database', () => {
  it('seeds demo data, owns its data directory, shuts down cleanly and loses no acknowledged write', async () => {
    const first = start()
    await first.ready()
    expect(first.output()).toContain('superadmin@demo.es')
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(true)

    const second = start()
    expect(await second.exited).toBe(1)
    expect(second.output()).toContain('ya está en uso por otro proceso')

    const token = await loginSuper(first.base)
    const created = await fetch(`${first.base}/api/empresas`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ nombre: 'Empresa Antes Del Cierre' }),
    })
    expect(created.status).toBe(201)

    // A browser listening on the notification stream (D9) must not hold the shutdown open.
    const stream = await fetch(`${first.base}/api/notificaciones/stream`, { headers: { authorization: `Bearer ${token}` } })
    expect(stream.status).toBe(200)
    const streamEnded = stream.text()

    const stopping = Date.now()
    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    expect(Date.now() - stopping).toBeLessThan(8000)
    await streamEnded
    expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false)

    // Restart: the write is there, and no second seeding happened.
    const third = start()
    await third.ready()
    expect(third.output()).not.toContain('Datos de demostración cargados')
    const token3 = await loginSuper(third.base)
    const created2 = await fetch(`${third.base}/api/empresas`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token3}` },
      body: JSON.stringify({ nombre: 'Empresa Antes Del Golpe' }),
    })
    expect(created2.status).toBe(201)
    // A hard kill right after the acknowledged write.
    third.child.kill('SIGKILL')
    await third.exited

    const fourth = start()
    await fourth.ready()
    const token4 = await loginSuper(fourth.base)
    const list = await fetch(`${fourth.base}/api/empresas?q=empresa antes`, { headers: { authorization: `Bearer ${token4}` } })
    const names = ((await list.json()) as Array<{ nombre: string }>).map((e) => e.nombre)
    expect(names).toEqual(expect.arrayContaining(['Empresa Antes Del Cierre', 'Empresa Antes Del Golpe']))
    fourth.child.kill('SIGINT')
    expect(await fourth.exited).toBe(0)
  }, 120_000)

  it('refuses to start in production without JWT_SECRET', async () => {
    const prod = start({ NODE_ENV: 'production', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'vb-prod-')) })
    expect(await prod.exited).toBe(1)
    expect(prod.output()).toContain('JWT_SECRET')
  }, 30_000)
})
