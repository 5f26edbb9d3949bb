import {
  AppError,
  ajustesUsuarioSchema,
  cambiarPasswordBodySchema,
  can,
  errorBodySchema,
  idParamsSchema,
  loginResponseSchema,
  NOTIFICACIONES_DE_PAGE_SIZE,
  notificacionesDeQuerySchema,
  notificacionSchema,
  permissionMessages,
  trabajadorCreadoSchema,
  trabajadorCreateSchema,
  trabajadorEmpresaParamsSchema,
  trabajadorMessages,
  trabajadorPatchSchema,
  trabajadorSchema,
} from '@vb/shared'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { errorResponses as errors } from '../../lib/crud-routes'
import { pageWindow } from '../../lib/records'
import { actorOf } from '../../plugins/auth'
import { requirePermission } from '../../plugins/permissions'
import { listNotificacionesDe } from '../notificaciones/notificaciones.service'
import {
  cambiarPassword,
  createTrabajador,
  getMe,
  restablecerPassword,
  setEmpresa,
  trabajadoresResource,
} from './trabajadores.service'

/** SPEC §5 Own settings: a worker's edit of itself answers with that form's messages. */
const ownSettingsSchema = ajustesUsuarioSchema.partial()

/**
 * PATCH /trabajadores/{id}: the role matrix lets ADMIN and SUPERADMIN through (SPEC §6); any worker may
 * edit its own settings (SPEC §2.21), whose fields are checked first with that form's messages.
 */
async function mayPatch(request: FastifyRequest) {
  const actor = actorOf(request)
  const own = String(actor.id) === (request.params as { id?: string }).id
  const body = (request.body ?? {}) as Record<string, unknown>
  // SPEC §7: `password` is a worker's change of its own temporary password (DECISIONS P4 lets that through).
  if (body.password !== undefined) {
    if (!own) throw new AppError('FORBIDDEN', permissionMessages.generic)
    if (Object.keys(body).some((key) => key !== 'password' && body[key] !== undefined)) {
      throw new AppError('VALIDATION_FAILED', 'Revisa los datos del formulario.', { password: trabajadorMessages.passwordSola })
    }
    if (!actor.passwordTemporal) throw new AppError('FORBIDDEN', trabajadorMessages.restablecerPropia)
    return
  }
  if (actor.passwordTemporal) throw new AppError('PASSWORD_CHANGE_REQUIRED')
  if (!own) {
    if (!can(actor, 'trabajadores', 'update')) throw new AppError('FORBIDDEN', permissionMessages.generic)
    return
  }
  const parsed = ownSettingsSchema.safeParse(request.body ?? {})
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {}
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.') || '_'
      fieldErrors[key] ??= issue.message
    }
    throw new AppError('VALIDATION_FAILED', 'Revisa los datos del formulario.', fieldErrors)
  }
}

/**
 * SPEC §7 trabajadores: the uniform list, read and delete (lib/resource.ts), and the worker's own calls:
 * create with a one-time password, edit (of another worker, or of one's own settings), /me, the password
 * changes, the company links and the worker's notifications.
 */
export const trabajadoresRoutes = trabajadoresResource.routes((app) => {
  const { deps } = app
  const tags = ['trabajadores']
  const linkParams = trabajadorEmpresaParamsSchema

  app.get(
    '/trabajadores/me',
    {
      config: { auth: 'temporal' },
      schema: {
        tags,
        summary: 'El trabajador que ha iniciado sesión (DECISIONS A2)',
        response: { 200: trabajadorSchema, 401: errorBodySchema },
      },
    },
    async (request) => getMe(deps, actorOf(request)),
  )

  app.get(
    '/trabajadores/:id',
    {
      // SPEC §7's GET /trabajadores/{id}: any worker reads itself (its profile, SPEC §2.20, as /me); another
      // worker is for those who may list them (SPEC §6), within their companies (P1).
      preValidation: async (request: FastifyRequest) => {
        if (String(actorOf(request).id) !== (request.params as { id?: string }).id) {
          await requirePermission('trabajadores', 'list')(request)
        }
      },
      schema: {
        tags,
        summary: 'Un trabajador; cualquiera se lee a sí mismo (SPEC §2.20)',
        params: idParamsSchema,
        response: { 200: trabajadorSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request)
      return actor.id === request.params.id
        ? getMe(deps, actor)
        : trabajadoresResource.service.get(deps, actor, request.params.id)
    },
  )

  app.post(
    '/trabajadores',
    {
      preValidation: requirePermission('trabajadores', 'create'),
      schema: {
        tags,
        summary: 'Crear un trabajador con una contraseña temporal que se muestra una sola vez (DECISIONS S1, P3)',
        description:
          'Sus empresas (`empresaIds`) y su foto (`fotoUrl`: la referencia de un archivo subido con POST /api/uploads, o una URL) se guardan en la misma transacción: si una no es válida, no se crea nada. Un ADMIN solo crea EMPLEADO o ADMIN, y solo en sus empresas.',
        body: trabajadorCreateSchema,
        response: { 201: trabajadorCreadoSchema, ...errors },
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
      // A worker with a temporary password may send its new one here (mayPatch refuses anything else then).
      config: { auth: 'temporal' },
      preValidation: mayPatch,
      schema: {
        tags,
        summary: 'Modificar un trabajador, o los datos propios (SPEC §2.21); desactivarlo cierra sus sesiones (DECISIONS S2)',
        description:
          'Sobre uno mismo solo se guardan nombre, apellidos y email; cualquier otro campo con un valor distinto se rechaza (403). Las empresas se cambian con POST/DELETE /api/trabajadores/{id}/empresas/{empresaId}. `password`, solo y sobre uno mismo, cambia la contraseña temporal (SPEC §2.18): como todo cambio de contraseña, cierra las sesiones del trabajador (DECISIONS S2), que entra de nuevo con la nueva; `/trabajadores/{id}/cambiar-password` la cambia devolviendo un token nuevo.',
        params: idParamsSchema,
        body: trabajadorPatchSchema,
        response: { 200: trabajadorSchema, ...errors },
      },
    },
    async (request) => {
      const { password, ...fields } = request.body
      const actor = actorOf(request)
      if (password !== undefined) {
        return (await cambiarPassword(deps, actor, request.params.id, { passwordNueva: password }, 'password')).worker
      }
      return trabajadoresResource.service.update(deps, actor, request.params.id, fields, {})
    },
  )

  app.patch(
    '/trabajadores/:id/cambiar-password',
    {
      config: { auth: 'temporal' },
      schema: {
        tags,
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
        tags,
        summary:
          'Restablecer la contraseña de otro trabajador con una temporal que se muestra una sola vez; cierra sus sesiones y anula sus enlaces de recuperación (DECISIONS S1, S2)',
        params: idParamsSchema,
        response: { 200: trabajadorCreadoSchema, ...errors },
      },
    },
    async (request) => {
      const { trabajador, password } = await restablecerPassword(deps, actorOf(request), request.params.id)
      return { trabajador, passwordTemporal: password }
    },
  )

  app.post(
    '/trabajadores/:id/empresas/:empresaId',
    {
      preValidation: requirePermission('trabajadores', 'update'),
      schema: {
        tags,
        summary: 'Vincular el trabajador a una empresa (SPEC §7; DECISIONS P3)',
        params: linkParams,
        response: { 200: trabajadorSchema, ...errors },
      },
    },
    async (request) => setEmpresa(deps, actorOf(request), request.params.id, request.params.empresaId, true),
  )

  app.delete(
    '/trabajadores/:id/empresas/:empresaId',
    {
      preValidation: requirePermission('trabajadores', 'update'),
      schema: {
        tags,
        summary: 'Desvincular el trabajador de una empresa (SPEC §7; DECISIONS P3)',
        params: linkParams,
        response: { 200: trabajadorSchema, ...errors },
      },
    },
    async (request) => setEmpresa(deps, actorOf(request), request.params.id, request.params.empresaId, false),
  )

  app.get(
    '/trabajadores/:id/notificaciones',
    {
      schema: {
        tags: ['notificaciones'],
        summary: 'Notificaciones del trabajador, las más recientes primero (SPEC §7)',
        params: idParamsSchema,
        querystring: notificacionesDeQuerySchema,
        response: { 200: z.array(notificacionSchema), ...errors },
      },
    },
    async (request, reply) => {
      const { page, pageSize, limit } = request.query
      const window = pageWindow({ page, pageSize: pageSize ?? limit ?? NOTIFICACIONES_DE_PAGE_SIZE })
      const { items, total } = await listNotificacionesDe(deps, actorOf(request), request.params.id, window)
      reply.header('X-Total-Count', String(total))
      return items
    },
  )
})
