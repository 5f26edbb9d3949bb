import type { z } from 'zod'
import { fieldErrorsFromIssues } from './errors'

/** `{ field: first message }` of a failed parse, as the API's fieldErrors (empty when it passes). */
export function errorsOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input)
  return result.success ? {} : fieldErrorsFromIssues(result.error.issues)
}
