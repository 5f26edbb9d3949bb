import {
  AppError,
  type CambiarPasswordBody,
  normalizeNif,
  passwordMessages,
  permissionMessages,
  type Trabajador,
  type TrabajadorCreate,
  type TrabajadorUpdate,
  trabajadorMessages,
} from '@vb/shared'
import { eq, inArray } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { empresas, trabajadorEmpresas, trabajadores } from '../../db/schema'
import type { AppDeps } from '../../deps'
import { type Actor, isSuper, reachesEmpresa } from '../../lib/actor'
import { reserveOrRefuse } from '../../lib/login-attempts'
import { generateTemporaryPassword, hashPassword, verifyPassword } from '../../lib/password'
import { lockRow, logChange, notFound, onUniqueViolation, sent } from '../../lib/records'
import { authorize, scopeFor } from '../../lib/scope'
import { replacePassword, revokeSessions } from './passwords'
import { presentTrabajador } from './trabajadores.presenter'

export async function getTrabajador(deps: AppDeps, id: number): Promise<Trabajador> {
  const [row] = await deps.db.select().from(trabajadores).where(eq(trabajadores.id, id))
  if (!row) throw notFound(trabajadorMessages.noEncontrado)
  return presentTrabajador(deps.db, row)
}

/**
 * SPEC §2.18-2.19, DECISIONS P4/S2: only the worker itself changes its password; the current one is
 * required unless it is still temporary, and wrong guesses count against the same kind of limit as logins
 * (issue 'faults' item 3) and are logged.
 */
export async function cambiarPassword(
  deps: AppDeps,
  actor: Actor,
  id: number,
  body: CambiarPasswordBody,
): Promise<{ worker: Trabajador; tokenVersion: number }> {
  if (actor.id !== id) throw new AppError('FORBIDDEN')
  const [current] = await deps.db.select().from(trabajadores).where(eq(trabajadores.id, id))
  if (!current) throw notFound(passwordMessages.sinUsuario)
  if (!current.passwordTemporal) {
    if (!body.passwordActual) {
      throw new AppError('VALIDATION_FAILED', passwordMessages.actual, { passwordActual: passwordMessages.actual })
    }
    const key = `cambio-password:${id}`
    const attempt = await reserveOrRefuse(deps.limiter, [
      { key, max: deps.loginLimits.perEmail, windowMs: deps.loginLimits.windowMs },
    ])
    if (!(await verifyPassword(body.passwordActual, current.passwordHash))) {
      await logChange(deps.db, actor, {
        accion: 'Cambio de contraseña fallido',
        url: '/cambiar-password-con-actual',
        cambio: 'error',
        descripcion: `${current.nombre} ${current.apellidos}: la contraseña actual no es correcta`,
      })
      throw new AppError('VALIDATION_FAILED', passwordMessages.actualIncorrecta, {
        passwordActual: passwordMessages.actualIncorrecta,
      })
    }
    await deps.limiter.clear(key)
    await deps.limiter.release(attempt)
  }
  const hash = await hashPassword(body.passwordNueva)
  return deps.db.transaction(async (tx) => {
    const updated = await replacePassword(tx, deps.clock, id, { plain: body.passwordNueva, hash })
    await logChange(tx, actor, {
      accion: current.passwordTemporal ? 'Cambio de contraseña temporal' : 'Cambio de contraseña',
      url: current.passwordTemporal ? '/cambiar-password' : '/cambiar-password-con-actual',
      cambio: 'warning',
      descripcion: `${current.nombre} ${current.apellidos} ha cambiado su contraseña`,
    })
    return { worker: await presentTrabajador(tx, updated), tokenVersion: updated.tokenVersion }
  })
}

const emailConflict = () =>
  new AppError('CONFLICT', trabajadorMessages.emailDuplicado, { email: trabajadorMessages.emailDuplicado })

/**
 * Creates a worker with a random temporary password generated here and shown once (DECISIONS S1), linked
 * to its companies. DECISIONS P3: an ADMIN creates only EMPLEADO or ADMIN workers, only in its own
 * companies; nobody else creates workers. `actor` null is the command line (`npm run admin:create`), the
 * only way to create the first SUPERADMIN.
 */
export async function createTrabajador(
  deps: Pick<AppDeps, 'db'>,
  actor: Actor | null,
  input: TrabajadorCreate,
): Promise<{ trabajador: Trabajador; password: string }> {
  if (actor) {
    authorize(actor, 'trabajadores', 'create')
    if (!isSuper(actor) && input.rol === 'SUPERADMIN') throw new AppError('FORBIDDEN')
    if (input.empresaIds.some((e) => !reachesEmpresa(actor, e)))
      throw new AppError('FORBIDDEN', permissionMessages.asignarEmpresa)
  }
  const password = generateTemporaryPassword()
  const passwordHash = await hashPassword(password)
  return onUniqueViolation(
    () =>
      deps.db.transaction(async (tx: Tx) => {
        const found = input.empresaIds.length
          ? await tx.select({ id: empresas.id }).from(empresas).where(inArray(empresas.id, input.empresaIds))
          : []
        if (found.length !== new Set(input.empresaIds).size) {
          throw new AppError('VALIDATION_FAILED', undefined, { empresaIds: 'Selecciona empresas válidas' })
        }
        const [row] = await tx
          .insert(trabajadores)
          .values({
            nombre: input.nombre,
            apellidos: input.apellidos,
            email: input.email.toLowerCase(),
            nif: normalizeNif(input.nif),
            rol: input.rol,
            activo: input.activo ?? true,
            passwordHash,
            passwordTemporal: true,
          })
          .returning()
        if (!row) throw new Error('No se pudo crear el trabajador')
        if (found.length)
          await tx.insert(trabajadorEmpresas).values(found.map((e) => ({ trabajadorId: row.id, empresaId: e.id })))
        const trabajador = await presentTrabajador(tx, row)
        await logChange(tx, actor ?? row, {
          accion: 'Crear trabajador',
          url: actor ? '/trabajadores' : 'admin:create',
          cambio: 'create',
          descripcion: `Trabajador creado: ${row.nombre} ${row.apellidos} (${row.email}, ${row.rol})${actor ? '' : ' desde la línea de órdenes'}`,
          despues: trabajador,
        })
        return { trabajador, password }
      }),
    'trabajadores_email_unique',
    emailConflict,
  )
}

/**
 * POST /api/trabajadores/{id}/restablecer-password: an ADMIN or SUPERADMIN gives a worker it reaches a new
 * random temporary password, shown once (DECISIONS S1), under PATCH's rules (P3: an ADMIN never touches a
 * SUPERADMIN; a worker outside the actor's companies is 404). Nobody resets its own this way: that is
 * «Cambiar contraseña», with the current one. Like every password change (issue 'faults' item 4), it ends
 * the worker's sessions and spends every outstanding reset link of it.
 */
export async function restablecerPassword(
  deps: AppDeps,
  actor: Actor,
  id: number,
): Promise<{ trabajador: Trabajador; password: string }> {
  const scope = scopeFor(actor, 'trabajadores', 'update')
  if (actor.id === id) throw new AppError('FORBIDDEN', trabajadorMessages.restablecerPropia)
  const password = generateTemporaryPassword()
  const hash = await hashPassword(password)
  return deps.db.transaction(async (tx) => {
    const row = await lockRow(tx, trabajadores, id, scope, trabajadorMessages.noEncontrado)
    if (!isSuper(actor) && row.rol === 'SUPERADMIN') throw new AppError('FORBIDDEN')
    const updated = await replacePassword(tx, deps.clock, id, { plain: password, hash }, { temporal: true })
    const trabajador = await presentTrabajador(tx, updated)
    await logChange(tx, actor, {
      accion: 'Restablecimiento de contraseña',
      url: '/trabajadores',
      cambio: 'warning',
      descripcion: `Contraseña de ${row.nombre} ${row.apellidos} (${row.email}) restablecida con una contraseña temporal`,
    })
    return { trabajador, password }
  })
}

const SELF_FIELDS = new Set(['nombre', 'apellidos', 'email'])

/**
 * PATCH /api/trabajadores/{id}. A worker edits its own nombre, apellidos and email (SPEC §2.21); ADMIN and
 * SUPERADMIN edit the workers they reach (DECISIONS P3: an ADMIN never a SUPERADMIN, never to SUPERADMIN;
 * nobody changes its own role or switches itself off). Deactivating a worker ends its sessions at once:
 * its tokens stop working and its open notification streams close, on every process (S2, issue 'faults'
 * item 9).
 */
export async function updateTrabajador(deps: AppDeps, actor: Actor, id: number, input: TrabajadorUpdate): Promise<Trabajador> {
  const changes = sent({
    nombre: input.nombre,
    apellidos: input.apellidos,
    email: input.email?.toLowerCase(),
    nif: input.nif === undefined ? undefined : normalizeNif(input.nif),
    rol: input.rol,
    activo: input.activo,
    fotoUrl: input.fotoUrl === undefined ? undefined : input.fotoUrl || null,
  })
  const self = actor.id === id
  if (self) {
    if (Object.keys(changes).some((k) => !SELF_FIELDS.has(k))) throw new AppError('FORBIDDEN')
  }
  const scope = self ? eq(trabajadores.id, actor.id) : scopeFor(actor, 'trabajadores', 'update')
  return onUniqueViolation(
    () =>
      deps.db.transaction(async (tx) => {
        const row = await lockRow(tx, trabajadores, id, scope, trabajadorMessages.noEncontrado)
        if (!self && !isSuper(actor) && (row.rol === 'SUPERADMIN' || changes.rol === 'SUPERADMIN'))
          throw new AppError('FORBIDDEN')
        const [updated] = await tx
          .update(trabajadores)
          .set({ ...changes, updatedAt: deps.clock.now() })
          .where(eq(trabajadores.id, id))
          .returning()
        const after = updated as typeof row
        if (row.activo && !after.activo) await revokeSessions(tx, id)
        const before = await presentTrabajador(tx, row)
        const result = await presentTrabajador(tx, after)
        await logChange(tx, actor, {
          accion: self ? 'Modificar configuración de usuario' : 'Modificar trabajador',
          url: self ? '/configuracionUsuario' : '/trabajadores',
          cambio: 'update',
          descripcion: `Trabajador modificado: ${after.nombre} ${after.apellidos} (${after.email})${
            row.activo && !after.activo ? '; desactivado' : !row.activo && after.activo ? '; activado' : ''
          }`,
          antes: before,
          despues: result,
        })
        return result
      }),
    'trabajadores_email_unique',
    emailConflict,
  )
}
