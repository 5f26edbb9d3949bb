/**
 * The three roles without zod: imported as `@vb/shared/roles-core` by the web app's workers screen, whose form loads
 * the schemas when it first opens; roles.ts (the role's schema) re-exports all of it.
 */

/** SPEC §6: the three roles. */
export const roles = ['SUPERADMIN', 'ADMIN', 'EMPLEADO'] as const
export type Rol = (typeof roles)[number]

/** SPEC §6: EMPLEADO is the default when the role is unknown. */
export function normalizeRol(value: unknown): Rol {
  return roles.includes(value as Rol) ? (value as Rol) : 'EMPLEADO'
}
