import { describe, expect, it } from 'vitest'
import {
  formatDate,
  formatDateMedium,
  formatDateTime,
  formatDateTimeSeconds,
  madridDateTime,
  madridDay,
  madridStartOfDay,
  madridTime,
} from './dates'

const formatter = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Madrid',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
})

describe('madridDay', () => {
  it('gives the Madrid day of every instant, around midnight and the daylight-saving changes included', () => {
    // Every 7 minutes across whole days around the 2026 changes (29 March, 25 October) and a winter and a summer
    // day: each answer is asked twice (the second comes from the per-hour memory) and equals the formatter's.
    const days = ['2026-03-28', '2026-03-29', '2026-03-30', '2026-10-24', '2026-10-25', '2026-10-26', '2026-01-15', '2026-07-15']
    for (const day of days) {
      const from = Date.parse(`${day}T00:00:00Z`) - 3 * 3_600_000
      for (let ms = from; ms < from + 30 * 3_600_000; ms += 7 * 60_000) {
        const expected = formatter.format(new Date(ms))
        expect(madridDay(new Date(ms))).toBe(expected)
        expect(madridDay(new Date(ms))).toBe(expected)
        expect(madridDay(new Date(ms).toISOString())).toBe(expected)
      }
    }
  })

  it('keeps the exact rule where Madrid was not a whole number of hours from UTC (before 1901)', () => {
    // Local mean time, 14 min 44 s behind UTC: 00:10 UTC on 1 January 1900 was still 31 December in Madrid.
    expect(madridDay(new Date(Date.UTC(1900, 0, 1, 0, 10)))).toBe('1899-12-31')
    expect(madridDay(new Date(Date.UTC(1900, 0, 1, 0, 20)))).toBe('1900-01-01')
  })

  it('reads a bare day as that day', () => {
    expect(madridDay('2026-11-26')).toBe('2026-11-26')
    expect(madridDay('2026-03-29')).toBe('2026-03-29')
  })
})

/** The time-zone database's answers (Node's ICU), to check the arithmetic of dates.ts against. */
const tz = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', ...options })
const esDate = tz({ day: '2-digit', month: '2-digit', year: 'numeric' })
const esDateTime = tz({ day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' })
const esSeconds = tz({ day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' })
const esTime = tz({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
const esMedium = tz({ dateStyle: 'medium' })

/** Every instant the rule must get right: each hour of March and October, and one instant a week, 1996-2099. */
function* instants(): Generator<number> {
  for (let year = 1996; year <= 2099; year++) {
    for (const month of [2, 9]) {
      const end = Date.UTC(year, month + 1, 1)
      // A minute and seconds that move with the hour, so the formats' minutes and seconds are checked too.
      for (let ms = Date.UTC(year, month, 1); ms < end; ms += 3_600_000) yield ms + ((ms / 3_600_000) % 60) * 61_000
    }
    for (let ms = Date.UTC(year, 0, 1, 0, 17, 29); ms < Date.UTC(year + 1, 0, 1); ms += 7 * 86_400_000 + 3_600_000) yield ms
  }
}

describe('Madrid time by arithmetic (1996-2099) against the time-zone database', () => {
  it('gives the same day, time and texts as Intl for every hour of March and October and an instant a week', () => {
    let checked = 0
    for (const ms of instants()) {
      const at = new Date(ms)
      const day = madridDay(at)
      const text = esDate.format(at)
      // Asserting each by hand keeps a run of 200,000 instants fast; a difference fails with both values.
      if (formatDate(at) !== text) expect(formatDate(at)).toBe(text)
      if (day !== `${text.slice(6)}-${text.slice(3, 5)}-${text.slice(0, 2)}`) expect(day).toBe(text)
      if (formatDateTime(at) !== esDateTime.format(at)) expect(formatDateTime(at)).toBe(esDateTime.format(at))
      if (formatDateTimeSeconds(at) !== esSeconds.format(at)) expect(formatDateTimeSeconds(at)).toBe(esSeconds.format(at))
      if (madridTime(at) !== esTime.format(at)) expect(madridTime(at)).toBe(esTime.format(at))
      if (formatDateMedium(at) !== esMedium.format(at)) expect(formatDateMedium(at)).toBe(esMedium.format(at))
      checked++
    }
    expect(checked).toBeGreaterThan(150_000)
  })

  it('starts each day and reads each wall-clock time as the time-zone database does, on the changes too', () => {
    for (const day of ['1996-03-31', '1996-10-27', '2026-03-29', '2026-10-25', '2026-11-29', '2099-10-25']) {
      const start = madridStartOfDay(day)
      expect(madridDay(start)).toBe(day)
      expect(madridDay(new Date(start.getTime() - 1))).not.toBe(day)
      for (const hora of ['00:00', '01:30', '02:30', '03:00', '12:00', '23:59']) {
        const at = madridDateTime(day, hora)
        // A time the clock skipped (02:30 on the spring-forward day) comes out an hour later.
        const shown = esTime.format(at)
        expect([hora, `${String(Number(hora.slice(0, 2)) + 1).padStart(2, '0')}${hora.slice(2)}`]).toContain(shown)
        expect(madridTime(at)).toBe(shown)
      }
    }
  })

  it('leaves the years outside the rule, and what is not a date, to the time-zone database as before', () => {
    expect(formatDate('1975-06-01T12:00:00Z')).toBe(esDate.format(new Date('1975-06-01T12:00:00Z')))
    expect(formatDateTime('2100-07-01T12:00:00Z')).toBe(esDateTime.format(new Date('2100-07-01T12:00:00Z')))
    expect(() => formatDate('no es una fecha')).toThrow(RangeError)
    expect(() => madridDay('no es una fecha')).toThrow(RangeError)
  })
})
