import { AppError, type Rol } from '@vb/shared'
import { eq, sql } from 'drizzle-orm'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Db } from '../db/client'
import { trabajadores } from '../db/schema'
import type { Actor } from '../lib/actor'

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null
  }
  interface FastifyContextConfig {
    /** 'public': no token; 'temporal': allowed with a temporary password (DECISIONS P4). */
    auth?: 'public' | 'temporal'
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string; tv: number }
    user: { sub: string; tv: number }
  }
}

/** The worker behind a token, with its companies, in one query. */
export async function loadActor(db: Db, id: number): Promise<(Actor & { activo: boolean; tokenVersion: number }) | null> {
  const rows = await db
    .select({
      id: trabajadores.id,
      email: trabajadores.email,
      nombre: trabajadores.nombre,
      apellidos: trabajadores.apellidos,
      rol: trabajadores.rol,
      activo: trabajadores.activo,
      passwordTemporal: trabajadores.passwordTemporal,
      tokenVersion: trabajadores.tokenVersion,
      empresaIds: sql<
        number[]
      >`coalesce((select array_agg(te.empresa_id order by te.empresa_id) from trabajador_empresas te where te.trabajador_id = ${trabajadores.id}), '{}')`,
    })
    .from(trabajadores)
    .where(eq(trabajadores.id, id))
  const row = rows[0]
  if (!row) return null
  return { ...row, rol: row.rol as Rol, empresaIds: (row.empresaIds ?? []).map(Number) }
}

/**
 * Every /api route needs a valid bearer token unless its config says `auth: 'public'` (DECISIONS S2):
 * one algorithm, expiry, and a token version that a password change or deactivation invalidates.
 */
export function registerAuth(app: FastifyInstance, db: Db): void {
  app.decorateRequest('actor', null)
  app.addHook('onRequest', async (request: FastifyRequest, _reply: FastifyReply) => {
    // The API description (DECISIONS A1) is public: it holds no data.
    if (!request.url.startsWith('/api/') || request.url.startsWith('/api/docs')) return
    const mode = request.routeOptions.config?.auth
    if (mode === 'public' || !request.routeOptions.url) return
    let payload: { sub: string; tv: number }
    try {
      payload = await request.jwtVerify()
    } catch {
      throw new AppError('UNAUTHENTICATED')
    }
    const id = Number(payload.sub)
    const actor = Number.isInteger(id) ? await loadActor(db, id) : null
    if (!actor?.activo || actor.tokenVersion !== payload.tv) throw new AppError('UNAUTHENTICATED')
    if (actor.passwordTemporal && mode !== 'temporal') throw new AppError('PASSWORD_CHANGE_REQUIRED')
    request.actor = actor
  })
}

/** The logged-in worker of a route that requires one. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('UNAUTHENTICATED')
  return request.actor
}
