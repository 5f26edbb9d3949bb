/** DECISIONS D10: dates shown in es-ES, Europe/Madrid; money as es-ES euros. */
export const TIME_ZONE = 'Europe/Madrid'

const dateFmt = new Intl.DateTimeFormat('es-ES', { timeZone: TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric' })
const dateTimeFmt = new Intl.DateTimeFormat('es-ES', {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
})
const mediumFmt = new Intl.DateTimeFormat('es-ES', { timeZone: TIME_ZONE, dateStyle: 'medium' })
const moneyFmt = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 })

function toDate(value: string | Date): Date {
  return value instanceof Date ? value : new Date(value)
}

/** dd/mm/aaaa */
export function formatDate(value: string | Date | null | undefined): string {
  return value ? dateFmt.format(toDate(value)) : ''
}
/** dd/mm/aaaa, hh:mm */
export function formatDateTime(value: string | Date | null | undefined): string {
  return value ? dateTimeFmt.format(toDate(value)) : ''
}
/** '21 nov 2026' */
export function formatDateMedium(value: string | Date | null | undefined): string {
  return value ? mediumFmt.format(toDate(value)) : ''
}
/** '1.234,50 €' from an exact decimal string or a number. */
export function formatMoney(value: string | number): string {
  return moneyFmt.format(typeof value === 'string' ? Number(value) : value)
}

/** The calendar day (YYYY-MM-DD) of an instant in Europe/Madrid. */
export function madridDay(value: Date | string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(toDate(value))
  return parts
}
