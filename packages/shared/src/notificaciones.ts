import { charLength, fechaSchema, requiredId } from './common'
import { listQuerySchema } from './list'
import { z } from './zod-es'

/** SPEC §3 Notification types; unknown falls back to info. */
export const notificacionTipos = ['info', 'warning', 'error', 'success', 'TAREA', 'PIR'] as const
export type NotificacionTipo = (typeof notificacionTipos)[number]

export const notificacionSchema = z.object({
  id: z.number().int(),
  titulo: z.string(),
  descripcion: z.string(),
  fechaNotificacion: z.string(),
  tipo: z.enum(notificacionTipos),
  trabajadorId: z.number().int(),
})
export type Notificacion = z.infer<typeof notificacionSchema>

/** SPEC §9: notifications are polled every 15 s. */
export const NOTIFICATION_POLL_MS = 15_000

export const notificacionMessages = {
  tituloObligatorio: 'El título es obligatorio',
  tituloLargo: 'El título no puede superar 200 caracteres',
  descripcionObligatoria: 'La descripción es obligatoria',
  descripcionLarga: 'La descripción no puede superar 2000 caracteres',
  tipoInvalido: 'El tipo debe ser info, warning, error, success, TAREA o PIR',
  fechaInvalida: 'La fecha no es válida',
  trabajadorObligatorio: 'El trabajador es obligatorio',
  trabajadorTipo: 'Selecciona un trabajador',
  trabajadorNoEncontrado: 'No se encontró el trabajador.',
  noEncontrada: 'No se ha encontrado la notificación.',
  vacio: 'No tienes notificaciones.',
  marcarTodas: 'Marcar todas como leídas',
  errorCarga: 'No se pudieron cargar las notificaciones.',
} as const

/**
 * SPEC §7 POST /notificaciones: body titulo, descripcion, fechaNotificacion (ISO; now when absent), tipo,
 * trabajadorId. The worker must share a company with the caller (otherwise 404, as if it did not exist).
 */
export const notificacionCreateSchema = z.object({
  titulo: z
    .string({ error: notificacionMessages.tituloObligatorio })
    .trim()
    .min(1, notificacionMessages.tituloObligatorio)
    .refine((v) => charLength(v) <= 200, notificacionMessages.tituloLargo),
  descripcion: z
    .string({ error: notificacionMessages.descripcionObligatoria })
    .trim()
    .min(1, notificacionMessages.descripcionObligatoria)
    .refine((v) => charLength(v) <= 2000, notificacionMessages.descripcionLarga),
  fechaNotificacion: fechaSchema({
    obligatoria: notificacionMessages.fechaInvalida,
    invalida: notificacionMessages.fechaInvalida,
  }).optional(),
  tipo: z.enum(notificacionTipos, { error: notificacionMessages.tipoInvalido }).default('info'),
  trabajadorId: requiredId(notificacionMessages.trabajadorObligatorio, notificacionMessages.trabajadorTipo),
})
export type NotificacionCreate = z.input<typeof notificacionCreateSchema>

/** GET /api/notificaciones: the caller's own, newest first, server-paged (DECISIONS A4). */
export const notificacionListQuerySchema = listQuerySchema(['fechaNotificacion'] as const)
export type NotificacionListQuery = z.infer<typeof notificacionListQuerySchema>

/** The look of each type (SPEC §3: six types, an unknown one shown as info). */
export const notificacionLooks = {
  info: { variant: 'info', label: 'Información' },
  warning: { variant: 'warning', label: 'Aviso' },
  error: { variant: 'danger', label: 'Error' },
  success: { variant: 'success', label: 'Hecho' },
  TAREA: { variant: 'primary', label: 'Tarea' },
  PIR: { variant: 'warning', label: 'PIR' },
} as const satisfies Record<NotificacionTipo, { variant: string; label: string }>

/** The type a notification is shown as: its own, or info when unknown (SPEC §3). */
export function notificacionTipoDe(tipo: string): NotificacionTipo {
  return (notificacionTipos as readonly string[]).includes(tipo) ? (tipo as NotificacionTipo) : 'info'
}

/** Bootstrap variant for a notification type (SPEC §3: unknown → info). */
export function notificacionVariant(tipo: string): (typeof notificacionLooks)[NotificacionTipo]['variant'] {
  return notificacionLooks[notificacionTipoDe(tipo)].variant
}
