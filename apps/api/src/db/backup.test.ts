import type { ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { seedDemo } from '../seed/demo'
import { freshDatabase } from '../test/build-test-app'
import { adminQuery, uniqueName, withDatabase } from '../test/databases'
import { runTool } from '../test/server-process'
import { BackupError, backupDatabase, restoreDatabase } from './backup'
import { type ConnectionTarget, clientConfig, type Database } from './client'

/**
 * DECISIONS R, backups: a dump of the demo data, restored elsewhere, is the same data; a restore is all
 * or nothing, whatever is wrong with the file or happens to the process; a backup is private and whole.
 */
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
/** The demo data's dump (`file`), made once for every test. */
let manifest: Awaited<ReturnType<typeof backupDatabase>>
const created: string[] = []

/** A new, empty database on the test server (no schema at all). */
async function emptyDatabase(): Promise<ConnectionTarget> {
  const name = uniqueName('r')
  await adminQuery(dbs.admin, `create database ${name}`)
  created.push(name)
  return withDatabase(dbs.admin, name)
}

async function query<T extends pg.QueryResultRow>(target: ConnectionTarget, text: string, values?: unknown[]): Promise<T[]> {
  const client = new pg.Client(clientConfig(target))
  client.on('error', () => {})
  await client.connect()
  try {
    return (await client.query<T>(text, values)).rows
  } finally {
    await client.end().catch(() => {})
  }
}

/**
 * Every table's row count and a checksum of its rows, the schema's tables and the sequences: two databases
 * with the same data give the same map, and a database a failed restore left alone keeps its map.
 */
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
    const migrations = await client.query("select to_regclass('drizzle.__drizzle_migrations') as t")
    out._migrations = migrations.rows[0].t
      ? JSON.stringify((await client.query('select hash, created_at from drizzle.__drizzle_migrations order by id')).rows)
      : 'none'
    return out
  } finally {
    await client.end()
  }
}

/** The decompressed text of a dump, and a dump written from (possibly altered) text. */
const dumpText = (f: string) => gunzipSync(readFileSync(f)).toString('utf8')
function writeDump(name: string, text: string): string {
  const out = path.join(dir, name)
  writeFileSync(out, gzipSync(text))
  return out
}

/** Where a table's section is in a dump's lines: its TABLE line, its rows [first, end) and its ROWS line (end + 1). */
function tableSection(lines: string[], table: string): { header: number; first: number; end: number; columns: string[] } {
  const header = lines.findIndex((l) => l.startsWith('TABLE ') && JSON.parse(l.slice(6)).name === table)
  if (header < 0) throw new Error(`no section ${table}`)
  const end = lines.indexOf('\\.', header)
  return { header, first: header + 1, end, columns: JSON.parse((lines[header] as string).slice(6)).columns }
}

/** Writes a table's ROWS line again after its rows were changed (a copy altered with care, not a damaged one). */
function fixSums(lines: string[], table: string): void {
  const s = tableSection(lines, table)
  const hash = createHash('sha256')
  for (const row of lines.slice(s.first, s.end)) hash.update(`${row}\n`)
  lines[s.end + 1] = `ROWS ${JSON.stringify({ rows: s.end - s.first, sha256: hash.digest('hex') })}`
}

/** A connection URL for the CLI tools (DATABASE_URL), for a TCP server or the embedded server's socket. */
function urlOf(target: ConnectionTarget): string {
  if (typeof target === 'string') return target
  const auth = `${encodeURIComponent(target.user)}:${encodeURIComponent(target.password)}`
  return `postgresql://${auth}@localhost/${target.database}?host=${encodeURIComponent(target.host)}&port=${target.port}`
}

/** Waits until a restore into `database` is loading rows with COPY (half-way through its transaction). */
async function whenCopying(database: string, table: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the restore ended before it was loading rows')
    const rows = await query<{ n: number }>(
      dbs.admin,
      `select count(*)::int as n from pg_stat_activity
        where datname = $1 and application_name = 'viviendas-backup' and state = 'active' and query ilike $2`,
      [database, `copy public."${table}"%`],
    )
    if (rows[0]?.n) return
    await new Promise((r) => setTimeout(r, 5))
  }
  throw new Error('the restore never loaded rows')
}

/** Waits until no session of a restore is left on `database` (the server has rolled it back). */
async function noRestoreSession(database: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const rows = await query<{ n: number }>(
      dbs.admin,
      "select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'viviendas-backup'",
      [database],
    )
    if (!rows[0]?.n) return
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('the restore session is still there')
}

const databaseOf = (target: ConnectionTarget) =>
  typeof target === 'string' ? new URL(target).pathname.slice(1) : target.database

beforeAll(async () => {
  source = await freshDatabase()
  await seedDemo(source.db, new Date('2026-11-21T11:00:00Z'), { uploadsDir: sourceUploads })
  sourceTarget = withDatabase(dbs.admin, (source as { name: string }).name)
  manifest = await backupDatabase(sourceTarget, file, { uploadsDir: sourceUploads })
})
afterAll(async () => {
  await source.close()
  for (const name of created) await adminQuery(dbs.admin, `drop database if exists ${name} with (force)`)
  rmSync(dir, { recursive: true, force: true })
})

describe('db:backup and db:restore', () => {
  it('round-trips the demo data into an empty database: every row, every sequence, every uploaded file', async () => {
    expect(manifest.tables.find((t) => t.name === 'usuarios')?.rows).toBe(40)
    expect(manifest.migrations.length).toBeGreaterThan(0)
    const uploadsRows = manifest.tables.find((t) => t.name === 'uploads')?.rows ?? 0
    expect(uploadsRows).toBeGreaterThan(0)
    expect(manifest.files?.count).toBe(uploadsRows)
    expect(manifest.missingFiles).toEqual([])
    // Private, and every section carries its row count and checksum.
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const lines = dumpText(file).split('\n')
    expect(lines[0]).toBe('VBDUMP 3')
    expect(lines.filter((l) => l.startsWith('ROWS '))).toHaveLength(manifest.tables.length)
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
      const result = await backupDatabase(sourceTarget, partial, { uploadsDir: sourceUploads })
      expect(result.missingFiles).toEqual([gone])
      await expect(restoreDatabase(await emptyDatabase(), partial)).rejects.toThrow(/carpeta de subidas/)
    } finally {
      writeFileSync(path.join(sourceUploads, gone), kept, { mode: 0o600 })
    }
  })

  it('refuses to restore over data without --force, and replaces it with --force', async () => {
    const target = await emptyDatabase()
    const uploadsDir = newUploadsDir()
    await restoreDatabase(target, file, { uploadsDir })
    await query(target, "insert into empresas (nombre) values ('Empresa Añadida Después')")
    const before = await fingerprint(target)
    await expect(restoreDatabase(target, file, { uploadsDir })).rejects.toThrow(/ya tiene datos.*--force/)
    expect(await fingerprint(target)).toEqual(before)
    await restoreDatabase(target, file, { force: true, uploadsDir })
    expect(await fingerprint(target)).toEqual(await fingerprint(sourceTarget))
  })

  it('still restores VBDUMP 2 and VBDUMP 1 files, checked against what they carry', async () => {
    const lines = dumpText(file).split('\n')
    const v2 = lines.filter((l) => !l.startsWith('ROWS ')).map((l) => (l.startsWith('END ') ? 'END' : l))
    v2[0] = 'VBDUMP 2'
    const target2 = await emptyDatabase()
    const uploads2 = newUploadsDir()
    await restoreDatabase(target2, writeDump('v2.vbdump', v2.join('\n')), { uploadsDir: uploads2 })
    expect(await fingerprint(target2)).toEqual(await fingerprint(sourceTarget))
    expect(folder(uploads2)).toEqual(folder(sourceUploads))

    const v1: string[] = []
    let inFile = false
    for (const l of v2) {
      if (l.startsWith('FILE ')) inFile = true
      else if (inFile && l === '\\.') inFile = false
      else if (!inFile) v1.push(l)
    }
    v1[0] = 'VBDUMP 1'
    const header = JSON.parse(v1[1] as string)
    delete header.files
    v1[1] = JSON.stringify(header)
    const target1 = await emptyDatabase()
    await restoreDatabase(target1, writeDump('v1.vbdump', v1.join('\n')))
    expect(await fingerprint(target1)).toEqual(await fingerprint(sourceTarget))

    // A VBDUMP 2 file missing a row is refused by the manifest's row count, before anything is loaded.
    const s = tableSection(v2, 'empresas')
    const short = [...v2.slice(0, s.first), ...v2.slice(s.first + 1)]
    const target = await emptyDatabase()
    await expect(
      restoreDatabase(target, writeDump('v2-corta.vbdump', short.join('\n')), { uploadsDir: newUploadsDir() }),
    ).rejects.toThrow(/tabla «empresas» tiene \d+ filas y el índice de la copia dice/)
    expect(await fingerprint(target)).toEqual({ _sequences: '[]', _migrations: 'none' })
  })

  it('leaves out the copies triggers keep, which the restore makes again; an earlier dump that holds them restores whatever their place', async () => {
    const kept = 'planing_calendario_usuarios'
    const rows = (
      await query<{ tarea_id: number; usuarios: string }>(
        sourceTarget,
        `select tarea_id, usuarios::text as usuarios from ${kept} order by tarea_id`,
      )
    ).map((r) => `${r.tarea_id}\t${r.usuarios.replaceAll('\\', '\\\\')}`)
    expect(rows.length).toBeGreaterThan(0)
    const lines = dumpText(file).split('\n')
    expect(manifest.tables.map((t) => t.name)).not.toContain(kept)
    expect(() => tableSection(lines, kept)).toThrow(/no section/)
    // (The round trip above finds the same kept rows in the restored database: the triggers made them.)

    // A dump made before 2026-11-28 held them as rows, just before the links (tables were ordered by name); loaded
    // after the links, they would meet the rows the links' trigger had made.
    for (const place of ['before', 'after'] as const) {
      const old = [...lines]
      const links = tableSection(old, 'planing_tarea_usuarios')
      old.splice(
        place === 'before' ? links.header : links.end + 2,
        0,
        `TABLE ${JSON.stringify({ name: kept, columns: ['tarea_id', 'usuarios'] })}`,
        ...rows,
        '\\.',
        'ROWS',
      )
      fixSums(old, kept)
      const header = JSON.parse(old[1] as string) as { tables: Array<{ name: string; rows: number }> }
      const i = header.tables.findIndex((t) => t.name === 'planing_tarea_usuarios')
      header.tables.splice(place === 'before' ? i : i + 1, 0, { name: kept, rows: rows.length })
      old[1] = JSON.stringify(header)
      const end = old.findIndex((l) => l.startsWith('END '))
      const trailer = JSON.parse((old[end] as string).slice(4)) as { tables: number; files: number }
      old[end] = `END ${JSON.stringify({ ...trailer, tables: trailer.tables + 1 })}`
      const target = await emptyDatabase()
      await restoreDatabase(target, writeDump(`anterior-${place}.vbdump`, old.join('\n')), { uploadsDir: newUploadsDir() })
      expect(await fingerprint(target), place).toEqual(await fingerprint(sourceTarget))
    }
  })

  it('refuses a file that is not a copy, a cut-off copy and a copy from a newer schema, leaving the database as it was', async () => {
    const target = await emptyDatabase()
    const empty = await fingerprint(target)
    const bogus = path.join(dir, 'otro.vbdump')
    writeFileSync(bogus, gzipSync('hola\n'))
    await expect(restoreDatabase(target, bogus)).rejects.toThrow(BackupError)
    writeFileSync(bogus, 'ni siquiera comprimido\n')
    await expect(restoreDatabase(target, bogus)).rejects.toThrow(/no es una copia/)

    const whole = dumpText(file)
    // Cut anywhere, at a line's end or in its middle: always 'incompleta', and not even the schema is created.
    for (const share of [0.15, 0.3, 0.45, 0.6, 0.75, 0.9, 0.999]) {
      const cut = writeDump('cortada.vbdump', whole.slice(0, Math.floor(whole.length * share)))
      await expect(restoreDatabase(target, cut, { uploadsDir: newUploadsDir() }), `cut at ${share}`).rejects.toThrow(/incompleta/)
      expect(await fingerprint(target)).toEqual(empty)
    }

    const [magic, header, ...rest] = whole.split('\n')
    const newer = JSON.parse(header as string)
    newer.migrations.push({ when: 9_999_999_999_999, hash: 'x' })
    const future = writeDump('futura.vbdump', [magic, JSON.stringify(newer), ...rest].join('\n'))
    await expect(restoreDatabase(target, future, { uploadsDir: newUploadsDir() })).rejects.toThrow(/versión más nueva/)
    expect(await fingerprint(target)).toEqual(empty)
  })
})

describe('a restore is all or nothing: a target with data is left exactly as it was', () => {
  let target: ConnectionTarget
  let uploadsDir: string
  let before: Record<string, string>
  let beforeFiles: Record<string, string>

  beforeAll(async () => {
    target = await emptyDatabase()
    uploadsDir = newUploadsDir()
    await restoreDatabase(target, file, { uploadsDir })
    // Data of its own, so that "as it was" is not "as in the copy".
    await query(target, "insert into empresas (nombre) values ('Empresa Solo En El Destino')")
    await query(target, 'delete from caja_usuario where id in (select id from caja_usuario order by id limit 3)')
    before = await fingerprint(target)
    beforeFiles = folder(uploadsDir)
  })

  /** A restore of `damaged` with --force fails within 30 s with a message matching `message`; nothing changed. */
  async function refusedAndUnchanged(damaged: string, message: RegExp): Promise<string> {
    const started = Date.now()
    const error = await restoreDatabase(target, damaged, { force: true, uploadsDir }).then(
      () => new Error('the restore succeeded'),
      (err: Error) => err,
    )
    expect(Date.now() - started).toBeLessThan(30_000)
    expect(error).toBeInstanceOf(BackupError)
    expect(error.message).toMatch(message)
    expect(error.message).toContain('No se ha modificado nada')
    expect(await fingerprint(target)).toEqual(before)
    expect(folder(uploadsDir)).toEqual(beforeFiles)
    return error.message
  }

  it.each([0.1, 0.5, 0.9])(
    'a gzip stream cut at %s of its compressed bytes (not re-compressed) is refused, naming where it ends',
    async (fraction) => {
      const bytes = readFileSync(file)
      const cut = path.join(dir, `cortada-${fraction}.vbdump`)
      writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * fraction)))
      const message = await refusedAndUnchanged(cut, /incompleta o dañada: sus datos comprimidos se cortan/)
      expect(message).toMatch(
        /en la tabla «[a-z_]+»(, tras la fila \d+|, antes de su primera fila)?|en el archivo [0-9a-f-]{36}|tras /,
      )
    },
  )

  it('a bad value in each column type, even in the last table loaded, is refused naming the table, row and column', async () => {
    const text = dumpText(file)
    const lines = text.split('\n')
    const order = lines.filter((l) => l.startsWith('TABLE ')).map((l) => JSON.parse(l.slice(6)).name as string)
    const types = await query<{ table_name: string; column_name: string; data_type: string }>(
      sourceTarget,
      "select table_name, column_name, data_type from information_schema.columns where table_schema = 'public' and is_generated = 'NEVER'",
    )
    const bad: Record<string, string> = {
      integer: 'abc',
      bigint: 'abc',
      smallint: 'abc',
      numeric: 'abc',
      boolean: 'abc',
      'timestamp with time zone': 'abc',
      date: 'abc',
      jsonb: '{abc',
      uuid: 'abc',
      'character varying': 'x'.repeat(300),
      // COPY's escape for the byte 0xff, which is not UTF-8.
      text: '\\xff',
    }
    const covered: string[] = []
    for (const type of Object.keys(bad)) {
      // The last table in load order that has rows and a column of this type: every table before it loads first.
      const table = [...order].reverse().find((t) => {
        const s = tableSection(lines, t)
        return s.end > s.first && types.some((c) => c.table_name === t && c.data_type === type)
      })
      if (!table) continue
      const column = types.find((c) => c.table_name === table && c.data_type === type)?.column_name as string
      const altered = [...lines]
      const s = tableSection(altered, table)
      const fields = (altered[s.first] as string).split('\t')
      fields[s.columns.indexOf(column)] = bad[type] as string
      altered[s.first] = fields.join('\t')
      fixSums(altered, table)
      const damaged = writeDump(`valor-${type.replaceAll(' ', '-')}.vbdump`, altered.join('\n'))
      await refusedAndUnchanged(damaged, new RegExp(`no acepta en la tabla «${table}», fila 1(, columna ${column})?:`))
      covered.push(type)
    }
    expect(covered).toEqual(
      expect.arrayContaining([
        'integer',
        'numeric',
        'boolean',
        'timestamp with time zone',
        'jsonb',
        'uuid',
        'character varying',
        'text',
      ]),
    )
  }, 120_000)

  it('rows that do not match their section’s checksum are refused before the target is touched', async () => {
    const lines = dumpText(file).split('\n')
    const s = tableSection(lines, 'caja_usuario')
    lines[s.first] = (lines[s.first] as string).replace(/\t-?\d+\.\d\d\t/, '\t999999.99\t')
    await refusedAndUnchanged(
      writeDump('suma.vbdump', lines.join('\n')),
      /las filas de la tabla «caja_usuario» no coinciden con su suma de comprobación/,
    )
  })

  it('a file name that tries ../ is refused before any path is built, cleanup paths included', async () => {
    const lines = dumpText(file).split('\n')
    const at = lines.findIndex((l) => l.startsWith('FILE '))
    const meta = JSON.parse((lines[at] as string).slice(5))
    // Joined to the folder as the temporary name would be, this lands beside the uploads folder.
    const victim = path.join(uploadsDir, `.restaurando-/../../victima.part`)
    expect(path.dirname(victim)).toBe(path.dirname(uploadsDir))
    writeFileSync(victim, 'no me borres')
    lines[at] = `FILE ${JSON.stringify({ ...meta, id: '/../../victima' })}`
    await refusedAndUnchanged(writeDump('fuera.vbdump', lines.join('\n')), /un archivo tiene un nombre no válido/)
    expect(readFileSync(victim, 'utf8')).toBe('no me borres')
    expect(readdirSync(path.dirname(uploadsDir)).filter((f) => f.includes('victima'))).toEqual(['victima.part'])
    rmSync(victim)
  })

  it('a database still in use (a session holding a table) fails the restore after 10 s instead of hanging it', async () => {
    const holder = new pg.Client(clientConfig(target))
    holder.on('error', () => {})
    await holder.connect()
    try {
      await holder.query('begin')
      await holder.query('select count(*) from empresas')
      const message = await refusedAndUnchanged(file, /La base de datos de destino está en uso/)
      expect(message).toContain('Detén la aplicación')
    } finally {
      await holder.query('rollback').catch(() => {})
      await holder.end()
    }
  }, 60_000)

  it('through the CLI: a bad amount exits non-zero with a Spanish message naming the table and row, no stack', async () => {
    const lines = dumpText(file).split('\n')
    const s = tableSection(lines, 'caja_usuario')
    const fields = (lines[s.first + 2] as string).split('\t')
    fields[s.columns.indexOf('cantidad')] = 'abc'
    lines[s.first + 2] = fields.join('\t')
    fixSums(lines, 'caja_usuario')
    const damaged = writeDump('cantidad.vbdump', lines.join('\n'))
    const run = runTool('db-restore', ['--force', damaged], { DATABASE_URL: urlOf(target), UPLOADS_DIR: uploadsDir })
    expect(await run.exited).toBe(1)
    expect(run.output()).toMatch(/no acepta en la tabla «caja_usuario», fila 3, columna cantidad: .*numeric.*"abc"/)
    expect(run.output()).toContain('No se ha modificado nada')
    expect(run.output()).not.toMatch(/\n\s+at /)
    expect(await fingerprint(target)).toEqual(before)
  }, 60_000)

  describe('a restore stopped half-way', () => {
    let big: string
    let bigSource: Database & { name: string }

    beforeAll(async () => {
      // Enough rows that loading them takes a while: the process is stopped while it does.
      bigSource = await freshDatabase()
      const bigUploads = path.join(dir, 'subidas-grande')
      await seedDemo(bigSource.db, new Date('2026-11-21T11:00:00Z'), { uploadsDir: bigUploads })
      const bigTarget = withDatabase(dbs.admin, bigSource.name)
      await query(
        bigTarget,
        `insert into caja_usuario (concepto, cantidad, fecha, usuario_id)
         select 'Movimiento de relleno número ' || g, ((g % 1000) - 500) / 10.0 + 0.01, now() - g * interval '1 minute',
                (select min(id) from usuarios)
           from generate_series(1, 300000) g`,
      )
      big = path.join(dir, 'grande.vbdump')
      await backupDatabase(bigTarget, big, { uploadsDir: bigUploads })
    }, 120_000)
    afterAll(async () => {
      await bigSource.close()
    })

    it('killed with SIGKILL while loading rows: the data is intact, and the next restore clears its leftovers', async () => {
      const run = runTool('db-restore', ['--force', big], { DATABASE_URL: urlOf(target), UPLOADS_DIR: uploadsDir })
      await whenCopying(databaseOf(target), 'caja_usuario', run.child)
      run.child.kill('SIGKILL')
      await run.exited
      await noRestoreSession(databaseOf(target))
      expect(await fingerprint(target)).toEqual(before)
      // Files are renamed into place only after the commit: none is, only temporary files may be left.
      const names = readdirSync(uploadsDir)
      expect(names.filter((n) => !n.startsWith('.restaurando-')).sort()).toEqual(Object.keys(beforeFiles).sort())

      const again = await emptyDatabase()
      await restoreDatabase(again, file, { uploadsDir })
      expect(readdirSync(uploadsDir).filter((n) => n.startsWith('.'))).toEqual([])
    }, 120_000)

    it('stopped with Ctrl-C (SIGINT) while loading rows: it exits non-zero within seconds and changes nothing', async () => {
      const run = runTool('db-restore', ['--force', big], { DATABASE_URL: urlOf(target), UPLOADS_DIR: uploadsDir })
      await whenCopying(databaseOf(target), 'caja_usuario', run.child)
      const stopped = Date.now()
      run.child.kill('SIGINT')
      expect(await run.exited).toBe(130)
      expect(Date.now() - stopped).toBeLessThan(10_000)
      expect(run.output()).toMatch(/Restauración interrumpida\. No se ha modificado nada/)
      expect(run.output()).not.toMatch(/\n\s+at /)
      await noRestoreSession(databaseOf(target))
      expect(await fingerprint(target)).toEqual(before)
      expect(folder(uploadsDir)).toEqual(beforeFiles)
      expect(readdirSync(uploadsDir).filter((n) => n.startsWith('.'))).toEqual([])
    }, 120_000)
  })
})

describe('a backup is private and whole, or absent', () => {
  it('replaces an existing 0644 file with a 0600 one', async () => {
    const out = path.join(dir, 'abierta.vbdump')
    writeFileSync(out, 'una copia vieja')
    chmodSync(out, 0o644)
    await backupDatabase(sourceTarget, out, { uploadsDir: sourceUploads })
    expect(statSync(out).mode & 0o777).toBe(0o600)
    expect(dumpText(out).startsWith('VBDUMP 3\n')).toBe(true)
  })

  it('into a missing folder: a clear message, nothing created', async () => {
    const missing = path.join(dir, 'no-existe')
    await expect(backupDatabase(sourceTarget, path.join(missing, 'copia.vbdump'))).rejects.toThrow(
      new BackupError(
        `No se pudo escribir la copia en ${path.join(missing, 'copia.vbdump')}: la carpeta ${missing} no existe. No se ha dejado ningún archivo a medias.`,
      ),
    )
    expect(existsSync(missing)).toBe(false)
  })

  it('a backup that fails half-way leaves the previous copy as it was and no temporary file', async () => {
    const out = path.join(dir, 'anterior.vbdump')
    writeFileSync(out, 'la copia de ayer', { mode: 0o600 })
    // A database without the app's schema: the dump stops after its temporary file was created.
    await expect(backupDatabase(await emptyDatabase(), out)).rejects.toThrow(/no tiene el esquema de la aplicación/)
    expect(readFileSync(out, 'utf8')).toBe('la copia de ayer')
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('through the CLI, into a missing folder: exit 1, a Spanish message, no stack trace', async () => {
    const run = runTool('db-backup', [path.join(dir, 'no-existe', 'copia.vbdump')], { DATABASE_URL: urlOf(sourceTarget) })
    expect(await run.exited).toBe(1)
    expect(run.output()).toContain('No se pudo escribir la copia')
    expect(run.output()).toContain('no existe')
    expect(run.output()).not.toMatch(/\n\s+at /)
  }, 30_000)
})
