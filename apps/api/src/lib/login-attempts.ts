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

/** The `intentos_login.clave` of an e-mail (case-insensitive) and of a client address. */
export const emailKey = (email: string) => `email:${email.toLowerCase()}`
const ipKey = (ip: string) => `ip:${ip}`

/**
 * DECISIONS S3: failed logins counted per e-mail and per client address in a sliding window; a success
 * clears the e-mail's count. The failures live in the database (`intentos_login`), so every API process
 * on one PostgreSQL sees the same counts and a restart forgets nothing; rows older than the window are
 * pruned on each failure.
 */
export class LoginAttempts {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly limits: LoginLimits,
  ) {}

  private since(): Date {
    return new Date(this.clock.now().getTime() - this.limits.windowMs)
  }

  async isBlocked(email: string, ip: string): Promise<boolean> {
    const keys = { email: emailKey(email), ip: ipKey(ip) }
    const [row] = await this.db
      .select({
        email: sql<number>`count(*) filter (where ${intentosLogin.clave} = ${keys.email})`.mapWith(Number),
        ip: sql<number>`count(*) filter (where ${intentosLogin.clave} = ${keys.ip})`.mapWith(Number),
      })
      .from(intentosLogin)
      .where(and(inArray(intentosLogin.clave, [keys.email, keys.ip]), gt(intentosLogin.fecha, this.since())))
    return (row?.email ?? 0) >= this.limits.perEmail || (row?.ip ?? 0) >= this.limits.perIp
  }

  async fail(email: string, ip: string): Promise<void> {
    const fecha = this.clock.now()
    await this.db.transaction(async (tx) => {
      await tx.delete(intentosLogin).where(lte(intentosLogin.fecha, this.since()))
      await tx.insert(intentosLogin).values([
        { clave: emailKey(email), fecha },
        { clave: ipKey(ip), fecha },
      ])
    })
  }

  /** After a successful login: the e-mail starts afresh (the address keeps its count). */
  async reset(email: string): Promise<void> {
    await this.db.delete(intentosLogin).where(eq(intentosLogin.clave, emailKey(email)))
  }
}
