import {
  type Contacto,
  type ContactoCreate,
  type ContactoListQuery,
  type ContactoUpdate,
  contactoMessages,
  type ListPage,
} from '@vb/shared'
import { eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { contactos, empresas } from '../../db/schema'
import type { AppDeps } from '../../deps'
import type { Actor } from '../../lib/actor'
import { matches, ordered, sortKey } from '../../lib/paging'
import { listPage, lockRow, logChange, notFound, pageWindow, sent, where } from '../../lib/records'
import { scopeFor } from '../../lib/scope'
import { usableEmpresa } from '../empresas/empresas.service'

type Row = typeof contactos.$inferSelect

const NOT_FOUND = 'No se ha encontrado el contacto.'
const empresaField = { empresaId: contactoMessages.empresaTipo }

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

function selectWithLogo(db: DbOrTx) {
  return db
    .select({ contacto: contactos, empresa: { nombre: empresas.nombre, logoUrl: empresas.logoUrl } })
    .from(contactos)
    .innerJoin(empresas, eq(empresas.id, contactos.empresaId))
}

const sortColumns = {
  nombreComercial: contactos.nombreComercial,
  agente: contactos.agente,
  correo: contactos.correo,
  telefono: contactos.telefono,
} as const

/** Contacts of the actor's companies (DECISIONS P1), filtered to one company (SPEC §2.7), searched, sorted, paged. */
export async function listContactos(deps: AppDeps, actor: Actor, query: ContactoListQuery): Promise<ListPage<Contacto>> {
  const condition = where(
    scopeFor(actor, 'contactos', 'list'),
    query.empresaId !== undefined ? eq(contactos.empresaId, query.empresaId) : undefined,
    // The same expression as contactos_search_trgm_idx.
    query.q
      ? matches(
          sql`${contactos.nombreComercial} || ' ' || ${contactos.agente} || ' ' || ${contactos.correo} || ' ' || ${contactos.telefono}`,
          query.q,
        )
      : undefined,
  )
  const { limit, offset } = pageWindow(query)
  const rows = selectWithLogo(deps.db)
    .where(condition)
    .orderBy(
      ordered(sortKey(sortColumns[query.sort ?? 'nombreComercial']), query.order),
      ordered(sortKey(contactos.nombreComercial), query.order),
      ordered(contactos.id, query.order),
    )
    .limit(limit)
    .offset(offset)
  return listPage(
    deps.db,
    rows.then((r) => r.map((x) => toContacto(x.contacto, x.empresa))),
    { from: contactos, where: condition, cache: Boolean(query.q) },
  )
}

/** A contact of one of the actor's companies, or 404 (DECISIONS A3). */
export async function getContacto(deps: AppDeps, actor: Actor, id: number): Promise<Contacto> {
  const [row] = await selectWithLogo(deps.db).where(where(eq(contactos.id, id), scopeFor(actor, 'contactos', 'list')))
  if (!row) throw notFound(NOT_FOUND)
  return toContacto(row.contacto, row.empresa)
}

const empresaOf = async (db: DbOrTx, empresaId: number) =>
  (
    await db.select({ nombre: empresas.nombre, logoUrl: empresas.logoUrl }).from(empresas).where(eq(empresas.id, empresaId))
  )[0] ?? {
    nombre: '',
    logoUrl: null,
  }

export async function createContacto(deps: AppDeps, actor: Actor, input: ContactoCreate): Promise<Contacto> {
  scopeFor(actor, 'contactos', 'create')
  return deps.db.transaction(async (tx) => {
    const empresa = await usableEmpresa(tx, actor, input.empresaId, empresaField)
    // Only the schema's fields: a `fotoUrl` in the body was already stripped and is never stored.
    const [row] = await tx
      .insert(contactos)
      .values({
        nombreComercial: input.nombreComercial,
        agente: input.agente,
        correo: input.correo,
        telefono: input.telefono,
        empresaId: empresa.id,
      })
      .returning()
    const created = toContacto(row as Row, empresa)
    await logChange(tx, actor, {
      accion: 'Crear contacto',
      url: '/contactos',
      cambio: 'create',
      descripcion: `Contacto creado: ${created.nombreComercial} (${empresa.nombre})`,
      despues: created,
    })
    return created
  })
}

export async function updateContacto(deps: AppDeps, actor: Actor, id: number, input: ContactoUpdate): Promise<Contacto> {
  const scope = scopeFor(actor, 'contactos', 'update')
  return deps.db.transaction(async (tx) => {
    const row = await lockRow(tx, contactos, id, scope, NOT_FOUND)
    const moving = input.empresaId !== undefined && input.empresaId !== row.empresaId
    const empresa = moving ? await usableEmpresa(tx, actor, input.empresaId as number, empresaField) : null
    const [updated] = await tx
      .update(contactos)
      .set({
        ...sent({ nombreComercial: input.nombreComercial, agente: input.agente, correo: input.correo, telefono: input.telefono }),
        ...(empresa ? { empresaId: empresa.id } : {}),
        updatedAt: deps.clock.now(),
      })
      .where(eq(contactos.id, id))
      .returning()
    const before = toContacto(row, await empresaOf(tx, row.empresaId))
    const after = toContacto(updated as Row, empresa ?? (await empresaOf(tx, row.empresaId)))
    await logChange(tx, actor, {
      accion: 'Modificar contacto',
      url: '/contactos',
      cambio: 'update',
      descripcion: `Contacto modificado: ${after.nombreComercial}`,
      antes: before,
      despues: after,
    })
    return after
  })
}

export async function removeContacto(deps: AppDeps, actor: Actor, id: number): Promise<void> {
  const scope = scopeFor(actor, 'contactos', 'delete')
  await deps.db.transaction(async (tx) => {
    const row = await lockRow(tx, contactos, id, scope, NOT_FOUND)
    await tx.delete(contactos).where(eq(contactos.id, id))
    const before = toContacto(row, await empresaOf(tx, row.empresaId))
    await logChange(tx, actor, {
      accion: 'Eliminar contacto',
      url: '/contactos',
      cambio: 'delete',
      descripcion: `Contacto eliminado: ${before.nombreComercial}`,
      antes: before,
    })
  })
}
