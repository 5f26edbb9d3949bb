import type { Archivo, Rol, Trabajador } from '@vb/shared'
import { eq, getTableColumns, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { empresas, trabajadorEmpresas, trabajadores, uploads } from '../../db/schema'
import type { Actor } from '../../lib/actor'
import type { FileStore } from '../../lib/files'
import { archivoOf, type UploadRow } from '../uploads/uploads.service'

type TrabajadorRow = typeof trabajadores.$inferSelect
type EmpresaRef = { id: number; nombre: string }

/** The worker's columns the API may show: never the password hash, the token version or the search text. */
const { passwordHash: _hash, tokenVersion: _version, busqueda: _busqueda, ...publicColumns } = getTableColumns(trabajadores)
export type TrabajadorPublicRow = Pick<TrabajadorRow, keyof typeof publicColumns>

/** The worker's companies as one JSON array, in the row's own statement (no query per row). */
export const empresasJson: SQL<EmpresaRef[]> = sql<EmpresaRef[]>`coalesce((
  select json_agg(json_build_object('id', e.id, 'nombre', e.nombre) order by e.id)
    from ${trabajadorEmpresas} te join ${empresas} e on e.id = te.empresa_id
   where te.trabajador_id = ${trabajadores.id}), '[]'::json)`

/** The statement a worker is read with: its public columns, its companies and its uploaded photo. */
export const readTrabajadores = (db: DbOrTx) =>
  db
    .select({ trabajador: publicColumns, empresas: empresasJson, foto: uploads })
    .from(trabajadores)
    .leftJoin(uploads, eq(uploads.fotoTrabajadorId, trabajadores.id))

/**
 * What a presenter needs besides the row: the store that signs file links (the command line, which never
 * attaches a photo, has none).
 */
export interface PresenterDeps {
  files?: FileStore
}

/** The photo to show (SPEC §2.10): signed links of the uploaded file for this viewer, or the stored URL. */
function fotoDe(
  deps: PresenterDeps,
  viewer: Pick<Actor, 'id'>,
  fotoUrl: string | null,
  upload: UploadRow | null,
): Archivo | null {
  if (upload) return deps.files ? archivoOf(deps.files, viewer, upload) : null
  if (!fotoUrl || !/^https?:/i.test(fotoUrl)) return null
  return { origen: 'enlace', url: fotoUrl, descargaUrl: fotoUrl, nombre: null, mime: null, tamano: null, caduca: null }
}

/** Row → public shape (SPEC §3 Worker); never the hash or the token version. */
export function toTrabajador(
  deps: PresenterDeps,
  viewer: Pick<Actor, 'id'>,
  row: TrabajadorPublicRow,
  emp: EmpresaRef[],
  upload: UploadRow | null,
): Trabajador {
  return {
    id: row.id,
    nombre: row.nombre,
    apellidos: row.apellidos,
    email: row.email,
    nif: row.nif,
    rol: row.rol as Rol,
    activo: row.activo,
    passwordTemporal: row.passwordTemporal,
    fotoUrl: row.fotoUrl,
    foto: fotoDe(deps, viewer, row.fotoUrl, upload),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    empresas: emp,
  }
}

/** A worker as the API shows it to `viewer` (itself when logging in or reading /me). */
export async function presentTrabajador(
  deps: PresenterDeps,
  db: DbOrTx,
  row: Pick<TrabajadorRow, 'id'>,
  viewer: Pick<Actor, 'id'> = row,
): Promise<Trabajador> {
  const [read] = await readTrabajadores(db).where(eq(trabajadores.id, row.id))
  if (!read) throw new Error(`worker ${row.id} not found`)
  return toTrabajador(deps, viewer, read.trabajador, read.empresas, read.foto)
}
