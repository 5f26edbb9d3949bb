import { PASSWORD_MAX, PASSWORD_RULE, passwordMessages, RESTABLECER_INVALID } from './auth-core'
import { z } from './zod-es'

export * from './auth-core'

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
export const restablecerPasswordSchema = z.object({
  token: z.string().min(20, RESTABLECER_INVALID).max(200),
  passwordNueva: newPassword(passwordMessages.rule),
})
