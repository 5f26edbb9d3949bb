import type { FastifyBaseLogger } from 'fastify'
import type { Db } from './db/client'
import type { Background } from './lib/background'
import type { Clock } from './lib/clock'
import type { FileStore } from './lib/files'
import type { ChangeFeed } from './lib/live-cache'
import type { AttemptLimiter, LoginLimits } from './lib/login-attempts'
import type { Mailer } from './lib/mailer'
import type { NotificationHub } from './lib/notification-hub'

/**
 * What services receive (docs/architecture.md, where code goes). Services import this module, never app.ts, so the backend has
 * no import cycles (`npm test` checks it).
 */
export interface AppDeps {
  db: Db
  clock: Clock
  tokenTtl: string
  /** DECISIONS S3: attempt limits kept in the database, shared by every process. */
  limiter: AttemptLimiter
  loginLimits: LoginLimits
  /** Work done after answering (e-mails). */
  background: Background
  mailer: Mailer
  publicUrl: string
  notificationHub: NotificationHub
  /** What the database says changed (lib/live-cache.ts): the caches of the token's worker and the poll. */
  changes: ChangeFeed
  /** DECISIONS S5: the uploads folder and its signed links. */
  files: FileStore
  log: FastifyBaseLogger
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps
  }
}
