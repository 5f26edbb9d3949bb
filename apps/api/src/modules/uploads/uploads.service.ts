import { createHash, randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { createReadStream, createWriteStream } from 'node:fs'
import { chmod, type FileHandle, open, readdir, rename, rm, stat } from 'node:fs/promises'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  AppError,
  type Archivo,
  UPLOAD_EXTENSIONS,
  UPLOAD_MAX_BYTES,
  type Upload,
  uploadIdOf,
  uploadMessages,
  uploadReference,
} from '@vb/shared'
import { and, eq, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { fileTypeFromFile } from 'file-type'
import type { DbOrTx, Tx } from '../../db/client'
import { uploads } from '../../db/schema'
import type { AppDeps } from '../../deps'
import type { Actor } from '../../lib/actor'
import { contentDisposition, type FileStore, type LinkMode } from '../../lib/files'
import { where } from '../../lib/records'
import { uploadVisible } from '../../lib/scope'
import { loadActor } from '../../plugins/auth'

export type UploadRow = typeof uploads.$inferSelect

/** An upload attached to no record yet (its uploader's only). */
type Extension = (typeof UPLOAD_EXTENSIONS)[number]

/** The type each accepted extension must have by content (file-type's answer), and the type it is served as. */
const TYPES: Record<Extension, { detected: string; mime: string }> = {
  pdf: { detected: 'pdf', mime: 'application/pdf' },
  jpg: { detected: 'jpg', mime: 'image/jpeg' },
  jpeg: { detected: 'jpg', mime: 'image/jpeg' },
  png: { detected: 'png', mime: 'image/png' },
  docx: { detected: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  // Word 97-2003: an OLE compound file (file-type says 'cfb') that holds a WordDocument stream.
  doc: { detected: 'cfb', mime: 'application/msword' },
}

/** Types a browser shows by itself: served inline for 'ver' links (<a>, <img>); the rest always download. */
const INLINE = new Set(['application/pdf', 'image/jpeg', 'image/png'])

/**
 * A file name a client sent, checked before anything is written (DECISIONS S5): its own name only (a path
 * separator or a '..' part is a path-traversal attempt), no control characters, at most 255 characters,
 * and a name besides its extension.
 */
function checkedName(filename: string | undefined): { name: string; extension: string } {
  const name = (filename ?? '').normalize('NFC')
  const invalid = () => new AppError('VALIDATION_FAILED', uploadMessages.nombreInvalido, { file: uploadMessages.nombreInvalido })
  if (!name.trim() || /[/\\]/.test(name) || /\p{Cc}/u.test(name) || [...name].length > 255) throw invalid()
  const dot = name.lastIndexOf('.')
  if (dot <= 0 || /^\.+$/.test(name)) throw invalid()
  return { name, extension: name.slice(dot + 1).toLowerCase() }
}

/** A .doc's compound file names its main stream 'WordDocument' (UTF-16LE) in its directory. */
async function holdsWordDocument(file: string): Promise<boolean> {
  const needle = Buffer.from('WordDocument', 'utf16le')
  let tail = Buffer.alloc(0)
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    const window = Buffer.concat([tail, chunk as Buffer])
    if (window.includes(needle)) return true
    tail = window.subarray(Math.max(0, window.length - needle.length))
  }
  return false
}

/** 415 unless the content is what the extension says (magic bytes, DECISIONS S5). */
async function checkContent(file: string, extension: string): Promise<string> {
  if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(extension)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', uploadMessages.tipoNoAdmitido, { file: uploadMessages.tipoNoAdmitido })
  }
  const expected = TYPES[extension as Extension]
  const detected = await fileTypeFromFile(file)
  const matches = detected?.ext === expected.detected && (extension !== 'doc' || (await holdsWordDocument(file)))
  if (!matches) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', uploadMessages.contenidoNoCoincide, { file: uploadMessages.contenidoNoCoincide })
  }
  return expected.mime
}

/** Multipart failures as A3 bodies with Spanish messages. */
function multipartError(err: unknown): AppError {
  if (err instanceof AppError) return err
  const { code, message } = err as { code?: string; message?: string }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new AppError('UNSUPPORTED_MEDIA_TYPE', uploadMessages.noMultipart)
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge()
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new AppError('VALIDATION_FAILED', uploadMessages.archivoObligatorio, { file: 'Envía un solo archivo.' })
  }
  if (/terminated early|Unexpected end|premature close|aborted/i.test(message ?? '') || code === 'FST_PREMATURE_CLOSE') {
    return new AppError('VALIDATION_FAILED', uploadMessages.interrumpida, { file: uploadMessages.interrumpida })
  }
  return err as AppError
}

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', uploadMessages.demasiadoGrande, { file: uploadMessages.demasiadoGrande })

/**
 * POST /api/uploads (DECISIONS S5, D8): the multipart field `file`, at most 10 MB, pdf/doc/docx/jpg/jpeg/png
 * by extension and by content. It streams to a temporary file (0600) while hashing, checks it, inserts the
 * row and renames the file to its id inside the row's transaction; every failure on the way removes the
 * temporary or final file and leaves no row. The upload belongs to its uploader until a record takes it.
 */
export async function receiveUpload(deps: AppDeps, actor: Actor, request: FastifyRequest): Promise<Upload> {
  const temp = deps.files.tempPath()
  let final: string | undefined
  try {
    let part: Awaited<ReturnType<FastifyRequest['file']>>
    try {
      part = await request.file({ limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 11 } })
    } catch (err) {
      throw multipartError(err)
    }
    if (part?.fieldname !== 'file') {
      part?.file.resume()
      throw new AppError('VALIDATION_FAILED', uploadMessages.archivoObligatorio, { file: uploadMessages.archivoObligatorio })
    }
    let name: string
    let extension: string
    try {
      ;({ name, extension } = checkedName(part.filename))
    } catch (err) {
      part.file.resume()
      throw err
    }

    const hash = createHash('sha256')
    let size = 0
    const measure = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk)
        size += chunk.length
        done(null, chunk)
      },
    })
    // flush: fsync before close, so an acknowledged upload is on disk (as the database's writes are).
    const out = createWriteStream(temp, { flags: 'wx', mode: 0o600, flush: true })
    try {
      await pipeline(part.file, measure, out)
    } catch (err) {
      // A body cut off early can fail the pipeline before the file is even open: wait until the stream has
      // opened and closed it, or the removal below would run first and the file would appear after it.
      if (!out.closed) await once(out, 'close').catch(() => undefined)
      throw multipartError(err)
    }
    if (part.file.truncated) throw tooLarge()
    if (size === 0) throw new AppError('VALIDATION_FAILED', uploadMessages.vacio, { file: uploadMessages.vacio })
    // Exactly 0600 whatever the umask.
    await chmod(temp, 0o600)
    const mime = await checkContent(temp, extension)

    const id = randomUUID()
    const sha256 = hash.digest('hex')
    const row = await deps.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(uploads)
        .values({ id, nombreOriginal: name, mime, tamano: size, sha256, trabajadorId: actor.id, createdAt: deps.clock.now() })
        .returning()
      // Renamed before the commit: a committed row always has its file. If the commit then fails, the
      // catch below removes the file that lost its row; if the process dies first, the file's lock ends with
      // its transaction and the sweep knows the file has no row coming (fileLock).
      await tx.execute(fileLock(id, 'wait'))
      final = deps.files.pathOf(id)
      await rename(temp, final)
      return inserted as UploadRow
    })
    return toUpload(deps.files, actor, row)
  } catch (err) {
    await rm(temp, { force: true })
    if (final) await rm(final, { force: true })
    throw err
  }
}

/** Signed links of an upload for this worker (DECISIONS S5). */
export function archivoOf(
  files: FileStore,
  actor: Pick<Actor, 'id'>,
  row: Pick<UploadRow, 'id' | 'nombreOriginal' | 'mime' | 'tamano'>,
): Archivo {
  const ver = files.sign(row.id, actor.id, 'ver')
  const descargar = files.sign(row.id, actor.id, 'descargar')
  return {
    origen: 'subido',
    url: ver.url,
    descargaUrl: descargar.url,
    nombre: row.nombreOriginal,
    mime: row.mime,
    tamano: row.tamano,
    caduca: ver.caduca,
  }
}

export function toUpload(files: FileStore, actor: Pick<Actor, 'id'>, row: UploadRow): Upload {
  return {
    id: row.id,
    url: uploadReference(row.id),
    nombre: row.nombreOriginal,
    mime: row.mime,
    tamano: row.tamano,
    sha256: row.sha256,
    createdAt: row.createdAt.toISOString(),
    adjunto: row.documentoId !== null || row.movimientoId !== null || row.presupuestoId !== null || row.fotoTrabajadorId !== null,
    archivo: archivoOf(files, actor, row),
  }
}

async function visibleUpload(db: DbOrTx, actor: Actor, id: string): Promise<UploadRow | undefined> {
  const [row] = await db
    .select()
    .from(uploads)
    .where(where(eq(uploads.id, id), uploadVisible(actor)))
  return row
}

/** GET /api/uploads/:id: the file's data and fresh links, for a worker who may see it; otherwise 404. */
export async function getUpload(deps: AppDeps, actor: Actor, id: string): Promise<Upload> {
  const row = await visibleUpload(deps.db, actor, id)
  if (!row) throw new AppError('NOT_FOUND', uploadMessages.noEncontrado)
  return toUpload(deps.files, actor, row)
}

/**
 * GET /api/uploads/:id/contenido?t&m&e&s: the file, for a valid unexpired signed link whose worker is still
 * active and still sees the upload (another company's, or a record deleted since: 404). Served with its
 * checked type, a sanitised name, nosniff and a CSP that runs nothing.
 */
export async function serveUpload(
  deps: AppDeps,
  id: string,
  query: { t?: string; m?: string; e?: string; s?: string },
  reply: FastifyReply,
): Promise<FastifyReply> {
  const link = deps.files.verify(id, query)
  if (!link) throw new AppError('FORBIDDEN', uploadMessages.enlaceCaducado)
  const worker = await loadActor(deps.db, link.trabajadorId)
  if (!worker?.activo) throw new AppError('FORBIDDEN', uploadMessages.enlaceCaducado)
  const row = await visibleUpload(deps.db, worker, id)
  if (!row) throw new AppError('NOT_FOUND', uploadMessages.noEncontrado)
  // Opened before answering: a file gone from disk is a 404 said here, never an error half-way through a stream.
  let handle: FileHandle
  let size: number
  try {
    handle = await open(deps.files.pathOf(id), 'r')
  } catch {
    deps.log.error({ upload: id }, 'uploaded file missing on disk')
    throw new AppError('NOT_FOUND', uploadMessages.noEncontrado)
  }
  try {
    size = (await handle.stat()).size
  } catch (err) {
    await handle.close()
    throw err
  }
  const mode: LinkMode = link.mode === 'ver' && INLINE.has(row.mime) ? 'ver' : 'descargar'
  // PDF viewers do not run in a sandboxed document; images and downloads get the sandbox too.
  const sandbox = row.mime === 'application/pdf' && mode === 'ver' ? '' : '; sandbox'
  return reply
    .header('Content-Type', row.mime)
    .header('Content-Length', String(size))
    .header('Content-Disposition', contentDisposition(mode, row.nombreOriginal))
    .header('X-Content-Type-Options', 'nosniff')
    .header(
      'Content-Security-Policy',
      `default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'${sandbox}`,
    )
    .send(handle.createReadStream())
}

/** DELETE /api/uploads/:id: the uploader drops a file it has not attached (a form abandoned); 404 otherwise. */
export async function removeUpload(deps: AppDeps, actor: Actor, id: string): Promise<void> {
  const deleted = await deps.db
    .delete(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.trabajadorId, actor.id), unattached()))
    .returning({ id: uploads.id })
  if (!deleted.length) throw new AppError('NOT_FOUND', uploadMessages.noEncontrado)
  await discardFiles(deps, [id])
}

/** The records a file can be attached to: a document, a cash movement, a budget or a worker as its photo (DECISIONS D6, D8). */
export type AttachmentColumn = 'documentoId' | 'movimientoId' | 'presupuestoId' | 'fotoTrabajadorId'
export type Attachment =
  | { documentoId: number }
  | { movimientoId: number }
  | { presupuestoId: number }
  | { fotoTrabajadorId: number }
const attachmentColumns: readonly AttachmentColumn[] = ['documentoId', 'movimientoId', 'presupuestoId', 'fotoTrabajadorId']

/** A file no record has taken yet (its uploader's only). */
export function unattached(): SQL {
  return and(...attachmentColumns.map((c) => isNull(uploads[c]))) as SQL
}

/**
 * Attaches an upload to a record, in the record's transaction: only an unattached upload of this worker
 * (its own, DECISIONS S5), in one UPDATE, so two records racing for one file cannot both take it. A
 * reference to anything else answers 400 on `field`.
 */
export async function attachUpload(tx: Tx, actor: Actor, reference: string, to: Attachment, field: string): Promise<UploadRow> {
  const id = uploadIdOf(reference)
  const [row] = id
    ? await tx
        .update(uploads)
        .set(to)
        .where(and(eq(uploads.id, id), eq(uploads.trabajadorId, actor.id), unattached()))
        .returning()
    : []
  if (!row) throw new AppError('VALIDATION_FAILED', uploadMessages.noDisponible, { [field]: uploadMessages.noDisponible })
  return row
}

/** The upload attached to a record, if any. */
export async function uploadOf(db: DbOrTx, of: Attachment): Promise<UploadRow | undefined> {
  const [column, id] = Object.entries(of)[0] as [AttachmentColumn, number]
  const [row] = await db.select().from(uploads).where(eq(uploads[column], id))
  return row
}

/** Uploads attached to these records, by record id (a list page's paperclips, in one query). */
export async function uploadsOf(db: DbOrTx, kind: AttachmentColumn, ids: number[]): Promise<Map<number, UploadRow>> {
  if (!ids.length) return new Map()
  const rows = await db.select().from(uploads).where(inArray(uploads[kind], ids))
  return new Map(rows.map((r) => [r[kind] as number, r]))
}

/** Deletes upload rows in the caller's transaction; their files go with discardFiles after the commit. */
export async function deleteUploadRows(tx: Tx, ids: string[]): Promise<void> {
  if (ids.length) await tx.delete(uploads).where(inArray(uploads.id, ids))
}

/**
 * Removes the files of uploads whose rows are gone (after the commit that deleted them). A failure is
 * logged, not thrown: the daily sweep removes whatever was left.
 */
export async function discardFiles(deps: Pick<AppDeps, 'files' | 'log'>, ids: string[]): Promise<void> {
  for (const id of ids) {
    await rm(deps.files.pathOf(id), { force: true }).catch((err) => deps.log.warn({ err, upload: id }, 'could not remove file'))
  }
}

/**
 * The lock an upload's transaction holds from the moment its file has its final name until it commits or
 * ends: a file without a row whose lock is free will never get one (its transaction died with its process).
 * Two-key advisory locks: a key space of their own.
 */
const FILE_LOCK_SPACE = 727275
const fileLock = (id: string, mode: 'wait' | 'try') =>
  mode === 'wait'
    ? sql`select pg_advisory_xact_lock(${FILE_LOCK_SPACE}, hashtext(${id}))`
    : sql`select pg_try_advisory_xact_lock(${FILE_LOCK_SPACE}, hashtext(${id})) as free`

/** An upload left unattached this long was abandoned (a form never saved). */
export const UNATTACHED_TTL_MS = 24 * 60 * 60 * 1000
/** Temporary files this old are leftovers of an interrupted upload or restore. */
const LEFTOVER_TTL_MS = 60 * 60 * 1000
const UUID_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * The sweep of the uploads folder, at start-up and daily: uploads never attached within a day (rows and files),
 * files whose row is gone or never came (a record deleted, a process killed between an upload's rename and its
 * commit) and temporary files of interrupted uploads and restores (after an hour). Safe with several processes:
 * rows are deleted by one statement, and a file is removed only when no row names it and its upload's lock is
 * free (an upload in progress renames its file inside its transaction, holding that lock).
 */
export async function sweepUploads(
  deps: Pick<AppDeps, 'db' | 'files' | 'clock' | 'log'>,
): Promise<{ rows: number; files: number }> {
  const now = deps.clock.now().getTime()
  const abandoned = await deps.db
    .delete(uploads)
    .where(and(unattached(), lt(uploads.createdAt, new Date(now - UNATTACHED_TTL_MS))))
    .returning({ id: uploads.id })
  await discardFiles(
    deps,
    abandoned.map((r) => r.id),
  )

  let removed = 0
  const names = await readdir(deps.files.dir).catch(() => [] as string[])
  const candidates: string[] = []
  for (const name of names) {
    const file = `${deps.files.dir}/${name}`
    const info = await stat(file).catch(() => undefined)
    if (!info?.isFile()) continue
    if (name.startsWith('.subida-') || name.startsWith('.restaurando-')) {
      if (now - info.mtimeMs < LEFTOVER_TTL_MS) continue
      await rm(file, { force: true })
      removed++
    } else if (UUID_NAME.test(name)) {
      candidates.push(name)
    }
  }
  for (let i = 0; i < candidates.length; i += 1000) {
    const chunk = candidates.slice(i, i + 1000)
    const known = new Set(
      (await deps.db.select({ id: uploads.id }).from(uploads).where(inArray(uploads.id, chunk))).map((r) => r.id),
    )
    for (const name of chunk) {
      if (known.has(name)) continue
      // No row: a crash's leftover, unless an upload is committing it right now (its lock is held).
      const orphan = await deps.db.transaction(async (tx) => {
        const [lock] = ((await tx.execute(fileLock(name, 'try'))) as unknown as { rows: Array<{ free: boolean }> }).rows
        if (!lock?.free) return false
        return (await tx.select({ id: uploads.id }).from(uploads).where(eq(uploads.id, name))).length === 0
      })
      if (!orphan) continue
      await rm(`${deps.files.dir}/${name}`, { force: true })
      removed++
    }
  }
  return { rows: abandoned.length, files: removed }
}
