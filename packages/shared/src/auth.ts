import { z } from './zod-es'

/** SPEC §5 Login. */
export const loginSchema = z.object({
  email: z
    .string({ error: 'El correo es obligatorio' })
    .trim()
    .min(1, 'El correo es obligatorio')
    .pipe(z.email('Correo inválido')),
  password: z.string({ error: 'La contraseña es obligatoria' }).min(1, 'La contraseña es obligatoria'),
})
export type LoginInput = z.infer<typeof loginSchema>

export { LOGIN_FAILED_MESSAGE } from './core'

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

function newPassword(message: string) {
  return z.string({ error: message }).max(PASSWORD_MAX, message).regex(PASSWORD_RULE, message)
}

/** A new password as SPEC §5 New password checks it (also SPEC §7's `password` of PATCH /trabajadores/{id}). */
export const passwordNuevaSchema = newPassword(passwordMessages.rule)

/** Form of /cambiar-password (SPEC §2.18) and of the reset link page (DECISIONS S4). */
export const newPasswordFormSchema = z
  .object({
    passwordNueva: newPassword(passwordMessages.rule),
    confirmar: z.string(),
  })
  .refine((v) => v.passwordNueva === v.confirmar, { path: ['confirmar'], message: passwordMessages.mismatch })
export type NewPasswordForm = z.infer<typeof newPasswordFormSchema>

/** Form of /cambiar-password-con-actual (SPEC §2.19). */
export const changePasswordFormSchema = z
  .object({
    passwordActual: z.string({ error: passwordMessages.actual }).min(1, passwordMessages.actual),
    passwordNueva: newPassword(passwordMessages.ruleNueva),
    confirmar: z.string(),
  })
  .refine((v) => v.passwordNueva === v.confirmar, { path: ['confirmar'], message: passwordMessages.mismatchNueva })
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>

/**
 * Body of PATCH /api/trabajadores/{id}/cambiar-password (SPEC §7). `passwordActual` is required
 * unless the worker still has a temporary password (DECISIONS P4).
 */
export const cambiarPasswordBodySchema = z.object({
  passwordActual: z.string().max(PASSWORD_MAX).optional(),
  passwordNueva: newPassword(passwordMessages.rule),
})
export type CambiarPasswordBody = z.infer<typeof cambiarPasswordBodySchema>

/** DECISIONS S4: forgot password. */
export const recuperarPasswordSchema = z.object({
  email: loginSchema.shape.email,
})
export const RECUPERAR_MESSAGE =
  'Si el correo corresponde a una cuenta activa, recibirás un enlace para restablecer la contraseña. El enlace caduca en 30 minutos.'
export const restablecerPasswordSchema = z.object({
  token: z.string().min(20, 'El enlace no es válido o ha caducado.').max(200),
  passwordNueva: newPassword(passwordMessages.rule),
})
export const RESTABLECER_INVALID = 'El enlace no es válido o ha caducado.'
