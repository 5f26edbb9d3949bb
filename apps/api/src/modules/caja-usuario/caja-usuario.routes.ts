import {
  EXTRACTO_MAX_DIAS,
  EXTRACTO_MAX_MOVIMIENTOS,
  errorBodySchema,
  extractoQuerySchema,
  movimientoCajaCreateSchema,
  movimientoCajaListItemSchema,
  movimientoCajaListQuerySchema,
  movimientoCajaSchema,
  movimientoCajaUpdateSchema,
} from '@vb/shared'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { registerCrud } from '../../lib/crud-routes'
import { contentDisposition } from '../../lib/files'
import { actorOf } from '../../plugins/auth'
import { requirePermission } from '../../plugins/permissions'
import { extracto } from './caja-usuario.extracto'
import { createMovimiento, getMovimiento, listMovimientos, removeMovimiento, updateMovimiento } from './caja-usuario.service'

const justificante =
  '`justificante` (el clip) lleva enlaces firmados del archivo subido, que caducan en unos minutos; `justificanteUrl` es su referencia.'

/** SPEC §7 caja-usuario (SPEC §2.15; DECISIONS A6, D7, L1, L3) and the statement PDF. */
export const cajaUsuarioRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app

  app.get(
    '/caja-usuario/extracto',
    {
      preValidation: requirePermission('caja-usuario', 'list'),
      schema: {
        tags: ['caja-usuario'],
        summary: 'Extracto de caja en PDF de un usuario entre dos días (por defecto, el último mes completo)',
        description:
          '`nif` (en cualquier caso) o `usuarioId`; `desde` y `hasta` en AAAA-MM-DD (días de Madrid, ambos incluidos). ' +
          'PDF en español: empresa y vivienda, nombre y NIF, saldo inicial, cada movimiento con su saldo, totales de ' +
          'ingresos y gastos, saldo final y fecha de generación. Pídelo con fetch (lleva el token) y descárgalo como blob. ' +
          `Límites: un periodo de ${EXTRACTO_MAX_DIAS} días como máximo y ${EXTRACTO_MAX_MOVIMIENTOS} movimientos como máximo; ` +
          'más allá, 400 con un mensaje que dice cómo acotarlo. Totales y filas salen de una misma instantánea de la base de datos; ' +
          'el PDF se envía a medida que se compone (sin Content-Length).',
        querystring: extractoQuerySchema,
        produces: ['application/pdf'],
        response: {
          200: z.any().describe('application/pdf'),
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { pdf, nombre } = await extracto(deps, actorOf(request), request.query)
      return reply
        .type('application/pdf')
        .header('Content-Disposition', contentDisposition('descargar', nombre))
        .header('X-Content-Type-Options', 'nosniff')
        .send(pdf)
    },
  )

  registerCrud(app, {
    resource: 'caja-usuario',
    schemas: {
      entity: movimientoCajaSchema,
      listQuery: movimientoCajaListQuerySchema,
      create: movimientoCajaCreateSchema,
      update: movimientoCajaUpdateSchema,
      listItem: movimientoCajaListItemSchema,
    },
    service: {
      list: listMovimientos,
      get: getMovimiento,
      create: createMovimiento,
      update: updateMovimiento,
      remove: removeMovimiento,
    },
    docs: {
      list:
        'La caja de un usuario (`usuarioId`, o `nif` en cualquier caso; 404 si no existe o es de otra empresa), la más ' +
        'reciente primero (`sort=fecha&order=asc` para la más antigua), paginada, con `desde`/`hasta` (AAAA-MM-DD) ' +
        'opcionales. Sigue siendo un array JSON; cada fila lleva `saldo`, el saldo tras ese movimiento. Cabeceras: ' +
        '`X-Total-Count` (movimientos del rango), `X-Saldo` (saldo total del usuario: «Saldo: {sum} €»), ' +
        '`X-Saldo-Inicial` (saldo antes de `desde`) y `X-Saldo-Final` (saldo al final de `hasta`), decimales exactos ' +
        `como '1234.50'. ${justificante}`,
      get: justificante,
      create:
        "`cantidad`: un decimal con coma o punto ('12,5' → '12.50'); sin exponentes, sin más de 2 decimales, distinta de 0. " +
        '`justificanteUrl`: la `url` que devolvió POST /api/uploads (una foto o un PDF). Queda en el registro de actividad.',
      update:
        'Solo cambian los campos enviados; `justificanteUrl: null` quita el justificante. Versión: envía el `updatedAt` leído ' +
        "en `If-Match` (o en el cuerpo como `updatedAt`); si cambió desde entonces, 409 'El movimiento ha cambiado desde " +
        "que lo abriste. Vuelve a cargarlo.'. Sin versión también se acepta. El registro guarda los valores de antes y después.",
      remove: 'No pide versión. El registro de actividad guarda los valores que tenía.',
    },
  })
}
