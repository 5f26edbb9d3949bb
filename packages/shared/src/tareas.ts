import { charLength, fechaSchema, requiredId } from './common'
import { idFilter, listQuerySchema } from './list'
import { rolSchema } from './roles'
import { viviendaMessages } from './viviendas'
import { z } from './zod-es'

/** SPEC §3, §9: task priorities, MEDIA by default. */
export const prioridades = ['ALTA', 'MEDIA', 'BAJA'] as const
export type Prioridad = (typeof prioridades)[number]

/** SPEC §2.12: the priority badge's colour. */
export const prioridadVariants: Record<Prioridad, 'danger' | 'warning' | 'success'> = {
  ALTA: 'danger',
  MEDIA: 'warning',
  BAJA: 'success',
}

/** SPEC §2.12, §5 Worker task and §8 Tasks, word for word. */
export const tareaMessages = {
  tituloObligatorio: 'El título es obligatorio',
  tituloLargo: 'El título no puede superar 200 caracteres',
  descripcionObligatoria: 'La descripción es obligatoria',
  descripcionLarga: 'La descripción no puede superar 2000 caracteres',
  viviendaObligatoria: 'La vivienda es obligatoria',
  viviendaTipo: 'Selecciona una vivienda',
  /** A home outside the companies of the worker the task is for: the worker could never see it. */
  viviendaAjena: 'La vivienda no pertenece a ninguna empresa del trabajador',
  fechaObligatoria: 'La fecha es obligatoria',
  fechaInvalida: 'La fecha no es válida',
  prioridadObligatoria: 'La prioridad es obligatoria',
  prioridadInvalida: 'La prioridad debe ser ALTA, MEDIA o BAJA',
  trabajadorObligatorio: 'El trabajador es obligatorio',
  /** SPEC §6: a worker the caller may not give tasks to (another company's, or a SUPERADMIN for an ADMIN). */
  trabajadorAjeno: 'Selecciona un trabajador de tus empresas',
  /** An inactive worker keeps its tasks (seen and deleted in the selector) but gets no new one. */
  trabajadorInactivo: 'Este trabajador está inactivo: no se le pueden asignar tareas nuevas',
  /** SPEC §4: there is no way back to pending. */
  soloCompletar: 'Una tarea solo puede marcarse como completada',
  errorCrear: 'No se pudo crear la tarea.',
  errorCompletar: 'No se pudo marcar la tarea como completada.',
  errorEliminar: 'No se pudo eliminar la tarea.',
  errorCarga: 'Error al cargar las tareas.',
  errorTrabajadores: 'Error al cargar trabajadores.',
  errorViviendas: viviendaMessages.errorCarga,
  trabajadorIndeterminado: 'No se ha podido determinar el trabajador.',
  creada: 'Tarea creada correctamente',
  completada: 'Tarea marcada como completada',
  eliminada: 'Tarea eliminada correctamente',
  vacioPendientes: 'No hay tareas pendientes',
  vacioCompletadas: 'No hay tareas completadas',
  cargando: 'Cargando tareas...',
  cargandoTrabajadores: 'Cargando trabajadores...',
  sinVivienda: 'Desconocida',
  noEncontrada: 'No se ha encontrado la tarea.',
  /** DECISIONS D5: the TAREA notification of a task someone else assigned. */
  notificacionTitulo: 'Nueva tarea asignada',
} as const

/** SPEC §3 Worker task as the API answers it. */
export const tareaTrabajadorSchema = z.object({
  id: z.number().int(),
  titulo: z.string(),
  descripcion: z.string(),
  /** ISO instant. */
  fecha: z.string(),
  prioridad: z.enum(prioridades),
  completada: z.boolean(),
  viviendaId: z.number().int().nullable(),
  trabajadorId: z.number().int(),
  /** The home's name ('Desconocida' when there is none). */
  vivienda: z.object({ nombre: z.string() }).nullable(),
})
export type TareaTrabajador = z.infer<typeof tareaTrabajadorSchema>

const prioridad = z.enum(prioridades, {
  error: (iss) =>
    iss.input === undefined || iss.input === null || iss.input === ''
      ? tareaMessages.prioridadObligatoria
      : tareaMessages.prioridadInvalida,
})

/**
 * SPEC §5, §7 Worker task: create (body titulo, descripcion, fecha, prioridad, completada false, viviendaId,
 * trabajadorId). DECISIONS D5: for the selected worker; without `trabajadorId`, for the caller.
 */
export const tareaTrabajadorCreateSchema = z.object({
  titulo: z
    .string({ error: tareaMessages.tituloObligatorio })
    .trim()
    .min(1, tareaMessages.tituloObligatorio)
    .refine((v) => charLength(v) <= 200, tareaMessages.tituloLargo),
  descripcion: z
    .string({ error: tareaMessages.descripcionObligatoria })
    .trim()
    .min(1, tareaMessages.descripcionObligatoria)
    .refine((v) => charLength(v) <= 2000, tareaMessages.descripcionLarga),
  viviendaId: requiredId(tareaMessages.viviendaObligatoria, tareaMessages.viviendaTipo),
  fecha: fechaSchema({ obligatoria: tareaMessages.fechaObligatoria, invalida: tareaMessages.fechaInvalida }),
  prioridad: prioridad.default('MEDIA'),
  /** SPEC sends `completada: false`; a new task is always pending. */
  completada: z.literal(false, { error: tareaMessages.soloCompletar }).optional(),
  trabajadorId: requiredId(tareaMessages.trabajadorObligatorio, tareaMessages.trabajadorAjeno).optional(),
})
export type TareaTrabajadorCreate = z.input<typeof tareaTrabajadorCreateSchema>

/** SPEC §4, §7: PATCH { completada: true }; there is no way back to pending. */
export const tareaTrabajadorUpdateSchema = z.object({
  completada: z.literal(true, { error: tareaMessages.soloCompletar }),
})
export type TareaTrabajadorUpdate = z.infer<typeof tareaTrabajadorUpdateSchema>

const booleanParam = z.enum(['true', 'false']).transform((v) => v === 'true')

/**
 * GET /api/tareas-trabajador: the tasks of one worker (SPEC §2.12: never all tasks filtered in the browser),
 * pending or completed, in date order (overdue first among the pending).
 */
export const tareaTrabajadorListQuerySchema = listQuerySchema(['fecha', 'prioridad', 'titulo'] as const).extend({
  trabajadorId: idFilter,
  completada: booleanParam.optional(),
  viviendaId: idFilter,
  empresaId: idFilter,
})
export type TareaTrabajadorListQuery = z.infer<typeof tareaTrabajadorListQuerySchema>

/**
 * SPEC §2.12: an entry of the worker selector ('nombre apellidos rol'). Inactive workers come last, marked, so
 * that the tasks they left can still be seen and deleted.
 */
export const trabajadorAsignableSchema = z.object({
  id: z.number().int(),
  nombre: z.string(),
  apellidos: z.string(),
  rol: rolSchema,
  activo: z.boolean(),
})
export type TrabajadorAsignable = z.infer<typeof trabajadorAsignableSchema>
