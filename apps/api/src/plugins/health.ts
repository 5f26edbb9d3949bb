import { AppError, errorBodySchema } from '@vb/shared'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Db } from '../db/client'

const statusSchema = z.object({ status: z.literal('ok') })

/**
 * For a load balancer: `GET /api/health` says the process is up; `GET /api/ready`
 * says it can serve, i.e. the database answers (503 while it does not). Both public and cheap.
 */
export function registerHealth(app: FastifyInstance, db: Db): void {
  app.get(
    '/api/health',
    {
      config: { auth: 'public' },
      schema: { tags: ['estado'], summary: 'El proceso está en marcha', security: [], response: { 200: statusSchema } },
    },
    async () => ({ status: 'ok' as const }),
  )
  app.get(
    '/api/ready',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['estado'],
        summary: 'El proceso puede atender: la base de datos responde',
        security: [],
        response: { 200: statusSchema, 503: errorBodySchema },
      },
    },
    async () => {
      let timer: NodeJS.Timeout | undefined
      try {
        await Promise.race([
          db.execute(sql`select 1`),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new AppError('SERVICE_UNAVAILABLE')), 2000)
          }),
        ])
      } finally {
        clearTimeout(timer)
      }
      return { status: 'ok' as const }
    },
  )
}
