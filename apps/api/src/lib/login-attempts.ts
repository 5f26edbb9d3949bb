import { AppError } from '@vb/shared'
import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { intentosLogin } from '../db/schema'
import type { Clock } from './clock'

export interface LoginLimits {
  /** Failures allowed per e-mail in the window. */
  perEmail: number
  /** Failures allowed per client address in the window. */
  perIp: number
  windowMs: number
}

/** A limit on one key: at most `max` attempts in `windowMs`. */
export interface Limit {
  key: string
  max: number
  windowMs: number
}

export type Reservation = { ok: true; ids: number[] } | { ok: false; retryAfterSeconds: number }

/** The `intentos_login.clave` of an e-mail (case-insensitive) and of a client address. */
export const emailKey = (email: string) => `email:${email.trim().toLowerCase()}`
export const ipKey = (ip: string) => `ip:${ip}`

/**
 * Attempt limits that hold under a burst and across processes (DECISIONS S3).
 * "Check, then record" across an await is a race: 60 concurrent wrong passwords would all be checked.
 * Here the check and the record are one step in the database: under a transaction-scoped advisory lock
 * per key, the key's attempts in its window are counted and, if every key is below its limit, one row per
 * key is inserted before the password is even looked at. Every API process sharing the database shares
 * the counts, and a restart forgets none.
 */
export class AttemptLimiter {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Records one attempt against every limit, or none if any is exhausted (with the wait until it frees). */
  async reserve(limits: Limit[]): Promise<Reservation> {
    const now = this.clock.now()
    const sorted = [...limits].sort((a, b) => a.key.localeCompare(b.key))
    return this.db.transaction(async (tx) => {
      for (const l of sorted) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${l.key}, 727276))`)
      let retryAfterMs = 0
      for (const l of sorted) {
        const since = new Date(now.getTime() - l.windowMs)
        // Past the window, a key's rows are history: pruned here, where the key is locked anyway.
        await tx.delete(intentosLogin).where(and(eq(intentosLogin.clave, l.key), lte(intentosLogin.fecha, since)))
        const rows = await tx
          .select({ fecha: intentosLogin.fecha })
          .from(intentosLogin)
          .where(and(eq(intentosLogin.clave, l.key), gt(intentosLogin.fecha, since)))
          .orderBy(intentosLogin.fecha)
        if (rows.length >= l.max) {
          // Free again once enough of the oldest attempts have left the window.
          const freeing = rows[rows.length - l.max] as { fecha: Date }
          retryAfterMs = Math.max(retryAfterMs, freeing.fecha.getTime() + l.windowMs - now.getTime())
        }
      }
      if (retryAfterMs > 0) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) }
      const inserted = await tx
        .insert(intentosLogin)
        .values(sorted.map((l) => ({ clave: l.key, fecha: now })))
        .returning({ id: intentosLogin.id })
      // Keys that never come back leave rows behind: a few of the oldest go with each new attempt.
      const stale = new Date(now.getTime() - 24 * 3_600_000)
      await tx.execute(
        sql`delete from intentos_login where id in (select id from intentos_login where fecha < ${stale} order by fecha limit 100)`,
      )
      return { ok: true, ids: inserted.map((r) => r.id) }
    })
  }

  /** A reserved attempt that turned out well does not count against the limit. */
  async release(ids: number[]): Promise<void> {
    if (ids.length) await this.db.delete(intentosLogin).where(inArray(intentosLogin.id, ids))
  }

  /** Forgets a key's attempts (the e-mail after a successful login). */
  async clear(key: string): Promise<void> {
    await this.db.delete(intentosLogin).where(eq(intentosLogin.clave, key))
  }
}

/** The login's two limits (DECISIONS S3): per e-mail and per client address. */
export function loginLimits(limits: LoginLimits, email: string, ip: string): Limit[] {
  return [
    { key: emailKey(email), max: limits.perEmail, windowMs: limits.windowMs },
    { key: ipKey(ip), max: limits.perIp, windowMs: limits.windowMs },
  ]
}

/** 429 with `Retry-After` (the error handler sets the header from `retryAfterSeconds`). */
export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('RATE_LIMITED')
  }
}

/** Reserves an attempt against the limits, or throws 429 with the wait. */
export async function reserveOrRefuse(limiter: AttemptLimiter, limits: Limit[]): Promise<number[]> {
  const r = await limiter.reserve(limits)
  if (!r.ok) throw new RateLimitedError(r.retryAfterSeconds)
  return r.ids
}
