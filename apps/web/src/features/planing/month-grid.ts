import { addDays, madridDay } from '@vb/shared/dates'

/**
 * SPEC §2.9, §9: the month grid of the calendar, as pure functions (no React, no clock): 42 cells, six weeks
 * starting on Monday, from the Monday on or before the 1st. Days are YYYY-MM-DD of Europe/Madrid; a task
 * belongs to the Madrid day of its instant, so one at 01:30 stays on its day across a daylight-saving change.
 */

export const GRID_CELLS = 42
/** Monday first (SPEC §2.9). */
export const WEEKDAYS = ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'] as const
export const WEEKDAYS_SHORT = ['L', 'M', 'X', 'J', 'V', 'S', 'D'] as const
const MONTHS = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
] as const

export interface GridCell {
  /** YYYY-MM-DD. */
  dia: string
  /** Day of the month, 1-31. */
  numero: number
  /** 0 = Monday … 6 = Sunday. */
  diaSemana: number
  /** Belongs to the month shown (the others are dimmed). */
  delMes: boolean
  hoy: boolean
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/

/** A month 'YYYY-MM' from a URL, or null when it is not one. */
export function parseMonth(value: string | null | undefined): string | null {
  if (!value || !MONTH.test(value)) return null
  const year = Number(value.slice(0, 4))
  return year >= 1900 && year <= 2100 ? value : null
}

/** The month ('YYYY-MM') of a day. */
export const monthOf = (day: string) => day.slice(0, 7)

/** The month `n` months after `month` (negative: before). */
export function shiftMonth(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(y, m - 1 + n, 1)).toISOString().slice(0, 7)
}

/** 0 = Monday … 6 = Sunday, for a day. */
export function weekdayOf(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7
}

/** The 42 cells of `month`, Monday first; `today` (YYYY-MM-DD, Madrid) is marked. */
export function monthGrid(month: string, today: string): GridCell[] {
  const first = `${month}-01`
  const start = addDays(first, -weekdayOf(first))
  return Array.from({ length: GRID_CELLS }, (_, i) => {
    const dia = addDays(start, i)
    return { dia, numero: Number(dia.slice(8)), diaSemana: i % 7, delMes: monthOf(dia) === month, hoy: dia === today }
  })
}

/** The first and last day of the grid: what the calendar asks the server for (never more). */
export function gridRange(month: string): { desde: string; hasta: string } {
  const cells = monthGrid(month, '')
  return { desde: (cells[0] as GridCell).dia, hasta: (cells[GRID_CELLS - 1] as GridCell).dia }
}

/** Tasks by their Madrid day, each day's in time order. */
export function tasksByDay<T extends { fecha: string }>(tareas: readonly T[]): Map<string, T[]> {
  const days = new Map<string, T[]>()
  // Compared as instants: a locale's collation is not needed, and its first use loads ICU's data on a phone.
  for (const t of [...tareas].sort((a, b) => Date.parse(a.fecha) - Date.parse(b.fecha))) {
    const day = madridDay(t.fecha)
    days.set(day, [...(days.get(day) ?? []), t])
  }
  return days
}

/** 'Marzo de 2026'. */
export function monthTitle(month: string): string {
  const name = MONTHS[Number(month.slice(5)) - 1] as string
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} de ${month.slice(0, 4)}`
}

/** 'lunes, 30 de marzo' (the agenda's day headings and the cells' accessible names). */
export function dayTitle(day: string, withYear = false): string {
  const month = MONTHS[Number(day.slice(5, 7)) - 1] as string
  return `${WEEKDAYS[weekdayOf(day)]}, ${Number(day.slice(8))} de ${month}${withYear ? ` de ${day.slice(0, 4)}` : ''}`
}
