import { existsSync } from 'node:fs'
import path from 'node:path'
import { AppError, defaultMessages, type ErrorBody, type ErrorCode, statusByCode, uploadMessages } from '@vb/shared'
import type { FastifyError, FastifyInstance } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { MissingFontError } from '../lib/fonts'
import { pgError } from '../lib/records'

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
  return pgError(err).code
}

/** PostgreSQL states that mean "the database is away or overloaded", not "the request is wrong". */
const UNAVAILABLE_STATES = /^(08...|57P0[1-3]|53300|57014)$/
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
])
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|connection error|Connection terminated due to connection timeout/i

/** System calls of a connection to the database: an errno from any other (open, stat…) is about a file. */
const NETWORK_SYSCALLS = new Set(['connect', 'read', 'write', 'writev', 'getaddrinfo', 'shutdown'])

/** The error and its causes (Drizzle wraps the driver's error). */
function* chain(err: unknown): Generator<{ code?: unknown; message?: unknown; syscall?: unknown; path?: unknown }> {
  let e: unknown = err
  for (let i = 0; i < 5 && e; i++) {
    yield e as { code?: unknown; message?: unknown; syscall?: unknown; path?: unknown }
    e = (e as { cause?: unknown }).cause
  }
}

/**
 * A failure to reach PostgreSQL (down, restarting, connections terminated, a
 * statement or connection timeout) answers 503 SERVICE_UNAVAILABLE, never 500. Only errors of the driver
 * and of its connection count: an ENOENT of a file (an upload, a font) is not the database being away,
 * while an ENOENT of `connect` is (the embedded server's socket is gone while it restarts).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (const { code, message, syscall, path } of chain(err)) {
    if (typeof code === 'string' && UNAVAILABLE_STATES.test(code)) return true
    if (typeof code === 'string' && UNAVAILABLE_ERRNOS.has(code) && typeof path !== 'string') {
      if (syscall === undefined || NETWORK_SYSCALLS.has(String(syscall))) return true
    }
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true
  }
  return false
}

/** A file the server expected on disk and did not find (an uploaded file removed by hand, say). */
function missingFile(err: unknown): string | undefined {
  for (const { code, path } of chain(err)) if (code === 'ENOENT' && typeof path === 'string') return path
  return undefined
}

/** Maps every failure to DECISIONS A3's body; 5xx never carry internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    let out: ErrorBody
    if (err instanceof AppError) {
      out = err.toBody()
      const wait = (err as { retryAfterSeconds?: number }).retryAfterSeconds
      if (wait) reply.header('Retry-After', String(wait))
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
    } else if (err instanceof MissingFontError) {
      // Our installation lacks a font: a fault of ours, said as such.
      request.log.error({ font: err.font, err: err.message }, 'PDF font missing')
      return reply.code(500).send(body('INTERNAL'))
    } else if (missingFile(err)) {
      request.log.error({ path: missingFile(err) }, 'file missing on disk')
      return reply.code(404).send(body('NOT_FOUND', uploadMessages.noEncontrado))
    } else if (isDatabaseUnavailable(err)) {
      out = body('SERVICE_UNAVAILABLE')
      reply.header('Retry-After', '30')
    } else if (pgCode(err) === '23505') {
      out = body('CONFLICT', 'Ya existe un registro con esos datos.')
    } else if (pgCode(err) === '23503') {
      out = body('CONFLICT', 'El registro está en uso o hace referencia a datos que no existen.')
    } else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      out = body('VALIDATION_FAILED', 'La petición no es válida.')
    } else {
      out = body('INTERNAL')
    }
    // A client's bad input is logged at info without a stack; the database being away, at warn; a
    // failure of ours, at error with its stack and request id.
    if (out.statusCode < 500) request.log.info({ statusCode: out.statusCode, code: out.code, msg: out.message }, 'client error')
    else if (out.code === 'SERVICE_UNAVAILABLE') request.log.warn({ err: (err as Error).message }, 'database unavailable')
    else request.log.error({ err }, 'unhandled error')
    return reply.code(out.statusCode).send(out)
  })
}

/**
 * What a page URL gets while a new build is being written in place (`npm run build` empties the folder first, for
 * a few seconds): 503 with Retry-After, and a page that says so and loads again by itself, instead of a bare 404.
 */
export const ACTUALIZANDO_HTML =
  '<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<meta http-equiv="refresh" content="5"><title>Actualizando</title></head><body style="font-family:system-ui,sans-serif;margin:2rem">' +
  '<p>La aplicación se está actualizando. La página se volverá a cargar en unos segundos.</p></body></html>'

/** Unknown API paths answer A3's 404; other GETs get the web app when it is served from `webRoot` (SPA fallback). */
export function registerNotFound(app: FastifyInstance, webRoot: string | null): void {
  const index = webRoot && path.join(webRoot, 'index.html')
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? ''
    // A missing file (an old hashed asset, a typo) is a 404, not the app: only page URLs get index.html.
    const looksLikeFile = /\.[a-z0-9]{1,8}$/i.test(pathname) || pathname.startsWith('/assets/')
    if (index && request.method === 'GET' && !pathname.startsWith('/api/') && pathname !== '/api' && !looksLikeFile) {
      if (!existsSync(index)) {
        return reply
          .code(503)
          .header('Retry-After', '5')
          .header('Cache-Control', 'no-store')
          .type('text/html')
          .send(ACTUALIZANDO_HTML)
      }
      return reply.type('text/html').header('Cache-Control', 'no-cache').sendFile('index.html')
    }
    return reply.code(404).send(body('NOT_FOUND'))
  })
}
