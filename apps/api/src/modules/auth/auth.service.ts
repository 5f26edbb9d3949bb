import { createHash, randomBytes } from 'node:crypto'
import { AppError, LOGIN_FAILED_MESSAGE, type LoginInput, RESTABLECER_INVALID, type Trabajador } from '@vb/shared'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app'
import { passwordResets, trabajadores } from '../../db/schema'
import { writeLog } from '../../lib/activity-log'
import { announce } from '../../lib/notification-hub'
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/password'
import { presentTrabajador } from '../trabajadores/trabajadores.presenter'

export const RESET_TTL_MS = 30 * 60_000

async function findByEmail(deps: AppDeps, email: string) {
  const rows = await deps.db.select().from(trabajadores).where(sql`lower(${trabajadores.email}) = ${email.toLowerCase()}`)
  return rows[0]
}

/**
 * SPEC §2.17 / DECISIONS S3, P5: one answer for every failure (unknown e-mail, wrong password,
 * inactive worker); failures are counted per e-mail and per address and logged.
 */
export async function login(deps: AppDeps, input: LoginInput, ip: string): Promise<{ worker: Trabajador; tokenVersion: number }> {
  if (await deps.loginAttempts.isBlocked(input.email, ip)) throw new AppError('RATE_LIMITED')
  const row = await findByEmail(deps, input.email)
  const ok = await verifyPassword(input.password, row?.passwordHash ?? (await dummyPasswordHash()))
  if (!row || !ok || !row.activo) {
    await deps.loginAttempts.fail(input.email, ip)
    await writeLog(deps.db, row ? { id: row.id, email: row.email } : null, {
      accion: 'Inicio de sesión fallido',
      url: '/',
      tipo: 'error',
      descripcion: row && ok && !row.activo ? `Trabajador inactivo: ${input.email}` : `Intento fallido para ${input.email}`,
    })
    throw new AppError('UNAUTHENTICATED', LOGIN_FAILED_MESSAGE)
  }
  await deps.loginAttempts.reset(input.email)
  await writeLog(
    deps.db,
    { id: row.id, email: row.email },
    {
      accion: 'Inicio de sesión',
      url: '/',
      tipo: 'success',
      descripcion: `${row.nombre} ${row.apellidos} ha iniciado sesión`,
    },
  )
  return { worker: await presentTrabajador(deps.db, row), tokenVersion: row.tokenVersion }
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** DECISIONS S4: always the same neutral answer; a one-time 30-minute link for active workers. */
export async function requestPasswordReset(deps: AppDeps, email: string): Promise<void> {
  const row = await findByEmail(deps, email)
  if (!row?.activo) return
  const token = randomBytes(32).toString('base64url')
  const now = deps.clock.now()
  await deps.db.insert(passwordResets).values({
    trabajadorId: row.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + RESET_TTL_MS),
  })
  const link = `${deps.publicUrl}/recuperar-contraseña#token=${token}`
  await deps.mailer.send({
    to: row.email,
    subject: 'Restablecer tu contraseña',
    text:
      `Hola ${row.nombre}:\n\nPara elegir una contraseña nueva abre este enlace (caduca en 30 minutos y solo sirve una vez):\n\n${link}\n\n` +
      'Si no lo has pedido tú, ignora este mensaje.',
  })
}

/** Sets the new password with a valid, unused, unexpired link; old tokens stop working. */
export async function resetPassword(deps: AppDeps, token: string, passwordNueva: string): Promise<void> {
  const now = deps.clock.now()
  const passwordHash = await hashPassword(passwordNueva)
  await deps.db.transaction(async (tx) => {
    const [reset] = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(
        and(eq(passwordResets.tokenHash, hashToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)),
      )
      .returning()
    if (!reset) throw new AppError('VALIDATION_FAILED', RESTABLECER_INVALID, { token: RESTABLECER_INVALID })
    const [row] = await tx
      .update(trabajadores)
      .set({ passwordHash, passwordTemporal: false, tokenVersion: sql`${trabajadores.tokenVersion} + 1`, updatedAt: now })
      .where(eq(trabajadores.id, reset.trabajadorId))
      .returning()
    if (row) {
      // Open notification streams of the worker end with its old tokens (DECISIONS S2).
      await announce(tx, row.id, 'sesion')
      await writeLog(
        tx,
        { id: row.id, email: row.email },
        {
          accion: 'Contraseña restablecida',
          url: '/recuperar-contraseña',
          tipo: 'warning',
          descripcion: `${row.nombre} ${row.apellidos} ha restablecido su contraseña con un enlace de recuperación`,
        },
      )
    }
  })
}
