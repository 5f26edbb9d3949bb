import {
  type Archivo,
  addDays,
  type Documento,
  type DocumentoCreate,
  type DocumentoListQuery,
  type DocumentoUpdate,
  documentoMessages,
  isPirTitle,
  type ListPage,
  madridStartOfDay,
  uploadIdOf,
  uploadReference,
} from '@vb/shared'
import { and, eq, gte, lt } from 'drizzle-orm'
import type { DbOrTx, Tx } from '../../db/client'
import { documentosUsuario, uploads } from '../../db/schema'
import type { AppDeps } from '../../deps'
import type { Actor } from '../../lib/actor'
import type { WriteContext } from '../../lib/crud-routes'
import type { FileStore } from '../../lib/files'
import { matches, ordered, sortKey } from '../../lib/paging'
import {
  checkVersion,
  listPage,
  lockRow,
  logChange,
  nextVersion,
  notFound,
  orUnchanged,
  pageWindow,
  sameRecord,
  Unchanged,
  where,
} from '../../lib/records'
import { scopeFor } from '../../lib/scope'
import { selectPage } from '../../lib/select-rows'
import { notifyPir } from '../pir/pir.service'
import { archivoOf, attachUpload, deleteUploadRows, discardFiles, type UploadRow, uploadOf } from '../uploads/uploads.service'
import { titularOf, type UsuarioTitular } from '../usuarios/usuarios.service'

type Row = typeof documentosUsuario.$inferSelect
const RESOURCE = 'documentos-usuario'

/** The Archivo of a document: its uploaded file's signed links, or its external URL, or none. */
function archivoDe(files: FileStore, actor: Actor, row: Row, upload: UploadRow | null | undefined): Archivo | null {
  if (upload) return archivoOf(files, actor, upload)
  if (!row.archivoUrl) return null
  return {
    origen: 'enlace',
    url: row.archivoUrl,
    descargaUrl: row.archivoUrl,
    nombre: null,
    mime: null,
    tamano: null,
    caduca: null,
  }
}

/** Row and its upload → SPEC §3 Resident document, with its links for this worker. */
export function toDocumento(files: FileStore, actor: Actor, row: Row, upload: UploadRow | null | undefined): Documento {
  return {
    id: row.id,
    titulo: row.titulo,
    archivoUrl: upload ? uploadReference(upload.id) : row.archivoUrl,
    fecha: row.fecha.toISOString(),
    usuarioId: row.usuarioId,
    updatedAt: row.updatedAt.toISOString(),
    archivo: archivoDe(files, actor, row, upload),
  }
}

/** What the log keeps of a document (L3): its values and its file's identity, never a signed link. */
function forLog(row: Row, upload: UploadRow | null | undefined) {
  return {
    id: row.id,
    titulo: row.titulo,
    archivoUrl: upload ? uploadReference(upload.id) : row.archivoUrl,
    archivo: upload ? { nombre: upload.nombreOriginal, mime: upload.mime, tamano: upload.tamano, sha256: upload.sha256 } : null,
    fecha: row.fecha.toISOString(),
    usuarioId: row.usuarioId,
  }
}

const nombreDe = (u: UsuarioTitular) => `${u.nombre} ${u.apellidos}`
const pantalla = (u: UsuarioTitular) => `/documentacion/${u.nif}`

/** Documents joined to their uploaded file (at most one each). */
function selectWithUpload(db: DbOrTx) {
  return db
    .select({ documento: documentosUsuario, upload: uploads })
    .from(documentosUsuario)
    .leftJoin(uploads, eq(uploads.documentoId, documentosUsuario.id))
}

/**
 * GET /documentos-usuario (SPEC §2.14, §7; DECISIONS A4): one resident's documents when `usuarioId` or `nif`
 * names one (another company's resident, or none: 404), searched by título, filtered by day, sorted by título
 * or fecha (default: newest first), paged; every document the worker reaches otherwise.
 */
export async function listDocumentos(deps: AppDeps, actor: Actor, query: DocumentoListQuery): Promise<ListPage<Documento>> {
  const scope = scopeFor(actor, RESOURCE, 'list')
  const titular =
    query.usuarioId !== undefined || query.nif !== undefined
      ? await titularOf(deps.db, actor, RESOURCE, 'list', { id: query.usuarioId, nif: query.nif })
      : undefined
  const condition = where(
    scope,
    titular ? eq(documentosUsuario.usuarioId, titular.id) : undefined,
    query.q ? matches(documentosUsuario.titulo, query.q) : undefined,
    query.fecha
      ? and(
          gte(documentosUsuario.fecha, madridStartOfDay(query.fecha)),
          lt(documentosUsuario.fecha, madridStartOfDay(addDays(query.fecha, 1))),
        )
      : undefined,
  )
  const order = query.order ?? (query.sort === 'titulo' ? 'asc' : 'desc')
  const keys =
    query.sort === 'titulo'
      ? [sortKey(documentosUsuario.titulo), documentosUsuario.id]
      : [documentosUsuario.fecha, documentosUsuario.id]
  const { limit, offset } = pageWindow(query)
  // Built once per sort and order; each call renders its condition into it (lib/select-rows.ts).
  const rows = selectPage(
    deps.db,
    `documentos:${query.sort === 'titulo' ? 'titulo' : 'fecha'}:${order}`,
    (c, l, o) =>
      selectWithUpload(deps.db)
        .where(c)
        .orderBy(...keys.map((k) => ordered(k, order)))
        .limit(l)
        .offset(o),
    condition,
    limit,
    offset,
  )
  return listPage(
    deps.db,
    rows.then((r) => r.map((x) => toDocumento(deps.files, actor, x.documento, x.upload))),
    { from: documentosUsuario, where: condition },
  )
}

export async function getDocumento(deps: AppDeps, actor: Actor, id: number): Promise<Documento> {
  const [row] = await selectWithUpload(deps.db).where(where(eq(documentosUsuario.id, id), scopeFor(actor, RESOURCE, 'list')))
  if (!row) throw notFound(documentoMessages.noEncontrado)
  return toDocumento(deps.files, actor, row.documento, row.upload)
}

/**
 * Locks in one order for every writer of a resident's records (resident, then record), so a document's
 * writer and the resident's deletion never deadlock: the document's resident is looked up under the scope,
 * its row locked, then the document's row.
 */
async function lockDocumento(tx: Tx, actor: Actor, id: number, action: 'update' | 'delete') {
  const scope = scopeFor(actor, RESOURCE, action)
  const [peek] = await tx
    .select({ usuarioId: documentosUsuario.usuarioId })
    .from(documentosUsuario)
    .where(where(eq(documentosUsuario.id, id), scope))
  if (!peek) throw notFound(documentoMessages.noEncontrado)
  const titular = await titularOf(tx, actor, RESOURCE, action, { id: peek.usuarioId }, { lock: 'no key update' })
  const row = await lockRow(tx, documentosUsuario, id, scope, documentoMessages.noEncontrado)
  return { titular, row, upload: await uploadOf(tx, { documentoId: id }) }
}

/** DECISIONS D3: a change that touches a PIR document re-checks the resident's PIR notifications, in the same transaction. */
async function pirChanged(deps: AppDeps, tx: Tx, titular: UsuarioTitular, ...titulos: string[]) {
  if (titulos.some(isPirTitle)) await notifyPir(tx, deps.clock, [titular.id])
}

/**
 * POST /documentos-usuario (SPEC §5, §7): the resident must be one the worker reaches (404 otherwise).
 * `archivoUrl` is an external URL or an uploaded file of this worker, which the document takes (DECISIONS
 * D8). Logged in the same transaction with the resident's home (L1).
 */
export async function createDocumento(deps: AppDeps, actor: Actor, input: DocumentoCreate): Promise<Documento> {
  scopeFor(actor, RESOURCE, 'create')
  return deps.db.transaction(async (tx) => {
    const titular = await titularOf(tx, actor, RESOURCE, 'create', { id: input.usuarioId }, { lock: 'no key update' })
    const uploadId = uploadIdOf(input.archivoUrl)
    const now = deps.clock.now()
    const [row] = await tx
      .insert(documentosUsuario)
      .values({
        titulo: input.titulo,
        archivoUrl: uploadId ? null : input.archivoUrl,
        fecha: new Date(input.fecha),
        usuarioId: titular.id,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
    const created = row as Row
    const upload = uploadId ? await attachUpload(tx, actor, input.archivoUrl, { documentoId: created.id }, 'archivoUrl') : null
    await pirChanged(deps, tx, titular, created.titulo)
    await logChange(tx, actor, {
      accion: 'Crear documento',
      url: pantalla(titular),
      cambio: 'create',
      descripcion: `Documento creado: ${created.titulo} (${nombreDe(titular)})`,
      vivienda: titular.vivienda,
      usuarioId: titular.id,
      despues: forLog(created, upload),
    })
    return toDocumento(deps.files, actor, created, upload)
  })
}

/**
 * PATCH /documentos-usuario/:id: only the fields sent change; a stale version (If-Match or `updatedAt`)
 * answers 409. A new Archivo replaces the file: the old upload goes with the commit.
 */
export async function updateDocumento(
  deps: AppDeps,
  actor: Actor,
  id: number,
  input: DocumentoUpdate,
  context: WriteContext,
): Promise<Documento> {
  const discarded: string[] = []
  const result = await orUnchanged(
    deps.db.transaction(async (tx) => {
      const { titular, row, upload } = await lockDocumento(tx, actor, id, 'update')
      checkVersion(row.updatedAt, [context.ifMatch, input.updatedAt], documentoMessages.cambiado)
      let archivoUrl: string | null | undefined
      let nextUpload: UploadRow | null | undefined = upload
      if (input.archivoUrl !== undefined) {
        const uploadId = uploadIdOf(input.archivoUrl)
        if (!(uploadId && upload?.id === uploadId)) {
          // The old file goes first: a document holds one file (uploads_documento_unique).
          if (upload) {
            await deleteUploadRows(tx, [upload.id])
            discarded.push(upload.id)
          }
          nextUpload = uploadId ? await attachUpload(tx, actor, input.archivoUrl, { documentoId: id }, 'archivoUrl') : null
          archivoUrl = uploadId ? null : input.archivoUrl
        }
      }
      const [updated] = await tx
        .update(documentosUsuario)
        .set({
          ...(input.titulo !== undefined ? { titulo: input.titulo } : {}),
          ...(input.fecha !== undefined ? { fecha: new Date(input.fecha) } : {}),
          ...(archivoUrl !== undefined ? { archivoUrl } : {}),
          updatedAt: nextVersion(deps.clock, row.updatedAt),
        })
        .where(eq(documentosUsuario.id, id))
        .returning()
      const after = updated as Row
      // Saved as it was (a form sent back untouched): nothing to log, and no new version for other editors.
      if (sameRecord(forLog(row, upload), forLog(after, nextUpload)))
        throw new Unchanged(toDocumento(deps.files, actor, row, upload))
      await pirChanged(deps, tx, titular, row.titulo, after.titulo)
      await logChange(tx, actor, {
        accion: 'Modificar documento',
        url: pantalla(titular),
        cambio: 'update',
        descripcion: `Documento modificado: ${after.titulo} (${nombreDe(titular)})`,
        vivienda: titular.vivienda,
        usuarioId: titular.id,
        antes: forLog(row, upload),
        despues: forLog(after, nextUpload),
      })
      return toDocumento(deps.files, actor, after, nextUpload)
    }),
    discarded,
  )
  await discardFiles(deps, discarded)
  return result
}

/** DELETE /documentos-usuario/:id: the document and its uploaded file (after the commit), logged with its values. */
export async function removeDocumento(deps: AppDeps, actor: Actor, id: number, context: WriteContext): Promise<void> {
  const discarded = await deps.db.transaction(async (tx) => {
    const { titular, row, upload } = await lockDocumento(tx, actor, id, 'delete')
    checkVersion(row.updatedAt, [context.ifMatch], documentoMessages.cambiado)
    // Its upload row cascades.
    await tx.delete(documentosUsuario).where(eq(documentosUsuario.id, id))
    await pirChanged(deps, tx, titular, row.titulo)
    await logChange(tx, actor, {
      accion: 'Eliminar documento',
      url: pantalla(titular),
      cambio: 'delete',
      descripcion: `Documento eliminado: ${row.titulo} (${nombreDe(titular)})`,
      vivienda: titular.vivienda,
      usuarioId: titular.id,
      antes: forLog(row, upload),
    })
    return upload ? [upload.id] : []
  })
  await discardFiles(deps, discarded)
}
