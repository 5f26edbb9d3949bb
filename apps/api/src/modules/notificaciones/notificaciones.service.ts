import { AppError, type Notificacion, notificacionTipos } from '@vb/shared'
import { and, count, desc, eq } from 'drizzle-orm'
import type { AppDeps } from '../../app'
import type { DbOrTx } from '../../db/client'
import { notificaciones } from '../../db/schema'
import type { Actor } from '../../lib/actor'
import { announce } from '../../lib/notification-hub'

type Row = typeof notificaciones.$inferSelect

export function toNotificacion(row: Row): Notificacion {
  const tipo = (notificacionTipos as readonly string[]).includes(row.tipo) ? (row.tipo as Notificacion['tipo']) : 'info'
  return {
    id: row.id,
    titulo: row.titulo,
    descripcion: row.descripcion,
    fechaNotificacion: row.fechaNotificacion.toISOString(),
    tipo,
    trabajadorId: row.trabajadorId,
  }
}

/**
 * Every notification is created here: inserted, and announced on the database channel so the worker's open
 * streams hear of it (DECISIONS D9). Inside a transaction the announcement leaves only on commit.
 */
export async function createNotificaciones(db: DbOrTx, values: Array<typeof notificaciones.$inferInsert>): Promise<Row[]> {
  if (!values.length) return []
  const rows = await db.insert(notificaciones).values(values).returning()
  for (const row of rows) await announce(db, row.trabajadorId, { notificacionId: row.id })
  return rows
}

/** A worker reads only its own notifications. */
export async function listNotificacionesDe(deps: AppDeps, actor: Actor, trabajadorId: number, limit: number) {
  if (actor.id !== trabajadorId) throw new AppError('FORBIDDEN')
  const where = eq(notificaciones.trabajadorId, trabajadorId)
  const [rows, [totalRow]] = await Promise.all([
    deps.db
      .select()
      .from(notificaciones)
      .where(where)
      .orderBy(desc(notificaciones.fechaNotificacion), desc(notificaciones.id))
      .limit(limit),
    deps.db.select({ n: count() }).from(notificaciones).where(where),
  ])
  return { items: rows.map(toNotificacion), total: Number(totalRow?.n ?? 0) }
}

/** Dismissing (SPEC §4) deletes the worker's own notification; another's answers 404. */
export async function dismissNotificacion(deps: AppDeps, actor: Actor, id: number): Promise<void> {
  const deleted = await deps.db
    .delete(notificaciones)
    .where(and(eq(notificaciones.id, id), eq(notificaciones.trabajadorId, actor.id)))
    .returning({ id: notificaciones.id })
  if (!deleted.length) throw new AppError('NOT_FOUND', 'No se ha encontrado la notificación.')
}
