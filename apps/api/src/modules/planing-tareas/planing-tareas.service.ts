import {
  AppError,
  addDays,
  CALENDAR_TASKS_PER_DAY,
  type CalendarioDia,
  type CalendarioQuery,
  formatDateTime,
  madridStartOfDay,
  type PlaningTarea,
  planingMessages,
  planingTareaCreateSchema,
  planingTareaListQuerySchema,
  planingTareaSchema,
  planingTareaUpdateSchema,
  TODOS,
} from '@vb/shared'
import { and, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx, Tx } from '../../db/client'
import { planingTareas, planingTareaUsuarios, usuarios } from '../../db/schema'
import type { AppDeps } from '../../deps'
import { type Actor, reachesEmpresa } from '../../lib/actor'
import { where } from '../../lib/records'
import { defineResource } from '../../lib/resource'
import { scopeFor } from '../../lib/scope'
import { isoInstant, preparedRows } from '../../lib/select-rows'
import { createNotificaciones } from '../notificaciones/notificaciones.service'

type Row = typeof planingTareas.$inferSelect
type Persona = { id: number; nombre: string; apellidos: string }
type Casa = { id: number; nombre: string }

// A select of one table leaves its columns unqualified inside `sql`: name the outer row explicitly, so the
// subqueries below read the task's id and not a column of their own tables.
const TAREA_ID = sql.raw('"planing_tareas"."id"')

/** The task's residents, in id order (one index probe on the link table's primary key). */
const usuariosDe = sql<Persona[]>`coalesce((
  select json_agg(json_build_object('id', u.id, 'nombre', u.nombre, 'apellidos', u.apellidos) order by u.id)
    from planing_tarea_usuarios ptu join usuarios u on u.id = ptu.usuario_id
   where ptu.tarea_id = ${TAREA_ID}), '[]'::json)`

/** The homes of those residents, in the order of their first resident. */
const viviendasDe = sql<Casa[]>`coalesce((
  select json_agg(json_build_object('id', x.id, 'nombre', x.nombre) order by x.primero)
    from (select v.id, v.nombre, min(u.id) as primero
            from planing_tarea_usuarios ptu join usuarios u on u.id = ptu.usuario_id join viviendas v on v.id = u.vivienda_id
           where ptu.tarea_id = ${TAREA_ID} group by v.id, v.nombre) x), '[]'::json)`

/** Row with its residents and homes → SPEC §3 Calendar task. */
export function toPlaningTarea(row: Row, personas: Persona[], casas: Casa[]): PlaningTarea {
  return {
    id: row.id,
    fecha: row.fecha.toISOString(),
    titulo: row.titulo,
    descripcion: row.descripcion,
    notificable: row.notificable,
    empresaId: row.empresaId,
    todos: row.todos,
    usuarios: personas,
    viviendas: casas,
    updatedAt: row.updatedAt.toISOString(),
  }
}

const read = (db: DbOrTx) => db.select({ tarea: planingTareas, usuarios: usuariosDe, viviendas: viviendasDe }).from(planingTareas)

/**
 * A task for everyone lists no one in a list or the calendar: its list is every resident of the company
 * (thousands at a large operator). `empty` stands for it ('[]' as the list reads expect, null in the calendar).
 */
const salvoTodos = <T>(list: SQL<T>, empty: SQL = sql`'[]'::json`) =>
  sql<T>`case when ${sql.raw('"planing_tareas"."todos"')} then ${empty} else ${list} end`

/** A list page (a day's tasks): a task for everyone without its residents and homes, as in the calendar. */
const readList = (db: DbOrTx) =>
  db.select({ tarea: planingTareas, usuarios: salvoTodos(usuariosDe), viviendas: salvoTodos(viviendasDe) }).from(planingTareas)

const usuarioError = (message: string) => new AppError('VALIDATION_FAILED', message, { usuarioIds: message })

/**
 * The task's residents (DECISIONS D4): 'all' is every resident of its company, expanded as SPEC §7 says (the
 * task remembers it was for everyone); otherwise each id must be a resident of a home of that company.
 */
async function setUsuarios(tx: Tx, tareaId: number, empresaId: number, ids: number[] | typeof TODOS) {
  const deLaEmpresa = sql`${usuarios.viviendaId} in (select v.id from viviendas v where v.empresa_id = ${empresaId})`
  const found = await tx
    .select({ id: usuarios.id })
    .from(usuarios)
    .where(ids === TODOS ? deLaEmpresa : and(inArray(usuarios.id, ids), deLaEmpresa))
  if (ids === TODOS && found.length === 0) throw usuarioError(planingMessages.sinUsuarios)
  if (ids !== TODOS && found.length !== ids.length) throw usuarioError(planingMessages.usuarioInvalido)
  await tx.delete(planingTareaUsuarios).where(eq(planingTareaUsuarios.tareaId, tareaId))
  await tx.insert(planingTareaUsuarios).values(found.map((u) => ({ tareaId, usuarioId: u.id })))
}

/** DECISIONS D4: a notifiable task gives its creator a TAREA notification (announced on commit). */
async function notifyCreador(tx: Tx, trabajadorId: number | null, tarea: { titulo: string; fecha: string | Date }) {
  if (trabajadorId === null) return
  await createNotificaciones(tx, [
    {
      titulo: planingMessages.notificacionTitulo,
      descripcion: `«${tarea.titulo}», el ${formatDateTime(tarea.fecha)}.`,
      tipo: 'TAREA',
      trabajadorId,
    },
  ])
}

/** [start of `desde`, start of the day after `hasta`) in Madrid. */
const range = (desde: string, hasta: string) => ({ from: madridStartOfDay(desde), to: madridStartOfDay(addDays(hasta, 1)) })

/**
 * SPEC §2.9, §7; DECISIONS D1, D4, P1: the monthly calendar's tasks, for the residents of a company the worker
 * belongs to. Lists are always a range of days (or a day), never the whole table; `usuarioIds` may be 'all'.
 */
export const planingTareasResource = defineResource({
  name: 'planing-tareas',
  table: planingTareas,
  schemas: {
    entity: planingTareaSchema,
    listQuery: planingTareaListQuerySchema,
    create: planingTareaCreateSchema,
    update: planingTareaUpdateSchema,
  },
  read,
  readList,
  toEntity: (r) => toPlaningTarea(r.tarea, r.usuarios, r.viviendas),
  notFound: planingMessages.noEncontrada,
  versioned: planingMessages.cambiada,
  sort: { fecha: planingTareas.fecha, titulo: planingTareas.titulo },
  filters: {
    empresaId: (id) => eq(planingTareas.empresaId, id),
    usuarioId: (id) =>
      sql`${planingTareas.id} in (select ptu.tarea_id from planing_tarea_usuarios ptu where ptu.usuario_id = ${id})`,
    fecha: (day) => {
      const r = range(day, day)
      return and(gte(planingTareas.fecha, r.from), lt(planingTareas.fecha, r.to))
    },
    desde: (day) => gte(planingTareas.fecha, madridStartOfDay(day)),
    hasta: (day) => lt(planingTareas.fecha, madridStartOfDay(addDays(day, 1))),
  },
  insert: (p, { actor }) => ({
    titulo: p.titulo,
    descripcion: p.descripcion,
    fecha: new Date(p.fecha),
    notificable: p.notificable,
    empresaId: p.empresaId,
    todos: p.usuarioIds === TODOS,
    creadorId: actor.id,
  }),
  patch: (p) => ({
    titulo: p.titulo,
    descripcion: p.descripcion,
    fecha: p.fecha === undefined ? undefined : new Date(p.fecha),
    notificable: p.notificable,
    todos: p.usuarioIds === undefined ? undefined : p.usuarioIds === TODOS,
  }),
  references: {
    empresaId: {
      resource: 'empresas',
      invalid: planingMessages.empresaTipo,
    },
  },
  after: {
    create: async (p, { tx, actor, id }) => {
      await setUsuarios(tx, id, p.empresaId, p.usuarioIds)
      if (p.notificable) await notifyCreador(tx, actor.id, p)
    },
    update: async (p, { tx, row, id }) => {
      if (p.usuarioIds !== undefined) {
        if (row.empresaId === null) throw usuarioError(planingMessages.usuarioInvalido)
        await setUsuarios(tx, id, row.empresaId, p.usuarioIds)
      }
      // Made notifiable now: its creator hears of it, as if it had been created so.
      if (p.notificable && !row.notificable) {
        await notifyCreador(tx, row.creadorId, { titulo: p.titulo ?? row.titulo, fecha: p.fecha ?? row.fecha })
      }
    },
  },
  log: {
    noun: 'tarea del planing',
    title: 'Tarea del planing',
    feminine: true,
    label: (p) => `${p.titulo} (${formatDateTime(p.fecha)})`,
    context: (p) => (p.todos ? 'todos los usuarios' : p.usuarios.map((u) => `${u.nombre} ${u.apellidos}`).join(', ')),
    // DECISIONS L1: the home its residents live in (the first one's, when they live in several).
    vivienda: (p) => p.viviendas[0] ?? null,
    usuarioId: (p) => (p.usuarios.length === 1 ? p.usuarios[0]?.id : null),
    url: '/planing',
  },
})

/**
 * A calendar row as the driver gives it, its columns in the statement's order: dia, total, id, fecha (ISO text,
 * isoInstant, as the answer writes it), titulo, descripcion, notificable, empresa_id, todos, updated_at (ISO
 * text), and [id, nombre, apellidos, viviendaId, viviendaNombre] of each resident in id order (null for a task
 * for everyone).
 */
type CalendarioRow = [
  dia: string,
  total: string,
  id: number,
  fecha: string,
  titulo: string,
  descripcion: string,
  notificable: boolean,
  empresaId: number | null,
  todos: boolean,
  updatedAt: string,
  usuarios: [number, string, string, number | null, string | null][] | null,
]

/**
 * The residents of a calendar's task with their homes, as migration 0016's triggers keep them beside the task
 * (planing_calendario_usuarios): one index probe per task shown, where joining its links, residents and homes was
 * half of the month's time in PostgreSQL (docs/performance.md).
 */
const usuariosConCasa = sql`(select l.usuarios from planing_calendario_usuarios l where l.tarea_id = ${TAREA_ID})`

/**
 * GET /planing-tareas/calendario (SPEC §2.9): the days from `desde` to `hasta` (the visible grid, at most 42)
 * that have tasks, each with how many it has and its first ones in time order, for the worker's companies
 * (narrowed to the one chosen in the top bar). One statement over planing_tareas_empresa_fecha_idx (or the
 * date index), numbering each day's tasks with a window and joining the ones shown with their residents.
 * Each task's residents come with their homes in one list kept beside it (usuariosConCasa), and the homes (in
 * the order of their first resident, as viviendasDe gives them) are taken from that list here, with only the
 * columns the answer holds.
 * A task for every resident (`todos`) comes without its residents and homes: the calendar shows it black and
 * names no one, and at a large operator its list is every resident of the company (thousands of names per
 * task); `GET /planing-tareas/:id` still gives them.
 */
export async function calendario(deps: AppDeps, actor: Actor, query: CalendarioQuery): Promise<CalendarioDia[]> {
  const { from, to } = range(query.desde, query.hasta)
  const scope = scopeFor(actor, 'planing-tareas', 'list')
  // The company chosen in the top bar stands for the worker's scope when the worker reaches it (and no task
  // matches when it does not): the same rows as both conditions, but a statement PostgreSQL keeps a good plan
  // for. Named, it is planned once for any values, and with the scope's list of companies beside the chosen
  // one (`empresa_id in (…) and empresa_id = …`) that plan scanned the date index and filtered out every other
  // company's tasks of the month (docs/performance.md).
  const empresa =
    query.empresaId === undefined
      ? scope
      : reachesEmpresa(actor, query.empresaId)
        ? eq(planingTareas.empresaId, query.empresaId)
        : sql`false`
  const condition = where(empresa, gte(planingTareas.fecha, from), lt(planingTareas.fecha, to)) as SQL
  const dia = sql`(${planingTareas.fecha} at time zone 'Europe/Madrid')::date`
  // The task's own row is named planing_tareas, as the subquery expects. Read as plain rows and mapped here:
  // Drizzle's per-field row mapping was the largest cost of this 126-task answer in a CPU profile
  // (docs/performance.md).
  // A named prepared statement (lib/select-rows.ts): its planning cost about as much as running it.
  const rows = await preparedRows<CalendarioRow>(
    deps.db,
    'calendario',
    sql`
    select numbered.dia, numbered.total, planing_tareas.id, ${isoInstant(sql`planing_tareas.fecha`)} as fecha,
           planing_tareas.titulo, planing_tareas.descripcion, planing_tareas.notificable, planing_tareas.empresa_id,
           planing_tareas.todos, ${isoInstant(sql`planing_tareas.updated_at`)} as updated_at,
           ${salvoTodos(usuariosConCasa, sql`null`)} as usuarios
      from (
        select ${planingTareas.id} as id, to_char(${dia}, 'YYYY-MM-DD') as dia,
               row_number() over (partition by ${dia} order by ${planingTareas.fecha}, ${planingTareas.id}) as n,
               count(*) over (partition by ${dia}) as total
          from ${planingTareas}
         where ${condition}
      ) numbered
      join planing_tareas on planing_tareas.id = numbered.id
     where numbered.n <= ${query.porDia ?? CALENDAR_TASKS_PER_DAY}
     order by numbered.dia, numbered.n`,
  )
  const days: CalendarioDia[] = []
  for (const [dia, total, id, fecha, titulo, descripcion, notificable, empresaId, todos, updatedAt, usuarios] of rows) {
    let day = days.at(-1)
    if (day?.dia !== dia) {
      day = { dia, total: Number(total), tareas: [] }
      days.push(day)
    }
    const personas: Persona[] = []
    const casas: Casa[] = []
    for (const [usuarioId, nombre, apellidos, viviendaId, vivienda] of usuarios ?? []) {
      personas.push({ id: usuarioId, nombre, apellidos })
      if (viviendaId !== null && !casas.some((c) => c.id === viviendaId)) casas.push({ id: viviendaId, nombre: vivienda ?? '' })
    }
    day.tareas.push({
      id,
      fecha,
      titulo,
      descripcion,
      notificable,
      empresaId,
      todos,
      usuarios: personas,
      viviendas: casas,
      updatedAt,
    })
  }
  return days
}
