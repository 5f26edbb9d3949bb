import { idParamsSchema, logCreateSchema, logCsvQuerySchema, logListItemSchema, logListQuerySchema, logSchema } from '@vb/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { errorResponses as errors } from '../../lib/crud-routes'
import { sendList } from '../../lib/paging'
import { actorOf } from '../../plugins/auth'
import { requirePermission } from '../../plugins/permissions'
import { createLog, exportLogsCsv, getLog, logsList } from './logs.service'

/**
 * SPEC §7 logs: read (list and CSV) by ADMIN and SUPERADMIN (SPEC §6), written by the server for every change
 * (DECISIONS L1) and by clients for their own events. No call changes or deletes an entry (L2): there is no
 * such route, and the table's trigger refuses UPDATE, DELETE and TRUNCATE anyway.
 */
export const logsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app
  const tags = ['logs']

  app.get(
    '/logs',
    {
      preValidation: requirePermission('logs', 'list'),
      schema: {
        tags,
        summary: 'El registro de actividad, los más recientes primero (SPEC §2.11)',
        description:
          'ADMIN ve las entradas de los trabajadores que comparten empresa con él (DECISIONS P1). Filtros: `fecha` (un día), `desde` y `hasta` (días, hora de Madrid), `trabajadorId`, `viviendaId`, `tipo` y `q` (texto en acción y descripción). `X-Total-Count` lleva el total (exacto hasta 10.000, D13). Cada entrada dice si tiene valores antes y después (`cambios`); `GET /logs/{id}` los da.',
        querystring: logListQuerySchema,
        response: { 200: z.array(logListItemSchema), ...errors },
      },
    },
    async (request, reply) => sendList(reply, await logsList.list(deps, actorOf(request), request.query)),
  )

  app.get(
    '/logs/csv',
    {
      preValidation: requirePermission('logs', 'list'),
      schema: {
        tags,
        summary: "'Descargar': logs.csv con todas las entradas que cumplen los filtros (SPEC §2.11)",
        description:
          'Separado por `;`, todos los valores entre comillas, cabeceras Fecha, Trabajador, Accion, URL, Vivienda, fechas es-ES (hora de Madrid) y BOM UTF-8. Se genera en el servidor desde un cursor de la base de datos, sin límite de filas; la descarga queda registrada.',
        produces: ['text/csv'],
        querystring: logCsvQuerySchema,
        response: { 200: z.any().describe('text/csv'), ...errors },
      },
    },
    async (request, reply) => {
      const csv = await exportLogsCsv(deps, actorOf(request), request.query)
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="logs.csv"')
        .send(csv)
    },
  )

  app.get(
    '/logs/:id',
    {
      preValidation: requirePermission('logs', 'list'),
      schema: {
        tags,
        summary: 'Una entrada del registro abierta, con sus valores antes y después (DECISIONS L3)',
        description: 'Quien ve la entrada en la lista la ve aquí; para cualquier otro, y para un id que no existe, 404.',
        params: idParamsSchema,
        response: { 200: logSchema, ...errors },
      },
    },
    async (request) => getLog(deps, actorOf(request), request.params.id),
  )

  app.post(
    '/logs',
    {
      preValidation: requirePermission('logs', 'create'),
      schema: {
        tags,
        summary: 'Registrar un evento del cliente, como abrir un extracto (DECISIONS L1)',
        description:
          'El trabajador de la entrada es siempre quien llama y la fecha la del servidor: `trabajadorId` o `fecha` en el cuerpo se ignoran. Una vivienda fuera de las empresas de quien llama responde 404.',
        body: logCreateSchema,
        response: { 201: logSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await createLog(deps, actorOf(request), request.body)),
  )
}
