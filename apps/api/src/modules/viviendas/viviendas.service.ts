import { viviendaCreateSchema, viviendaListQuerySchema, viviendaMessages, viviendaSchema, viviendaUpdateSchema } from '@vb/shared'
import { eq, inArray } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { empresas, viviendas } from '../../db/schema'
import { defineResource, withEmpresa } from '../../lib/resource'

export type ViviendaRow = typeof viviendas.$inferSelect

/** A home by id whatever the actor's scope, or undefined (residents tell 400 from SPEC's 403 with it). */
export async function findVivienda(db: DbOrTx, id: number): Promise<ViviendaRow | undefined> {
  const [row] = await db.select().from(viviendas).where(eq(viviendas.id, id))
  return row
}

/**
 * SPEC §2.5, §6: homes the actor sees, narrowed to the company chosen in the top bar (`empresaId`) or a list
 * of companies (`empresaIds`), searched by Dirección, sorted by Dirección or Empresa. DECISIONS P2: deleting
 * one is SUPERADMIN only, and never while residents, budgets or tasks depend on it.
 */
export const viviendasResource = defineResource({
  name: 'viviendas',
  table: viviendas,
  schemas: {
    entity: viviendaSchema,
    listQuery: viviendaListQuerySchema,
    create: viviendaCreateSchema,
    update: viviendaUpdateSchema,
  },
  read: withEmpresa(viviendas),
  notFound: 'No se ha encontrado la vivienda.',
  search: viviendas.busqueda,
  sort: { nombre: viviendas.ordenNombre, empresa: [empresas.nombre, viviendas.ordenNombre] },
  filters: {
    empresaId: (id) => eq(viviendas.empresaId, id),
    empresaIds: (ids) => inArray(viviendas.empresaId, ids),
  },
  insert: (v) => ({ nombre: v.nombre, empresaId: v.empresaId }),
  references: { empresaId: { resource: 'empresas', invalid: viviendaMessages.empresaTipo } },
  log: {
    noun: 'vivienda',
    title: 'Vivienda',
    feminine: true,
    label: (v) => v.nombre,
    context: (v) => v.empresa.nombre,
    moved: (a, b) => (a.empresaId === b.empresaId ? '' : ` (trasladada de ${a.empresa.nombre} a ${b.empresa.nombre})`),
    // The entry keeps the home's id and name (DECISIONS L2): the log has no foreign key to rewrite.
    vivienda: (v) => v,
  },
  remove: {
    moveTo: 'otra vivienda',
    blocked: (dependents) => (dependents.some((d) => d.tabla === 'usuarios') ? viviendaMessages.conUsuarios : undefined),
  },
})
