import { existsSync } from 'node:fs'
import path from 'node:path'
import helmet from '@fastify/helmet'
import jwt from '@fastify/jwt'
import rateLimit from '@fastify/rate-limit'
import fastifyStatic from '@fastify/static'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import type { Db, Listen } from './db/client'
import { type Clock, systemClock } from './lib/clock'
import { LoginAttempts, type LoginLimits } from './lib/login-attempts'
import { logMailer, type Mailer } from './lib/mailer'
import { NotificationHub } from './lib/notification-hub'
import { authRoutes } from './modules/auth/auth.routes'

import { contactosRoutes } from './modules/contactos/contactos.routes'
import { empresasRoutes } from './modules/empresas/empresas.routes'
import { notificacionesRoutes } from './modules/notificaciones/notificaciones.routes'
import { trabajadoresRoutes } from './modules/trabajadores/trabajadores.routes'
import { usuariosRoutes } from './modules/usuarios/usuarios.routes'
import { viviendasRoutes } from './modules/viviendas/viviendas.routes'

import { registerAuth } from './plugins/auth'
import { registerErrorHandling, registerNotFound } from './plugins/errors'

export interface AppOptions {
  db: Db
  /** LISTEN on the database (`Database.listen`): carries new notifications to open streams (D9). */
  listen: Listen
  jwtSecret: string
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
}

/** Everything the route modules need from the app. */
export interface AppDeps {
  db: Db
  clock: Clock
  tokenTtl: string
  loginAttempts: LoginAttempts
  mailer: Mailer
  publicUrl: string
  notificationHub: NotificationHub
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps
  }
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 1024 * 1024,
    trustProxy: options.trustProxy ?? false,
    routerOptions: { ignoreTrailingSlash: true },
  })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  registerErrorHandling(app)

  const limits = options.loginLimits ?? { perEmail: 5, perIp: 20, windowMs: 15 * 60_000 }
  const deps: AppDeps = {
    db: options.db,
    clock: options.clock ?? systemClock,
    tokenTtl: options.tokenTtl ?? '8h',
    loginAttempts: new LoginAttempts(options.db, options.clock ?? systemClock, limits),
    mailer: options.mailer ?? logMailer(app.log),
    publicUrl: options.publicUrl ?? 'http://127.0.0.1:3000',
    notificationHub: new NotificationHub(options.listen),
  }
  app.decorate('deps', deps)
  // Open notification streams never finish by themselves: end them first, so closing can drain the rest.
  app.addHook('preClose', async () => deps.notificationHub.stop())

  // DECISIONS S6: CSP, no-sniff, frame denial on every response.
  await app.register(helmet, {
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
  })
  await app.register(rateLimit, { global: false })
  await app.register(jwt, {
    secret: options.jwtSecret,
    sign: { algorithm: 'HS256', expiresIn: deps.tokenTtl },
    verify: { algorithms: ['HS256'] },
  })
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/')) reply.header('Cache-Control', 'no-store')
  })
  registerAuth(app, options.db)

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

  await app.register(
    async (api) => {
      await api.register(authRoutes)
      await api.register(trabajadoresRoutes)
      await api.register(notificacionesRoutes)
      await api.register(empresasRoutes)
      await api.register(viviendasRoutes)
      await api.register(usuariosRoutes)
      await api.register(contactosRoutes)
    },
    { prefix: '/api' },
  )

  const serveSpa = Boolean(options.webDist && existsSync(path.join(options.webDist, 'index.html')))
  if (serveSpa) {
    await app.register(fastifyStatic, { root: options.webDist as string, wildcard: false, index: ['index.html'] })
  }
  registerNotFound(app, serveSpa)
  return app
}
