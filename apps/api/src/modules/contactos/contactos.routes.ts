import { contactoCreateSchema, contactoListQuerySchema, contactoSchema, contactoUpdateSchema } from '@vb/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { registerCrud } from '../../lib/crud-routes'
import { createContacto, getContacto, listContactos, removeContacto, updateContacto } from './contactos.service'

/** SPEC §7 contactos: the uniform CRUD routes, role checks from SPEC §6 (shared `can`). */
export const contactosRoutes: FastifyPluginAsyncZod = async (app) => {
  registerCrud(app, {
    resource: 'contactos',
    schemas: {
      entity: contactoSchema,
      listQuery: contactoListQuerySchema,
      create: contactoCreateSchema,
      update: contactoUpdateSchema,
    },
    service: {
      list: listContactos,
      get: getContacto,
      create: createContacto,
      update: updateContacto,
      remove: removeContacto,
    },
  })
}
