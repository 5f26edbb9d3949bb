import { z } from './zod-es'

/** SPEC §6: the three roles. */
export const roles = ['SUPERADMIN', 'ADMIN', 'EMPLEADO'] as const
export const rolSchema = z.enum(roles, { error: 'Selecciona un rol válido' })
export type Rol = (typeof roles)[number]

/** SPEC §6: EMPLEADO is the default when the role is unknown. */
export function normalizeRol(value: unknown): Rol {
  return roles.includes(value as Rol) ? (value as Rol) : 'EMPLEADO'
}
