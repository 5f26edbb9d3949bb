import { errorBodySchema, idParamsSchema } from '@vb/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { actorOf } from '../../plugins/auth'
import { dismissNotificacion } from './notificaciones.service'

export const notificacionesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app
  app.delete(
    '/notificaciones/:id',
    {
      schema: {
        tags: ['notificaciones'],
        summary: 'Descartar una notificación propia',
        params: idParamsSchema,
        response: { 204: z.null(), 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      await dismissNotificacion(deps, actorOf(request), request.params.id)
      return reply.code(204).send(null)
    },
  )
}
