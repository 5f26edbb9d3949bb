import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { seedDemo } from '../seed/demo'
import { freshDatabase } from '../test/build-test-app'
import { adminQuery, uniqueName, withDatabase } from '../test/databases'
import { BackupError, backupDatabase, restoreDatabase } from './backup'
import { type ConnectionTarget, clientConfig, type Database } from './client'

/** DECISIONS R, backups: a dump of the demo data, restored elsewhere, is the same data. */
const dbs = inject('testDatabases')
const dir = mkdtempSync(path.join(tmpdir(), 'vb-backup-'))
const file = path.join(dir, 'copia.vbdump')
/** The source's uploads folder, and a fresh one per restore. */
const sourceUploads = path.join(dir, 'subidas-origen')
let restores = 0
const newUploadsDir = () => path.join(dir, `subidas-${++restores}`)
/** Every file of an uploads folder: name → content, for comparing two folders. */
const folder = (d: string) => Object.fromEntries(readdirSync(d).map((f) => [f, readFileSync(path.join(d, f)).toString('base64')]))
let source: Database & { name?: string }
let sourceTarget: ConnectionTarget
const created: string[] = []

/** A new, empty database on the test server (no schema at all). */
async function emptyDatabase(): Promise<ConnectionTarget> {
  const name = uniqueName('r')
  await adminQuery(dbs.admin, `create database ${name}`)
  created.push(name)
  return withDatabase(dbs.admin, name)
}

/** Every table's rows, as text, in a stable order: two databases with the same data give the same map. */
async function fingerprint(target: ConnectionTarget): Promise<Record<string, string>> {
  const client = new pg.Client(clientConfig(target))
  await client.connect()
  try {
    await client.query("set timezone = 'UTC'")
    const tables = await client.query<{ t: string }>(
      "select tablename as t from pg_tables where schemaname = 'public' order by tablename",
    )
    const out: Record<string, string> = {}
    for (const { t } of tables.rows) {
      const { rows } = await client.query(
        `select coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as h, count(*) as n from public."${t}" x`,
      )
      out[t] = `${rows[0].n}:${rows[0].h}`
    }
    const seq = await client.query("select sequencename, last_value from pg_sequences where schemaname = 'public' order by 1")
    out._sequences = JSON.stringify(seq.rows)
    return out
  } finally {
    await client.end()
  }
}

beforeAll(async () => {
  source = await freshDatabase()
  await seedDemo(source.db, new Date('2026-11-21T11:00:00Z'), { uploadsDir: sourceUploads })
  sourceTarget = withDatabase(dbs.admin, (source as { name: string }).name)
})
afterAll(async () => {
  await source.close()
  for (const name of created) await adminQuery(dbs.admin, `drop database if exists ${name} with (force)`)
  rmSync(dir, { recursive: true, force: true })
})

describe('db:backup and db:restore', () => {
  it('round-trips the demo data into an empty database: every row, every sequence, every uploaded file', async () => {
    const manifest = await backupDatabase(sourceTarget, file, { uploadsDir: sourceUploads })
    expect(manifest.tables.find((t) => t.name === 'usuarios')?.rows).toBe(40)
    expect(manifest.migrations.length).toBeGreaterThan(0)
    const uploadsRows = manifest.tables.find((t) => t.name === 'uploads')?.rows ?? 0
    expect(uploadsRows).toBeGreaterThan(0)
    expect(manifest.files?.count).toBe(uploadsRows)
    expect(manifest.missingFiles).toEqual([])
    const target = await emptyDatabase()
    const uploadsDir = newUploadsDir()
    const result = await restoreDatabase(target, file, { uploadsDir })
    expect(result).toMatchObject({ upgraded: 0, files: uploadsRows })
    expect(await fingerprint(target)).toEqual(await fingerprint(sourceTarget))
    // The receipts come back byte for byte, private.
    expect(folder(uploadsDir)).toEqual(folder(sourceUploads))
    expect(statSync(uploadsDir).mode & 0o777).toBe(0o700)
    for (const f of readdirSync(uploadsDir)) expect(statSync(path.join(uploadsDir, f)).mode & 0o777).toBe(0o600)
  })

  it('says which uploaded files were missing on disk and leaves them out; refuses to restore files without a folder', async () => {
    const gone = readdirSync(sourceUploads)[0] as string
    const kept = readFileSync(path.join(sourceUploads, gone))
    rmSync(path.join(sourceUploads, gone))
    try {
      const partial = path.join(dir, 'parcial.vbdump')
      const manifest = await backupDatabase(sourceTarget, partial, { uploadsDir: sourceUploads })
      expect(manifest.missingFiles).toEqual([gone])
      await expect(restoreDatabase(await emptyDatabase(), partial)).rejects.toThrow(/carpeta de subidas/)
    } finally {
      writeFileSync(path.join(sourceUploads, gone), kept, { mode: 0o600 })
    }
  })

  it('a copy cut inside a file, or with a file that does not match its SHA-256, restores no row and no file', async () => {
    const whole = gunzipSync(readFileSync(file)).toString('utf8')
    const fileAt = whole.indexOf('\nFILE ')
    const cut = path.join(dir, 'cortada-archivo.vbdump')
    writeFileSync(cut, gzipSync(whole.slice(0, fileAt + 200)))
    const target = await emptyDatabase()
    const uploadsDir = newUploadsDir()
    await expect(restoreDatabase(target, cut, { uploadsDir })).rejects.toThrow(/incompleta/)
    expect(readdirSync(uploadsDir)).toEqual([])
    const [head, ...rest] = whole.slice(fileAt + 1).split('\n')
    const line = rest[0] as string
    const tampered = path.join(dir, 'alterada.vbdump')
    const flipped = `${line.slice(0, 10)}${line[10] === 'A' ? 'B' : 'A'}${line.slice(11)}`
    writeFileSync(tampered, gzipSync(`${whole.slice(0, fileAt + 1)}${head}\n${flipped}\n${rest.slice(1).join('\n')}`))
    await expect(restoreDatabase(target, tampered, { uploadsDir })).rejects.toThrow(/SHA-256/)
    expect(readdirSync(uploadsDir)).toEqual([])
    const client = new pg.Client(clientConfig(target))
    await client.connect()
    const { rows } = await client.query('select count(*)::int as n from trabajadores')
    await client.end()
    expect(rows[0].n).toBe(0)
    expect(existsSync(uploadsDir)).toBe(true)
  })

  it('refuses to restore over data without --force, and replaces it with --force', async () => {
    const target = await emptyDatabase()
    const uploadsDir = newUploadsDir()
    await restoreDatabase(target, file, { uploadsDir })
    const client = new pg.Client(clientConfig(target))
    await client.connect()
    await client.query("insert into empresas (nombre) values ('Empresa Añadida Después')")
    await client.end()
    await expect(restoreDatabase(target, file, { uploadsDir })).rejects.toThrow(/ya tiene datos.*--force/)
    await restoreDatabase(target, file, { force: true, uploadsDir })
    expect(await fingerprint(target)).toEqual(await fingerprint(sourceTarget))
  })

  it('refuses a file that is not a copy, a cut-off copy and a copy from a newer schema, leaving nothing half-loaded', async () => {
    const target = await emptyDatabase()
    const bogus = path.join(dir, 'otro.vbdump')
    writeFileSync(bogus, gzipSync('hola\n'))
    await expect(restoreDatabase(target, bogus)).rejects.toThrow(BackupError)

    const whole = gunzipSync(readFileSync(file)).toString('utf8')
    const cut = path.join(dir, 'cortada.vbdump')
    writeFileSync(cut, gzipSync(whole.slice(0, Math.floor(whole.length * 0.6))))
    await expect(restoreDatabase(target, cut, { uploadsDir: newUploadsDir() })).rejects.toThrow(/incompleta/)
    // The rows of a failed restore are rolled back together.
    const client = new pg.Client(clientConfig(target))
    await client.connect()
    const { rows } = await client.query('select count(*)::int as n from trabajadores')
    await client.end()
    expect(rows[0].n).toBe(0)

    const [magic, manifest, ...rest] = whole.split('\n')
    const newer = JSON.parse(manifest as string)
    newer.migrations.push({ when: 9_999_999_999_999, hash: 'x' })
    const future = path.join(dir, 'futura.vbdump')
    writeFileSync(future, gzipSync([magic, JSON.stringify(newer), ...rest].join('\n')))
    await expect(restoreDatabase(target, future, { uploadsDir: newUploadsDir() })).rejects.toThrow(/versión más nueva/)
  })
})
