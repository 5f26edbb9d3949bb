import { createHash } from 'node:crypto'
import { createReadStream, type ReadStream } from 'node:fs'
import { readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { Readable, type Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip, createGzip, type Gunzip } from 'node:zlib'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import pg from 'pg'
import { from as copyFrom, to as copyTo } from 'pg-copy-streams'
import { createPrivateFile, ensurePrivateDirAsync, fsReason, isFileSystemError, writeFileAtomically } from '../lib/data-dir'
import { type ConnectionTarget, clientConfig, connectTo, migrationsFolder } from './client'
import { KEPT_BY_TRIGGERS } from './schema'

/**
 * DECISIONS R, backups. A logical dump of the app's data, taken inside one REPEATABLE READ snapshot with
 * `COPY … TO STDOUT` and restored with `COPY … FROM STDIN`, gzip-compressed:
 *
 *   VBDUMP 3
 *   {manifest: app migrations applied, server version, tables with their row counts, sequences,
 *    files: count and bytes of the uploaded files included}
 *   TABLE {"name": …, "columns": […]}
 *   …rows in COPY's text format…
 *   \.
 *   ROWS {"rows": …, "sha256": …}          the section's row count and the SHA-256 of its row bytes
 *   …one TABLE section per table, parents first (not the copies triggers keep: KEPT_BY_TRIGGERS)…
 *   FILE {"id": …, "size": …, "sha256": …}
 *   …the file's bytes in base64, 76 characters a line…
 *   \.
 *   …one FILE section per uploaded file the snapshot's `uploads` rows name (DECISIONS S5: receipts and
 *   documents come back with a restore; each is checked against its size and SHA-256)…
 *   END {"tables": …, "files": …}
 *
 * `VBDUMP 2` files are the same without the ROWS lines and END's counts; `VBDUMP 1` files also lack FILE
 * sections. Both still restore, checked against what they carry (the manifest's row counts, the files'
 * sizes and SHA-256).
 *
 * A restore is all or nothing: the whole file is read and checked before the target is touched, then the
 * schema is dropped, the migrations replayed, the rows loaded and the later migrations applied in ONE
 * transaction (PostgreSQL's DDL is transactional), and the uploaded files take their names only after the
 * commit. Any failure, a killed process included, leaves the target as it was.
 *
 * Why not pg_dump: the npm package that ships the embedded server has initdb, pg_ctl and postgres only,
 * and a pg_dump older than the server refuses to dump it (Debian's is 15, the embedded server is 18). COPY
 * speaks to every server version alike, so one file moves data between the embedded server and any
 * external PostgreSQL 15+, in both directions. The schema is not in the file: it is the app's own
 * migrations, replayed up to the dump's level before the rows are loaded.
 */

const MAGIC = 'VBDUMP 3'
const VERSIONS: Record<string, 1 | 2 | 3> = { 'VBDUMP 1': 1, 'VBDUMP 2': 2, [MAGIC]: 3 }
/** Base64 line length of a FILE section (as MIME's). */
const B64_LINE = 76
/** The advisory lock the app's migrations run under (db/client.ts): a starting app waits for a restore. */
const MIGRATION_LOCK = 727274
/** An upload's id is a UUID, and so its file name: nothing else is ever joined to the uploads folder. */
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const RESTORING = /^\.restaurando-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.part$/
const UNCHANGED = 'No se ha modificado nada en la base de datos de destino ni en su carpeta de subidas.'

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
  /** Stops the backup (Ctrl-C): the temporary file is removed and `file` is left as it was. */
  signal?: AbortSignal
}

export interface BackupResult extends DumpManifest {
  /** Files named by an `uploads` row but missing or changed on disk: left out, and said. */
  missingFiles: string[]
}

/** A backup or restore that cannot go on; the message is for the person running it (printed without a stack). */
export class BackupError extends Error {
  override name = 'BackupError'
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

async function connect(target: ConnectionTarget): Promise<pg.Client> {
  const client = new pg.Client({ ...clientConfig(target), application_name: 'viviendas-backup' })
  client.on('error', () => {})
  await connectTo(target, () => client.connect())
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

/** The output's own error (a full disk) once it has failed, rather than a generic one. */
const outputFailure = (out: Writable) => out.errored ?? new Error('la salida de la copia se ha cerrado')

/** Writes to the dump, waiting while it is full; fails, never waits forever, once the output has failed. */
async function write(out: Writable, data: string | Buffer): Promise<void> {
  if (out.destroyed) throw outputFailure(out)
  if (out.write(data)) return
  await new Promise<void>((resolve, reject) => {
    const drained = () => {
      out.off('close', closed)
      resolve()
    }
    const closed = () => {
      out.off('drain', drained)
      reject(outputFailure(out))
    }
    out.once('drain', drained)
    out.once('close', closed)
  })
}
const writeLine = (out: Writable, line: string) => write(out, `${line}\n`)

/** Rows in a chunk of COPY text output: every row ends in a newline (newlines inside values are escaped). */
function countNewlines(chunk: Buffer): number {
  let n = 0
  for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) n++
  return n
}

/** The file of an upload, if it is on disk and still what its row says (size and SHA-256). */
async function intactFile(dir: string, row: { id: string; tamano: number; sha256: string }): Promise<Buffer | undefined> {
  if (!UPLOAD_ID.test(row.id)) return undefined
  const content = await readFile(path.join(dir, row.id)).catch(() => undefined)
  if (!content || content.length !== row.tamano) return undefined
  return createHash('sha256').update(content).digest('hex') === row.sha256 ? content : undefined
}

/**
 * Writes a dump of the database at `target` (and of its uploaded files) to `file`; returns its manifest.
 * The dump is written to a private temporary file beside `file` (created 0600, exclusively), synced to
 * disk and renamed over `file` only when complete: `file` is either the whole new copy or what it was
 * before, and never readable by others. On any failure the temporary file is removed.
 */
export async function backupDatabase(target: ConnectionTarget, file: string, options: BackupOptions = {}): Promise<BackupResult> {
  return writeFileAtomically(
    file,
    async (output) => {
      const client = await connect(target)
      const gzip = createGzip({ level: 6 })
      const done = pipeline(gzip, output)
      // A failure of the output (a full disk) stops the writer below instead of leaving it waiting.
      done.catch(() => gzip.destroy())
      // Ctrl-C: the connection goes, so whatever the dump waits for fails at once.
      const onAbort = () => void client.end().catch(() => {})
      options.signal?.addEventListener('abort', onAbort)
      try {
        const result = await writeDump(client, gzip, options)
        if (options.signal?.aborted) throw new BackupError('Copia interrumpida: no se ha escrito nada.')
        gzip.end()
        await done
        return result
      } catch (err) {
        gzip.destroy()
        await done.catch(() => {})
        if (options.signal?.aborted) throw new BackupError('Copia interrumpida: no se ha escrito nada.')
        throw err
      } finally {
        options.signal?.removeEventListener('abort', onAbort)
        await client.end().catch(() => {})
      }
    },
    (reason) => new BackupError(`No se pudo escribir la copia en ${file}: ${reason}. No se ha dejado ningún archivo a medias.`),
  )
}

async function writeDump(client: pg.Client, gzip: Writable, options: BackupOptions): Promise<BackupResult> {
  // One snapshot for every table: the dump is consistent while the app keeps writing.
  await client.query('begin isolation level repeatable read read only')
  const migrations = await appliedMigrations(client)
  if (!migrations.length) throw new BackupError('La base de datos no tiene el esquema de la aplicación: no hay nada que copiar.')
  // Not the copies triggers keep (schema.ts): a restore's triggers make them again from their sources.
  const tables = (await tablesInOrder(client)).filter((t) => !KEPT_BY_TRIGGERS.has(t))
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
    const info = UPLOAD_ID.test(row.id)
      ? await stat(path.join(options.uploadsDir as string, row.id)).catch(() => undefined)
      : undefined
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
    const hash = createHash('sha256')
    let rows = 0
    const source = client.query(copyTo(`copy public.${quote(name)} (${columns.map(quote).join(', ')}) to stdout`))
    for await (const chunk of source as Readable) {
      hash.update(chunk as Buffer)
      rows += countNewlines(chunk as Buffer)
      await write(gzip, chunk as Buffer)
    }
    await writeLine(gzip, '\\.')
    await writeLine(gzip, `ROWS ${JSON.stringify({ rows, sha256: hash.digest('hex') })}`)
  }
  let filesWritten = 0
  for (const row of present) {
    const content = await intactFile(options.uploadsDir as string, row)
    if (!content) {
      // Changed or removed since it was listed: the header's count is now one too many; say so.
      missingFiles.push(row.id)
      continue
    }
    await writeLine(gzip, `FILE ${JSON.stringify({ id: row.id, size: row.tamano, sha256: row.sha256 })}`)
    const b64 = content.toString('base64')
    for (let i = 0; i < b64.length; i += B64_LINE) await writeLine(gzip, b64.slice(i, i + B64_LINE))
    await writeLine(gzip, '\\.')
    filesWritten++
  }
  await writeLine(gzip, `END ${JSON.stringify({ tables: tables.length, files: filesWritten })}`)
  await client.query('commit')
  return { ...manifest, missingFiles }
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

interface Migration {
  sql: string[]
  folderMillis: number
  hash: string
}

/** This version's migrations, read as drizzle's migrator reads them (same statements, same hashes). */
const appMigrations = (): Migration[] => readMigrationFiles({ migrationsFolder: migrationsFolder() })

/** Checks the dump is ours and that this version of the app knows its schema; returns the dump's level. */
function checkManifest(manifest: DumpManifest, migrations: Migration[]): number {
  manifest.migrations.forEach((m, i) => {
    if (migrations[i]?.folderMillis !== m.when) {
      throw new BackupError(
        'La copia se hizo con una versión más nueva de la aplicación (su esquema tiene migraciones que esta no conoce). Restáurala con esa versión o una posterior.',
      )
    }
  })
  return manifest.migrations.length
}

/**
 * Runs migrations on a connection that is inside a transaction, with drizzle's own bookkeeping
 * (`drizzle.__drizzle_migrations`: the file's hash and the journal's `when`), statement by statement as
 * its migrator splits them at `--> statement-breakpoint`. drizzle's `migrate` opens a transaction of its
 * own, which would commit ours half-way.
 */
async function applyMigrations(client: pg.Client, migrations: Migration[]): Promise<void> {
  await client.query('create schema if not exists drizzle')
  await client.query(
    'create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)',
  )
  for (const m of migrations) {
    for (const statement of m.sql) if (statement.trim()) await client.query(statement)
    await client.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [m.hash, m.folderMillis])
  }
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
  /** Stops the restore (Ctrl-C): nothing is changed, and it ends within moments. */
  signal?: AbortSignal
  /** Progress for the person waiting (checked, loading…). */
  progress?: (message: string) => void
}

/** Where a reader is in a dump, for messages: "en la tabla «x», fila 3". */
interface Position {
  section?: string
  row?: number
}

const describePosition = (p: Position) =>
  p.section
    ? `${p.section}${p.row !== undefined ? (p.row ? `, tras la fila ${p.row}` : ', antes de su primera fila') : ''}`
    : 'en la cabecera'

/** The lines of a gzip-compressed dump, as bytes. A read or decompression error says where it happened. */
class DumpLines {
  readonly position: Position = {}
  private readonly input: ReadStream
  private readonly gunzip: Gunzip
  private readonly chunks: AsyncIterator<Buffer>
  private chunk: Buffer = Buffer.alloc(0)
  private offset = 0
  private pending: Buffer[] = []

  constructor(private readonly file: string) {
    this.input = createReadStream(file)
    this.gunzip = createGunzip()
    // A read error ends the decompression with it (pipe() alone would leave the reader waiting forever).
    this.input.on('error', (err) => this.gunzip.destroy(err))
    this.input.pipe(this.gunzip)
    this.chunks = this.gunzip[Symbol.asyncIterator]()
  }

  /** The next line without its newline, or undefined at the end of the data. */
  async next(): Promise<Buffer | undefined> {
    for (;;) {
      const nl = this.chunk.indexOf(10, this.offset)
      if (nl >= 0) {
        let line = this.chunk.subarray(this.offset, nl)
        this.offset = nl + 1
        if (this.pending.length) {
          line = Buffer.concat([...this.pending, line])
          this.pending = []
        }
        return line
      }
      if (this.offset < this.chunk.length) this.pending.push(this.chunk.subarray(this.offset))
      this.chunk = Buffer.alloc(0)
      this.offset = 0
      let step: IteratorResult<Buffer>
      try {
        step = await this.chunks.next()
      } catch (err) {
        if (isFileSystemError(err)) {
          throw new BackupError(`No se puede leer la copia ${this.file}: ${fsReason(err)}.`, { cause: err })
        }
        throw new BackupError(
          `La copia ${this.file} está incompleta o dañada: sus datos comprimidos se cortan o no se pueden leer ${describePosition(this.position)} (${(err as Error).message}).`,
          { cause: err },
        )
      }
      if (step.done) {
        // Every line of a copy ends in a newline, the END line too: a last line without one was cut off.
        if (this.pending.length) {
          throw new BackupError(`La copia está incompleta: se corta ${describePosition(this.position)}, a mitad de una línea.`)
        }
        return undefined
      }
      this.chunk = step.value
    }
  }

  close(): void {
    this.input.destroy()
    this.gunzip.destroy()
  }
}

const isEndOfData = (line: Buffer) => line.length === 2 && line[0] === 0x5c && line[1] === 0x2e

function damaged(detail: string): BackupError {
  return new BackupError(`La copia está dañada: ${detail}.`)
}

function parseJson(text: string, what: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {
    /* said below */
  }
  throw damaged(`${what} no se puede leer`)
}

interface Header {
  version: 1 | 2 | 3
  manifest: DumpManifest
  /** The manifest line as written: the second reading must find the same one. */
  raw: string
}

async function readHeader(lines: DumpLines): Promise<Header> {
  const notOurs = () => new BackupError('El archivo no es una copia de esta aplicación.')
  let magic: Buffer | undefined
  try {
    magic = await lines.next()
  } catch (err) {
    // Not gzip at all is not one of ours; a file that cannot be read says why.
    if (err instanceof BackupError && isFileSystemError(err.cause)) throw err
    throw notOurs()
  }
  const version = VERSIONS[magic?.toString('utf8') ?? '']
  if (!version) throw notOurs()
  const raw = (await lines.next())?.toString('utf8') ?? ''
  let manifest: DumpManifest
  try {
    manifest = JSON.parse(raw) as DumpManifest
  } catch {
    throw notOurs()
  }
  if (
    manifest?.format !== 'viviendas-backoffice' ||
    !Array.isArray(manifest.migrations) ||
    !Array.isArray(manifest.tables) ||
    !Array.isArray(manifest.sequences) ||
    !manifest.tables.every((t) => typeof t?.name === 'string' && Number.isSafeInteger(t.rows) && t.rows >= 0) ||
    !manifest.sequences.every(
      (s) => typeof s?.name === 'string' && (s.lastValue === null || /^-?\d{1,19}$/.test(String(s.lastValue))),
    ) ||
    !manifest.migrations.every((m) => Number.isSafeInteger(m?.when))
  ) {
    throw notOurs()
  }
  return { version, manifest, raw }
}

interface TablePart {
  kind: 'table'
  name: string
  columns: string[]
  /** The section's rows (each without its newline); its count and checksum are checked at its end. */
  rows(): AsyncGenerator<Buffer>
}
interface FilePart {
  kind: 'file'
  id: string
  size: number
  sha256: string
  /** The file's bytes, a batch at a time; its size and SHA-256 are checked at its end. */
  content(): AsyncGenerator<Buffer>
}

/**
 * The sections of a dump, in order, each checked as it is read: every table of the manifest once and in
 * its order, every row with as many fields as its section has columns, every section's row count and
 * checksum (VBDUMP 3; the manifest's row counts before it), every file's name (before any path is built
 * from it), size and SHA-256, and the END line. Each part must be read to its end before the next one.
 */
async function* dumpSections(lines: DumpLines, header: Header): AsyncGenerator<TablePart | FilePart> {
  const { version, manifest } = header
  let tables = 0
  let files = 0
  const seen = new Set<string>()
  const position = lines.position
  for (;;) {
    const raw = await lines.next()
    if (raw === undefined) {
      throw new BackupError(`La copia está incompleta: se corta ${describePosition(position)}, antes de su línea END.`)
    }
    const line = raw.toString('utf8')
    if (line === 'END' || line.startsWith('END ')) {
      if (version >= 3) {
        const trailer = parseJson(line.slice(4), 'la línea END')
        if (trailer.tables !== tables || trailer.files !== files) {
          throw damaged(`su línea END dice ${trailer.tables} tablas y ${trailer.files} archivos, y tiene ${tables} y ${files}`)
        }
      } else if (line !== 'END') throw damaged('su línea END no es válida')
      if (tables !== manifest.tables.length) {
        throw damaged(`le faltan tablas: su índice nombra ${manifest.tables.length} y tiene ${tables}`)
      }
      if (files > (manifest.files?.count ?? 0)) throw damaged('tiene más archivos de los que dice su índice')
      if ((await lines.next()) !== undefined) throw damaged('hay datos después de su línea END')
      return
    }
    if (line.startsWith('TABLE ')) {
      const meta = parseJson(line.slice(6), `la cabecera de la tabla ${tables + 1}`)
      const expected = manifest.tables[tables]
      const columns = meta.columns
      if (
        typeof meta.name !== 'string' ||
        meta.name !== expected?.name ||
        !Array.isArray(columns) ||
        !columns.length ||
        !columns.every((c) => typeof c === 'string' && c.length > 0)
      ) {
        throw damaged(`la tabla ${tables + 1} («${String(meta.name)}») no es la que dice su índice o no tiene columnas válidas`)
      }
      tables++
      const name = meta.name
      const expectedRows = expected.rows
      const section = `en la tabla «${name}»`
      let consumed = false
      yield {
        kind: 'table',
        name,
        columns: columns as string[],
        rows: async function* () {
          const hash = createHash('sha256')
          let rows = 0
          position.section = section
          position.row = 0
          for (;;) {
            const row = await lines.next()
            if (row === undefined) throw new BackupError(`La copia está incompleta: se corta ${describePosition(position)}.`)
            if (isEndOfData(row)) break
            rows++
            position.row = rows
            let fields = 1
            for (let i = row.indexOf(9); i >= 0; i = row.indexOf(9, i + 1)) fields++
            if (fields !== columns.length) {
              // A row cut short by the end of the data is a cut copy, not a bad row.
              if ((await lines.next()) === undefined) {
                throw new BackupError(`La copia está incompleta: se corta en la tabla «${name}», en la fila ${rows}.`)
              }
              throw damaged(
                `la fila ${rows} de la tabla «${name}» tiene ${fields} campos y la tabla tiene ${columns.length} columnas`,
              )
            }
            hash.update(row)
            hash.update('\n')
            yield row
          }
          if (version >= 3) {
            const footer = (await lines.next())?.toString('utf8') ?? ''
            if (!footer.startsWith('ROWS ')) throw damaged(`a la tabla «${name}» le falta su línea ROWS`)
            const sums = parseJson(footer.slice(5), `la línea ROWS de la tabla «${name}»`)
            if (sums.rows !== rows) throw damaged(`la tabla «${name}» tiene ${rows} filas y su resumen dice ${sums.rows}`)
            if (sums.sha256 !== hash.digest('hex')) {
              throw damaged(`las filas de la tabla «${name}» no coinciden con su suma de comprobación SHA-256`)
            }
          }
          if (rows !== expectedRows)
            throw damaged(`la tabla «${name}» tiene ${rows} filas y el índice de la copia dice ${expectedRows}`)
          position.row = undefined
          position.section = `tras la tabla «${name}»`
          consumed = true
        },
      }
      if (!consumed) throw new Error(`dump section ${name} was not read to its end`)
      continue
    }
    if (line.startsWith('FILE ') && version >= 2) {
      const meta = parseJson(line.slice(5), 'la cabecera de un archivo')
      // The name is checked before any path is built from it, cleanup paths included.
      if (typeof meta.id !== 'string' || !UPLOAD_ID.test(meta.id)) {
        throw damaged(`un archivo tiene un nombre no válido (${JSON.stringify(String(meta.id).slice(0, 80))})`)
      }
      const { id } = meta
      if (seen.has(id)) throw damaged(`el archivo ${id} aparece dos veces`)
      if (!Number.isSafeInteger(meta.size) || (meta.size as number) < 0 || typeof meta.sha256 !== 'string') {
        throw damaged(`el archivo ${id} no tiene un tamaño o una huella SHA-256 válidos`)
      }
      seen.add(id)
      files++
      const size = meta.size as number
      const sha256 = meta.sha256
      let consumed = false
      yield {
        kind: 'file',
        id,
        size,
        sha256,
        content: async function* () {
          const hash = createHash('sha256')
          let total = 0
          let batch: string[] = []
          position.section = `en el archivo ${id}`
          position.row = undefined
          for (;;) {
            const b64 = await lines.next()
            if (b64 === undefined) throw new BackupError(`La copia está incompleta: se corta en el archivo ${id}.`)
            if (isEndOfData(b64)) break
            const text = b64.toString('latin1')
            if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4) {
              if ((await lines.next()) === undefined)
                throw new BackupError(`La copia está incompleta: se corta en el archivo ${id}.`)
              throw damaged(`el archivo ${id} no está en base64`)
            }
            batch.push(text)
            if (batch.length >= 1024) {
              const bytes = Buffer.from(batch.join(''), 'base64')
              batch = []
              hash.update(bytes)
              total += bytes.length
              yield bytes
            }
          }
          if (batch.length) {
            const bytes = Buffer.from(batch.join(''), 'base64')
            hash.update(bytes)
            total += bytes.length
            yield bytes
          }
          if (total !== size || hash.digest('hex') !== sha256) {
            throw damaged(`el archivo ${id} no coincide con su tamaño o su huella SHA-256`)
          }
          position.section = `tras el archivo ${id}`
          consumed = true
        },
      }
      if (!consumed) throw new Error(`dump file ${id} was not read to its end`)
      continue
    }
    throw damaged(`línea inesperada ${describePosition(position)} (se esperaba TABLE, FILE o END)`)
  }
}

const temporaryName = (uploadsDir: string, id: string) => path.join(uploadsDir, `.restaurando-${id}.part`)

/** Leftovers of a restore that was killed (its files never took their names). */
async function removeLeftovers(uploadsDir: string): Promise<void> {
  const names = await readdir(uploadsDir).catch(() => [] as string[])
  for (const name of names) if (RESTORING.test(name)) await rm(path.join(uploadsDir, name), { force: true })
}

function interrupted(): BackupError {
  return new BackupError('Restauración interrumpida.')
}

/**
 * First reading: the whole dump is checked before the target is touched. The uploaded files are written
 * to private temporary files in the uploads folder (they take their names after the commit).
 */
async function checkDump(
  file: string,
  uploadsDir: string | undefined,
  signal: AbortSignal | undefined,
  written: Array<{ temp: string; final: string }>,
): Promise<{ header: Header; rows: number }> {
  const lines = new DumpLines(file)
  try {
    const header = await readHeader(lines)
    let rows = 0
    for await (const part of dumpSections(lines, header)) {
      if (signal?.aborted) throw interrupted()
      if (part.kind === 'table') {
        for await (const _ of part.rows()) {
          rows++
          if (signal?.aborted) throw interrupted()
        }
        continue
      }
      if (!uploadsDir) {
        for await (const _ of part.content()) if (signal?.aborted) throw interrupted()
        continue
      }
      const temp = temporaryName(uploadsDir, part.id)
      const handle = await createPrivateFile(temp)
      written.push({ temp, final: path.join(uploadsDir, part.id) })
      try {
        for await (const bytes of part.content()) {
          if (signal?.aborted) throw interrupted()
          await handle.write(bytes)
        }
        await handle.sync()
      } finally {
        await handle.close()
      }
    }
    return { header, rows }
  } finally {
    lines.close()
  }
}

/** A PostgreSQL error while loading a table, said with the section and row it names. */
function loadError(err: unknown, table: string): Error {
  if (err instanceof BackupError) return err
  const e = err as { message?: string; where?: string; code?: string }
  if (!e.code || !/^[0-9A-Z]{5}$/.test(e.code)) return err as Error
  const at = /line (\d+)(?:, column ([^:]+))?/.exec(e.where ?? '')
  const place = at ? `, fila ${at[1]}${at[2] ? `, columna ${at[2]}` : ''}` : ''
  return new BackupError(`La copia tiene datos que la base de datos no acepta en la tabla «${table}»${place}: ${e.message}.`)
}

/** A table's rows in batches for COPY (one row a message would be slow). */
async function* batches(rows: AsyncGenerator<Buffer>, signal: AbortSignal | undefined): AsyncGenerator<Buffer> {
  let parts: Buffer[] = []
  let size = 0
  for await (const row of rows) {
    if (signal?.aborted) throw interrupted()
    parts.push(row, NEWLINE)
    size += row.length + 1
    if (size >= 1 << 16) {
      yield Buffer.concat(parts, size)
      parts = []
      size = 0
    }
  }
  if (size) yield Buffer.concat(parts, size)
}
const NEWLINE = Buffer.from('\n')

/**
 * Loads a dump into the database at `target`: an empty one, or, with `force`, one whose data is replaced.
 * All or nothing: the whole file is checked first; then one transaction drops the app's schema, replays
 * the migrations up to the dump's level, loads every row, sets the sequences and runs this version's later
 * migrations; the uploaded files take their names after the commit. A failure at any point (a bad value,
 * a cut or changed file, Ctrl-C through `signal`, a killed process) leaves the target as it was.
 */
export async function restoreDatabase(
  target: ConnectionTarget,
  file: string,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const { force = false, uploadsDir, signal, progress = () => {} } = options
  const migrations = appMigrations()
  // The header first: a file that is not ours, or from a newer version, is refused at once.
  const peek = new DumpLines(file)
  let header: Header
  try {
    header = await readHeader(peek)
  } finally {
    peek.close()
  }
  const { manifest } = header
  const level = checkManifest(manifest, migrations)
  if (manifest.files?.count && !uploadsDir) {
    throw new BackupError('La copia incluye archivos subidos: indica la carpeta de subidas donde restaurarlos.')
  }

  const client = await connect(target)
  // Ctrl-C: closing the connection makes PostgreSQL roll back whatever it was doing, at once.
  const onAbort = () => void client.end().catch(() => {})
  signal?.addEventListener('abort', onAbort)
  /** Files read back, under temporary names until the rows are committed. */
  const restored: Array<{ temp: string; final: string }> = []
  let committed = false
  try {
    const existing = await appliedMigrations(client)
    if (existing.length && !force && (await hasData(client))) {
      throw new BackupError(
        'La base de datos de destino ya tiene datos. Para sustituirlos por los de la copia, repite la orden con --force.',
      )
    }
    if (uploadsDir) {
      await ensurePrivateDirAsync(uploadsDir)
      await removeLeftovers(uploadsDir)
    }

    progress('Comprobando la copia entera antes de tocar nada…')
    const { rows } = await checkDump(file, uploadsDir, signal, restored)
    progress(
      `Copia comprobada: ${manifest.tables.length} tablas, ${rows} filas, ${restored.length} archivos. Restaurando en una sola transacción…`,
    )

    await client.query('begin')
    // A database still in use (an app on DATABASE_URL holding locks) fails the restore instead of hanging it.
    await client.query("set local lock_timeout = '10s'")
    await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    if (existing.length) {
      // Replace everything of the app's: its schema comes back from the migrations below, in this transaction.
      await client.query('drop schema if exists drizzle cascade; drop schema public cascade; create schema public')
    }
    await applyMigrations(client, migrations.slice(0, level))

    // Second reading: the rows go in as they are read, each section checked again (the file may have changed).
    const lines = new DumpLines(file)
    try {
      const again = await readHeader(lines)
      if (again.raw !== header.raw) throw new BackupError('La copia ha cambiado mientras se restauraba.')
      for await (const part of dumpSections(lines, again)) {
        if (signal?.aborted) throw interrupted()
        if (part.kind === 'file') {
          for await (const _ of part.content()) if (signal?.aborted) throw interrupted()
          continue
        }
        // A copy triggers keep (schema.ts), in a dump made before 2026-11-28: its sources' triggers make it again
        // as they load, whatever the order, so its rows are read and checked but not loaded.
        if (KEPT_BY_TRIGGERS.has(part.name)) {
          for await (const _ of part.rows()) if (signal?.aborted) throw interrupted()
          continue
        }
        const sink = client.query(copyFrom(`copy public.${quote(part.name)} (${part.columns.map(quote).join(', ')}) from stdin`))
        // On any failure pipeline() destroys the COPY (a CopyFail message) before it settles, so the
        // rollback below never waits behind a COPY that is still open.
        await pipeline(Readable.from(batches(part.rows(), signal)), sink).catch((err) => {
          throw loadError(err, part.name)
        })
      }
    } finally {
      lines.close()
    }
    for (const s of manifest.sequences) {
      if (s.lastValue === null) await client.query('select setval($1::regclass, 1, false)', [`public.${quote(s.name)}`])
      else await client.query('select setval($1::regclass, $2::bigint, true)', [`public.${quote(s.name)}`, s.lastValue])
    }
    await applyMigrations(client, migrations.slice(level))
    // An app still connected drops what it keeps in memory about workers on commit (lib/live-cache.ts).
    await client.query("select pg_notify('cambios', '*')")
    if (signal?.aborted) throw interrupted()
    await client.query('commit')
    committed = true
  } catch (err) {
    await client.query('rollback').catch(() => {})
    for (const f of restored) await rm(f.temp, { force: true })
    const reason = signal?.aborted
      ? interrupted()
      : (err as { code?: string }).code === '55P03'
        ? new BackupError(
            'La base de datos de destino está en uso: otra sesión tiene bloqueadas sus tablas desde hace más de 10 s. Detén la aplicación y vuelve a intentarlo.',
          )
        : err
    if (reason instanceof BackupError) throw new BackupError(`${reason.message} ${UNCHANGED}`)
    throw reason
  } finally {
    signal?.removeEventListener('abort', onAbort)
    await client.end().catch(() => {})
  }
  // The rows are in: their files take their names (a rename in one folder is atomic).
  const failed: string[] = []
  for (const f of restored) {
    await rename(f.temp, f.final).catch(async (err) => {
      failed.push(`${path.basename(f.final)} (${fsReason(err)})`)
      await rm(f.temp, { force: true })
    })
  }
  if (committed && failed.length) {
    throw new BackupError(
      `La base de datos se ha restaurado, pero ${failed.length} archivos subidos no se han podido colocar en ${uploadsDir}: ${failed.join(', ')}.`,
    )
  }
  return { manifest, upgraded: migrations.length - level, files: restored.length }
}
