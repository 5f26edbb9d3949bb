import {
  AppError,
  type Contacto,
  type ContactoCreate,
  type ContactoListQuery,
  type ContactoUpdate,
  contactoMessages,
  logTipoPorCambio,
  permissionMessages,
} from '@vb/shared'
import { and, count, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app'
import type { DbOrTx } from '../../db/client'
import { contactos, empresas } from '../../db/schema'
import { writeLog } from '../../lib/activity-log'
import { type Actor, reachesEmpresa, scopeEmpresaIds } from '../../lib/actor'
import { type ListResult, matches, ordered, pageWindow, sortKey } from '../../lib/paging'
import { findEmpresa } from '../empresas/empresas.service'

type Row = typeof contactos.$inferSelect

const NOT_FOUND = 'No se ha encontrado el contacto.'

/** Row → SPEC §3 Contact; the photo is always the company's logo (SPEC §2.7), never stored on the contact. */
export function toContacto(row: Row, logoUrl: string | null): Contacto {
  return {
    id: row.id,
    nombreComercial: row.nombreComercial,
    agente: row.agente,
    correo: row.correo,
    telefono: row.telefono,
    fotoUrl: logoUrl,
    empresaId: row.empresaId,
  }
}

function selectWithLogo(db: DbOrTx) {
  return db
    .select({ contacto: contactos, logoUrl: empresas.logoUrl })
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
export async function listContactos(deps: AppDeps, actor: Actor, query: ContactoListQuery): Promise<ListResult<Contacto>> {
  const conditions: SQL[] = []
  const scope = scopeEmpresaIds(actor)
  if (scope) conditions.push(inArray(contactos.empresaId, scope.length ? scope : [-1]))
  if (query.empresaId !== undefined) conditions.push(eq(contactos.empresaId, query.empresaId))
  // The same expression as contactos_search_trgm_idx.
  if (query.q) {
    conditions.push(
      matches(
        sql`${contactos.nombreComercial} || ' ' || ${contactos.agente} || ' ' || ${contactos.correo} || ' ' || ${contactos.telefono}`,
        query.q,
      ),
    )
  }
  const where = conditions.length ? and(...conditions) : undefined
  const { limit, offset } = pageWindow(query)
  const base = selectWithLogo(deps.db)
    .where(where)
    .orderBy(
      ordered(sortKey(sortColumns[query.sort ?? 'nombreComercial']), query.order),
      ordered(sortKey(contactos.nombreComercial), query.order),
      ordered(contactos.id, query.order),
    )
  const [rows, total] = await Promise.all([
    limit ? base.limit(limit).offset(offset ?? 0) : base,
    query.page ? deps.db.select({ n: count() }).from(contactos).where(where) : undefined,
  ])
  return {
    items: rows.map((r) => toContacto(r.contacto, r.logoUrl)),
    total: total ? Number(total[0]?.n ?? 0) : rows.length,
  }
}

/** A contact of one of the actor's companies, or 404 (DECISIONS A3). */
export async function getContacto(db: DbOrTx, actor: Actor, id: number): Promise<Contacto> {
  const [row] = await selectWithLogo(db).where(eq(contactos.id, id))
  if (!row || !reachesEmpresa(actor, row.contacto.empresaId)) throw new AppError('NOT_FOUND', NOT_FOUND)
  return toContacto(row.contacto, row.logoUrl)
}

/** The company a contact is created in or moved to: it must exist (400) and be one of the actor's (403). */
async function usableEmpresa(db: DbOrTx, actor: Actor, empresaId: number) {
  const empresa = await findEmpresa(db, empresaId)
  if (!empresa) throw new AppError('VALIDATION_FAILED', undefined, { empresaId: contactoMessages.empresaTipo })
  if (!reachesEmpresa(actor, empresa.id)) throw new AppError('FORBIDDEN', permissionMessages.generic)
  return empresa
}

export async function createContacto(deps: AppDeps, actor: Actor, input: ContactoCreate): Promise<Contacto> {
  return deps.db.transaction(async (tx) => {
    const empresa = await usableEmpresa(tx, actor, input.empresaId)
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
    const created = toContacto(row as Row, empresa.logoUrl)
    await writeLog(tx, actor, {
      accion: 'Crear contacto',
      url: '/contactos',
      tipo: logTipoPorCambio.create,
      descripcion: `Contacto creado: ${created.nombreComercial} (${empresa.nombre})`,
      viviendaId: null,
      datos: { despues: created },
    })
    return created
  })
}

export async function updateContacto(deps: AppDeps, actor: Actor, id: number, input: ContactoUpdate): Promise<Contacto> {
  return deps.db.transaction(async (tx) => {
    const before = await getContacto(tx, actor, id)
    const empresa =
      input.empresaId !== undefined && input.empresaId !== before.empresaId
        ? await usableEmpresa(tx, actor, input.empresaId)
        : null
    const [row] = await tx
      .update(contactos)
      .set({
        ...(input.nombreComercial !== undefined ? { nombreComercial: input.nombreComercial } : {}),
        ...(input.agente !== undefined ? { agente: input.agente } : {}),
        ...(input.correo !== undefined ? { correo: input.correo } : {}),
        ...(input.telefono !== undefined ? { telefono: input.telefono } : {}),
        ...(empresa ? { empresaId: empresa.id } : {}),
        updatedAt: deps.clock.now(),
      })
      .where(eq(contactos.id, id))
      .returning()
    if (!row) throw new AppError('NOT_FOUND', NOT_FOUND)
    const after = toContacto(row, empresa ? empresa.logoUrl : before.fotoUrl)
    await writeLog(tx, actor, {
      accion: 'Modificar contacto',
      url: '/contactos',
      tipo: logTipoPorCambio.update,
      descripcion: `Contacto modificado: ${after.nombreComercial}`,
      viviendaId: null,
      datos: { antes: before, despues: after },
    })
    return after
  })
}

export async function removeContacto(deps: AppDeps, actor: Actor, id: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const before = await getContacto(tx, actor, id)
    await tx.delete(contactos).where(eq(contactos.id, id))
    await writeLog(tx, actor, {
      accion: 'Eliminar contacto',
      url: '/contactos',
      tipo: logTipoPorCambio.delete,
      descripcion: `Contacto eliminado: ${before.nombreComercial}`,
      viviendaId: null,
      datos: { antes: before },
    })
  })
}
