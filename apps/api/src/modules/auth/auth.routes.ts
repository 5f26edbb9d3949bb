import {
  errorBodySchema,
  loginResponseSchema,
  loginSchema,
  RECUPERAR_MESSAGE,
  recuperarPasswordSchema,
  restablecerPasswordSchema,
} from '@vb/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { actorOf } from '../../plugins/auth'
import { login, logout, requestPasswordReset, resetPassword } from './auth.service'

const messageSchema = z.object({ message: z.string() })

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app
  app.post(
    '/auth/trabajadores/login',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Inicio de sesión (SPEC §2.17)',
        security: [],
        body: loginSchema,
        response: { 200: loginResponseSchema, 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { worker, tokenVersion } = await login(deps, request.body, request.ip)
      const token = await reply.jwtSign({ sub: String(worker.id), tv: tokenVersion })
      return { token, trabajador: worker }
    },
  )

  app.post(
    '/auth/logout',
    {
      config: { auth: 'temporal' },
      schema: {
        tags: ['auth'],
        summary: "Cierre de sesión (SPEC §2.2 'Cerrar sesión'): queda en el registro de actividad (DECISIONS L1)",
        description:
          'El navegador borra su sesión después; el token sigue siendo válido hasta que caduca o cambia la contraseña (las demás sesiones del trabajador no se cierran).',
        response: { 204: z.null(), 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      await logout(deps, actorOf(request))
      return reply.code(204).send(null)
    },
  )

  app.post(
    '/auth/recuperar',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Pedir un enlace para restablecer la contraseña (DECISIONS S4)',
        security: [],
        body: recuperarPasswordSchema,
        response: { 202: messageSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await requestPasswordReset(deps, request.body.email, request.ip)
      return reply.code(202).send({ message: RECUPERAR_MESSAGE })
    },
  )

  app.post(
    '/auth/restablecer',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Elegir una contraseña nueva con el enlace de recuperación',
        security: [],
        body: restablecerPasswordSchema,
        response: { 200: messageSchema, 400: errorBodySchema, 429: errorBodySchema, 503: errorBodySchema },
      },
    },
    async (request) => {
      await resetPassword(deps, request.body.token, request.body.passwordNueva, request.ip)
      return { message: 'Contraseña actualizada correctamente.' }
    },
  )
}
