import { describe, expect, it } from 'vitest'
import { formatCount, formatMoney } from './money'

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

describe('formatMoney by hand against Intl.NumberFormat', () => {
  const intl = new Intl.NumberFormat('es-ES', {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: 2,
    useGrouping: 'always',
  })
  it('writes every decimal string of up to two decimals exactly as Intl does', () => {
    const values = ['0', '-0', '0.5', '-0.00', '007.10', '999.99', '1000', '-1000.01', '123456789012.34', '99999999999999.9']
    // Every length of integer part, each sign and number of decimals, with digits from a fixed sequence.
    for (let digits = 1; digits <= 14; digits++)
      for (const decimals of ['', '.5', '.05', '.50', '.99'])
        for (const sign of ['', '-']) values.push(`${sign}${'9876543210123456'.slice(0, digits)}${decimals}`)
    for (const value of values) expect(formatMoney(value)).toBe(intl.format(value as unknown as number))
  })

  it('leaves numbers and longer decimals to Intl, rounded as before', () => {
    expect(formatMoney(1234.5)).toBe(intl.format(1234.5))
    expect(formatMoney('1.005')).toBe(intl.format('1.005' as unknown as number))
  })
})

describe('formatCount against toLocaleString', () => {
  it('writes counts as es-ES does, thousands marked from five digits on', () => {
    const values = [0, 7, -7, 999, 1000, 1234, 9999, 10_000, 12_345, -12_345, 100_000, 1_234_567, Number.MAX_SAFE_INTEGER, 1.5]
    for (let n = 1; n < 1e15; n = n * 10 + (n % 7)) values.push(n, -n)
    for (const value of values) expect(formatCount(value)).toBe(value.toLocaleString('es-ES'))
  })
})
