import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { chmod, copyFile, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip, createGzip } from 'node:zlib'
import pg from 'pg'
import { from as copyFrom, to as copyTo } from 'pg-copy-streams'
import { type ConnectionTarget, clientConfig, migrateTarget, migrationsFolder } from './client'

/**
 * DECISIONS R, backups. A logical dump of the app's data, taken inside one REPEATABLE READ snapshot with
 * `COPY … TO STDOUT` and restored with `COPY … FROM STDIN`, gzip-compressed:
 *
 *   VBDUMP 2
 *   {manifest: app migrations applied, server version, tables with their row counts, sequences,
 *    files: count and bytes of the uploaded files included}
 *   TABLE {"name": …, "columns": […]}
 *   …rows in COPY's text format…
 *   \.
 *   …one TABLE section per table…
 *   FILE {"id": …, "size": …, "sha256": …}
 *   …the file's bytes in base64, 76 characters a line…
 *   \.
 *   …one FILE section per uploaded file the snapshot's `uploads` rows name (DECISIONS S5: receipts and
 *   documents come back with a restore; each is checked against its size and SHA-256)…
 *   END
 *
 * A `VBDUMP 1` file (before uploads were included) is the same without FILE sections and still restores.
 *
 * Why not pg_dump: the npm package that ships the embedded server has initdb, pg_ctl and postgres only,
 * and a pg_dump older than the server refuses to dump it (Debian's is 15, the embedded server is 18). COPY
 * speaks to every server version alike, so one file moves data between the embedded server and any
 * external PostgreSQL 15+, in both directions. The schema is not in the file: it is the app's own
 * migrations, replayed up to the dump's level before the rows are loaded.
 */

const MAGIC = 'VBDUMP 2'
const MAGICS = new Set(['VBDUMP 1', MAGIC])
/** Base64 line length of a FILE section (as MIME's). */
const B64_LINE = 76

export interface DumpManifest {
  format: 'viviendas-backoffice'
  createdAt: string
  serverVersion: string
  /** drizzle's applied migrations: `created_at` (the journal's `when`) and hash, in order. */
  migrations: Array<{ when: number; hash: string }>
  tables: Array<{ name: string; rows: number }>
  sequences: Array<{ name: string; lastValue: string | null }>
  /** Uploaded files included (absent in VBDUMP 1). */
  files?: { count: number; bytes: number }
}

export interface BackupOptions {
  /** The uploads folder whose files the `uploads` rows name; without it the dump holds rows only. */
  uploadsDir?: string
}

export interface BackupResult extends DumpManifest {
  /** Files named by an `uploads` row but missing or changed on disk: left out, and said. */
  missingFiles: string[]
}

/** A restore that cannot go on; the message is for the person running it. */
export class BackupError extends Error {
  override name = 'BackupError'
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

async function connect(target: ConnectionTarget): Promise<pg.Client> {
  const client = new pg.Client({ ...clientConfig(target), application_name: 'viviendas-backup' })
  client.on('error', () => {})
  await client.connect()
  // Text output that reads back the same on any server: ISO dates in UTC.
  await client.query("set timezone = 'UTC'; set datestyle = 'ISO, YMD'; set intervalstyle = 'postgres'")
  return client
}

/** The app's tables, parents before children (foreign keys), so rows load in an order they accept. */
async function tablesInOrder(client: pg.Client): Promise<string[]> {
  const tables = (
    await client.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
    )
  ).rows.map((r) => r.name)
  const deps = (
    await client.query<{ child: string; parent: string }>(
      `select c.relname as child, p.relname as parent from pg_constraint k
         join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
         join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and n.nspname = 'public' and c.oid <> p.oid`,
    )
  ).rows
  const ordered: string[] = []
  const visiting = new Set<string>()
  const visit = (t: string) => {
    if (ordered.includes(t) || visiting.has(t)) return
    visiting.add(t)
    for (const d of deps) if (d.child === t) visit(d.parent)
    visiting.delete(t)
    ordered.push(t)
  }
  for (const t of tables) visit(t)
  return ordered
}

/** Stored columns (generated ones are computed again on load). */
async function columnsOf(client: pg.Client, table: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select attname as name from pg_attribute
      where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = ''
      order by attnum`,
    [`public.${quote(table)}`],
  )
  return rows.map((r) => r.name)
}

async function appliedMigrations(client: pg.Client): Promise<DumpManifest['migrations']> {
  const exists = await client.query("select to_regclass('drizzle.__drizzle_migrations') as t")
  if (!exists.rows[0]?.t) return []
  const { rows } = await client.query<{ created_at: string; hash: string }>(
    'select created_at, hash from drizzle.__drizzle_migrations order by created_at',
  )
  return rows.map((r) => ({ when: Number(r.created_at), hash: r.hash }))
}

function writeLine(out: Writable, line: string): Promise<void> | undefined {
  return out.write(`${line}\n`) ? undefined : once(out, 'drain').then(() => undefined)
}

/** The file of an upload, if it is on disk and still what its row says (size and SHA-256). */
async function intactFile(dir: string, row: { id: string; tamano: number; sha256: string }): Promise<Buffer | undefined> {
  const content = await readFile(path.join(dir, row.id)).catch(() => undefined)
  if (!content || content.length !== row.tamano) return undefined
  return createHash('sha256').update(content).digest('hex') === row.sha256 ? content : undefined
}

/** Writes a dump of the database at `target` (and of its uploaded files) to `file`; returns its manifest. */
export async function backupDatabase(target: ConnectionTarget, file: string, options: BackupOptions = {}): Promise<BackupResult> {
  const client = await connect(target)
  const gzip = createGzip({ level: 6 })
  const output = createWriteStream(file, { mode: 0o600 })
  const done = pipeline(gzip, output)
  try {
    // One snapshot for every table: the dump is consistent while the app keeps writing.
    await client.query('begin isolation level repeatable read read only')
    const migrations = await appliedMigrations(client)
    if (!migrations.length)
      throw new BackupError('La base de datos no tiene el esquema de la aplicación: no hay nada que copiar.')
    const tables = await tablesInOrder(client)
    const counts: DumpManifest['tables'] = []
    for (const name of tables) {
      const { rows } = await client.query<{ n: string }>(`select count(*) as n from public.${quote(name)}`)
      counts.push({ name, rows: Number(rows[0]?.n ?? 0) })
    }
    const sequences = (
      await client.query<{ name: string; last_value: string | null }>(
        "select sequencename as name, last_value from pg_sequences where schemaname = 'public' order by sequencename",
      )
    ).rows.map((r) => ({ name: r.name, lastValue: r.last_value }))
    const version = (await client.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? ''
    // The uploads the snapshot's rows name, checked on disk before the header says how many there are.
    const named = options.uploadsDir
      ? (
          await client.query<{ id: string; tamano: number; sha256: string }>(
            'select id::text as id, tamano, sha256 from public.uploads order by id',
          )
        ).rows
      : []
    const present: typeof named = []
    const missingFiles: string[] = []
    let bytes = 0
    for (const row of named) {
      const info = await stat(path.join(options.uploadsDir as string, row.id)).catch(() => undefined)
      if (info?.isFile() && info.size === row.tamano) {
        present.push(row)
        bytes += row.tamano
      } else missingFiles.push(row.id)
    }
    const manifest: DumpManifest = {
      format: 'viviendas-backoffice',
      createdAt: new Date().toISOString(),
      serverVersion: version,
      migrations,
      tables: counts,
      sequences,
      files: { count: present.length, bytes },
    }
    await writeLine(gzip, MAGIC)
    await writeLine(gzip, JSON.stringify(manifest))
    for (const name of tables) {
      const columns = await columnsOf(client, name)
      await writeLine(gzip, `TABLE ${JSON.stringify({ name, columns })}`)
      const source = client.query(copyTo(`copy public.${quote(name)} (${columns.map(quote).join(', ')}) to stdout`))
      for await (const chunk of source as Readable) {
        if (!gzip.write(chunk)) await once(gzip, 'drain')
      }
      await writeLine(gzip, '\\.')
    }
    for (const row of present) {
      const content = await intactFile(options.uploadsDir as string, row)
      if (!content) {
        // Changed or removed since it was listed: the header's count is now one too many; say so.
        missingFiles.push(row.id)
        continue
      }
      await writeLine(gzip, `FILE ${JSON.stringify({ id: row.id, size: row.tamano, sha256: row.sha256 })}`)
      const b64 = content.toString('base64')
      for (let i = 0; i < b64.length; i += B64_LINE) {
        const wait = writeLine(gzip, b64.slice(i, i + B64_LINE))
        if (wait) await wait
      }
      await writeLine(gzip, '\\.')
    }
    await writeLine(gzip, 'END')
    await client.query('commit')
    gzip.end()
    await done
    return { ...manifest, missingFiles }
  } catch (err) {
    gzip.destroy()
    await done.catch(() => {})
    rmSync(file, { force: true })
    throw err
  } finally {
    await client.end().catch(() => {})
  }
}

/** True when any of the app's tables holds a row. */
async function hasData(client: pg.Client): Promise<boolean> {
  const tables = await tablesInOrder(client)
  for (const t of tables) {
    const { rows } = await client.query(`select exists (select 1 from public.${quote(t)}) as any`)
    if (rows[0]?.any) return true
  }
  return false
}

interface Journal {
  entries: Array<{ idx: number; when: number; tag: string }>
}

/** A migrations folder holding only the first `count` migrations of the app's own. */
async function migrationPrefix(count: number): Promise<string> {
  const source = migrationsFolder()
  const journal = JSON.parse(readFileSync(path.join(source, 'meta', '_journal.json'), 'utf8')) as Journal
  const dir = mkdtempSync(path.join(tmpdir(), 'vb-migraciones-'))
  await mkdir(path.join(dir, 'meta'))
  const entries = journal.entries.slice(0, count)
  writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }))
  for (const e of entries) await copyFile(path.join(source, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`))
  return dir
}

/** Reads the dump header; checks it is ours and that this version of the app knows its schema. */
function checkManifest(manifest: DumpManifest): number {
  if (manifest.format !== 'viviendas-backoffice') throw new BackupError('El archivo no es una copia de esta aplicación.')
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as Journal
  manifest.migrations.forEach((m, i) => {
    if (journal.entries[i]?.when !== m.when) {
      throw new BackupError(
        'La copia se hizo con una versión más nueva de la aplicación (su esquema tiene migraciones que esta no conoce). Restáurala con esa versión o una posterior.',
      )
    }
  })
  return manifest.migrations.length
}

export interface RestoreResult {
  manifest: DumpManifest
  /** Migrations applied after loading the rows (the dump came from an older version). */
  upgraded: number
  /** Uploaded files written back into the uploads folder. */
  files: number
}

export interface RestoreOptions {
  /** Replace a database that has data. */
  force?: boolean
  /** Where the dump's uploaded files go (created 0700; files 0600). Required when the dump has files. */
  uploadsDir?: string
}

/** Reads one FILE section's base64 lines into a temporary file, checking its size and SHA-256. */
async function restoreFile(
  next: () => Promise<string | undefined>,
  meta: { id: string; size: number; sha256: string },
  temp: string,
): Promise<void> {
  if (!/^[0-9a-f-]{36}$/.test(meta.id)) throw new BackupError('La copia está dañada (un archivo con un nombre no válido).')
  const handle = await open(temp, 'wx', 0o600)
  const hash = createHash('sha256')
  let size = 0
  try {
    for (;;) {
      const line = await next()
      if (line === undefined) throw new BackupError('La copia está incompleta (se corta en un archivo).')
      if (line === '\\.') break
      const chunk = Buffer.from(line, 'base64')
      hash.update(chunk)
      size += chunk.length
      await handle.write(chunk)
    }
    await handle.sync()
  } finally {
    await handle.close()
  }
  await chmod(temp, 0o600)
  if (size !== meta.size || hash.digest('hex') !== meta.sha256) {
    throw new BackupError(`La copia está dañada: el archivo ${meta.id} no coincide con su huella SHA-256.`)
  }
}

/**
 * Loads a dump into the database at `target`: an empty one, or, with `force`, one whose data is replaced
 * (its public schema is dropped first). The schema is the app's migrations up to the dump's level; the
 * rows load in one transaction; then any later migrations of this version run.
 */
export async function restoreDatabase(
  target: ConnectionTarget,
  file: string,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const { force = false, uploadsDir } = options
  const input = createInterface({
    input: createReadStream(file).pipe(createGunzip()),
    crlfDelay: Number.POSITIVE_INFINITY,
  })
  const lines = input[Symbol.asyncIterator]()
  const next = async () => {
    const r = await lines.next()
    return r.done ? undefined : r.value
  }
  let manifest: DumpManifest
  try {
    if (!MAGICS.has((await next()) ?? '')) throw new BackupError('El archivo no es una copia de esta aplicación.')
    manifest = JSON.parse((await next()) ?? '{}') as DumpManifest
    if (manifest.files?.count && !uploadsDir) {
      throw new BackupError('La copia incluye archivos subidos: indica la carpeta de subidas donde restaurarlos.')
    }
  } catch (err) {
    input.close()
    if (err instanceof BackupError) throw err
    throw new BackupError(`No se puede leer la copia ${file}: ${(err as Error).message}`)
  }
  const level = checkManifest(manifest)

  const client = await connect(target)
  let prefix: string | undefined
  /** Files read back, under temporary names until the rows are committed. */
  const restored: Array<{ temp: string; final: string }> = []
  try {
    if (uploadsDir) {
      await mkdir(uploadsDir, { recursive: true, mode: 0o700 })
      await chmod(uploadsDir, 0o700)
    }
    const existing = await appliedMigrations(client)
    if (existing.length && (await hasData(client))) {
      if (!force) {
        throw new BackupError(
          'La base de datos de destino ya tiene datos. Para sustituirlos por los de la copia, repite la orden con --force.',
        )
      }
    }
    if (existing.length) {
      // Replace everything of the app's: its schema comes back from the migrations below.
      await client.query('drop schema if exists drizzle cascade; drop schema public cascade; create schema public')
    }
    prefix = await migrationPrefix(level)
    await migrateTarget(target, prefix)

    await client.query('begin')
    for (;;) {
      const line = await next()
      if (line === undefined) throw new BackupError('La copia está incompleta (se corta antes del final).')
      if (line === 'END') break
      if (line.startsWith('FILE ') && uploadsDir) {
        const meta = JSON.parse(line.slice(5)) as { id: string; size: number; sha256: string }
        const temp = path.join(uploadsDir, `.restaurando-${meta.id}.part`)
        restored.push({ temp, final: path.join(uploadsDir, meta.id) })
        await restoreFile(next, meta, temp)
        continue
      }
      let table: { name: string; columns: string[] } | undefined
      try {
        if (line.startsWith('TABLE ')) table = JSON.parse(line.slice(6)) as { name: string; columns: string[] }
      } catch {
        table = undefined
      }
      if (!table) {
        // A line the end of the file cut in two is a copy cut short, not a damaged one.
        throw new BackupError(
          (await next()) === undefined ? 'La copia está incompleta (se corta antes del final).' : 'La copia está dañada.',
        )
      }
      const { name, columns } = table
      const sink = client.query(copyFrom(`copy public.${quote(name)} (${columns.map(quote).join(', ')}) from stdin`))
      const finished = new Promise<void>((resolve, reject) => {
        sink.on('finish', resolve)
        sink.on('error', reject)
      })
      // Awaited below on success; a copy cut short destroys the sink, and that rejection is already reported.
      finished.catch(() => {})
      for (;;) {
        const row = await next()
        if (row === undefined) {
          sink.destroy()
          throw new BackupError('La copia está incompleta (se corta en una tabla).')
        }
        if (row === '\\.') break
        if (!sink.write(`${row}\n`)) await once(sink, 'drain')
      }
      sink.end()
      await finished
    }
    for (const s of manifest.sequences) {
      if (s.lastValue === null) await client.query('select setval($1::regclass, 1, false)', [`public.${quote(s.name)}`])
      else await client.query('select setval($1::regclass, $2::bigint, true)', [`public.${quote(s.name)}`, s.lastValue])
    }
    await client.query('commit')
    // The rows are in: their files take their names (a rename in one folder is atomic).
    for (const f of restored) await rename(f.temp, f.final)
  } catch (err) {
    await client.query('rollback').catch(() => {})
    for (const f of restored) await rm(f.temp, { force: true })
    throw err
  } finally {
    input.close()
    await client.end().catch(() => {})
    if (prefix) rmSync(prefix, { recursive: true, force: true })
  }
  const before = level
  await migrateTarget(target, migrationsFolder())
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as Journal
  return { manifest, upgraded: journal.entries.length - before, files: restored.length }
}
