import { z } from 'zod'

/** A required, trimmed text whose missing, wrong-type and empty forms all answer `message`. */
export function requiredText(message: string) {
  return z.string({ error: message }).trim().min(1, message)
}

/** http(s) URL; other schemes (javascript:, data:) are refused. */
export function httpUrl(message: string) {
  return z.url({ protocol: /^https?$/, error: message }).max(2000, message)
}

/** Optional URL field: absent, null or '' mean "none" (the service stores null). */
export function optionalUrl(message: string) {
  return z
    .union([z.literal(''), httpUrl(message)], { error: message })
    .nullable()
    .optional()
}

/** A required positive integer id chosen in a select (SPEC §5: 'obligatoria' when missing, type error otherwise). */
export function requiredId(requiredMessage: string, typeMessage: string, invalidMessage = typeMessage) {
  return z
    .number({
      error: (iss) => (iss.input === undefined || iss.input === null || iss.input === '' ? requiredMessage : typeMessage),
    })
    .int(invalidMessage)
    .positive(invalidMessage)
}

/** Letters of Spanish and other Latin alphabets. */
export const LETTERS = 'A-Za-zÀ-ÖØ-öø-ÿ'
