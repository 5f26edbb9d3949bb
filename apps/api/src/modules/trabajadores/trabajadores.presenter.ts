import type { Rol, Trabajador } from '@vb/shared'
import { asc, eq, inArray } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { empresas, trabajadorEmpresas, type trabajadores } from '../../db/schema'

type TrabajadorRow = typeof trabajadores.$inferSelect

/** Row → public shape (SPEC §3 Worker); never the hash or the token version. */
export function toTrabajador(row: TrabajadorRow, emp: Array<{ id: number; nombre: string }>): Trabajador {
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
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    empresas: emp,
  }
}

/** Companies of several workers in one query. */
export async function empresasOfTrabajadores(
  db: DbOrTx,
  ids: number[],
): Promise<Map<number, Array<{ id: number; nombre: string }>>> {
  const out = new Map<number, Array<{ id: number; nombre: string }>>()
  if (!ids.length) return out
  const rows = await db
    .select({ trabajadorId: trabajadorEmpresas.trabajadorId, id: empresas.id, nombre: empresas.nombre })
    .from(trabajadorEmpresas)
    .innerJoin(empresas, eq(empresas.id, trabajadorEmpresas.empresaId))
    .where(inArray(trabajadorEmpresas.trabajadorId, ids))
    .orderBy(asc(empresas.id))
  for (const r of rows) {
    const list = out.get(r.trabajadorId) ?? []
    list.push({ id: r.id, nombre: r.nombre })
    out.set(r.trabajadorId, list)
  }
  return out
}

export async function presentTrabajador(db: DbOrTx, row: TrabajadorRow): Promise<Trabajador> {
  const map = await empresasOfTrabajadores(db, [row.id])
  return toTrabajador(row, map.get(row.id) ?? [])
}
