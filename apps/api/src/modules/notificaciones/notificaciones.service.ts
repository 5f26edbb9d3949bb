import { AppError, type Notificacion, notificacionTipos } from '@vb/shared'
import { and, count, desc, eq, isNull } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { notificaciones } from '../../db/schema'
import type { AppDeps } from '../../deps'
import type { Actor } from '../../lib/actor'
import { announceNotificaciones } from '../../lib/notification-hub'

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

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters at 6 columns a row. */
const CHUNK = 1000

/**
 * Every notification is created here: inserted, and announced on the database channel so the worker's open
 * streams hear of it (DECISIONS D9). Inside a transaction the announcement leaves only on commit.
 *
 * Rows with a `dedupeKey` are created at most once per worker and key (DECISIONS D3): the unique index
 * (trabajador_id, dedupe_key) decides with INSERT … ON CONFLICT DO NOTHING, so any number of processes or
 * requests racing on the same rows create each once, and only the rows really inserted are returned and
 * announced. Rows are inserted in (worker, key) order, so two racing inserts of overlapping sets wait for
 * each other in one order and never deadlock.
 */
export async function createNotificaciones(db: DbOrTx, values: Array<typeof notificaciones.$inferInsert>): Promise<Row[]> {
  if (!values.length) return []
  const sorted = [...values].sort(
    (a, b) => a.trabajadorId - b.trabajadorId || (a.dedupeKey ?? '').localeCompare(b.dedupeKey ?? ''),
  )
  const created: Row[] = []
  for (let i = 0; i < sorted.length; i += CHUNK) {
    const rows = await db
      .insert(notificaciones)
      .values(sorted.slice(i, i + CHUNK))
      .onConflictDoNothing({ target: [notificaciones.trabajadorId, notificaciones.dedupeKey] })
      .returning()
    created.push(...rows)
  }
  await announceNotificaciones(
    db,
    created.map((row) => ({ trabajadorId: row.trabajadorId, notificacionId: row.id })),
  )
  return created
}

/** A worker reads only its own notifications. */
export async function listNotificacionesDe(deps: AppDeps, actor: Actor, trabajadorId: number, limit: number) {
  if (actor.id !== trabajadorId) throw new AppError('FORBIDDEN')
  const where = and(eq(notificaciones.trabajadorId, trabajadorId), isNull(notificaciones.descartadaEn))
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

/**
 * Dismissing (SPEC §4) hides the worker's own notification; another's, or one already dismissed, answers
 * 404. The row stays with its dedupe key, so a PIR warning once dismissed is not created again (D3).
 */
export async function dismissNotificacion(deps: AppDeps, actor: Actor, id: number): Promise<void> {
  const dismissed = await deps.db
    .update(notificaciones)
    .set({ descartadaEn: deps.clock.now() })
    .where(and(eq(notificaciones.id, id), eq(notificaciones.trabajadorId, actor.id), isNull(notificaciones.descartadaEn)))
    .returning({ id: notificaciones.id })
  if (!dismissed.length) throw new AppError('NOT_FOUND', 'No se ha encontrado la notificación.')
}
