import {
  type Contacto,
  contactoCreateSchema,
  contactoListQuerySchema,
  contactoMessages,
  contactoSchema,
  contactoUpdateSchema,
} from '@vb/shared'
import { eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { contactos, empresas } from '../../db/schema'
import { defineResource } from '../../lib/resource'

type Row = typeof contactos.$inferSelect

/** Row → SPEC §3 Contact; the photo is always the company's logo (SPEC §2.7), never stored on the contact. */
export function toContacto(row: Row, empresa: { nombre: string; logoUrl: string | null }): Contacto {
  return {
    id: row.id,
    nombreComercial: row.nombreComercial,
    agente: row.agente,
    correo: row.correo,
    telefono: row.telefono,
    fotoUrl: empresa.logoUrl,
    empresaId: row.empresaId,
    empresa: { id: row.empresaId, nombre: empresa.nombre },
  }
}

/** SPEC §2.7: contacts of the actor's companies (DECISIONS P1), narrowed to the company chosen in the top bar. */
export const contactosResource = defineResource({
  name: 'contactos',
  table: contactos,
  schemas: {
    entity: contactoSchema,
    listQuery: contactoListQuerySchema,
    create: contactoCreateSchema,
    update: contactoUpdateSchema,
  },
  read: (db: DbOrTx) =>
    db
      .select({ contacto: contactos, empresa: { nombre: empresas.nombre, logoUrl: empresas.logoUrl } })
      .from(contactos)
      .innerJoin(empresas, eq(empresas.id, contactos.empresaId)),
  toEntity: (r) => toContacto(r.contacto, r.empresa),
  notFound: 'No se ha encontrado el contacto.',
  search: contactos.busqueda,
  sort: {
    nombreComercial: contactos.nombreComercial,
    agente: contactos.agente,
    correo: contactos.correo,
    telefono: contactos.telefono,
  },
  filters: { empresaId: (id) => eq(contactos.empresaId, id) },
  // Only the schema's fields: a `fotoUrl` in the body was already stripped and is never stored.
  insert: (c) => ({
    nombreComercial: c.nombreComercial,
    agente: c.agente,
    correo: c.correo,
    telefono: c.telefono,
    empresaId: c.empresaId,
  }),
  references: { empresaId: { resource: 'empresas', invalid: contactoMessages.empresaTipo } },
  log: {
    noun: 'contacto',
    title: 'Contacto',
    label: (c) => c.nombreComercial,
    context: (c) => c.empresa.nombre,
    moved: (a, b) => (a.empresaId === b.empresaId ? '' : ` (trasladado de ${a.empresa.nombre} a ${b.empresa.nombre})`),
  },
})
