import { describe, expect, it } from 'vitest'
import { formatMoney } from './money'

const shown = (value: string) => formatMoney(value).replace(/\u00a0/g, ' ')

describe('formatMoney (DECISIONS D10)', () => {
  it('marks every thousand, four digits too, with two decimals', () => {
    expect(shown('999.99')).toBe('999,99 €')
    expect(shown('1234.5')).toBe('1.234,50 €')
    expect(shown('-1234.56')).toBe('-1.234,56 €')
    expect(shown('1234567.89')).toBe('1.234.567,89 €')
    expect(shown('0.10')).toBe('0,10 €')
  })

  it('is exact beyond a float: the largest amount keeps its cents', () => {
    expect(shown('9999999999.99')).toBe('9.999.999.999,99 €')
    expect(shown('-9999999999.99')).toBe('-9.999.999.999,99 €')
  })
})
