import { AppError, type CambiarPasswordBody, passwordMessages, type Trabajador } from '@vb/shared'
import { eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app'
import { trabajadores } from '../../db/schema'
import { writeLog } from '../../lib/activity-log'
import type { Actor } from '../../lib/actor'
import { announce } from '../../lib/notification-hub'
import { hashPassword, verifyPassword } from '../../lib/password'
import { presentTrabajador } from './trabajadores.presenter'

export async function getTrabajador(deps: AppDeps, id: number): Promise<Trabajador> {
  const [row] = await deps.db.select().from(trabajadores).where(eq(trabajadores.id, id))
  if (!row) throw new AppError('NOT_FOUND', 'No se encontró el trabajador.')
  return presentTrabajador(deps.db, row)
}

/**
 * SPEC §2.18-2.19, DECISIONS P4/S2: only the worker itself changes its password; the current one is
 * required unless it is still temporary. The token version goes up, so older tokens stop working.
 */
export async function cambiarPassword(
  deps: AppDeps,
  actor: Actor,
  id: number,
  body: CambiarPasswordBody,
): Promise<{ worker: Trabajador; tokenVersion: number }> {
  if (actor.id !== id) throw new AppError('FORBIDDEN')
  const [row] = await deps.db.select().from(trabajadores).where(eq(trabajadores.id, id))
  if (!row) throw new AppError('NOT_FOUND', passwordMessages.sinUsuario)
  if (!row.passwordTemporal) {
    if (!body.passwordActual) {
      throw new AppError('VALIDATION_FAILED', passwordMessages.actual, { passwordActual: passwordMessages.actual })
    }
    if (!(await verifyPassword(body.passwordActual, row.passwordHash))) {
      throw new AppError('VALIDATION_FAILED', passwordMessages.actualIncorrecta, {
        passwordActual: passwordMessages.actualIncorrecta,
      })
    }
  }
  const passwordHash = await hashPassword(body.passwordNueva)
  const now = deps.clock.now()
  return deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(trabajadores)
      .set({ passwordHash, passwordTemporal: false, tokenVersion: sql`${trabajadores.tokenVersion} + 1`, updatedAt: now })
      .where(eq(trabajadores.id, id))
      .returning()
    if (!updated) throw new AppError('NOT_FOUND', passwordMessages.sinUsuario)
    // Open notification streams of the worker end with its old tokens (DECISIONS S2).
    await announce(tx, updated.id, 'sesion')
    await writeLog(tx, actor, {
      accion: row.passwordTemporal ? 'Cambio de contraseña temporal' : 'Cambio de contraseña',
      url: row.passwordTemporal ? '/cambiar-password' : '/cambiar-password-con-actual',
      tipo: 'warning',
      descripcion: `${row.nombre} ${row.apellidos} ha cambiado su contraseña`,
    })
    return { worker: await presentTrabajador(tx, updated), tokenVersion: updated.tokenVersion }
  })
}
