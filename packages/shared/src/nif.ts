/** SPEC §5 / DECISIONS D2: Spanish NIF (8 digits + letter) and NIE (X/Y/Z + 7 digits + letter). */
const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE'

/** Standard check letter for a DNI number (number modulo 23). */
export function nifCheckLetter(digits: string | number): string {
  const n = typeof digits === 'number' ? digits : Number.parseInt(digits, 10)
  return LETTERS.charAt(n % 23)
}

export const NIF_FORMAT = /^\d{8}[A-Z]$/
export const NIE_FORMAT = /^[XYZ]\d{7}[A-Z]$/

/** Trim and upper-case, as the NIF is stored (D2). */
export function normalizeNif(value: string): string {
  return value.trim().toUpperCase()
}

/** True when the value has NIF or NIE shape (before the check letter is verified). */
export function hasNifShape(value: string): boolean {
  const v = normalizeNif(value)
  return NIF_FORMAT.test(v) || NIE_FORMAT.test(v)
}

/** True when the NIF or NIE carries the right check letter. */
export function isValidNif(value: string): boolean {
  const v = normalizeNif(value)
  if (NIF_FORMAT.test(v)) return nifCheckLetter(v.slice(0, 8)) === v.charAt(8)
  if (NIE_FORMAT.test(v)) {
    const prefix = { X: '0', Y: '1', Z: '2' }[v.charAt(0) as 'X' | 'Y' | 'Z']
    return nifCheckLetter(prefix + v.slice(1, 8)) === v.charAt(8)
  }
  return false
}
