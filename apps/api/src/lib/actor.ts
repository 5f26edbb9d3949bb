import type { Rol } from '@vb/shared'

/** The logged-in worker, as the auth plugin loads it for every request. */
export interface Actor {
  id: number
  email: string
  nombre: string
  apellidos: string
  rol: Rol
  passwordTemporal: boolean
  /** Companies the worker belongs to. */
  empresaIds: number[]
}

export const isSuper = (actor: Actor) => actor.rol === 'SUPERADMIN'

/** True when the actor reaches a record of this company (for ids that arrive in a body). */
export function reachesEmpresa(actor: Actor, empresaId: number | null | undefined): boolean {
  if (isSuper(actor)) return true
  return empresaId != null && actor.empresaIds.includes(empresaId)
}
