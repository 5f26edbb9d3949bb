import { idParam, usuarioCreateSchema, usuarioListQuerySchema, usuarioSchema, usuarioUpdateSchema } from '@vb/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { errorResponses as errors, registerCrud } from '../../lib/crud-routes'
import { actorOf } from '../../plugins/auth'
import { requirePermission } from '../../plugins/permissions'
import {
  createUsuario,
  getUsuario,
  linkVivienda,
  listUsuarios,
  removeUsuario,
  unlinkVivienda,
  updateUsuario,
} from './usuarios.service'

const linkParamsSchema = z.object({ id: idParam, viviendaId: idParam })

/** SPEC §7 usuarios: the uniform CRUD routes, role checks from SPEC §6 (shared `can`). */
export const usuariosRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app
  const tags = ['usuarios']
  registerCrud(app, {
    resource: 'usuarios',
    schemas: {
      entity: usuarioSchema,
      listQuery: usuarioListQuerySchema,
      create: usuarioCreateSchema,
      update: usuarioUpdateSchema,
    },
    service: {
      list: listUsuarios,
      get: (deps, actor, id) => getUsuario(deps.db, actor, id),
      create: createUsuario,
      update: updateUsuario,
      remove: removeUsuario,
    },
  })

  app.post(
    '/usuarios/:id/viviendas/:viviendaId',
    {
      preValidation: requirePermission('usuarios', 'update'),
      schema: {
        tags,
        summary: 'Vincula el usuario a la vivienda; como tiene una sola, es un traslado (SPEC §4)',
        params: linkParamsSchema,
        response: { 200: usuarioSchema, ...errors },
      },
    },
    async (request) => linkVivienda(deps, actorOf(request), request.params.id, request.params.viviendaId),
  )

  app.delete(
    '/usuarios/:id/viviendas/:viviendaId',
    {
      preValidation: requirePermission('usuarios', 'update'),
      schema: {
        tags,
        summary: "Desvincula el usuario de su vivienda: queda 'Sin vivienda'",
        params: linkParamsSchema,
        response: { 200: usuarioSchema, ...errors },
      },
    },
    async (request) => unlinkVivienda(deps, actorOf(request), request.params.id, request.params.viviendaId),
  )
}
