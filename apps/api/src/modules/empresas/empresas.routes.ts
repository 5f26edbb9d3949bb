import { empresaCreateSchema, empresaListQuerySchema, empresaSchema, empresaUpdateSchema } from '@vb/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { registerCrud } from '../../lib/crud-routes'
import { createEmpresa, getEmpresa, listEmpresas, removeEmpresa, updateEmpresa } from './empresas.service'

/** SPEC §7 empresas: the uniform CRUD routes, role checks from SPEC §6 (shared `can`). */
export const empresasRoutes: FastifyPluginAsyncZod = async (app) => {
  registerCrud(app, {
    resource: 'empresas',
    schemas: {
      entity: empresaSchema,
      listQuery: empresaListQuerySchema,
      create: empresaCreateSchema,
      update: empresaUpdateSchema,
    },
    service: {
      list: listEmpresas,
      get: getEmpresa,
      create: createEmpresa,
      update: updateEmpresa,
      remove: removeEmpresa,
    },
  })
}
