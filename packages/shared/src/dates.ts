/** DECISIONS D10: dates shown in es-ES, Europe/Madrid (money: money.ts). */
export const TIME_ZONE = 'Europe/Madrid'

/**
 * One formatter each, made on its first use and kept: building an Intl.DateTimeFormat is costly (about 3 ms each on a
 * phone's first screen, which needs one or two of these) and holds ICU memory outside the JavaScript heap (one per
 * call, on every row of a list, grew the API process by 150 MB in 600 requests).
 */
function formatter(locale: string, options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let made: Intl.DateTimeFormat | undefined
  return () => {
    made ??= new Intl.DateTimeFormat(locale, { timeZone: TIME_ZONE, ...options })
    return made
  }
}

const dateFmt = formatter('es-ES', { day: '2-digit', month: '2-digit', year: 'numeric' })
const dateTimeFmt = formatter('es-ES', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' })
const dateTimeSecondsFmt = formatter('es-ES', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
})
const mediumFmt = formatter('es-ES', { dateStyle: 'medium' })

function toDate(value: string | Date): Date {
  return value instanceof Date ? value : new Date(value)
}

const HOUR = 3_600_000

/** Summer time of a year of the EU's rule, [start, end) in ms: at most 104 years are kept. */
const summerOf = new Map<number, readonly [number, number]>()

/** The instant (ms) a month's last Sunday starts, in UTC (month 0-11). */
function lastSundayUtc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0))
  return Date.UTC(year, month, lastDay.getUTCDate() - lastDay.getUTCDay())
}

/**
 * Madrid's offset from UTC in minutes by the rule in force since 1996 (the EU's): summer time, UTC+2, from 01:00 UTC
 * on the last Sunday of March to 01:00 UTC on the last Sunday of October; UTC+1 the rest of the year. Null outside
 * 1996-2099, where the time-zone database answers (Intl). Worked out by arithmetic because the first Intl formatter a
 * page makes loads ICU's data (20-30 ms of a phone's start, in the task that shows the first date); dates.test.ts
 * checks it against the time-zone database for every hour of March and October and a day of each week, 1996-2099, so
 * a change of the rule fails the tests. Each year's bounds are worked out once (summerOf): a list's every row asks.
 */
function euOffsetMinutes(ms: number): number | null {
  const year = new Date(ms).getUTCFullYear()
  if (!(year >= 1996 && year <= 2099)) return null
  let summer = summerOf.get(year)
  if (!summer) {
    summer = [lastSundayUtc(year, 2) + HOUR, lastSundayUtc(year, 9) + HOUR]
    summerOf.set(year, summer)
  }
  return ms >= summer[0] && ms < summer[1] ? 120 : 60
}

/** The Madrid wall clock of an instant as a UTC date (read with getUTC*), or null outside the rule's years. */
function madridWall(at: Date): Date | null {
  const offset = euOffsetMinutes(at.getTime())
  return offset === null ? null : new Date(at.getTime() + offset * 60_000)
}

const two = (n: number) => String(n).padStart(2, '0')
/** es-ES's short month names, as its medium dates write them ('21 nov 2026', '1 sept 2026'). */
const MONTHS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'] as const
const wallDate = (w: Date) => `${two(w.getUTCDate())}/${two(w.getUTCMonth() + 1)}/${w.getUTCFullYear()}`
const wallTime = (w: Date) => `${two(w.getUTCHours())}:${two(w.getUTCMinutes())}`

/** dd/mm/aaaa */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return ''
  const wall = madridWall(toDate(value))
  return wall ? wallDate(wall) : dateFmt().format(toDate(value))
}
/** dd/mm/aaaa, hh:mm */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return ''
  const wall = madridWall(toDate(value))
  return wall ? `${wallDate(wall)}, ${wallTime(wall)}` : dateTimeFmt().format(toDate(value))
}
/** dd/mm/aaaa, hh:mm:ss (the access log: when exactly) */
export function formatDateTimeSeconds(value: string | Date | null | undefined): string {
  if (!value) return ''
  const wall = madridWall(toDate(value))
  return wall ? `${wallDate(wall)}, ${wallTime(wall)}:${two(wall.getUTCSeconds())}` : dateTimeSecondsFmt().format(toDate(value))
}
/** '21 nov 2026' */
export function formatDateMedium(value: string | Date | null | undefined): string {
  if (!value) return ''
  const wall = madridWall(toDate(value))
  return wall ? `${wall.getUTCDate()} ${MONTHS[wall.getUTCMonth()]} ${wall.getUTCFullYear()}` : mediumFmt().format(toDate(value))
}

const dayFmt = formatter('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' })
const partsFmt = formatter('en-US', {
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
})

/**
 * Days already worked out, per UTC hour: Madrid's offset has been a whole number of hours since 1901 and it changes
 * on the hour, so every instant of one UTC hour falls on the same Madrid day. A list asks for the day of every row
 * (a resident's PIR badge) and of today, mostly the same hours: a lookup instead of Dates built and printed.
 */
const dayOfHour = new Map<number, string>()
/** From 1901 on, Madrid's offset is whole hours (before it, local mean time: 14 minutes 44 seconds behind). */
const WHOLE_HOUR_OFFSETS_FROM = Date.UTC(1901, 0, 2)

/** The calendar day (YYYY-MM-DD) of an instant in Europe/Madrid. */
export function madridDay(value: Date | string): string {
  const at = toDate(value)
  const ms = at.getTime()
  // Before 1901, and what is not a date (the formatter throws a RangeError for it).
  if (!(ms >= WHOLE_HOUR_OFFSETS_FROM)) return dayFmt().format(at)
  const hour = Math.floor(ms / HOUR)
  let day = dayOfHour.get(hour)
  if (day === undefined) {
    const wall = madridWall(at)
    day = wall ? wall.toISOString().slice(0, 10) : dayFmt().format(at)
    if (dayOfHour.size >= 10_000) dayOfHour.clear()
    dayOfHour.set(hour, day)
  }
  return day
}

/** Offset of Europe/Madrid from UTC at an instant, in minutes (60 in winter, 120 in summer). */
function madridOffsetMinutes(at: Date): number {
  const rule = euOffsetMinutes(at.getTime())
  if (rule !== null) return rule
  const parts = partsFmt().formatToParts(at)
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'))
  return Math.round((asUtc - at.getTime()) / 60_000)
}

/** Days already turned into instants: formatToParts is costly, and a list filter asks for the same days again. */
const startOfDayCache = new Map<string, number>()

/** The instant a Europe/Madrid calendar day (YYYY-MM-DD) starts. */
export function madridStartOfDay(day: string): Date {
  const cached = startOfDayCache.get(day)
  if (cached !== undefined) return new Date(cached)
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  const utcMidnight = Date.UTC(y, m - 1, d)
  // The offset at the guess is the offset at local midnight except within an hour of a DST change,
  // which in Madrid happens at 02:00/03:00, never at midnight.
  const start = utcMidnight - madridOffsetMinutes(new Date(utcMidnight)) * 60_000
  if (startOfDayCache.size >= 1000) startOfDayCache.clear()
  startOfDayCache.set(day, start)
  return new Date(start)
}

/** YYYY-MM-DD plus `days` calendar days. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10)
}

/** The last full calendar month before `now` in Europe/Madrid, as YYYY-MM-DD days (first and last). */
export function lastFullMonth(now: Date): { desde: string; hasta: string } {
  const [y, m] = madridDay(now).split('-').map(Number) as [number, number]
  const first = new Date(Date.UTC(y, m - 2, 1))
  const last = new Date(Date.UTC(y, m - 1, 0))
  return { desde: first.toISOString().slice(0, 10), hasta: last.toISOString().slice(0, 10) }
}

/** A 24-hour time 'HH:MM' (SPEC §2.9): '00:00'-'23:59'; '24:00', '7:5' and 'ab' are not times. */
export const HORA_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/

/**
 * The instant a Europe/Madrid wall-clock time starts ('2026-03-29', '01:30'). Around a daylight-saving change
 * the offset is the one in force at that time; a time that does not exist (02:30 on the spring-forward day)
 * comes out one hour later, as a clock would show it.
 */
export function madridDateTime(day: string, hora: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  const [hh, mm] = hora.split(':').map(Number) as [number, number]
  const wall = Date.UTC(y, m - 1, d, hh, mm)
  const first = new Date(wall - madridOffsetMinutes(new Date(wall)) * 60_000)
  const offset = madridOffsetMinutes(first)
  return new Date(wall - offset * 60_000)
}

/** The Europe/Madrid wall-clock time 'HH:MM' of an instant. */
export function madridTime(value: Date | string): string {
  const wall = madridWall(toDate(value))
  if (wall) return wallTime(wall)
  const parts = partsFmt().formatToParts(toDate(value))
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00'
  return `${get('hour')}:${get('minute')}`
}

/** The first day (YYYY-MM-01) of the month of a day, moved by `months`. */
export function addMonthsToMonth(day: string, months: number): string {
  const [y, m] = day.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(y, m - 1 + months, 1)).toISOString().slice(0, 10)
}
