import { z } from 'zod'

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

/** Bootstrap variant for a notification type (SPEC §3: unknown → info). */
export function notificacionVariant(tipo: string): 'info' | 'warning' | 'danger' | 'success' {
  switch (tipo) {
    case 'warning':
    case 'PIR':
      return 'warning'
    case 'error':
      return 'danger'
    case 'success':
      return 'success'
    default:
      return 'info'
  }
}
