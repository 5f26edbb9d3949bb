/**
 * The PIR rules without zod (DECISIONS D3, SPEC §4): its status, its label, its notification. Imported as
 * `@vb/shared/pir-core` by the web app's screens; pir.ts (the two schemas of a status as the API answers it)
 * re-exports all of it.
 */
import { addDays, madridDay } from './dates'

/** SPEC §4 / §9: a PIR is valid 6 months from its date; warning window 30 days. */
export const PIR_VALID_MONTHS = 6
export const PIR_WARNING_DAYS = 30

export type PirEstado = 'sinpir' | 'vigente' | 'aviso' | 'caducado'
export interface PirStatus {
  estado: PirEstado
  /** Days left until expiry (negative once expired); null without PIR. */
  diasRestantes: number | null
  /** YYYY-MM-DD expiry day; null without PIR. */
  caducidad: string | null
}

/** DECISIONS D3: the PIR document is the one titled 'PIR' (trimmed, any case). */
export function isPirTitle(titulo: string): boolean {
  return titulo.trim().toUpperCase() === 'PIR'
}

function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  const target = new Date(Date.UTC(y, m - 1 + months, 1))
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  target.setUTCDate(Math.min(d, lastDay))
  return target.toISOString().slice(0, 10)
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
}

/**
 * PIR status from the PIR documents' dates (DECISIONS D3: the latest counts), in calendar days of
 * Europe/Madrid: days left = (fecha + 6 months) − today.
 */
export function pirStatus(fechas: ReadonlyArray<string | Date>, now: Date = new Date()): PirStatus {
  if (fechas.length === 0) return { estado: 'sinpir', diasRestantes: null, caducidad: null }
  const latest = fechas
    .map((f) => madridDay(f))
    .sort()
    .at(-1) as string
  return { ...statusOfDay(latest, madridDay(now)) }
}

/** Statuses already worked out, per PIR day and today: every row of a list asks for one, mostly the same. */
const statusByDays = new Map<string, PirStatus>()

/** The status of a PIR dated `day` (YYYY-MM-DD), seen on `today`; callers get a copy. */
function statusOfDay(day: string, today: string): PirStatus {
  const key = `${day}|${today}`
  let status = statusByDays.get(key)
  if (!status) {
    const caducidad = addMonths(day, PIR_VALID_MONTHS)
    const diasRestantes = daysBetween(today, caducidad)
    const estado: PirEstado = diasRestantes < 0 ? 'caducado' : diasRestantes <= PIR_WARNING_DAYS ? 'aviso' : 'vigente'
    status = { estado, diasRestantes, caducidad }
    if (statusByDays.size >= 10_000) statusByDays.clear()
    statusByDays.set(key, status)
  }
  return status
}

/**
 * The first day (YYYY-MM-DD) whose PIR expires on `day` or later: a PIR dated before it has expired by `day`.
 * Found with the rule itself, because month ends clip (a PIR of 30 September and one of 31 August both expire
 * at the end of February or March), so it is not simply `day` minus 6 months. Lets SQL compare a stored date
 * with a bound computed once instead of applying the rule to every row.
 */
export function pirDatedFrom(day: string): string {
  let d = addMonths(day, -PIR_VALID_MONTHS)
  while (addMonths(d, PIR_VALID_MONTHS) < day) d = addDays(d, 1)
  while (addMonths(addDays(d, -1), PIR_VALID_MONTHS) >= day) d = addDays(d, -1)
  return d
}

/** SPEC §2.14 card label. */
export function pirLabel(status: PirStatus): string {
  switch (status.estado) {
    case 'sinpir':
      return 'No registrado'
    case 'vigente':
      return 'Vigente'
    case 'aviso':
      return `Caduca en ${status.diasRestantes} días`
    case 'caducado':
      return 'Caducado'
  }
}

export const pirEstados = ['sinpir', 'vigente', 'aviso', 'caducado'] as const

/** SPEC §4 notification titles. */
export const pirNotificationTitles = { aviso: 'PIR próximo a caducar', caducado: 'PIR caducado' } as const

/** 'hoy', 'mañana', 'en 12 días': when a PIR in aviso expires, as the notification says it. */
export function pirWhen(diasRestantes: number): string {
  if (diasRestantes <= 0) return 'hoy'
  if (diasRestantes === 1) return 'mañana'
  return `en ${diasRestantes} días`
}

/**
 * SPEC §4 notification for a PIR in aviso or caducado ('El PIR de {name} caduca {text}.' / 'El PIR de {name}
 * ha caducado.'); null in the other states.
 */
export function pirNotification(nombre: string, status: PirStatus): { titulo: string; descripcion: string } | null {
  if (status.estado === 'aviso') {
    return {
      titulo: pirNotificationTitles.aviso,
      descripcion: `El PIR de ${nombre} caduca ${pirWhen(status.diasRestantes ?? 0)}.`,
    }
  }
  if (status.estado === 'caducado')
    return { titulo: pirNotificationTitles.caducado, descripcion: `El PIR de ${nombre} ha caducado.` }
  return null
}
