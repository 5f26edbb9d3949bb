import jwt from '@fastify/jwt'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod'
import helmet from 'helmet'
import type { Db, Listen } from './db/client'
import type { AppDeps } from './deps'
import { Background } from './lib/background'
import { type Clock, systemClock } from './lib/clock'
import { invalidateCounts } from './lib/count-cache'
import { errorResponses } from './lib/crud-routes'
import { ensurePrivateDir } from './lib/data-dir'
import { FileStore } from './lib/files'
import { ChangeFeed } from './lib/live-cache'
import { AttemptLimiter, type LoginLimits } from './lib/login-attempts'
import { logMailer, type Mailer } from './lib/mailer'
import { NotificationHub } from './lib/notification-hub'
import { checkRowMapping } from './lib/select-rows'
import { responseSerializer } from './lib/serializer'
import { authRoutes } from './modules/auth/auth.routes'
import { cajaUsuarioRoutes } from './modules/caja-usuario/caja-usuario.routes'
import { contactosRoutes } from './modules/contactos/contactos.routes'
import { documentosUsuarioRoutes } from './modules/documentos-usuario/documentos-usuario.routes'
import { empresasRoutes } from './modules/empresas/empresas.routes'
import { inicioRoutes } from './modules/inicio/inicio.routes'
import { logsRoutes } from './modules/logs/logs.routes'
import { notificacionesRoutes } from './modules/notificaciones/notificaciones.routes'
import { planingTareasRoutes } from './modules/planing-tareas/planing-tareas.routes'
import { presupuestosRoutes } from './modules/presupuestos/presupuestos.routes'
import { tareasTrabajadorRoutes } from './modules/tareas-trabajador/tareas-trabajador.routes'
import { trabajadoresRoutes } from './modules/trabajadores/trabajadores.routes'
import { uploadsRoutes } from './modules/uploads/uploads.routes'
import { usuariosRoutes } from './modules/usuarios/usuarios.routes'
import { viviendasRoutes } from './modules/viviendas/viviendas.routes'
import { registerAuth } from './plugins/auth'
import { clientErrorHandler } from './plugins/client-errors'
import { registerErrorHandling, registerNotFound } from './plugins/errors'
import { registerHealth } from './plugins/health'
import { registerTextInput } from './plugins/input'
import { registerWebDelivery } from './plugins/static-files'

export interface AppOptions {
  db: Db
  /**
   * LISTEN on the database (`Database.listen`): carries new notifications to open streams (D9), and the
   * changes that drop what this process keeps in memory (lib/live-cache.ts).
   */
  listen: Listen
  jwtSecret: string
  /**
   * DECISIONS S5, R: the folder of uploaded files (DATA_DIR/uploads, or a folder shared by every API
   * process). Created 0700 if missing; tests use a temporary one.
   */
  uploadsDir: string
  /** DECISIONS S2: token lifetime, 8 h by default. */
  tokenTtl?: string
  clock?: Clock
  logger?: FastifyServerOptions['logger']
  /** Built web app to serve with SPA fallback; omitted in API tests. */
  webDist?: string
  /** DECISIONS S3: failed logins allowed per e-mail / per address in the window. */
  loginLimits?: LoginLimits
  mailer?: Mailer
  /** Public URL used in password reset links. */
  publicUrl?: string
  /** Behind a reverse proxy: which hops to trust for the client address (login limiter, logs). */
  trustProxy?: boolean | string
  /** A request whose body has not arrived by then is cut (30 s; shorter in a test). */
  requestTimeoutMs?: number
  /**
   * Write every answer both ways, compiled and through zod, and fail when they differ (lib/serializer.ts),
   * and map every list row both ways (lib/select-rows.ts): on in the API tests.
   */
  checkResponses?: boolean
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const requestTimeout = options.requestTimeoutMs ?? 30_000
  // DECISIONS S6: CSP, no-sniff, frame denial on every response. With fixed directives helmet's headers are
  // the same for every answer, so they are worked out once, here, and set as they are (its middleware still
  // joined the policy on every request, and the Fastify plugin rebuilt the middleware itself each time).
  const securityHeaders = fixedHeaders(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      frameguard: { action: 'deny' },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: false,
    }),
  )
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 1024 * 1024,
    trustProxy: options.trustProxy ?? false,
    routerOptions: { ignoreTrailingSlash: true },
    // A request whose body stalls is cut after 30 s, headers after 10 s (checked every second).
    // (Node only enforces the request timeout when the headers timeout is not longer.)
    requestTimeout,
    http: { headersTimeout: Math.min(10_000, requestTimeout), connectionsCheckingInterval: 1000 },
    clientErrorHandler: clientErrorHandler(securityHeaders),
  })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(responseSerializer(options.checkResponses ?? false))
  // The same check for list rows mapped without Drizzle's per-row walk (lib/select-rows.ts).
  if (options.checkResponses) checkRowMapping(true)
  registerErrorHandling(app)

  const clock = options.clock ?? systemClock
  const deps: AppDeps = {
    db: options.db,
    clock,
    tokenTtl: options.tokenTtl ?? '8h',
    limiter: new AttemptLimiter(options.db, clock),
    loginLimits: options.loginLimits ?? { perEmail: 5, perIp: 20, windowMs: 15 * 60_000 },
    background: new Background(app.log),
    mailer: options.mailer ?? logMailer(app.log),
    publicUrl: options.publicUrl ?? 'http://127.0.0.1:3000',
    notificationHub: new NotificationHub(options.listen),
    changes: new ChangeFeed(options.listen),
    files: new FileStore(options.uploadsDir, options.jwtSecret, clock),
    log: app.log,
  }
  ensurePrivateDir(options.uploadsDir, 0o700, (message) => app.log.warn(message))
  app.decorate('deps', deps)
  // What the database says changed (lib/live-cache.ts) is listened to once the app is built (a build that fails
  // leaves no connection behind), and no longer before it closes. Open notification streams never finish by
  // themselves: end them first, so closing can drain the rest; e-mails already promised are sent before the
  // process goes.
  app.addHook('onReady', async () => deps.changes.start())
  app.addHook('preClose', async () => {
    await deps.changes.stop()
    await deps.notificationHub.stop()
    await deps.background.idle()
  })

  const securityHeaderList = Object.entries(securityHeaders)
  app.addHook('onRequest', (_request, reply, done) => {
    // On the response itself, as helmet did: a stream that writes its own head (notifications) has them too.
    for (const [name, value] of securityHeaderList) reply.raw.setHeader(name, value)
    done()
  })
  const webRoot = await registerWebDelivery(app, options.webDist)
  await app.register(jwt, {
    secret: options.jwtSecret,
    sign: { algorithm: 'HS256', expiresIn: deps.tokenTtl },
    // A token verified once is remembered (plugins/auth.ts: 1,000 at most, by the token itself) until it expires
    // or for 10 minutes at most: its signature and claims are not checked again on each call. Failures are never
    // remembered. Whether its worker is still active, its role, companies and password unchanged is checked on
    // every call, against the worker as last read (kept only while its rows do not change: lib/live-cache.ts).
    verify: { algorithms: ['HS256'] },
  })
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/')) reply.header('Cache-Control', 'no-store')
  })
  // A write has committed by the time its answer is being sent, and the client has not seen it yet: cached
  // search totals (lib/count-cache.ts), the token's worker and the notifications kept (lib/live-cache.ts) are
  // out of date from here on.
  app.addHook('onSend', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') {
      invalidateCounts(deps.db)
      deps.changes.dropAll()
    }
  })
  registerAuth(app, options.db, deps.changes)
  registerTextInput(app)

  // Any operation can answer the error body (bad input, no session, no permission, missing record, a conflict,
  // the database away): declared once here, so the OpenAPI document and the serializer cover every answer.
  app.addHook('onRoute', (route) => {
    const response = route.schema?.response as Record<string, unknown> | undefined
    if (!route.schema || !response) return
    const { 401: _401, 403: _403, ...publicErrors } = errorResponses
    route.schema.response = { ...(route.config?.auth === 'public' ? publicErrors : errorResponses), ...response }
  })
  await app.register(swagger, {
    openapi: {
      info: { title: 'Back-office de viviendas: API', version: '0.1.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  })
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } })
  app.get('/api/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger())
  registerHealth(app, options.db)

  await app.register(
    async (api) => {
      await api.register(authRoutes)
      await api.register(trabajadoresRoutes)
      await api.register(notificacionesRoutes)
      await api.register(empresasRoutes)
      await api.register(viviendasRoutes)
      await api.register(usuariosRoutes)
      await api.register(contactosRoutes)
      await api.register(uploadsRoutes)
      await api.register(documentosUsuarioRoutes)
      await api.register(cajaUsuarioRoutes)
      await api.register(logsRoutes)
      await api.register(planingTareasRoutes)
      await api.register(inicioRoutes)
      await api.register(presupuestosRoutes)
      await api.register(tareasTrabajadorRoutes)
    },
    { prefix: '/api' },
  )

  registerNotFound(app, webRoot)
  return app
}

/**
 * The headers a connect-style middleware sets, run once on a stand-in response. Only for one whose headers
 * do not depend on the request (helmet with fixed directives; it may also remove X-Powered-By, which Node
 * never sets).
 */
export function fixedHeaders(
  middleware: (req: never, res: never, next: (error?: unknown) => void) => void,
): Record<string, string> {
  const headers: Record<string, string> = {}
  const res = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value)
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()]
    },
    getHeader: (name: string) => headers[name.toLowerCase()],
  }
  let called = false
  middleware({ headers: {}, method: 'GET', url: '/' } as never, res as never, (error) => {
    if (error) throw error
    called = true
  })
  if (!called) throw new Error('fixedHeaders: the middleware did not finish at once')
  return headers
}
