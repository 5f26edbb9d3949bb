import multipart from '@fastify/multipart'
import { errorBodySchema, UPLOAD_MAX_BYTES, uploadIdParamsSchema, uploadSchema } from '@vb/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { actorOf } from '../../plugins/auth'
import { getUpload, receiveUpload, removeUpload, serveUpload } from './uploads.service'

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  413: errorBodySchema,
  415: errorBodySchema,
  503: errorBodySchema,
}

const linkQuerySchema = z.object({
  t: z.string().optional(),
  m: z.string().optional(),
  e: z.string().optional(),
  s: z.string().optional(),
})

/** DECISIONS S5, D8: uploaded files (SPEC §7 POST /uploads) and their signed links. */
export const uploadsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app
  const tags = ['uploads']
  // Multipart is parsed only by these routes (this plugin's scope), streamed, never buffered whole.
  // preservePath: the name as sent, so a path in it is refused rather than silently cut to its last part.
  await app.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1 }, preservePath: true })

  app.post(
    '/uploads',
    {
      schema: {
        tags,
        summary: 'Sube un archivo (multipart, campo «file»): pdf, doc, docx, jpg, jpeg o png de hasta 10 MB',
        description:
          'Comprueba la extensión y el contenido (bytes mágicos). La respuesta lleva `url` (`/api/uploads/<id>`), la ' +
          'referencia que se guarda en `archivoUrl` de un documento o en `justificanteUrl` de un movimiento, y `archivo` ' +
          'con enlaces firmados que caducan en unos minutos. Hasta que se adjunta, solo lo ve quien lo subió; sin ' +
          'adjuntar se borra al día siguiente. 413 si supera 10 MB, 415 si el tipo no se admite o el contenido no ' +
          'corresponde a la extensión, 400 si está vacío, el nombre no es válido o la subida se corta.',
        consumes: ['multipart/form-data'],
        response: { 201: uploadSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await receiveUpload(deps, actorOf(request), request)),
  )

  app.get(
    '/uploads/:id',
    {
      schema: {
        tags,
        summary: 'Datos de un archivo subido y enlaces firmados nuevos (si el trabajador puede ver el registro)',
        params: uploadIdParamsSchema,
        response: { 200: uploadSchema, ...errors },
      },
    },
    async (request) => getUpload(deps, actorOf(request), request.params.id),
  )

  app.delete(
    '/uploads/:id',
    {
      schema: {
        tags,
        summary: 'Descarta un archivo propio que aún no está adjunto a ningún registro',
        params: uploadIdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await removeUpload(deps, actorOf(request), request.params.id)
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/uploads/:id/contenido',
    {
      // The signature authenticates the link (no bearer token in a URL, DECISIONS S2): usable in <a> and <img>.
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'El archivo, por un enlace firmado de corta duración (los da la API en `archivo.url` y `archivo.descargaUrl`)',
        description:
          '403 si el enlace no es válido o ha caducado (vuelve a pedir el registro para obtener uno nuevo); 404 si el ' +
          'trabajador del enlace ya no puede ver el registro al que pertenece el archivo.',
        security: [],
        params: uploadIdParamsSchema,
        querystring: linkQuerySchema,
        produces: ['application/pdf', 'image/jpeg', 'image/png', 'application/octet-stream'],
        response: { 200: z.any().describe('El contenido del archivo'), ...errors },
      },
    },
    async (request, reply) => serveUpload(deps, request.params.id, request.query, reply),
  )
}
