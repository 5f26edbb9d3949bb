/**
 * DECISIONS A6: money is an exact decimal with at most 2 decimals, `numeric(12,2)` in the database, and a
 * decimal string ('1234.50') on the wire and in code: never a JavaScript float on a server path.
 */
export const MONEY_MAX_INTEGER_DIGITS = 10

export interface MoneyMessages {
  obligatoria: string
  numero: string
  decimales: string
  /** When zero is refused (cash). */
  cero?: string
  /** When only positive amounts are allowed (budgets). */
  positivo?: string
  maximo: string
}

/** The money messages of a cash movement (SPEC §5 Cash movement, DECISIONS D7). */
export const cantidadMessages: MoneyMessages = {
  obligatoria: 'La cantidad es obligatoria',
  numero: 'La cantidad debe ser un número',
  decimales: 'La cantidad solo puede tener hasta 2 decimales',
  cero: 'La cantidad no puede ser 0',
  maximo: 'La cantidad no puede superar 9.999.999.999,99 €',
}

type Parsed = { ok: true; value: string } | { ok: false; message: keyof MoneyMessages }

/**
 * Parses what a person typed or a client sent ('12,5', '-3.20', 7, '1e3') into a normalised decimal string
 * ('12.50', '-3.20', '7.00'), or says which rule it breaks. A comma or a dot is the decimal separator;
 * exponents, thousands separators and more than 2 decimals are refused, never rounded.
 */
export function parseMoney(input: unknown, rules: { allowZero: boolean; positive: boolean }): Parsed {
  if (input === undefined || input === null || (typeof input === 'string' && input.trim() === '')) {
    return { ok: false, message: 'obligatoria' }
  }
  let text: string
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, message: 'numero' }
    // A JSON number: its shortest round-trip form (0.1 + 0.2 arrives as 0.30000000000000004: too many decimals).
    text = String(input)
  } else if (typeof input === 'string') {
    text = input.trim().replace(',', '.')
  } else {
    return { ok: false, message: 'numero' }
  }
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text)
  if (!match) return { ok: false, message: 'numero' }
  const [, sign, whole, fraction = ''] = match as unknown as [string, string, string, string | undefined]
  if (fraction.length > 2) return { ok: false, message: 'decimales' }
  const integer = whole.replace(/^0+(?=\d)/, '')
  if (integer.length > MONEY_MAX_INTEGER_DIGITS) return { ok: false, message: 'maximo' }
  const cents = fraction.padEnd(2, '0')
  const zero = /^0+$/.test(integer) && /^0+$/.test(cents)
  if (zero && !rules.allowZero) return { ok: false, message: rules.positive ? 'positivo' : 'cero' }
  if (sign === '-' && !zero && rules.positive) return { ok: false, message: 'positivo' }
  return { ok: true, value: `${sign === '-' && !zero ? '-' : ''}${integer}.${cents}` }
}

// es-ES alone leaves four-digit amounts ungrouped ('1234,50 €' beside '12.345,00 €'); a column of money reads
// better with every thousand marked, as Spanish banks show it. Made on first use (see formatMoney).
let moneyFormat: Intl.NumberFormat | undefined

/** A decimal string of at most two decimals: what the API sends and the forms keep. */
const PLAIN_AMOUNT = /^(-?)(\d+)(?:\.(\d{1,2}))?$/

/**
 * '1.234,50 €' (DECISIONS D10), thousands always marked. A decimal string is formatted exactly, never through a
 * float: one of at most two decimals by hand (the first Intl formatter a page makes loads ICU's data, 20-30 ms of a
 * phone's start; money.test.ts checks the two agree), anything else by Intl.NumberFormat, which reads it as a decimal.
 */
export function formatMoney(value: string | number): string {
  const plain = typeof value === 'string' ? PLAIN_AMOUNT.exec(value) : null
  if (plain) {
    const [, sign, whole, fraction = ''] = plain as unknown as [string, string, string, string | undefined]
    const integer = whole.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+$)/g, '.')
    return `${sign}${integer},${fraction.padEnd(2, '0')}\u00a0€`
  }
  moneyFormat ??= new Intl.NumberFormat('es-ES', {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: 2,
    useGrouping: 'always',
  })
  return moneyFormat.format(value as unknown as number)
}

/**
 * A count as es-ES writes it ('999', '1234', '12.345': es-ES marks thousands from five digits on), by hand for the
 * same reason as formatMoney; money.test.ts checks it against toLocaleString.
 */
export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString('es-ES')
  const digits = String(Math.abs(value))
  const grouped = digits.length >= 5 ? digits.replace(/\B(?=(\d{3})+$)/g, '.') : digits
  return value < 0 ? `-${grouped}` : grouped
}

/** Sign of a decimal string without converting it: -1, 0 or 1. */
export function moneySign(value: string): -1 | 0 | 1 {
  if (/^-?0+(\.0+)?$/.test(value)) return 0
  return value.startsWith('-') ? -1 : 1
}
