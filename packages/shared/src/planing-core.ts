/**
 * The calendar's texts, limits and colours without zod: imported as `@vb/shared/planing-core` by the web app's screen,
 * whose form loads planing.ts (the schemas, which re-export this) when it first opens.
 */

/** SPEC §5 Calendar task (and the texts of the /planing screen). */
export const planingMessages = {
  tituloObligatorio: 'El título es obligatorio',
  tituloLargo: 'El título no puede superar 200 caracteres',
  descripcionObligatoria: 'La descripción es obligatoria',
  descripcionLarga: 'La descripción no puede superar 2000 caracteres',
  fechaObligatoria: 'La fecha es obligatoria',
  fechaInvalida: 'La fecha no es válida',
  horaObligatoria: 'La hora es obligatoria',
  horaInvalida: 'La hora debe tener el formato HH:MM de 24 horas (por ejemplo, 09:30)',
  usuariosObligatorios: 'Selecciona al menos un usuario',
  usuarioInvalido: 'Selecciona usuarios de la empresa de la tarea',
  /** 'all' in a company without residents: nobody to give the task to. */
  sinUsuarios: 'La empresa no tiene usuarios: no hay a quién asignar la tarea',
  empresaObligatoria: 'La empresa es obligatoria',
  empresaTipo: 'Selecciona una empresa',
  rangoInvalido: 'La fecha final no puede ser anterior a la inicial',
  rangoLargo: 'El calendario abarca como mucho 42 días',
  creada: 'Tarea creada correctamente',
  modificada: 'Tarea modificada correctamente',
  eliminada: 'Tarea eliminada correctamente',
  noEncontrada: 'No se ha encontrado la tarea del planing.',
  /** DECISIONS L3: someone changed the task after it was opened. */
  cambiada: 'La tarea ha cambiado desde que la abriste. Vuelve a cargarla.',
  /** The TAREA notification of a notifiable task (DECISIONS D4). */
  notificacionTitulo: 'Tarea del planing',
} as const

/** SPEC §2.9: 'all' stands for every resident of the task's company (DECISIONS D4). */
export const TODOS = 'all'

/** SPEC §9: the month grid has 42 cells; the calendar call covers at most that. */
export const CALENDAR_MAX_DAYS = 42
/** Tasks shown in one day's cell; the rest are counted ('+3 más') and listed when the day opens. */
export const CALENDAR_TASKS_PER_DAY = 3

/**
 * SPEC §2.9, §9: 20 colours, one per resident by id; a task for everyone is black. Each is dark enough for
 * white text at 4.5:1 or more (WCAG AA), so the task's title on it stays readable.
 */
export const PLANING_PALETTE = [
  '#1f5fa8',
  '#b3261e',
  '#1b7a3e',
  '#8a4b08',
  '#6b3fa0',
  '#0e6f78',
  '#a8326e',
  '#4d5b12',
  '#2d4a8a',
  '#8f3a2b',
  '#0f6b4f',
  '#7a4e9c',
  '#95510f',
  '#1d5e86',
  '#9c2f4f',
  '#3f6a1c',
  '#5a4a99',
  '#7d4a2e',
  '#006c84',
  '#8c2f8c',
] as const
export const PLANING_TODOS_COLOR = '#000000'

/** The colour of a task: black for everyone, otherwise its first resident's (SPEC §2.9, DECISIONS D4). */
export function planingColor(tarea: { todos: boolean; usuarios: readonly { id: number }[] }): string {
  if (tarea.todos) return PLANING_TODOS_COLOR
  const first = tarea.usuarios.reduce<number | null>((min, u) => (min === null || u.id < min ? u.id : min), null)
  return first === null ? PLANING_TODOS_COLOR : (PLANING_PALETTE[first % PLANING_PALETTE.length] as string)
}

/** A resident's colour (the legend of the calendar). */
export const usuarioColor = (usuarioId: number): string => PLANING_PALETTE[usuarioId % PLANING_PALETTE.length] as string
