import { createHash, randomBytes } from 'node:crypto'
import { AppError, LOGIN_FAILED_MESSAGE, type LoginInput, RESTABLECER_INVALID, type Trabajador } from '@vb/shared'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { passwordResets, trabajadores } from '../../db/schema'
import type { AppDeps } from '../../deps'
import type { Actor } from '../../lib/actor'
import { emailKey, ipKey, loginLimits, reserveOrRefuse } from '../../lib/login-attempts'
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/password'
import { logChange } from '../../lib/records'
import { replacePassword, revokeResetLinks } from '../trabajadores/passwords'
import { presentTrabajador } from '../trabajadores/trabajadores.presenter'

export const RESET_TTL_MS = 30 * 60_000
/** DECISIONS S4: reset requests per e-mail, in the database so every process shares the count. */
const RESETS_PER_EMAIL = { max: 3, windowMs: 60 * 60_000 }
/** Reset requests and reset-link uses per client address. */
const RESET_REQUESTS_PER_IP = { max: 10, windowMs: 15 * 60_000 }
const RESET_USES_PER_IP = { max: 20, windowMs: 15 * 60_000 }

async function findByEmail(deps: AppDeps, email: string) {
  const rows = await deps.db.select().from(trabajadores).where(sql`lower(${trabajadores.email}) = ${email.trim().toLowerCase()}`)
  return rows[0]
}

/**
 * SPEC §2.17 / DECISIONS S3, P5: one answer for every failure (unknown e-mail, wrong password, inactive
 * worker). The attempt is counted before the password is looked at, in one atomic step per e-mail and per
 * address (lib/login-attempts): a burst of wrong passwords gets at most `perEmail` checks, then 429 with
 * Retry-After, and the right password is refused too until the window passes.
 */
export async function login(deps: AppDeps, input: LoginInput, ip: string): Promise<{ worker: Trabajador; tokenVersion: number }> {
  const attempt = await reserveOrRefuse(deps.limiter, loginLimits(deps.loginLimits, input.email, ip))
  const row = await findByEmail(deps, input.email)
  const ok = await verifyPassword(input.password, row?.passwordHash ?? (await dummyPasswordHash()))
  if (!row || !ok || !row.activo) {
    // The reserved attempt stays: it is the failure the limiter counts.
    await logChange(deps.db, row ?? null, {
      accion: 'Inicio de sesión fallido',
      url: '/',
      cambio: 'error',
      descripcion: row && ok && !row.activo ? `Trabajador inactivo: ${input.email}` : `Intento fallido para ${input.email}`,
    })
    throw new AppError('UNAUTHENTICATED', LOGIN_FAILED_MESSAGE)
  }
  // A success wipes the e-mail's failures and does not count against the address.
  await deps.limiter.clear(emailKey(input.email))
  await deps.limiter.release(attempt)
  await logChange(deps.db, row, {
    accion: 'Inicio de sesión',
    url: '/',
    cambio: 'success',
    descripcion: `${row.nombre} ${row.apellidos} ha iniciado sesión`,
  })
  return { worker: await presentTrabajador(deps, deps.db, row), tokenVersion: row.tokenVersion }
}

/** DECISIONS L1: a logout is in the log like a login (the browser then forgets its session). */
export async function logout(deps: AppDeps, actor: Actor): Promise<void> {
  await logChange(deps.db, actor, {
    accion: 'Cierre de sesión',
    url: '/',
    cambio: 'info',
    descripcion: `${actor.nombre} ${actor.apellidos} ha cerrado sesión`,
  })
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * DECISIONS S4: the caller always gets the same neutral answer at once, so its timing says nothing about the
 * e-mail: this runs after answering. At most 3 links an hour per e-mail; a new link supersedes the older ones.
 */
export async function requestPasswordReset(deps: AppDeps, email: string, ip: string): Promise<void> {
  await reserveOrRefuse(deps.limiter, [{ key: `recuperar:${ipKey(ip)}`, ...RESET_REQUESTS_PER_IP }])
  deps.background.run('password reset e-mail', async () => {
    const perEmail = await deps.limiter.reserve([{ key: `recuperar:${emailKey(email)}`, ...RESETS_PER_EMAIL }])
    if (!perEmail.ok) return
    const row = await findByEmail(deps, email)
    if (!row?.activo) return
    const token = randomBytes(32).toString('base64url')
    const now = deps.clock.now()
    await deps.db.transaction(async (tx) => {
      await revokeResetLinks(tx, row.id, now)
      await tx.insert(passwordResets).values({
        trabajadorId: row.id,
        tokenHash: hashToken(token),
        expiresAt: new Date(now.getTime() + RESET_TTL_MS),
      })
    })
    const link = `${deps.publicUrl}/recuperar-contraseña#token=${token}`
    await deps.mailer.send({
      to: row.email,
      subject: 'Restablecer tu contraseña',
      text:
        `Hola ${row.nombre}:\n\nPara elegir una contraseña nueva abre este enlace (caduca en 30 minutos y solo sirve una vez):\n\n${link}\n\n` +
        'Si no lo has pedido tú, ignora este mensaje.',
    })
  })
}

/**
 * Sets the new password with a valid, unused, unexpired link. The link is spent in the same transaction:
 * a refused password (the same as the current one) leaves it usable.
 */
export async function resetPassword(deps: AppDeps, token: string, passwordNueva: string, ip: string): Promise<void> {
  await reserveOrRefuse(deps.limiter, [{ key: `restablecer:${ipKey(ip)}`, ...RESET_USES_PER_IP }])
  const now = deps.clock.now()
  const hash = await hashPassword(passwordNueva)
  await deps.db.transaction(async (tx) => {
    const [reset] = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(
        and(eq(passwordResets.tokenHash, hashToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)),
      )
      .returning()
    if (!reset) throw new AppError('VALIDATION_FAILED', RESTABLECER_INVALID, { token: RESTABLECER_INVALID })
    const row = await replacePassword(tx, deps.clock, reset.trabajadorId, { plain: passwordNueva, hash })
    await logChange(tx, row, {
      accion: 'Contraseña restablecida',
      url: '/recuperar-contraseña',
      cambio: 'warning',
      descripcion: `${row.nombre} ${row.apellidos} ha restablecido su contraseña con un enlace de recuperación`,
    })
  })
}
