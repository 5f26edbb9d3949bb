/**
 * A budget's texts, states and limits without zod: imported as `@vb/shared/presupuestos-core` by the web app's screen,
 * whose form loads presupuestos.ts (the schemas, which re-export this) when it first opens.
 */
import { madridDay } from './dates'
import type { MoneyMessages } from './money'

/** SPEC §3 / §9: the three budget states; PENDIENTE_APROBACION on creation (SPEC §4). */
export const presupuestoEstados = ['PENDIENTE_APROBACION', 'APROBADO', 'REALIZADO'] as const
export type PresupuestoEstado = (typeof presupuestoEstados)[number]

/** How each state reads on screen, and the word of a change to it ('Aprobado por Ana García'). */
export const presupuestoEstadoLabels: Record<PresupuestoEstado, string> = {
  PENDIENTE_APROBACION: 'Pendiente de aprobación',
  APROBADO: 'Aprobado',
  REALIZADO: 'Realizado',
}

/** The badge of each state (SPEC §2.13: 'Estado as a coloured badge'). */
export const presupuestoEstadoVariants: Record<PresupuestoEstado, 'warning' | 'primary' | 'success'> = {
  PENDIENTE_APROBACION: 'warning',
  APROBADO: 'primary',
  REALIZADO: 'success',
}

/** SPEC §5 Budget and §8 Budgets, word for word. */
export const presupuestoMessages = {
  descripcionObligatoria: 'La descripción es obligatoria',
  descripcionFormato:
    'La descripción debe tener entre 5 y 200 caracteres y solo puede incluir letras, números y puntuación común',
  precioObligatorio: 'El precio es obligatorio',
  precioNumero: 'El precio debe ser un número válido',
  precioPositivo: 'El precio debe ser mayor que 0',
  precioDecimales: 'El precio solo puede tener hasta 2 decimales',
  precioMaximo: 'El precio no puede superar 9.999.999.999,99 €',
  fechaObligatoria: 'La fecha prevista es obligatoria',
  fechaInvalida: 'La fecha no es válida',
  fechaPasada: 'La fecha no puede estar en el pasado',
  estadoObligatorio: 'El estado es obligatorio',
  estadoInvalido: 'Estado no válido',
  viviendaObligatoria: 'La vivienda es obligatoria',
  viviendaTipo: 'Selecciona una vivienda',
  archivoInvalido: 'El archivo debe ser un archivo subido',
  creado: 'Presupuesto añadido correctamente',
  modificado: 'Presupuesto modificado correctamente',
  eliminado: 'Presupuesto eliminado correctamente',
  noEncontrado: 'No se ha encontrado el presupuesto.',
  /** A stale edit of money (CONTRIBUTING.md, habits). */
  cambiado: 'El presupuesto ha cambiado desde que lo abriste. Vuelve a cargarlo.',
  vacio: 'No hay presupuestos.',
  sinFecha: 'Sin fecha',
} as const

/** The money messages of a budget's price (SPEC §5: above 0, at most 2 decimals, a comma accepted). */
export const precioMessages: MoneyMessages = {
  obligatoria: presupuestoMessages.precioObligatorio,
  numero: presupuestoMessages.precioNumero,
  decimales: presupuestoMessages.precioDecimales,
  positivo: presupuestoMessages.precioPositivo,
  maximo: presupuestoMessages.precioMaximo,
}

/** SPEC §9: description 5-200 characters. */
export const DESCRIPCION_MIN = 5
export const DESCRIPCION_MAX = 200
/**
 * DECISIONS D6: a planned date may not be before today (Europe/Madrid) when it is set or changed. Today comes
 * from the caller (the server's clock, the browser's date), so the rule lives beside the schema.
 */
export function fechaPrevistaPasada(fechaPrevista: string, now: Date): boolean {
  return madridDay(fechaPrevista) < madridDay(now)
}
