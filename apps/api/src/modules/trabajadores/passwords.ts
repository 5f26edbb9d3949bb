import { AppError, passwordMessages } from '@vb/shared'
import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { passwordResets, trabajadores } from '../../db/schema'
import type { Clock } from '../../lib/clock'
import { announce } from '../../lib/notification-hub'
import { verifyPassword } from '../../lib/password'
import { lockRow } from '../../lib/records'

export type TrabajadorRow = typeof trabajadores.$inferSelect

/**
 * Every password change goes through here: a reset link, a change with the current password, and an
 * admin's reset (DECISIONS S2). On the worker's locked row: the new password must
 * differ from the current one (the temporary one included); the hash is replaced; the token version goes
 * up, so older tokens stop working and the worker's open streams end (announced to every process); and
 * every outstanding reset link of the worker stops working. A new password equal to the current one is refused under
 * `nueva.field`, the field of the request's body it came in (`passwordNueva` unless said otherwise).
 */
export async function replacePassword(
  tx: Tx,
  clock: Clock,
  trabajadorId: number,
  nueva: { plain: string; hash: string; field?: string },
  options: { temporal: boolean } = { temporal: false },
): Promise<TrabajadorRow> {
  const row = await lockRow(tx, trabajadores, trabajadorId, undefined, passwordMessages.sinUsuario)
  if (await verifyPassword(nueva.plain, row.passwordHash)) {
    throw new AppError('VALIDATION_FAILED', passwordMessages.igualActual, {
      [nueva.field ?? 'passwordNueva']: passwordMessages.igualActual,
    })
  }
  const now = clock.now()
  const [updated] = await tx
    .update(trabajadores)
    .set({
      passwordHash: nueva.hash,
      passwordTemporal: options.temporal,
      tokenVersion: sql`${trabajadores.tokenVersion} + 1`,
      updatedAt: now,
    })
    .where(eq(trabajadores.id, trabajadorId))
    .returning()
  await revokeResetLinks(tx, trabajadorId, now)
  await announce(tx, trabajadorId, 'sesion')
  return updated as TrabajadorRow
}

/** Marks every unused reset link of the worker as spent (a newer link or a password change supersedes them). */
export async function revokeResetLinks(tx: Tx, trabajadorId: number, now: Date): Promise<void> {
  await tx
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.trabajadorId, trabajadorId), isNull(passwordResets.usedAt)))
}

/**
 * Ends every session of a worker without touching its password (deactivation): its tokens stop working
 * and its open streams end at once, on every process (DECISIONS S2).
 */
export async function revokeSessions(tx: Tx, trabajadorId: number): Promise<void> {
  await tx
    .update(trabajadores)
    .set({ tokenVersion: sql`${trabajadores.tokenVersion} + 1` })
    .where(eq(trabajadores.id, trabajadorId))
  await announce(tx, trabajadorId, 'sesion')
}
