import { AppError, hasInvalidText, INVALID_TEXT_MESSAGE } from '@vb/shared'
import type { FastifyInstance } from 'fastify'

/**
 * DECISIONS D12 at the edge, for every route and every field (body, query string, path): a NUL byte or a
 * lone surrogate answers 400 with a Spanish message (PostgreSQL cannot store them; today they would be a
 * 500 or be silently replaced), and every other text is put in Unicode NFC, so a name typed with
 * combining accents is stored, compared and searched as the same name.
 */
export function registerTextInput(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const problems: Record<string, string> = {}
    const visit = (value: unknown, path: string): unknown => {
      if (typeof value === 'string') {
        if (hasInvalidText(value)) {
          problems[path || '_'] ??= INVALID_TEXT_MESSAGE
          return value
        }
        return value.normalize('NFC')
      }
      if (Array.isArray(value)) return value.map((v, i) => visit(v, path ? `${path}.${i}` : String(i)))
      // Plain objects, including the query string parser's prototype-less ones; never a Buffer or a stream.
      if (
        value &&
        typeof value === 'object' &&
        !Buffer.isBuffer(value) &&
        typeof (value as { pipe?: unknown }).pipe !== 'function'
      ) {
        const out: Record<string, unknown> = {}
        for (const [k, v] of Object.entries(value)) {
          if (hasInvalidText(k)) problems[path || '_'] ??= INVALID_TEXT_MESSAGE
          out[k] = visit(v, path ? `${path}.${k}` : k)
        }
        return out
      }
      return value
    }
    if (request.body !== undefined) request.body = visit(request.body, '')
    request.query = visit(request.query, '') as typeof request.query
    request.params = visit(request.params, '') as typeof request.params
    if (Object.keys(problems).length) throw new AppError('VALIDATION_FAILED', INVALID_TEXT_MESSAGE, problems)
  })
}
