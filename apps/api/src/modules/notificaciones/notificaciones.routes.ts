import {
  errorBodySchema,
  idParamsSchema,
  notificacionCreateSchema,
  notificacionListQuerySchema,
  notificacionSchema,
} from '@vb/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { sendList } from '../../lib/paging'
import { actorOf } from '../../plugins/auth'
import { createNotificacion, dismissAll, dismissNotificacion, listNotificaciones } from './notificaciones.service'
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

  app.get(
    '/notificaciones',
    {
      schema: {
        tags: ['notificaciones'],
        summary: 'Notificaciones propias sin descartar, las más recientes primero, paginadas (SPEC §7; X-Total-Count)',
        querystring: notificacionListQuerySchema,
        response: { 200: z.array(notificacionSchema), 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request, reply) => sendList(reply, await listNotificaciones(deps, actorOf(request), request.query)),
  )

  app.post(
    '/notificaciones',
    {
      schema: {
        tags: ['notificaciones'],
        summary:
          'Crear una notificación para un trabajador que comparte empresa contigo (SPEC §7); otro trabajador: 404. Llega al momento a sus pestañas abiertas',
        body: notificacionCreateSchema,
        response: { 201: notificacionSchema, 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => reply.code(201).send(await createNotificacion(deps, actorOf(request), request.body)),
  )

  app.delete(
    '/notificaciones',
    {
      schema: {
        tags: ['notificaciones'],
        summary: "'Marcar todas como leídas': descarta todas las notificaciones propias",
        response: { 204: z.null(), 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      await dismissAll(deps, actorOf(request))
      return reply.code(204).send(null)
    },
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
