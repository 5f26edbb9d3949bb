import { describe, expect, it } from 'vitest'
import { madridDay } from './dates'

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
