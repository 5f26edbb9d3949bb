import { type MoneyMessages, parseMoney } from './money'
import { z } from './zod-es'

/**
 * The one money schema: accepts a string or a number, outputs the normalised decimal string, and answers
 * each broken rule with the resource's own message.
 */
export function moneySchema(messages: MoneyMessages, rules: { allowZero?: boolean; positive?: boolean } = {}) {
  const r = { allowZero: rules.allowZero ?? false, positive: rules.positive ?? false }
  return z.unknown().transform((input, ctx) => {
    const parsed = parseMoney(input, r)
    if (parsed.ok) return parsed.value
    ctx.addIssue({ code: 'custom', message: messages[parsed.message] ?? messages.numero })
    return z.NEVER
  })
}

/** Schema of an amount the API returns: the decimal string PostgreSQL gives for numeric(12,2). */
export const moneyValueSchema = z.string().regex(/^-?\d+\.\d{2}$/)
