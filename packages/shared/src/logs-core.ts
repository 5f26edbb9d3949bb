/**
 * What the log's screen needs without zod: its types and their names, its texts, the CSV's columns and the worker's
 * whole name. Imported as `@vb/shared/logs-core` by the web app, which shows the log with no form; logs.ts (the
 * schemas) re-exports all of it.
 */

/** Log types (DECISIONS L1): success (create), warning (modify), error (delete), info (anything else). */
export const logTipos = ['success', 'warning', 'error', 'info'] as const
export type LogTipo = (typeof logTipos)[number]

/** How each type is named on the logs screen: what it marks on a change, and on other events (a login). */
export const logTipoLabels: Record<LogTipo, string> = {
  success: 'Alta / éxito',
  warning: 'Modificación / aviso',
  error: 'Eliminación / fallo',
  info: 'Información',
}

export const logMessages = {
  /** SPEC §2.11, §8. */
  vacio: 'No hay registros',
  errorCarga: 'No se pudieron cargar los logs.',
  rangoInvalido: 'La fecha final no puede ser anterior a la inicial',
  fechaInvalida: 'La fecha no es válida',
  accionObligatoria: 'La acción es obligatoria',
  accionLarga: 'La acción no puede superar 100 caracteres',
  urlLarga: 'La URL no puede superar 300 caracteres',
  descripcionLarga: 'La descripción no puede superar 1000 caracteres',
  tipo: 'El tipo no es válido',
  viviendaNoEncontrada: 'No se ha encontrado la vivienda.',
  noEncontrado: 'No se ha encontrado el registro.',
  cargandoCambios: 'Cargando cambios...',
  errorCambios: 'No se pudieron cargar los valores antes y después.',
} as const

/** SPEC §2.11: the CSV's columns, in order. */
export const LOG_CSV_HEADERS = ['Fecha', 'Trabajador', 'Accion', 'URL', 'Vivienda'] as const

/** Log types by change (DECISIONS L1): create success, modify warning, delete error. */
export const logTipoPorCambio = { create: 'success', update: 'warning', delete: 'error' } as const

/** The whole name of an entry's worker, as the Trabajador column and the CSV show it. */
export function logTrabajadorNombre(trabajador: { nombre: string; apellidos: string }): string {
  return trabajador.apellidos ? `${trabajador.nombre} ${trabajador.apellidos}` : trabajador.nombre
}
