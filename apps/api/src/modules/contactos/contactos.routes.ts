import { contactosResource } from './contactos.service'

/** SPEC §7 contactos: the uniform CRUD routes, role checks from SPEC §6 (shared `can`). */
export const contactosRoutes = contactosResource.routes()
