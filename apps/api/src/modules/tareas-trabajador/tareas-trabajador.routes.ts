import { errorBodySchema, trabajadorAsignableSchema } from '@vb/shared'
import { z } from 'zod'
import { actorOf } from '../../plugins/auth'
import { listAsignables, tareasTrabajadorResource } from './tareas-trabajador.service'

/**
 * SPEC §7 tareas-trabajador: the uniform CRUD routes, and the worker selector of SPEC §2.12 with SPEC §6's
 * rules (the same rule decides whose tasks the caller sees and may assign).
 */
export const tareasTrabajadorRoutes = tareasTrabajadorResource.routes((app) => {
  app.get(
    '/tareas-trabajador/trabajadores',
    {
      schema: {
        tags: ['tareas-trabajador'],
        summary: 'Trabajadores del selector de tareas (SPEC §6): todos, los de tus empresas sin SUPERADMIN, o solo tú',
        response: { 200: z.array(trabajadorAsignableSchema), 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => listAsignables(app.deps, actorOf(request)),
  )
})
