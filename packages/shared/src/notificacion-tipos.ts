/** What the bell shows of a notification, without a schema (the shell on every screen imports it). */

/** SPEC §3 Notification types; unknown falls back to info. */
export const notificacionTipos = ['info', 'warning', 'error', 'success', 'TAREA', 'PIR'] as const
export type NotificacionTipo = (typeof notificacionTipos)[number]

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
