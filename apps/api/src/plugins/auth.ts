import { AppError, MAX_ID, type Rol } from '@vb/shared'
import { eq, sql } from 'drizzle-orm'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Db } from '../db/client'
import { trabajadores } from '../db/schema'
import type { Actor } from '../lib/actor'
import type { ChangeFeed } from '../lib/live-cache'

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null
  }
  interface FastifyContextConfig {
    /**
     * 'required' (every /api route unless it says otherwise), 'public' (no token) or 'temporal' (allowed
     * with a temporary password, DECISIONS P4). Set on every route when it is registered.
     */
    auth?: 'public' | 'temporal' | 'required'
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string; tv: number }
    user: { sub: string; tv: number }
  }
}

function buildActorQuery(db: Db) {
  return db
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
    .where(eq(trabajadores.id, sql.placeholder('id')))
    .prepare('load_actor')
}

/**
 * Every request runs this one: built once per database handle and sent as a named prepared statement,
 * so neither Drizzle nor PostgreSQL plans it again on each call.
 */
const actorQueries = new WeakMap<Db, ReturnType<typeof buildActorQuery>>()

export type LoadedActor = Actor & { activo: boolean; tokenVersion: number }

/** The worker behind a token, with its companies, in one query. */
export async function loadActor(db: Db, id: number): Promise<LoadedActor | null> {
  let query = actorQueries.get(db)
  if (!query) {
    query = buildActorQuery(db)
    actorQueries.set(db, query)
  }
  const rows = await query.execute({ id })
  const row = rows[0]
  if (!row) return null
  return { ...row, rol: row.rol as Rol, empresaIds: (row.empresaIds ?? []).map(Number) }
}

type TokenPayload = { sub: string; tv: number; exp?: number }

/** A verified token is remembered this long at most, and never past its expiry. */
const TOKEN_REMEMBERED_MS = 10 * 60_000
/** Tokens remembered at once; the oldest is forgotten first. */
const TOKENS_REMEMBERED = 1000

/**
 * Tokens whose signature and claims have been checked, by the token's own text, until it expires or for 10 minutes
 * at most: a call with a token seen before is one lookup, where @fastify/jwt's request path decoded it, merged its
 * options and hashed it with SHA-256 for fast-jwt's cache on every call (a quarter to two fifths of the notification
 * poll's CPU a request, docs/performance.md). A token that fails is never remembered. `verify` throws for a bad token.
 */
export function rememberedTokens(verify: (token: string) => TokenPayload, now: () => number = Date.now) {
  const remembered = new Map<string, { payload: TokenPayload; until: number }>()
  return (token: string): TokenPayload => {
    const at = now()
    const seen = remembered.get(token)
    if (seen && at < seen.until) return seen.payload
    if (seen) remembered.delete(token)
    const payload = verify(token)
    const until = Math.min(payload.exp === undefined ? Number.POSITIVE_INFINITY : payload.exp * 1000, at + TOKEN_REMEMBERED_MS)
    if (remembered.size >= TOKENS_REMEMBERED) remembered.delete(remembered.keys().next().value as string)
    remembered.set(token, { payload, until })
    return payload
  }
}

/** The token of an `Authorization: Bearer …` header, or '' (which no verification accepts). */
function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization
  return header !== undefined && /^Bearer /i.test(header) ? header.slice(7) : ''
}

/**
 * Every /api route needs a valid bearer token unless its config says `auth: 'public'` (DECISIONS S2):
 * one algorithm, expiry, and a token version that a password change or deactivation invalidates.
 * One door: the decision comes from the matched route's own configuration, fixed when the route is
 * registered from its declared path, never from a prefix of the raw URL of a request.
 */
export function registerAuth(app: FastifyInstance, db: Db, changes: ChangeFeed): void {
  // The lookup is kept while the worker's rows (trabajadores, trabajador_empresas) do not change (lib/live-cache.ts):
  // a deactivation, a role, a company or a password changed through this process applies on the very next call,
  // and one made anywhere else as soon as PostgreSQL announces its commit, within milliseconds.
  const actors = changes.cache<LoadedActor | null>('actor', ['trabajadores', 'trabajador_empresas'])
  // One algorithm (HS256), the signature and the expiry: @fastify/jwt's verifier, as configured in app.ts.
  const verified = rememberedTokens((token) => app.jwt.verify<TokenPayload>(token))
  app.decorateRequest('actor', null)
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { auth?: 'public' | 'temporal' | 'required' }
    if (!config.auth) {
      // The API description (DECISIONS A1) and the web app's files are public: they hold no data.
      const api = route.url.startsWith('/api/') && !route.url.startsWith('/api/docs')
      route.config = { ...config, auth: api ? 'required' : 'public' } as typeof route.config
    }
  })
  app.addHook('onRequest', async (request: FastifyRequest, _reply: FastifyReply) => {
    const mode = request.routeOptions.config?.auth
    // No route matched (the 404 handler answers) or a public one.
    if (mode === undefined || mode === 'public') return
    let payload: TokenPayload
    try {
      payload = verified(bearerToken(request))
    } catch {
      throw new AppError('UNAUTHENTICATED')
    }
    // Its expiry is read by a stream that must end with it (notificaciones.stream.ts).
    request.user = payload
    const id = Number(payload.sub)
    const actor = Number.isInteger(id) && id > 0 && id <= MAX_ID ? await actors.get(id, '', () => loadActor(db, id)) : null
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
