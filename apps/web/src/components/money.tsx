import { formatMoney, moneySign } from '@vb/shared/money'

/** The class of an amount's colour: red below zero, green at or above (styles.css, defined once). */
export const moneyClass = (value: string) => (moneySign(value) < 0 ? 'vb-money-negative' : 'vb-money-positive')

/**
 * An amount as es-ES euros ('1.234,50 €'), coloured by its sign (SPEC §2.15, DECISIONS A6, D10). The value
 * stays a decimal string: it is never turned into a float.
 */
export function Money({ value, signed = false, className = '' }: { value: string; signed?: boolean; className?: string }) {
  const text = formatMoney(value)
  return (
    <span className={`text-nowrap fw-semibold ${moneyClass(value)} ${className}`.trim()}>
      {signed && moneySign(value) > 0 ? `+${text}` : text}
    </span>
  )
}
