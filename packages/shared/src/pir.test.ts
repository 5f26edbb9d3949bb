import { describe, expect, it } from 'vitest'
import { isPirTitle, pirDatedFrom, pirLabel, pirStatus } from './pir'

// Noon in Madrid on 2026-11-21.
const today = new Date('2026-11-21T11:00:00Z')

describe('PIR status (SPEC §4, DECISIONS D3)', () => {
  it('is "No registrado" without a PIR document', () => {
    const s = pirStatus([], today)
    expect(s).toEqual({ estado: 'sinpir', diasRestantes: null, caducidad: null })
    expect(pirLabel(s)).toBe('No registrado')
  })
  it('expires 6 months after its date', () => {
    expect(pirStatus(['2026-06-01'], today).caducidad).toBe('2026-12-01')
    // Month-end: 31 August + 6 months is the last day of February.
    expect(pirStatus(['2026-08-31'], today).caducidad).toBe('2027-02-28')
  })
  it('is "Vigente" with more than 30 days left', () => {
    const s = pirStatus(['2026-06-22'], today) // expires 2026-12-22: 31 days
    expect(s).toMatchObject({ estado: 'vigente', diasRestantes: 31 })
    expect(pirLabel(s)).toBe('Vigente')
  })
  it('warns from 30 days down to 0', () => {
    expect(pirLabel(pirStatus(['2026-06-21'], today))).toBe('Caduca en 30 días')
    expect(pirLabel(pirStatus(['2026-05-21'], today))).toBe('Caduca en 0 días')
  })
  it('is "Caducado" once the day has passed', () => {
    const s = pirStatus(['2026-05-20'], today)
    expect(s).toMatchObject({ estado: 'caducado', diasRestantes: -1 })
    expect(pirLabel(s)).toBe('Caducado')
  })
  it('counts the latest PIR when there are several', () => {
    expect(pirStatus(['2025-01-01', '2026-09-01', '2026-03-01'], today).estado).toBe('vigente')
  })
  it('counts calendar days in Europe/Madrid, not UTC', () => {
    // 23:30 UTC on 20 May is already 21 May in Madrid.
    expect(pirStatus(['2026-05-20T23:30:00Z'], today).diasRestantes).toBe(0)
  })
  it('recognises the PIR title trimmed and in any case', () => {
    expect(isPirTitle(' pir ')).toBe(true)
    expect(isPirTitle('PIR 2026')).toBe(false)
  })
})

describe('pirDatedFrom: the bound SQL compares stored PIR dates with', () => {
  it('for every day of 2027-2028: a PIR has expired on that day exactly when it is dated before the bound', () => {
    const day = (t: number) => new Date(t).toISOString().slice(0, 10)
    for (let t = Date.UTC(2027, 0, 1); t < Date.UTC(2029, 0, 1); t += 86_400_000) {
      const hoy = day(t)
      const bound = pirDatedFrom(hoy)
      const now = new Date(`${hoy}T10:00:00Z`)
      // Every PIR date from 200 to 150 days before: expired by the rule ⇔ before the bound.
      for (let back = 150; back <= 200; back++) {
        const fecha = day(t - back * 86_400_000)
        expect(pirStatus([`${fecha}T10:00:00Z`], now).estado === 'caducado', `${hoy} ${fecha}`).toBe(fecha < bound)
      }
    }
  })

  it('clips at month ends: on 31 March the bound is 1 October, not 30 September', () => {
    expect(pirDatedFrom('2027-03-31')).toBe('2026-10-01')
    expect(pirDatedFrom('2027-03-01')).toBe('2026-09-01')
    expect(pirDatedFrom('2028-02-29')).toBe('2027-08-29')
  })
})
