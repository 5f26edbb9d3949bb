/**
 * The error model without zod (DECISIONS A3): the codes, their messages and statuses, and the one error
 * class. The web app's first screen imports it through `@vb/shared/core`, so the login page does not wait
 * for the schema library; `errors.ts` adds the schema that checks an error body.
 */

/** Closed set of error codes (DECISIONS A3). */
export const errorCodes = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'PASSWORD_CHANGE_REQUIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const
export type ErrorCode = (typeof errorCodes)[number]

/** Default Spanish messages per code, used when no more specific one applies. */
export const defaultMessages: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'Revisa los datos del formulario.',
  UNAUTHENTICATED: 'Tu sesión no es válida o ha caducado. Inicia sesión de nuevo.',
  PASSWORD_CHANGE_REQUIRED: 'Debes cambiar tu contraseña temporal antes de continuar.',
  FORBIDDEN: 'No tienes permisos para realizar esta acción',
  NOT_FOUND: 'No se ha encontrado el recurso solicitado.',
  CONFLICT: 'La operación entra en conflicto con datos existentes.',
  PAYLOAD_TOO_LARGE: 'El contenido enviado es demasiado grande.',
  UNSUPPORTED_MEDIA_TYPE: 'Tipo de contenido no admitido.',
  RATE_LIMITED: 'Demasiados intentos. Espera unos minutos antes de volver a intentarlo.',
  SERVICE_UNAVAILABLE: 'El servicio no está disponible en este momento. Inténtalo de nuevo en unos minutos.',
  INTERNAL: 'Se ha producido un error interno. Inténtalo más tarde.',
}

export const statusByCode: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  PASSWORD_CHANGE_REQUIRED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
}

/** Body of every non-2xx API response (checked by `errorBodySchema`). */
export interface ErrorBody {
  statusCode: number
  code: ErrorCode
  message: string
  fieldErrors?: Record<string, string>
}

/** The one error class: services throw it, the API maps it as it is, the web client rebuilds it. */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly statusCode: number
  readonly fieldErrors?: Record<string, string>
  constructor(code: ErrorCode, message?: string, fieldErrors?: Record<string, string>) {
    super(message ?? defaultMessages[code])
    this.name = 'AppError'
    this.code = code
    this.statusCode = statusByCode[code]
    this.fieldErrors = fieldErrors
  }
  toBody(): ErrorBody {
    return {
      statusCode: this.statusCode,
      code: this.code,
      message: this.message,
      ...(this.fieldErrors ? { fieldErrors: this.fieldErrors } : {}),
    }
  }
}

/** Turns zod issues into `{ field: firstMessage }` (SPEC §5: only the first message per field). */
export function fieldErrorsFromIssues(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_'
    if (!(key in out)) out[key] = issue.message
  }
  return out
}
