import { presupuestosResource } from './presupuestos.service'

/** SPEC §7 presupuestos: the uniform CRUD routes, role checks from SPEC §6 (shared `can`). */
export const presupuestosRoutes = presupuestosResource.routes()
