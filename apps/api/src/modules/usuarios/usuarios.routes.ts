import { idParam, usuarioFichaSchema, usuarioSchema } from '@vb/shared'
import { z } from 'zod'
import { errorResponses as errors } from '../../lib/crud-routes'
import { actorOf } from '../../plugins/auth'
import { requirePermission } from '../../plugins/permissions'
import { getUsuarioPorNif, linkVivienda, unlinkVivienda, usuariosResource } from './usuarios.service'

const linkParamsSchema = z.object({ id: idParam, viviendaId: idParam })

/**
 * SPEC §7 usuarios: the uniform CRUD routes, role checks from SPEC §6 (shared `can`), and the resident's own:
 * the header of its records screens by NIF, and the link to its home.
 */
export const usuariosRoutes = usuariosResource.routes((app) => {
  const { deps } = app
  const tags = ['usuarios']

  app.get(
    '/usuarios/nif/:nif',
    {
      preValidation: requirePermission('usuarios', 'list'),
      schema: {
        tags,
        summary:
          'El usuario por su NIF (en cualquier caso), con su nombre completo y su PIR: la cabecera de /documentacion/{nif} y /caja/{nif}',
        description:
          "404 con el mensaje de SPEC §8 ('No se encontró ningún usuario con NIF {nif}') si no existe o es de otra empresa. " +
          '`pir`: estado (sinpir, vigente, aviso, caducado), días restantes y fecha de caducidad (AAAA-MM-DD), según el PIR más reciente y la fecha de hoy en Madrid.',
        params: z.object({ nif: z.string().max(20) }),
        response: { 200: usuarioFichaSchema, ...errors },
      },
    },
    async (request) => getUsuarioPorNif(deps, actorOf(request), request.params.nif),
  )

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
})
