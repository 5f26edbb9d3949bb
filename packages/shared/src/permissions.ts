import type { Rol } from './roles'

/** Resources whose actions SPEC §6 / DECISIONS P1-P3 restrict by role. */
export type Resource =
  | 'empresas'
  | 'viviendas'
  | 'usuarios'
  | 'contactos'
  | 'trabajadores'
  | 'logs'
  | 'planing-tareas'
  | 'tareas-trabajador'
  | 'presupuestos'
  | 'documentos-usuario'
  | 'caja-usuario'
export type Action = 'list' | 'create' | 'update' | 'delete'

const ALL: readonly Rol[] = ['SUPERADMIN', 'ADMIN', 'EMPLEADO']
const ADMINS: readonly Rol[] = ['SUPERADMIN', 'ADMIN']
const SUPER: readonly Rol[] = ['SUPERADMIN']

/**
 * Role × resource × action (SPEC §6; DECISIONS P2: deleting a home is SUPERADMIN only).
 * Which records a role reaches (its companies) is decided by the server's queries on top of this.
 */
export const permissionMatrix: Record<Resource, Record<Action, readonly Rol[]>> = {
  empresas: { list: ALL, create: SUPER, update: ADMINS, delete: SUPER },
  viviendas: { list: ALL, create: ADMINS, update: ADMINS, delete: SUPER },
  usuarios: { list: ALL, create: ALL, update: ALL, delete: ALL },
  contactos: { list: ALL, create: ALL, update: ALL, delete: ALL },
  trabajadores: { list: ADMINS, create: ADMINS, update: ADMINS, delete: ADMINS },
  logs: { list: ADMINS, create: ALL, update: [], delete: [] },
  'planing-tareas': { list: ALL, create: ALL, update: ALL, delete: ALL },
  'tareas-trabajador': { list: ALL, create: ALL, update: ALL, delete: ALL },
  presupuestos: { list: ALL, create: ALL, update: ALL, delete: ALL },
  'documentos-usuario': { list: ALL, create: ALL, update: ALL, delete: ALL },
  'caja-usuario': { list: ALL, create: ALL, update: ALL, delete: ALL },
}

/** True when the role may perform the action on the resource at all. */
export function can(worker: { rol: Rol } | null | undefined, resource: Resource, action: Action): boolean {
  if (!worker) return false
  return permissionMatrix[resource][action].includes(worker.rol)
}

/** Messages SPEC §6 / §8 gives for refusals. */
export const permissionMessages = {
  generic: 'No tienes permisos para realizar esta acción',
  verPagina: 'No tienes permisos para ver esta página',
  crearUsuarioEnVivienda: 'No puedes crear un usuario en esta vivienda',
  moverUsuarioAVivienda: 'No puedes modificar un usuario a esta vivienda',
  eliminarUsuario: 'No puedes eliminar este usuario',
  asignarEmpresa: 'No puedes asignar trabajadores a empresas donde no perteneces.',
} as const
