import { charLength, fechaSchema, requiredId } from './common'
import { idFilter, listQuerySchema } from './list'
import { rolSchema } from './roles'
import { prioridades, tareaMessages } from './tareas-core'
import { z } from './zod-es'

export * from './tareas-core'

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
