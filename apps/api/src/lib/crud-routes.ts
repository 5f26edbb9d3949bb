import { type Action, errorBodySchema, idParamsSchema, type ListPage, type Resource } from '@vb/shared'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { AppDeps } from '../deps'
import { actorOf } from '../plugins/auth'
import { requirePermission } from '../plugins/permissions'
import type { Actor } from './actor'
import { sendList } from './paging'

/** What a write knows about the request besides its body. */
export interface WriteContext {
  /** The version the client read (`If-Match`): a stale one answers 409 where the resource checks it. */
  ifMatch?: string
}

/** What a resource's service offers to the uniform CRUD routes. */
export interface CrudService<E, Q, C, U, L = E> {
  list(deps: AppDeps, actor: Actor, query: Q): Promise<ListPage<L>>
  get(deps: AppDeps, actor: Actor, id: number): Promise<E>
  create(deps: AppDeps, actor: Actor, input: C): Promise<E>
  update(deps: AppDeps, actor: Actor, id: number, input: U, context: WriteContext): Promise<E>
  remove(deps: AppDeps, actor: Actor, id: number, context: WriteContext): Promise<void>
}

function writeContext(headers: Record<string, string | string[] | undefined>): WriteContext {
  const ifMatch = headers['if-match']
  return typeof ifMatch === 'string' && ifMatch ? { ifMatch } : {}
}

/** The uniform routes of a resource. */
export type CrudRoute = 'list' | 'get' | 'create' | 'update' | 'remove'

export const errorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  503: errorBodySchema,
}

/**
 * The one CRUD contract of SPEC §7 for a resource (react-admin's uniform contract): GET list
 * (JSON array, `X-Total-Count` when paged), GET one, POST (201), PATCH, DELETE (204). Every route declares
 * its schemas (validation, serialisation, OpenAPI) and checks the role matrix before validating the body.
 */
export function registerCrud<
  ES extends z.ZodType,
  QS extends z.ZodType,
  CS extends z.ZodType,
  US extends z.ZodType,
  LS extends z.ZodType = ES,
>(
  app: FastifyInstance,
  def: {
    resource: Resource
    /** `listItem`: a list row's shape when it carries more than the entity (a balance, a badge). */
    schemas: { entity: ES; listQuery: QS; create: CS; update: US; listItem?: LS }
    service: CrudService<z.output<ES>, z.output<QS>, z.output<CS>, z.output<US>, z.output<LS>>
    /** OpenAPI descriptions per route (what the list's headers carry, how versions work…). */
    docs?: Partial<Record<CrudRoute, string>>
    /** Routes the resource registers itself (lib/resource.ts `ownRoutes`). */
    skip?: ReadonlyArray<CrudRoute>
  },
): void {
  const { deps } = app
  // Schemas are validated and serialised by the zod compilers set in buildApp; the type provider cannot
  // resolve reply types through these generic schemas, so the validated inputs are typed here instead.
  const r = app
  type IdParams = { Params: { id: number } }
  const { resource, schemas, service, docs = {} } = def
  const tags = [resource]
  const path = `/${resource}`
  const allowed = (action: Action) => requirePermission(resource, action)
  const own = new Set(def.skip ?? [])

  if (!own.has('list'))
    r.get(
      path,
      {
        preValidation: allowed('list'),
        schema: {
          tags,
          description: docs.list,
          querystring: schemas.listQuery,
          response: { 200: z.array(schemas.listItem ?? schemas.entity), ...errorResponses },
        },
      },
      async (request, reply) => sendList(reply, await service.list(deps, actorOf(request), request.query as z.output<QS>)),
    )
  if (!own.has('get'))
    r.get<IdParams>(
      `${path}/:id`,
      {
        preValidation: allowed('list'),
        schema: { tags, description: docs.get, params: idParamsSchema, response: { 200: schemas.entity, ...errorResponses } },
      },
      async (request) => service.get(deps, actorOf(request), request.params.id),
    )
  if (!own.has('create'))
    r.post(
      path,
      {
        preValidation: allowed('create'),
        schema: { tags, description: docs.create, body: schemas.create, response: { 201: schemas.entity, ...errorResponses } },
      },
      async (request, reply) => reply.code(201).send(await service.create(deps, actorOf(request), request.body as z.output<CS>)),
    )
  if (!own.has('update'))
    r.patch<IdParams>(
      `${path}/:id`,
      {
        preValidation: allowed('update'),
        schema: {
          tags,
          description: docs.update,
          params: idParamsSchema,
          body: schemas.update,
          response: { 200: schemas.entity, ...errorResponses },
        },
      },
      async (request) =>
        service.update(deps, actorOf(request), request.params.id, request.body as z.output<US>, writeContext(request.headers)),
    )
  if (!own.has('remove'))
    r.delete<IdParams>(
      `${path}/:id`,
      {
        preValidation: allowed('delete'),
        schema: { tags, description: docs.remove, params: idParamsSchema, response: { 204: z.null(), ...errorResponses } },
      },
      async (request, reply) => {
        await service.remove(deps, actorOf(request), request.params.id, writeContext(request.headers))
        return reply.code(204).send(null)
      },
    )
}
