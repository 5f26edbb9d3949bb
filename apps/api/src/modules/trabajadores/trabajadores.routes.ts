import {
  cambiarPasswordBodySchema,
  errorBodySchema,
  idParamsSchema,
  loginResponseSchema,
  notificacionSchema,
  trabajadorCreadoSchema,
  trabajadorCreateSchema,
  trabajadorSchema,
  trabajadorUpdateSchema,
} from '@vb/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { actorOf } from '../../plugins/auth'
import { requirePermission } from '../../plugins/permissions'
import { listNotificacionesDe } from '../notificaciones/notificaciones.service'
import { cambiarPassword, createTrabajador, getTrabajador, restablecerPassword, updateTrabajador } from './trabajadores.service'

export const trabajadoresRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app
  app.get(
    '/trabajadores/me',
    {
      config: { auth: 'temporal' },
      schema: {
        tags: ['trabajadores'],
        summary: 'El trabajador que ha iniciado sesión (DECISIONS A2)',
        response: { 200: trabajadorSchema, 401: errorBodySchema },
      },
    },
    async (request) => getTrabajador(deps, actorOf(request).id),
  )

  app.post(
    '/trabajadores',
    {
      preValidation: requirePermission('trabajadores', 'create'),
      schema: {
        tags: ['trabajadores'],
        summary: 'Crear un trabajador con una contraseña temporal que se muestra una sola vez (DECISIONS S1, P3)',
        body: trabajadorCreateSchema,
        response: {
          201: trabajadorCreadoSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { trabajador, password } = await createTrabajador(deps, actorOf(request), request.body)
      return reply.code(201).send({ trabajador, passwordTemporal: password })
    },
  )

  app.patch(
    '/trabajadores/:id',
    {
      schema: {
        tags: ['trabajadores'],
        summary: 'Modificar un trabajador, o los datos propios (SPEC §2.21); desactivarlo cierra sus sesiones (DECISIONS S2)',
        params: idParamsSchema,
        body: trabajadorUpdateSchema,
        response: {
          200: trabajadorSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request) => updateTrabajador(deps, actorOf(request), request.params.id, request.body),
  )

  app.patch(
    '/trabajadores/:id/cambiar-password',
    {
      config: { auth: 'temporal' },
      schema: {
        tags: ['trabajadores'],
        summary: 'Cambiar la contraseña propia (SPEC §2.18, §2.19); devuelve un token nuevo',
        params: idParamsSchema,
        body: cambiarPasswordBodySchema,
        response: { 200: loginResponseSchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { worker, tokenVersion } = await cambiarPassword(deps, actorOf(request), request.params.id, request.body)
      const token = await reply.jwtSign({ sub: String(worker.id), tv: tokenVersion })
      return { token, trabajador: worker }
    },
  )

  app.post(
    '/trabajadores/:id/restablecer-password',
    {
      schema: {
        tags: ['trabajadores'],
        summary:
          'Restablecer la contraseña de otro trabajador con una temporal que se muestra una sola vez; cierra sus sesiones y anula sus enlaces de recuperación (DECISIONS S1, S2)',
        params: idParamsSchema,
        response: {
          200: trabajadorCreadoSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { trabajador, password } = await restablecerPassword(deps, actorOf(request), request.params.id)
      return { trabajador, passwordTemporal: password }
    },
  )

  app.get(
    '/trabajadores/:id/notificaciones',
    {
      schema: {
        tags: ['notificaciones'],
        summary: 'Notificaciones del trabajador, las más recientes primero (SPEC §7)',
        params: idParamsSchema,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).optional() }),
        response: { 200: z.array(notificacionSchema), 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { items, total } = await listNotificacionesDe(deps, actorOf(request), request.params.id, request.query.limit ?? 50)
      reply.header('X-Total-Count', String(total))
      return items
    },
  )
}
