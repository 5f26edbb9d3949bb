import {
  AppError,
  type ListPage,
  type Notificacion,
  type NotificacionListQuery,
  type notificacionCreateSchema,
  notificacionMessages,
  notificacionTipos,
} from '@vb/shared'
import { and, asc, desc, eq, isNull, or, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Db, DbOrTx } from '../../db/client'
import { notificaciones, trabajadores } from '../../db/schema'
import type { AppDeps } from '../../deps'
import type { Actor } from '../../lib/actor'
import { announceNotificaciones } from '../../lib/notification-hub'
import { cappedCount, cappedTotal, freshBoundedTotal, logChange, pageWindow, where } from '../../lib/records'
import { trabajadorIn } from '../../lib/scope'

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
 * (dedupe_key, trabajador_id) decides with INSERT … ON CONFLICT DO NOTHING, so any number of processes or
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

/** A worker reads only its own notifications, a page of them, newest first. */
export async function listNotificacionesDe(
  deps: AppDeps,
  actor: Actor,
  trabajadorId: number,
  { limit, offset }: { limit: number; offset: number },
) {
  if (actor.id !== trabajadorId) throw new AppError('FORBIDDEN')
  const where = and(eq(notificaciones.trabajadorId, trabajadorId), isNull(notificaciones.descartadaEn))
  const [rows, { total }] = await Promise.all([
    deps.db
      .select()
      .from(notificaciones)
      .where(where)
      .orderBy(desc(notificaciones.fechaNotificacion), desc(notificaciones.id))
      .limit(limit)
      .offset(offset),
    // Bounded like every list's total (DECISIONS D13), but counted each time: the stream announces notifications
    // that no write request of this process made (the daily PIR run, another process), and the bell's count
    // must agree with its list at once.
    freshBoundedTotal(deps.db, notificaciones, where),
  ])
  return { items: rows.map(toNotificacion), total }
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

const mine = (actor: Actor) => and(eq(notificaciones.trabajadorId, actor.id), isNull(notificaciones.descartadaEn))

function buildListQueries(db: Db) {
  const condition = and(eq(notificaciones.trabajadorId, sql.placeholder('trabajadorId')), isNull(notificaciones.descartadaEn))
  const page = (order: 'asc' | 'desc') =>
    db
      .select()
      .from(notificaciones)
      .where(condition)
      .orderBy(
        ...(order === 'asc'
          ? [asc(notificaciones.fechaNotificacion), asc(notificaciones.id)]
          : [desc(notificaciones.fechaNotificacion), desc(notificaciones.id)]),
      )
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(`notificaciones_${order}`)
  return {
    asc: page('asc'),
    desc: page('desc'),
    total: cappedCount(db, notificaciones, condition).prepare('notificaciones_total'),
  }
}

/**
 * Every open screen polls this list: its statements are built once per database handle and sent as named
 * prepared statements, so neither Drizzle nor PostgreSQL builds or plans them again on each call (as the
 * token's lookup in plugins/auth.ts).
 */
const listQueries = new WeakMap<Db, ReturnType<typeof buildListQueries>>()

/**
 * GET /notificaciones (SPEC §7; DECISIONS A4, D13): the caller's own notifications not yet dismissed, newest
 * first, server-paged with a bounded total (notificaciones_trabajador_idx: worker, date). Every open screen
 * polls it, and it changes only when the worker's notifications do: each page is kept in this process until
 * then (lib/live-cache.ts; the trigger on notificaciones names the worker, and a dismissal answered here drops it
 * before its answer leaves).
 */
export async function listNotificaciones(
  deps: AppDeps,
  actor: Actor,
  query: NotificacionListQuery,
): Promise<ListPage<Notificacion>> {
  let queries = listQueries.get(deps.db)
  if (!queries) {
    queries = buildListQueries(deps.db)
    listQueries.set(deps.db, queries)
  }
  const { limit, offset } = pageWindow(query)
  const order = query.order === 'asc' ? 'asc' : 'desc'
  const pages = deps.changes.cache<ListPage<Notificacion>>('notificaciones', ['notificaciones'])
  return pages.get(actor.id, `${order}\u0000${limit}\u0000${offset}`, async () => {
    const [rows, [totalRow]] = await Promise.all([
      queries[order].execute({ trabajadorId: actor.id, limit, offset }),
      queries.total.execute({ trabajadorId: actor.id }),
    ])
    return { items: rows.map(toNotificacion), ...cappedTotal(Number(totalRow?.n ?? 0)) }
  })
}

/**
 * POST /notificaciones (SPEC §7): a notification for a worker who shares a company with the caller (or the
 * caller itself); any other worker answers 404 as if it did not exist. Created through createNotificaciones,
 * so the worker's open streams hear of it on commit, and logged in the same transaction (DECISIONS L1).
 */
export async function createNotificacion(
  deps: AppDeps,
  actor: Actor,
  input: z.output<typeof notificacionCreateSchema>,
): Promise<Notificacion> {
  return deps.db.transaction(async (tx) => {
    // SUPERADMIN shares every company (no condition); others, the workers of their companies, or themselves.
    const shares = trabajadorIn(actor, trabajadores.id)
    const [worker] = await tx
      .select({ id: trabajadores.id, nombre: trabajadores.nombre, apellidos: trabajadores.apellidos })
      .from(trabajadores)
      .where(where(eq(trabajadores.id, input.trabajadorId), shares ? or(eq(trabajadores.id, actor.id), shares) : undefined))
    if (!worker) throw new AppError('NOT_FOUND', notificacionMessages.trabajadorNoEncontrado)
    const [created] = await createNotificaciones(tx, [
      {
        titulo: input.titulo,
        descripcion: input.descripcion,
        tipo: input.tipo,
        trabajadorId: worker.id,
        fechaNotificacion: input.fechaNotificacion ? new Date(input.fechaNotificacion) : deps.clock.now(),
      },
    ])
    const notificacion = toNotificacion(created as Row)
    await logChange(tx, actor, {
      accion: 'Crear notificación',
      url: '/notificaciones',
      cambio: 'create',
      descripcion: `Notificación para ${worker.nombre} ${worker.apellidos}: ${input.titulo}`,
      despues: notificacion,
    })
    return notificacion
  })
}

/** 'Marcar todas como leídas': dismisses every notification of the caller's; answers how many. */
export async function dismissAll(deps: AppDeps, actor: Actor): Promise<number> {
  const dismissed = await deps.db
    .update(notificaciones)
    .set({ descartadaEn: deps.clock.now() })
    .where(mine(actor))
    .returning({ id: notificaciones.id })
  return dismissed.length
}
