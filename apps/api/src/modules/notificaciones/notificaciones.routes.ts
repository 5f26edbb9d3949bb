import { errorBodySchema, idParamsSchema } from '@vb/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { actorOf } from '../../plugins/auth'
import { dismissNotificacion } from './notificaciones.service'
import { openNotificationStream } from './notificaciones.stream'

export const notificacionesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app
  app.get(
    '/notificaciones/stream',
    {
      schema: {
        tags: ['notificaciones'],
        summary: 'Notificaciones nuevas al momento, como Server-Sent Events (DECISIONS D9)',
        description:
          'Flujo text/event-stream autenticado con la cabecera Authorization (léase con fetch). Cada evento `notificacion` ' +
          'lleva `{ "id": n }` de una notificación nueva del trabajador; un comentario cada 25 s mantiene viva la conexión.',
        produces: ['text/event-stream'],
        response: { 200: z.string().describe('text/event-stream'), 401: errorBodySchema },
      },
    },
    (request, reply) => openNotificationStream(deps, request, reply),
  )

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
