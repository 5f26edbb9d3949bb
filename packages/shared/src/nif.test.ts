import { describe, expect, it } from 'vitest'
import { hasNifShape, isValidNif, nifCheckLetter, normalizeNif } from './nif'

describe('NIF / NIE (SPEC §5, DECISIONS D2)', () => {
  it('computes the check letter of the number modulo 23', () => {
    expect(nifCheckLetter(12345678)).toBe('Z')
    expect(nifCheckLetter('00000000')).toBe('T')
    expect(nifCheckLetter(22)).toBe('E')
  })
  it('accepts valid NIFs in any case and with spaces', () => {
    expect(isValidNif('12345678Z')).toBe(true)
    expect(isValidNif(' 12345678z ')).toBe(true)
    expect(normalizeNif(' 12345678z ')).toBe('12345678Z')
  })
  it('refuses a wrong letter', () => {
    expect(isValidNif('12345678A')).toBe(false)
  })
  it('accepts NIEs with X=0, Y=1, Z=2', () => {
    expect(isValidNif('X1234567L')).toBe(true)
    expect(isValidNif('Y1234567X')).toBe(true)
    expect(isValidNif('Z1234567R')).toBe(true)
    expect(isValidNif('X1234567A')).toBe(false)
  })
  it('tells shape from letter', () => {
    expect(hasNifShape('1234567Z')).toBe(false)
    expect(hasNifShape('A1234567Z')).toBe(false)
    expect(hasNifShape('12345678A')).toBe(true)
  })
})
