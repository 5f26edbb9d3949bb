import { type ErrorBody, errorCodes } from './app-error'
import { z } from './zod-es'

export * from './app-error'

/** Body of every non-2xx API response. */
export const errorBodySchema: z.ZodType<ErrorBody> = z.object({
  statusCode: z.number().int(),
  code: z.enum(errorCodes),
  message: z.string(),
  fieldErrors: z.record(z.string(), z.string()).optional(),
})
