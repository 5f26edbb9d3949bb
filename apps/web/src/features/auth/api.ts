import type { LoginInput, LoginResponse } from '@vb/shared'
import { api } from '../../lib/api-client'

/** DECISIONS A2: { token, trabajador }. */
export const login = (body: LoginInput) => api.post<LoginResponse>('/auth/trabajadores/login', body)

/** SPEC §7: a new token comes back; the old one stops working (DECISIONS S2). */
export const cambiarPassword = (trabajadorId: number, body: { passwordActual?: string; passwordNueva: string }) =>
  api.patch<LoginResponse>(`/trabajadores/${trabajadorId}/cambiar-password`, body)

/** DECISIONS S4: always answers the same neutral message. */
export const recuperarPassword = (email: string) => api.post<{ message: string }>('/auth/recuperar', { email })

export const restablecerPassword = (token: string, passwordNueva: string) =>
  api.post<{ message: string }>('/auth/restablecer', { token, passwordNueva })
