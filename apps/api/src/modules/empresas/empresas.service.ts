import {
  type Empresa,
  empresaCreateSchema,
  empresaListQuerySchema,
  empresaMessages,
  empresaSchema,
  empresaUpdateSchema,
} from '@vb/shared'
import { empresas } from '../../db/schema'
import { defineResource } from '../../lib/resource'

type Row = typeof empresas.$inferSelect

/** Row → SPEC §3 Company. */
export function toEmpresa(row: Row): Empresa {
  return { id: row.id, nombre: row.nombre, logoUrl: row.logoUrl }
}

/**
 * SPEC §2.4, §6: SUPERADMIN sees, creates and deletes every company; ADMIN sees and modifies its own;
 * EMPLEADO sees its own. A company is never deleted while rows depend on it (homes, contacts, calendar
 * tasks…); its workers' links go with it and are kept in the log entry.
 */
export const empresasResource = defineResource({
  name: 'empresas',
  table: empresas,
  schemas: { entity: empresaSchema, listQuery: empresaListQuerySchema, create: empresaCreateSchema, update: empresaUpdateSchema },
  toEntity: toEmpresa,
  notFound: empresaMessages.noEncontrada,
  search: empresas.busqueda,
  sort: { nombre: empresas.nombre },
  insert: (input) => ({ nombre: input.nombre, logoUrl: input.logoUrl }),
  log: { noun: 'empresa', title: 'Empresa', feminine: true, label: (e) => e.nombre },
  remove: { moveTo: 'otra empresa', parts: { trabajador_empresas: { as: 'trabajadores', keep: 'trabajador_id' } } },
})
