/**
 * The password rule and the texts of the password pages without zod: imported as `@vb/shared/auth-core` by the web
 * app's pages, whose forms load auth.ts (the schemas, which re-export this) when typed into.
 */

/** SPEC §5 New password: at least 8 characters, one uppercase letter, one digit. */
export const PASSWORD_RULE = /^(?=.*[A-ZÁÉÍÓÚÑÜ])(?=.*\d).{8,}$/
export const PASSWORD_MAX = 128
export const passwordMessages = {
  /** SPEC §2.18: the hint under the new password. */
  hint: 'Mínimo 8 caracteres, 1 mayúscula y 1 número.',
  rule: 'La contraseña debe tener al menos 8 caracteres, una mayúscula y un número.',
  ruleNueva: 'La nueva contraseña debe tener al menos 8 caracteres, una mayúscula y un número.',
  mismatch: 'Las contraseñas no coinciden.',
  mismatchNueva: 'Las nuevas contraseñas no coinciden.',
  actual: 'Debes ingresar tu contraseña actual.',
  sinUsuario: 'No se encontró el usuario para actualizar.',
  exito: 'Contraseña actualizada correctamente.',
  fallo: 'No se pudo actualizar la contraseña. Inténtalo más tarde.',
  actualIncorrecta: 'La contraseña actual no es correcta.',
  /** A change must change it. */
  igualActual: 'La nueva contraseña debe ser distinta de la actual',
} as const

/** DECISIONS S4: forgot password. */
export const RECUPERAR_MESSAGE =
  'Si el correo corresponde a una cuenta activa, recibirás un enlace para restablecer la contraseña. El enlace caduca en 30 minutos.'
export const RESTABLECER_INVALID = 'El enlace no es válido o ha caducado.'
