import { HORA_PATTERN, madridDateTime, madridStartOfDay } from './dates'
import { z } from './zod-es'

/** The largest PostgreSQL `integer`: ids and counts beyond it are not ours. */
export const MAX_ID = 2_147_483_647

/** A required, trimmed text whose missing, wrong-type and empty forms all answer `message`. */
export function requiredText(message: string) {
  return z.string({ error: message }).trim().min(1, message)
}

/** http(s) URL; other schemes (javascript:, data:) are refused. */
export function httpUrl(message: string) {
  return z.url({ protocol: /^https?$/, error: message }).max(2000, message)
}

/**
 * An optional text field: absent (a PATCH leaves it as it is), or null, '' or only spaces, which all mean
 * "none" and come out as null; any other text is trimmed and must pass `schema`, whose own Spanish messages are
 * the ones shown (a union would report only its own type error, so the empty forms are mapped before `schema`).
 */
export function optionalText<S extends z.ZodType<unknown, string>>(schema: S) {
  // A form holds a text or nothing: that is the field's input type (the OpenAPI document and zodResolver's).
  return z
    .preprocess((value: string | null) => {
      if (typeof value !== 'string') return value
      const text = value.trim()
      return text === '' ? null : text
    }, schema.nullable())
    .optional()
}

/** Optional URL field: absent, null or '' mean "none" (null). */
export function optionalUrl(message: string) {
  return optionalText(httpUrl(message))
}

/** A required positive integer id chosen in a select (SPEC §5: 'obligatoria' when missing, type error otherwise). */
export function requiredId(requiredMessage: string, typeMessage: string, invalidMessage = typeMessage) {
  return z
    .number({
      error: (iss) => (iss.input === undefined || iss.input === null || iss.input === '' ? requiredMessage : typeMessage),
    })
    .int(invalidMessage)
    .positive(invalidMessage)
    .max(MAX_ID, invalidMessage)
}

export const ID_MESSAGE = 'Identificador no válido'

/**
 * An id in a path or a query string: decimal digits only ('0x1', '1e3', '+1', ' 1' are refused, not
 * coerced), within a PostgreSQL integer.
 */
export const idParam = z
  .string({ error: ID_MESSAGE })
  .regex(/^[1-9][0-9]{0,9}$/, ID_MESSAGE)
  .transform(Number)
  .pipe(z.number().max(MAX_ID, ID_MESSAGE))

export const idParamsSchema = z.object({ id: idParam })

/** Letters of any alphabet, with their combining marks (for `u` regular expressions). */
export const LETTERS = '\\p{L}\\p{M}'

/**
 * DECISIONS D12: people's names as people write them: letters (accented too), spaces, apostrophes,
 * hyphens, periods and 'ª' ('O'Neill-Núñez', 'Mª José'), starting with a letter.
 */
export const PERSON_NAME = new RegExp(`^[${LETTERS}][${LETTERS} '’.ª\\-]*$`, 'u')

/** DECISIONS D12: a NUL byte or a lone surrogate half is refused in any text. */
export const INVALID_TEXT_MESSAGE = 'El texto contiene caracteres no válidos (un carácter nulo o un carácter incompleto).'

/** True when a text holds a NUL byte or a lone UTF-16 surrogate (which PostgreSQL cannot store). */
export function hasInvalidText(value: string): boolean {
  // With the u flag a well-formed pair is one code point, so only lone halves match the range.
  return value.includes('\u0000') || /[\uD800-\uDFFF]/u.test(value)
}

/**
 * Length in characters as PostgreSQL's varchar counts them (Unicode code points), not UTF-16 units: an
 * emoji is one character, so 150 characters with emoji fit a 150-character column exactly.
 */
export function charLength(value: string): number {
  let n = 0
  for (const _ of value) n++
  return n
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/
/** An instant with its zone ('2026-11-21T10:00:00Z', '…+01:00'). */
export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/
/**
 * A date and time without a zone ('2026-11-21T10:30', as a date-and-time input writes it; seconds, if any, are
 * dropped): a wall-clock time in Europe/Madrid, never the zone of the machine that parses it.
 */
export const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d{1,9})?)?$/

/**
 * A date a form or client sends (SPEC §5: required and valid; stored as timestamptz, DECISIONS D10): an ISO
 * instant ('2026-11-21T10:00:00Z', '…+01:00'), a day from a date input ('2026-11-21'), which means the
 * start of that day in Europe/Madrid, or a date-and-time input's value ('2026-11-21T10:30'), a Madrid time. Output: the instant as an ISO string. Years outside 1900-2100 are not
 * a valid date for these records.
 */
export function fechaSchema(messages: { obligatoria: string; invalida: string }) {
  return z.unknown().transform((input, ctx) => {
    if (input === undefined || input === null || (typeof input === 'string' && input.trim() === '')) {
      ctx.addIssue({ code: 'custom', message: messages.obligatoria })
      return z.NEVER
    }
    const text = typeof input === 'string' ? input.trim() : ''
    let instant: Date | undefined
    const day = ISO_DAY.exec(text)
    const local = LOCAL_DATE_TIME.exec(text)
    if (local) {
      const [, date, hora] = local as unknown as [string, string, string]
      if (isRealDay(date) && HORA_PATTERN.test(hora)) instant = madridDateTime(date, hora)
    } else if (day) {
      const [, y, m, d] = day as unknown as [string, string, string, string]
      const probe = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)))
      if (probe.getUTCMonth() === Number(m) - 1 && probe.getUTCDate() === Number(d)) instant = madridStartOfDay(text)
    } else if (ISO_INSTANT.test(text)) {
      const parsed = new Date(text)
      // Date accepts 2026-02-31 by rolling over; the day part must exist as written.
      const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number]
      const probe = new Date(Date.UTC(y, m - 1, d))
      if (!Number.isNaN(parsed.getTime()) && probe.getUTCDate() === d && probe.getUTCMonth() === m - 1) instant = parsed
    }
    // The written year decides (Date.UTC maps years 0-99 to 1900-1999).
    const year = Number(text.slice(0, 4))
    if (!instant || year < 1900 || year > 2100) {
      ctx.addIssue({ code: 'custom', message: messages.invalida })
      return z.NEVER
    }
    return instant.toISOString()
  })
}

/** True for a YYYY-MM-DD that names a day that exists ('2026-02-30' does not). */
export function isRealDay(value: string): boolean {
  if (!ISO_DAY.test(value)) return false
  const [y, m, d] = value.split('-').map(Number) as [number, number, number]
  const probe = new Date(Date.UTC(y, m - 1, d))
  return probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d
}

/** A day in a query string (`fecha`, `desde`, `hasta`): YYYY-MM-DD, a real day. */
export function daySchema(message: string) {
  return z
    .string({ error: message })
    .regex(ISO_DAY, message)
    .refine((v) => {
      const [y, m, d] = v.split('-').map(Number) as [number, number, number]
      const probe = new Date(Date.UTC(y, m - 1, d))
      return probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d && y >= 1900 && y <= 2100
    }, message)
}
