import { viviendasResource } from './viviendas.service'

/** SPEC §7 viviendas: the uniform CRUD routes, role checks from SPEC §6 (shared `can`). */
export const viviendasRoutes = viviendasResource.routes()
