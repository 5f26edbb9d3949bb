import { AppError, defaultMessages, type ErrorBody, type ErrorCode, statusByCode } from '@vb/shared'
import type { FastifyError, FastifyInstance } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'

const contextMessages: Record<string, string> = {
  body: 'Revisa los datos del formulario.',
  querystring: 'Los parámetros de búsqueda no son válidos.',
  params: 'La dirección solicitada no es válida.',
  headers: 'Las cabeceras de la petición no son válidas.',
}

function body(code: ErrorCode, message?: string, fieldErrors?: Record<string, string>): ErrorBody {
  return {
    statusCode: statusByCode[code],
    code,
    message: message ?? defaultMessages[code],
    ...(fieldErrors ? { fieldErrors } : {}),
  }
}

/** PostgreSQL error code, read through Drizzle's wrapping (the driver error is the cause). */
function pgCode(err: unknown): string | undefined {
  let e: unknown = err
  for (let i = 0; i < 4 && e; i++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}

/** Maps every failure to DECISIONS A3's body; 5xx never carry internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    let out: ErrorBody
    if (err instanceof AppError) {
      out = err.toBody()
    } else if (hasZodFastifySchemaValidationErrors(err)) {
      const context = (err as { validationContext?: string }).validationContext ?? 'body'
      const fieldErrors: Record<string, string> = {}
      for (const issue of err.validation) {
        const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_'
        if (!(key in fieldErrors)) fieldErrors[key] = issue.message ?? 'Valor no válido'
      }
      if (context === 'params') {
        out = body('NOT_FOUND')
      } else {
        const message =
          fieldErrors._ && Object.keys(fieldErrors).length === 1
            ? 'El cuerpo de la petición debe ser un objeto JSON.'
            : contextMessages[context]
        out = body('VALIDATION_FAILED', message, fieldErrors)
      }
    } else if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (err.statusCode === 400 && err instanceof SyntaxError)) {
      out = body('VALIDATION_FAILED', 'El cuerpo de la petición no es un JSON válido.')
    } else if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      out = body('VALIDATION_FAILED', 'El cuerpo de la petición está vacío.')
    } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
      out = body('PAYLOAD_TOO_LARGE')
    } else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415) {
      out = body('UNSUPPORTED_MEDIA_TYPE')
    } else if (err.statusCode === 429) {
      out = body('RATE_LIMITED')
    } else if (pgCode(err) === '23505') {
      out = body('CONFLICT', 'Ya existe un registro con esos datos.')
    } else if (pgCode(err) === '23503') {
      out = body('CONFLICT', 'El registro está en uso o hace referencia a datos que no existen.')
    } else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      out = body('VALIDATION_FAILED', 'La petición no es válida.')
    } else {
      request.log.error({ err }, 'unhandled error')
      out = body('INTERNAL')
    }
    if (out.statusCode >= 500 && err instanceof AppError) request.log.error({ err }, 'service error')
    return reply.code(out.statusCode).send(out)
  })
}

/** Unknown API paths answer A3's 404; other GETs get the web app when it is served (SPA fallback). */
export function registerNotFound(app: FastifyInstance, serveSpa: boolean): void {
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? ''
    // A missing file (an old hashed asset, a typo) is a 404, not the app: only page URLs get index.html.
    const looksLikeFile = /\.[a-z0-9]{1,8}$/i.test(pathname) || pathname.startsWith('/assets/')
    if (serveSpa && request.method === 'GET' && !pathname.startsWith('/api/') && pathname !== '/api' && !looksLikeFile) {
      return reply.type('text/html').header('Cache-Control', 'no-cache').sendFile('index.html')
    }
    return reply.code(404).send(body('NOT_FOUND'))
  })
}
