import { errorBodySchema, pendientesQuerySchema, pendientesSchema } from '@vb/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../../plugins/auth'
import { pendientes } from './inicio.service'

/** The start page's 'what is pending' (beyond SPEC), for the company chosen in the top bar. */
export const inicioRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/inicio/pendientes',
    {
      schema: {
        tags: ['inicio'],
        summary:
          'Lo pendiente hoy: PIR caducados y por caducar, tareas del planing de hoy, tareas propias pendientes, presupuestos por decidir',
        querystring: pendientesQuerySchema,
        response: { 200: pendientesSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => pendientes(app.deps, actorOf(request), request.query),
  )
}
