import { charLength, daySchema, ISO_INSTANT, isRealDay, LOCAL_DATE_TIME, MAX_ID, requiredId } from './common'
import { HORA_PATTERN, madridDateTime, madridDay, madridTime } from './dates'
import { idFilter, listQuerySchema } from './list'
import { CALENDAR_MAX_DAYS, planingMessages, TODOS } from './planing-core'
import { z } from './zod-es'

export * from './planing-core'

/** SPEC §3 Calendar task as the API answers it. */
export const planingTareaSchema = z.object({
  id: z.number().int(),
  /** ISO instant. */
  fecha: z.string(),
  titulo: z.string(),
  descripcion: z.string(),
  notificable: z.boolean(),
  empresaId: z.number().int().nullable(),
  /** Assigned with 'all' (every resident of the company): shown black (SPEC §2.9). */
  todos: z.boolean(),
  usuarios: z.array(z.object({ id: z.number().int(), nombre: z.string(), apellidos: z.string() })),
  /** The homes of its residents (the log's home, DECISIONS L1). */
  viviendas: z.array(z.object({ id: z.number().int(), nombre: z.string() })),
  updatedAt: z.string(),
})
export type PlaningTarea = z.infer<typeof planingTareaSchema>

const titulo = z
  .string({ error: planingMessages.tituloObligatorio })
  .trim()
  .min(1, planingMessages.tituloObligatorio)
  .refine((v) => charLength(v) <= 200, planingMessages.tituloLargo)
const descripcion = z
  .string({ error: planingMessages.descripcionObligatoria })
  .trim()
  .min(1, planingMessages.descripcionObligatoria)
  .refine((v) => charLength(v) <= 2000, planingMessages.descripcionLarga)

const missing = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')

/** The day of the task: a date input's YYYY-MM-DD, or (as SPEC's client sends `fecha`) an ISO instant. */
const fecha = z.unknown().transform((v, ctx) => {
  if (missing(v)) {
    ctx.addIssue({ code: 'custom', message: planingMessages.fechaObligatoria })
    return z.NEVER
  }
  const text = typeof v === 'string' ? v.trim() : ''
  if (isRealDay(text) && text >= '1900-01-01' && text <= '2100-12-31') return { day: text, hora: undefined }
  // Without a zone, Madrid's wall clock, as the calendar shows it and as budgets and documents read it (common.ts).
  const local = LOCAL_DATE_TIME.exec(text)
  if (local) {
    const [, day, hora] = local as unknown as [string, string, string]
    if (isRealDay(day) && day >= '1900-01-01' && day <= '2100-12-31' && HORA_PATTERN.test(hora)) return { day, hora }
    ctx.addIssue({ code: 'custom', message: planingMessages.fechaInvalida })
    return z.NEVER
  }
  const instant = ISO_INSTANT.test(text) && isRealDay(text.slice(0, 10)) ? new Date(text) : null
  if (!instant || Number.isNaN(instant.getTime())) {
    ctx.addIssue({ code: 'custom', message: planingMessages.fechaInvalida })
    return z.NEVER
  }
  return { day: madridDay(instant), hora: madridTime(instant) }
})

/** SPEC §2.9: 24-hour HH:MM. */
const hora = z.unknown().transform((v, ctx) => {
  if (missing(v)) return undefined
  const text = typeof v === 'string' ? v.trim() : ''
  if (!HORA_PATTERN.test(text)) {
    ctx.addIssue({ code: 'custom', message: planingMessages.horaInvalida })
    return z.NEVER
  }
  return text
})

/** At least one resident id, or 'all' (SPEC §7: 'all' is expanded to every resident). */
const usuarioIds = z.unknown().transform((v, ctx): number[] | typeof TODOS => {
  if (v === TODOS || (Array.isArray(v) && v.includes(TODOS))) return TODOS
  if (!Array.isArray(v) || v.length === 0) {
    ctx.addIssue({ code: 'custom', message: planingMessages.usuariosObligatorios })
    return z.NEVER
  }
  const ids = v.map((x) => (typeof x === 'string' && /^[1-9]\d{0,9}$/.test(x) ? Number(x) : x))
  if (!ids.every((x): x is number => typeof x === 'number' && Number.isInteger(x) && x > 0 && x <= MAX_ID) || ids.length > 1000) {
    ctx.addIssue({ code: 'custom', message: planingMessages.usuarioInvalido })
    return z.NEVER
  }
  return [...new Set(ids)]
})

const fields = {
  titulo,
  descripcion,
  fecha,
  /**
   * SPEC §5: required; with the day it makes the task's instant, a Madrid wall-clock time. A `fecha` sent as an
   * instant (SPEC §7's body, which has no `hora`) carries its own: then it may be left out (checked below).
   */
  hora: hora.optional(),
  notificable: z.boolean({ error: 'Indica si la tarea es notificable' }).optional(),
  usuarioIds,
  /** The company whose residents the task concerns (DECISIONS D4: the one chosen in the top bar). */
  empresaId: requiredId(planingMessages.empresaObligatoria, planingMessages.empresaTipo),
}

/** SPEC §5, §7 Calendar task: create. The day and the time make `fecha`, the task's instant. */
export const planingTareaCreateSchema = z
  .object(fields)
  .superRefine(
    (task, ctx) => {
      const day = task.fecha as { hora?: string } | undefined
      if (task.hora === undefined && !(day && typeof day === 'object' && day.hora)) {
        ctx.addIssue({ code: 'custom', path: ['hora'], message: planingMessages.horaObligatoria })
      }
    },
    // Said with the other fields' messages (SPEC §5: all are collected), not only once they are right; a time
    // refused already keeps its own message.
    { when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === 'hora') },
  )
  .transform(({ hora: time, fecha: day, ...rest }) => ({
    ...rest,
    notificable: rest.notificable ?? false,
    fecha: madridDateTime(day.day, (time ?? day.hora) as string).toISOString(),
  }))
export type PlaningTareaCreate = z.output<typeof planingTareaCreateSchema>
/** What the form holds (the day and the time apart, as the inputs show them). */
export type PlaningTareaForm = {
  titulo: string
  descripcion: string
  fecha: string
  hora: string
  notificable: boolean
  usuarioIds: number[] | typeof TODOS
  empresaId: number | undefined
}

/** Edit: only the fields sent change; a new day or time moves the task. */
export const planingTareaUpdateSchema = z
  .object({
    titulo: titulo.optional(),
    descripcion: descripcion.optional(),
    fecha: fecha.optional(),
    hora: hora.optional(),
    notificable: fields.notificable,
    usuarioIds: usuarioIds.optional(),
    updatedAt: z.string().optional(),
  })
  .transform(({ hora: time, fecha: day, ...rest }, ctx) => {
    if (!day && time === undefined) return { ...rest, fecha: undefined as string | undefined }
    if (!day || !(time ?? day.hora)) {
      ctx.addIssue({
        code: 'custom',
        path: [day ? 'hora' : 'fecha'],
        message: day ? planingMessages.horaObligatoria : planingMessages.fechaObligatoria,
      })
      return z.NEVER
    }
    return { ...rest, fecha: madridDateTime(day.day, (time ?? day.hora) as string).toISOString() as string | undefined }
  })
export type PlaningTareaUpdate = z.output<typeof planingTareaUpdateSchema>

const day = daySchema(planingMessages.fechaInvalida)

/** GET /api/planing-tareas: a range of Madrid days (both ends included), a day, a company, a resident. */
export const planingTareaListQuerySchema = listQuerySchema(['fecha', 'titulo'] as const)
  .extend({
    empresaId: idFilter,
    usuarioId: idFilter,
    fecha: day.optional(),
    desde: day.optional(),
    hasta: day.optional(),
  })
  .refine((q) => !q.desde || !q.hasta || q.desde <= q.hasta, { message: planingMessages.rangoInvalido, path: ['hasta'] })
export type PlaningTareaListQuery = z.infer<typeof planingTareaListQuerySchema>

/**
 * GET /api/planing-tareas/calendario: the visible days (desde-hasta, at most 42), each with its first tasks
 * and how many it has. The server never sends the whole table, nor more than a cell shows.
 */
export const calendarioQuerySchema = z
  .object({
    desde: day,
    hasta: day,
    empresaId: idFilter,
    porDia: z
      .string()
      .regex(/^[1-9]\d?$/)
      .transform(Number)
      .pipe(z.number().max(20))
      .optional(),
  })
  .refine((q) => q.desde <= q.hasta, { message: planingMessages.rangoInvalido, path: ['hasta'] })
  .refine((q) => (Date.parse(`${q.hasta}T00:00:00Z`) - Date.parse(`${q.desde}T00:00:00Z`)) / 86_400_000 < CALENDAR_MAX_DAYS, {
    message: planingMessages.rangoLargo,
    path: ['hasta'],
  })
export type CalendarioQuery = z.infer<typeof calendarioQuerySchema>

export const calendarioDiaSchema = z.object({
  /** YYYY-MM-DD, Europe/Madrid. */
  dia: z.string(),
  total: z.number().int(),
  /**
   * A task for every resident (`todos`) comes here (and in GET /planing-tareas) with empty `usuarios` and
   * `viviendas`: the calendar shows it black and names no one, and its list would be every resident of the
   * company (GET /planing-tareas/:id gives them).
   */
  tareas: z.array(planingTareaSchema),
})
export type CalendarioDia = z.infer<typeof calendarioDiaSchema>
/** Only the days that have tasks, in order. */
export const calendarioSchema = z.array(calendarioDiaSchema)
