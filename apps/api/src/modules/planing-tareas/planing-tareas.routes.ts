import { calendarioQuerySchema, calendarioSchema, errorBodySchema } from '@vb/shared'
import { actorOf } from '../../plugins/auth'
import { requirePermission } from '../../plugins/permissions'
import { calendario, planingTareasResource } from './planing-tareas.service'

/** SPEC §7 planing-tareas: the uniform CRUD routes, and the month grid's days (SPEC §2.9). */
export const planingTareasRoutes = planingTareasResource.routes((app) => {
  app.get(
    '/planing-tareas/calendario',
    {
      preValidation: requirePermission('planing-tareas', 'list'),
      schema: {
        tags: ['planing-tareas'],
        summary: 'Días visibles del calendario (como mucho 42) con sus primeras tareas y cuántas tiene cada uno',
        querystring: calendarioQuerySchema,
        response: { 200: calendarioSchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => calendario(app.deps, actorOf(request), request.query),
  )
})
