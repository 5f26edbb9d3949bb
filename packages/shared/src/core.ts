/**
 * What the web app's first screen needs from this package without zod: the error model, the role rules and
 * the login's failure text. Import it as `@vb/shared/core`; everything here is also exported by the package's
 * main entry.
 */

export * from './app-error'
export * from './permissions'

/** SPEC §8 Login: the same answer whatever failed (DECISIONS S3). */
export const LOGIN_FAILED_MESSAGE = 'Error al iniciar sesión. Verifica tu correo y contraseña.'
/** The login screen after a call answered 401 (an expired token, a password changed elsewhere, a deactivation). */
export const SESION_TERMINADA_MESSAGE = 'Tu sesión ha caducado o se ha cerrado. Inicia sesión de nuevo para seguir donde estabas.'
/** A form that opens again after that login with what was typed before the session ended. */
export const BORRADOR_RECUPERADO_MESSAGE =
  'Se ha recuperado lo que estabas escribiendo cuando se cerró la sesión. Revísalo antes de guardar.'
