import { describe, expect, it } from 'vitest'
import { PLANING_PALETTE, PLANING_TODOS_COLOR, planingColor, planingTareaCreateSchema, usuarioColor } from './planing'

const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number]
  const f = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
}
const onWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05)

describe('calendar colours (SPEC §2.9, §9)', () => {
  it('has 20 distinct colours, each under white text at 4.5:1 or more', () => {
    expect(new Set(PLANING_PALETTE).size).toBe(20)
    for (const c of PLANING_PALETTE) expect(onWhite(c), c).toBeGreaterThanOrEqual(4.5)
  })

  it('colours a task by its first resident’s id, and black when it is for everyone', () => {
    expect(planingColor({ todos: true, usuarios: [{ id: 3 }] })).toBe(PLANING_TODOS_COLOR)
    expect(
      planingColor({
        todos: false,
        usuarios: [{ id: 27 }, { id: 5 }],
      }),
    ).toBe(usuarioColor(5))
    expect(usuarioColor(5)).toBe(usuarioColor(25))
    expect(usuarioColor(5)).not.toBe(usuarioColor(6))
  })
})

describe('calendar task schema (SPEC §5)', () => {
  const base = { titulo: 'Cita', descripcion: 'Revisión', fecha: '2026-03-29', usuarioIds: 'all', empresaId: 1 }
  it.each(['24:00', '7:5', 'ab', '12:60', '1230'])('refuses the time %s', (hora) => {
    const result = planingTareaCreateSchema.safeParse({ ...base, hora })
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['hora'])
  })

  it('makes a Madrid instant of the day and the time, across the daylight-saving change', () => {
    expect(planingTareaCreateSchema.parse({ ...base, hora: '01:30' }).fecha).toBe('2026-03-29T00:30:00.000Z')
    expect(planingTareaCreateSchema.parse({ ...base, hora: '03:30' }).fecha).toBe('2026-03-29T01:30:00.000Z')
    expect(planingTareaCreateSchema.parse({ ...base, fecha: '2026-07-01', hora: '00:00' }).fecha).toBe('2026-06-30T22:00:00.000Z')
  })

  it("takes SPEC §7's body, whose fecha is an instant with its time and no hora; a day alone still needs one", () => {
    expect(planingTareaCreateSchema.parse({ ...base, fecha: '2026-12-01T10:00:00.000Z' }).fecha).toBe('2026-12-01T10:00:00.000Z')
    // A time sent beside the instant wins, as in an edit.
    expect(planingTareaCreateSchema.parse({ ...base, fecha: '2026-12-01T10:00:00.000Z', hora: '09:15' }).fecha).toBe(
      '2026-12-01T08:15:00.000Z',
    )
    // Without a zone it is Madrid's wall clock (10:00 in Madrid in winter is 09:00 UTC), wherever it is parsed.
    expect(planingTareaCreateSchema.parse({ ...base, fecha: '2026-12-11T10:00' }).fecha).toBe('2026-12-11T09:00:00.000Z')
    expect(planingTareaCreateSchema.parse({ ...base, fecha: '2026-07-11T10:00:00' }).fecha).toBe('2026-07-11T08:00:00.000Z')
    expect(planingTareaCreateSchema.safeParse({ ...base, fecha: '2026-07-11T25:00' }).success).toBe(false)
    const sinHora = planingTareaCreateSchema.safeParse(base)
    expect(sinHora.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['hora', 'La hora es obligatoria']])
    // Said with every other field's message at once (SPEC §5: all are collected).
    const vacio = planingTareaCreateSchema.safeParse({ ...base, titulo: '', hora: '' })
    expect(vacio.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['hora', 'titulo'])
  })
})
