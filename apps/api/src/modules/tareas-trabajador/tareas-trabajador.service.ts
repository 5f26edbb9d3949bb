import {
  AppError,
  formatDate,
  type TareaTrabajador,
  type TrabajadorAsignable,
  tareaMessages,
  tareaTrabajadorCreateSchema,
  tareaTrabajadorListQuerySchema,
  tareaTrabajadorSchema,
  tareaTrabajadorUpdateSchema,
} from '@vb/shared'
import { asc, desc, eq, sql } from 'drizzle-orm'
import type { DbOrTx, Tx } from '../../db/client'
import { tareasTrabajador, trabajadores, viviendas } from '../../db/schema'
import type { AppDeps } from '../../deps'
import type { Actor } from '../../lib/actor'
import { where } from '../../lib/records'
import { defineResource } from '../../lib/resource'
import { asignableIn, authorize, enEmpresa } from '../../lib/scope'
import { createNotificaciones } from '../notificaciones/notificaciones.service'

type Row = typeof tareasTrabajador.$inferSelect

/** Row and its home's name → SPEC §3 Worker task ('Desconocida' is the screen's, for a task without home). */
export function toTarea(row: Row, vivienda: { nombre: string } | null): TareaTrabajador {
  return {
    id: row.id,
    titulo: row.titulo,
    descripcion: row.descripcion,
    fecha: row.fecha.toISOString(),
    prioridad: row.prioridad as TareaTrabajador['prioridad'],
    completada: row.completada,
    viviendaId: row.viviendaId,
    trabajadorId: row.trabajadorId,
    vivienda,
  }
}

/**
 * SPEC §2.12, §6: the workers the caller may choose in the selector: SUPERADMIN every worker; ADMIN itself and
 * the non-SUPERADMIN workers sharing one of its companies; EMPLEADO itself. The inactive ones come last: the tasks
 * they left are seen and deleted there, but none is given to them (checkAsignado).
 */
export async function listAsignables(deps: AppDeps, actor: Actor): Promise<TrabajadorAsignable[]> {
  authorize(actor, 'tareas-trabajador', 'list')
  const rows = await deps.db
    .select({
      id: trabajadores.id,
      nombre: trabajadores.nombre,
      apellidos: trabajadores.apellidos,
      rol: trabajadores.rol,
      activo: trabajadores.activo,
    })
    .from(trabajadores)
    .where(asignableIn(actor, trabajadores.id))
    .orderBy(
      desc(trabajadores.activo),
      sql`f_unaccent(lower(${trabajadores.nombre}))`,
      sql`f_unaccent(lower(${trabajadores.apellidos}))`,
      asc(trabajadores.id),
    )
    .limit(1000)
  return rows as TrabajadorAsignable[]
}

/**
 * The worker a new task is for (DECISIONS D5; SPEC §6): one the caller may choose, and active. Its companies
 * must hold the task's home, or the worker could never see its own task (a SUPERADMIN sees every home).
 */
async function checkAsignado(tx: Tx, actor: Actor, trabajadorId: number, viviendaId: number) {
  const [worker] = await tx
    .select({
      id: trabajadores.id,
      rol: trabajadores.rol,
      activo: trabajadores.activo,
      alcanza: sql<boolean>`exists (select 1 from trabajador_empresas te join viviendas v on v.empresa_id = te.empresa_id where te.trabajador_id = ${trabajadorId} and v.id = ${viviendaId})`,
    })
    .from(trabajadores)
    .where(where(eq(trabajadores.id, trabajadorId), asignableIn(actor, trabajadores.id)))
  if (!worker) {
    throw new AppError('VALIDATION_FAILED', tareaMessages.trabajadorAjeno, { trabajadorId: tareaMessages.trabajadorAjeno })
  }
  if (!worker.activo) {
    throw new AppError('VALIDATION_FAILED', tareaMessages.trabajadorInactivo, { trabajadorId: tareaMessages.trabajadorInactivo })
  }
  if (worker.rol !== 'SUPERADMIN' && !worker.alcanza) {
    throw new AppError('VALIDATION_FAILED', tareaMessages.viviendaAjena, { viviendaId: tareaMessages.viviendaAjena })
  }
}

/** SPEC §2.12 priority order for sorting: ALTA, MEDIA, BAJA. */
const prioridadOrden = sql`case ${tareasTrabajador.prioridad} when 'ALTA' then 0 when 'MEDIA' then 1 else 2 end`

/**
 * SPEC §2.12, §4, §6; DECISIONS D5, P1: worker tasks, listed by the server for one worker (never every task
 * filtered in the browser), created for the selected worker (EMPLEADO: itself) in a home of the caller's
 * companies, completed once (no way back), deleted in either state. A task someone assigns to another
 * worker gives that worker a TAREA notification, pushed to its open streams when the task commits.
 */
export const tareasTrabajadorResource = defineResource({
  name: 'tareas-trabajador',
  table: tareasTrabajador,
  schemas: {
    entity: tareaTrabajadorSchema,
    listQuery: tareaTrabajadorListQuerySchema,
    create: tareaTrabajadorCreateSchema,
    update: tareaTrabajadorUpdateSchema,
  },
  read: (db: DbOrTx) =>
    db
      .select({ tarea: tareasTrabajador, vivienda: { nombre: viviendas.nombre } })
      .from(tareasTrabajador)
      .leftJoin(viviendas, eq(viviendas.id, tareasTrabajador.viviendaId)),
  toEntity: (r) => toTarea(r.tarea, r.vivienda),
  notFound: tareaMessages.noEncontrada,
  // Date order: the overdue come first among the pending.
  sort: { fecha: tareasTrabajador.fecha, prioridad: [prioridadOrden, tareasTrabajador.fecha], titulo: tareasTrabajador.titulo },
  filters: {
    trabajadorId: (id) => eq(tareasTrabajador.trabajadorId, id),
    completada: (done) => eq(tareasTrabajador.completada, done),
    viviendaId: (id) => eq(tareasTrabajador.viviendaId, id),
    empresaId: (id) => enEmpresa(tareasTrabajador.viviendaId, id),
  },
  insert: (t, { actor }) => ({
    titulo: t.titulo,
    descripcion: t.descripcion,
    fecha: new Date(t.fecha),
    prioridad: t.prioridad,
    completada: false,
    viviendaId: t.viviendaId,
    trabajadorId: t.trabajadorId ?? actor.id,
    creadorId: actor.id,
  }),
  // SPEC §4: the only change is pending → completed.
  patch: () => ({ completada: true }),
  references: {
    viviendaId: {
      resource: 'viviendas',
      invalid: tareaMessages.viviendaTipo,
    },
  },
  check: {
    create: (t, { tx, actor }) => checkAsignado(tx, actor, t.trabajadorId ?? actor.id, t.viviendaId),
  },
  after: {
    // DECISIONS D5: someone else's task for this worker: a TAREA notification, announced on commit.
    create: async (t, { tx, actor }) => {
      const trabajadorId = t.trabajadorId ?? actor.id
      if (trabajadorId === actor.id) return
      await createNotificaciones(tx, [
        {
          titulo: tareaMessages.notificacionTitulo,
          descripcion: `${actor.nombre} ${actor.apellidos} te ha asignado la tarea «${t.titulo}» para el ${formatDate(t.fecha)}.`,
          tipo: 'TAREA',
          trabajadorId,
        },
      ])
    },
  },
  log: {
    noun: 'tarea de trabajador',
    title: 'Tarea',
    feminine: true,
    label: (t) => t.titulo,
    context: (t) => t.vivienda?.nombre,
    vivienda: (t) => (t.viviendaId !== null && t.vivienda ? { id: t.viviendaId, nombre: t.vivienda.nombre } : null),
    describe: { update: (_before, after) => `Tarea completada: ${after.titulo}` },
  },
})
