import { madridDateTime } from '@vb/shared/dates'
import { describe, expect, it } from 'vitest'
import { dayTitle, GRID_CELLS, gridRange, monthGrid, monthTitle, parseMonth, shiftMonth, tasksByDay } from './month-grid'

const days = (month: string) => monthGrid(month, '').map((c) => c.dia)
const inMonth = (month: string) =>
  monthGrid(month, '')
    .filter((c) => c.delMes)
    .map((c) => c.numero)

describe('monthGrid (SPEC §2.9: 42 cells, Monday first)', () => {
  it('a month that starts on Monday (June 2026) starts on its 1st and fills six weeks with July', () => {
    const cells = monthGrid('2026-06', '2026-06-15')
    expect(cells).toHaveLength(GRID_CELLS)
    expect(cells[0]).toEqual({ dia: '2026-06-01', numero: 1, diaSemana: 0, delMes: true, hoy: false })
    expect(inMonth('2026-06')).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
    expect(days('2026-06').at(-1)).toBe('2026-07-12')
    expect(cells.filter((c) => c.hoy).map((c) => c.dia)).toEqual(['2026-06-15'])
    expect(cells.slice(30).every((c) => !c.delMes)).toBe(true)
  })

  it('a month that starts on Sunday (March 2026) begins with six days of February', () => {
    const cells = monthGrid('2026-03', '')
    expect(cells.slice(0, 7).map((c) => [c.dia, c.delMes])).toEqual([
      ['2026-02-23', false],
      ['2026-02-24', false],
      ['2026-02-25', false],
      ['2026-02-26', false],
      ['2026-02-27', false],
      ['2026-02-28', false],
      ['2026-03-01', true],
    ])
    expect(cells[6]?.diaSemana).toBe(6)
    expect(inMonth('2026-03')).toHaveLength(31)
    expect(days('2026-03').at(-1)).toBe('2026-04-05')
  })

  it('February of a leap year (2028) has its 29th, then March', () => {
    const cells = monthGrid('2028-02', '2028-02-29')
    expect(cells[0]?.dia).toBe('2028-01-31')
    expect(inMonth('2028-02')).toHaveLength(29)
    const leap = cells.find((c) => c.dia === '2028-02-29')
    expect(leap).toMatchObject({ delMes: true, hoy: true, diaSemana: 1 })
    expect(cells.find((c) => c.dia === '2028-03-01')?.delMes).toBe(false)
    expect(inMonth('2027-02')).toHaveLength(28)
  })

  it('every cell is one calendar day after the other, across the daylight-saving change (October 2026)', () => {
    const list = days('2026-10')
    expect(list[0]).toBe('2026-09-28')
    expect(list).toContain('2026-10-25')
    for (let i = 1; i < list.length; i++) {
      const gap = Date.parse(`${list[i]}T00:00:00Z`) - Date.parse(`${list[i - 1]}T00:00:00Z`)
      expect(gap).toBe(86_400_000)
    }
    expect(new Set(list).size).toBe(GRID_CELLS)
  })

  it('asks the server for the grid’s first to last day, and moves month by month', () => {
    expect(gridRange('2026-03')).toEqual({ desde: '2026-02-23', hasta: '2026-04-05' })
    expect(shiftMonth('2026-01', -1)).toBe('2025-12')
    expect(shiftMonth('2026-12', 1)).toBe('2027-01')
    expect(parseMonth('2026-13')).toBeNull()
    expect(parseMonth('abc')).toBeNull()
    expect(parseMonth('2026-03')).toBe('2026-03')
    expect(monthTitle('2026-03')).toBe('Marzo de 2026')
    expect(dayTitle('2026-03-30')).toBe('lunes, 30 de marzo')
  })
})

describe('tasksByDay: a task stays on its Madrid day across the daylight-saving change', () => {
  it('March 2026: tasks at 01:30 on the 29th (before the change) and on the 30th (23:30 UTC the day before)', () => {
    const a = { id: 1, fecha: madridDateTime('2026-03-29', '01:30').toISOString() }
    const b = { id: 2, fecha: madridDateTime('2026-03-30', '01:30').toISOString() }
    const c = { id: 3, fecha: madridDateTime('2026-03-29', '23:30').toISOString() }
    expect(b.fecha).toBe('2026-03-29T23:30:00.000Z')
    const byDay = tasksByDay([b, c, a])
    expect(byDay.get('2026-03-29')?.map((t) => t.id)).toEqual([1, 3])
    expect(byDay.get('2026-03-30')?.map((t) => t.id)).toEqual([2])
    // Every task lands on a cell of the grid.
    const grid = days('2026-03')
    expect([...byDay.keys()].every((d) => grid.includes(d))).toBe(true)
  })

  it('October 2026: a task at 01:30 on the 25th (the hour repeats at 02:00-03:00) stays on the 25th', () => {
    const t = { id: 1, fecha: madridDateTime('2026-10-25', '01:30').toISOString() }
    const late = { id: 2, fecha: madridDateTime('2026-10-25', '23:59').toISOString() }
    expect([...tasksByDay([t, late]).keys()]).toEqual(['2026-10-25'])
  })
})
