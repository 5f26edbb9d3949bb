import { viviendaCreateSchema, viviendaListQuerySchema, viviendaSchema, viviendaUpdateSchema } from '@vb/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { registerCrud } from '../../lib/crud-routes'
import { createVivienda, getVivienda, listViviendas, removeVivienda, updateVivienda } from './viviendas.service'

/** SPEC §7 viviendas: the uniform CRUD routes, role checks from SPEC §6 (shared `can`). */
export const viviendasRoutes: FastifyPluginAsyncZod = async (app) => {
  registerCrud(app, {
    resource: 'viviendas',
    schemas: {
      entity: viviendaSchema,
      listQuery: viviendaListQuerySchema,
      create: viviendaCreateSchema,
      update: viviendaUpdateSchema,
    },
    service: {
      list: listViviendas,
      get: getVivienda,
      create: createVivienda,
      update: updateVivienda,
      remove: removeVivienda,
    },
  })
}
