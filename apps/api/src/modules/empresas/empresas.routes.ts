import { empresasResource } from './empresas.service'

/** SPEC §7 empresas: the uniform CRUD routes, role checks from SPEC §6 (shared `can`). */
export const empresasRoutes = empresasResource.routes()
