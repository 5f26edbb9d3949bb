/**
 * A worker task's texts and priorities without zod: imported as `@vb/shared/tareas-core` by the web app's screen, whose
 * form loads tareas.ts (the schemas, which re-export this) when it first opens.
 */
import { viviendaMessages } from './viviendas-core'

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
