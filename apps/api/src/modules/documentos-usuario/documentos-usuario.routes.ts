import { documentoCreateSchema, documentoListQuerySchema, documentoSchema, documentoUpdateSchema } from '@vb/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { registerCrud } from '../../lib/crud-routes'
import { createDocumento, getDocumento, listDocumentos, removeDocumento, updateDocumento } from './documentos-usuario.service'

const archivo =
  '`archivo` lleva los enlaces de «Abrir» (`url`) y «Descargar» (`descargaUrl`): para un archivo subido, enlaces ' +
  'firmados que caducan en unos minutos (`caduca`; vuelve a pedir el documento para tener otros), usables en <a> e ' +
  '<img>; para una URL externa, la propia URL.'

/** SPEC §7 documentos-usuario (SPEC §2.14; DECISIONS D3, D8, L1). */
export const documentosUsuarioRoutes: FastifyPluginAsyncZod = async (app) => {
  registerCrud(app, {
    resource: 'documentos-usuario',
    schemas: {
      entity: documentoSchema,
      listQuery: documentoListQuerySchema,
      create: documentoCreateSchema,
      update: documentoUpdateSchema,
    },
    service: {
      list: listDocumentos,
      get: getDocumento,
      create: createDocumento,
      update: updateDocumento,
      remove: removeDocumento,
    },
    docs: {
      list:
        'Documentos de un usuario (`usuarioId`, o `nif` en cualquier caso, como en la URL de la pantalla; 404 con el ' +
        "mensaje 'No se encontró ningún usuario con NIF {nif}' si no existe o es de otra empresa). `q` busca en el título " +
        'sin distinguir mayúsculas ni acentos; `fecha` (AAAA-MM-DD) filtra un día; `sort` titulo|fecha (por defecto fecha, ' +
        `la más reciente primero). \`X-Total-Count\` lleva el total. ${archivo}`,
      get: archivo,
      create:
        '`archivoUrl`: una URL http(s) o la `url` que devolvió POST /api/uploads (`/api/uploads/<id>`), que el documento ' +
        'toma para sí. Un documento titulado PIR (sin distinguir mayúsculas ni espacios) revisa las notificaciones de PIR.',
      update:
        'Solo cambian los campos enviados. Versión: envía el `updatedAt` leído en `If-Match` (o en el cuerpo como ' +
        '`updatedAt`); si el documento cambió desde entonces, 409. Sin versión también se acepta.',
      remove: 'Elimina el documento y su archivo subido, si lo tiene; queda en el registro de actividad.',
    },
  })
}
