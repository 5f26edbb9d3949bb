import {
  AppError,
  type CambiarPasswordBody,
  passwordMessages,
  permissionMessages,
  type Rol,
  type Trabajador,
  type TrabajadorCreate,
  type TrabajadorUpdate,
  trabajadorCreateSchema,
  trabajadorListQuerySchema,
  trabajadorMessages,
  trabajadorSchema,
  trabajadorUpdateSchema,
  uploadIdOf,
} from '@vb/shared'
import { and, eq, inArray, ne, sql } from 'drizzle-orm'
import type { DbOrTx, Tx } from '../../db/client'
import { empresas, trabajadorEmpresas, trabajadores, uploads } from '../../db/schema'
import type { AppDeps } from '../../deps'
import { type Actor, isSuper, reachesEmpresa } from '../../lib/actor'
import { reserveOrRefuse } from '../../lib/login-attempts'
import { announce } from '../../lib/notification-hub'
import { generateTemporaryPassword, hashPassword, verifyPassword } from '../../lib/password'
import {
  lockRow,
  logChange,
  nextVersion,
  notFound,
  onUniqueViolation,
  orUnchanged,
  sameRecord,
  Unchanged,
} from '../../lib/records'
import { defineResource } from '../../lib/resource'
import { authorize, scopeFor } from '../../lib/scope'
import { attachUpload, discardFiles } from '../uploads/uploads.service'
import { replacePassword, revokeSessions } from './passwords'
import { type PresenterDeps, presentTrabajador, readTrabajadores, toTrabajador } from './trabajadores.presenter'

type Row = typeof trabajadores.$inferSelect

const NOT_FOUND = trabajadorMessages.noEncontrado
const fullName = (t: { nombre: string; apellidos: string }) => `${t.nombre} ${t.apellidos}`

const emailConflict = () =>
  new AppError('CONFLICT', trabajadorMessages.emailDuplicado, { email: trabajadorMessages.emailDuplicado })

/** GET /api/trabajadores/me (DECISIONS A2): the logged-in worker, with its photo's links. */
export async function getMe(deps: AppDeps, actor: Actor): Promise<Trabajador> {
  return presentTrabajador(deps, deps.db, actor)
}

/** Serialises the changes that could leave the product without an active SUPERADMIN (every process). */
const SUPERADMIN_LOCK = 727277

/**
 * Someone must always be able to administer the product: the last active SUPERADMIN is never deactivated,
 * deleted or given another role. Two SUPERADMINs removing each other at once are serialised on an
 * advisory lock, so the second one sees the first one's change and is refused (409).
 */
async function keepOneSuperadmin(tx: Tx, row: Row, change: { activo?: boolean; rol?: Rol; removed?: boolean }) {
  const loses =
    row.rol === 'SUPERADMIN' &&
    row.activo &&
    (change.removed === true || change.activo === false || (change.rol !== undefined && change.rol !== 'SUPERADMIN'))
  if (!loses) return
  await tx.execute(sql`select pg_advisory_xact_lock(${SUPERADMIN_LOCK})`)
  const [other] = await tx
    .select({ id: trabajadores.id })
    .from(trabajadores)
    .where(and(eq(trabajadores.rol, 'SUPERADMIN'), eq(trabajadores.activo, true), ne(trabajadores.id, row.id)))
    .limit(1)
  if (!other) throw new AppError('CONFLICT', trabajadorMessages.ultimoSuperadmin)
}

/** DECISIONS P3: an ADMIN never touches a SUPERADMIN, nor makes one. */
function refuseAdminOnSuperadmin(actor: Actor, row: Pick<Row, 'rol'>, rol?: Rol) {
  if (!isSuper(actor) && (row.rol === 'SUPERADMIN' || rol === 'SUPERADMIN')) throw new AppError('FORBIDDEN')
}

/**
 * DECISIONS P1: an ADMIN changes only its companies' data, and deleting a worker who is also in another company
 * takes it (and its tasks there) from that company too. The worker's row is locked, and a link is added or
 * removed only under that lock (setEmpresa), so the companies read here stay so until the delete commits.
 */
async function refuseAdminOnOthersWorker(tx: Tx, actor: Actor, trabajadorId: number) {
  if (isSuper(actor)) return
  const links = await tx
    .select({ empresaId: trabajadorEmpresas.empresaId })
    .from(trabajadorEmpresas)
    .where(eq(trabajadorEmpresas.trabajadorId, trabajadorId))
  if (links.some((l) => !reachesEmpresa(actor, l.empresaId))) {
    throw new AppError('FORBIDDEN', trabajadorMessages.eliminarOtrasEmpresas)
  }
}

/**
 * The worker's photo after a write: the uploaded file the form sent is attached to it (only an unattached
 * file of the actor's own, DECISIONS S5), and a replaced or removed uploaded photo's row goes (its file is
 * removed from disk by the daily sweep, which clears files no row names).
 */
async function setFoto(tx: Tx, actor: Actor, trabajadorId: number, fotoUrl: string | null) {
  const keep = fotoUrl ? uploadIdOf(fotoUrl) : null
  await tx.delete(uploads).where(and(eq(uploads.fotoTrabajadorId, trabajadorId), keep ? ne(uploads.id, keep) : undefined))
  if (!fotoUrl || !keep) return
  const [current] = await tx.select({ id: uploads.id }).from(uploads).where(eq(uploads.fotoTrabajadorId, trabajadorId))
  if (!current) await attachUpload(tx, actor, fotoUrl, { fotoTrabajadorId: trabajadorId }, 'fotoUrl')
}

/** The companies of a body: each must exist (400), and an ADMIN may give only its own (SPEC §6's 403). */
async function checkEmpresas(db: DbOrTx, actor: Actor | null, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)]
  if (actor && unique.some((e) => !reachesEmpresa(actor, e))) throw new AppError('FORBIDDEN', permissionMessages.asignarEmpresa)
  const found = unique.length ? await db.select({ id: empresas.id }).from(empresas).where(inArray(empresas.id, unique)) : []
  if (found.length !== unique.length) {
    throw new AppError('VALIDATION_FAILED', undefined, { empresaIds: trabajadorMessages.empresasInvalidas })
  }
  return unique
}

/** What a log entry keeps of a worker: everything it shows except the photo's expiring links. */
const logValues = ({ foto: _foto, ...rest }: Trabajador) => rest

/**
 * SPEC §2.10, §6, DECISIONS P3: workers. ADMIN and SUPERADMIN list, read, edit and delete the workers who
 * share a company with them (SUPERADMIN: all); an ADMIN never edits or deletes a SUPERADMIN and never makes
 * one. A worker is searched by nombre, apellidos, email and NIF (its stored `busqueda`). What is really its
 * own: creation (a one-time temporary password, DECISIONS S1, and its companies in the same transaction)
 * and a worker's edit of its own settings (SPEC §2.21), both in `override`; their routes are the module's.
 *
 * Deleting a worker (lib/ownership.ts reads it from the foreign keys): its company links, its tasks, its
 * photo, its notifications and its reset links go with it, the first three kept in the log entry (never
 * the reset links' hashes, nor notifications); what it created for others (calendar tasks, tasks it
 * assigned, files it uploaded) stays, without its author. Its tokens stop working at once (its row is
 * gone) and its open streams end on every process (DECISIONS S2).
 */
export const trabajadoresResource = defineResource({
  name: 'trabajadores',
  table: trabajadores,
  schemas: {
    entity: trabajadorSchema,
    listQuery: trabajadorListQuerySchema,
    create: trabajadorCreateSchema,
    update: trabajadorUpdateSchema,
  },
  read: readTrabajadores,
  toEntity: (r, { deps, actor }) => toTrabajador(deps, actor, r.trabajador, r.empresas, r.foto),
  notFound: NOT_FOUND,
  search: trabajadores.busqueda,
  sort: {
    apellidos: [trabajadores.apellidos, trabajadores.nombre],
    nombre: [trabajadores.nombre, trabajadores.apellidos],
    email: trabajadores.email,
    nif: trabajadores.nif,
    rol: trabajadores.rol,
    activo: trabajadores.activo,
  },
  filters: {
    empresaId: (id) =>
      sql`${trabajadores.id} in (select te.trabajador_id from trabajador_empresas te where te.empresa_id = ${id})`,
    rol: (rol) => inArray(trabajadores.rol, rol),
    activo: (activo) => eq(trabajadores.activo, activo),
  },
  insert: () => {
    // Only createTrabajador creates workers (it generates the password): `override.create` below.
    throw new Error('workers are created by createTrabajador')
  },
  patch: (u) => ({
    nombre: u.nombre,
    apellidos: u.apellidos,
    email: u.email?.toLowerCase(),
    nif: u.nif,
    rol: u.rol,
    activo: u.activo,
    fotoUrl: u.fotoUrl === undefined ? undefined : u.fotoUrl || null,
  }),
  unique: { trabajadores_email_unique: { message: trabajadorMessages.emailDuplicado, field: 'email' } },
  log: {
    noun: 'trabajador',
    title: 'Trabajador',
    label: (t) => `${fullName(t)} (${t.email})`,
    context: (t) => t.rol,
    values: logValues,
    describe: {
      update: (a, b) =>
        `Trabajador modificado: ${fullName(b)} (${b.email})${a.rol !== b.rol ? `; rol ${a.rol} → ${b.rol}` : ''}${
          a.activo && !b.activo ? '; desactivado' : !a.activo && b.activo ? '; activado' : ''
        }`,
      delete: (t, parts) =>
        `Trabajador eliminado: ${fullName(t)} (${t.email}, ${t.rol}), con ${parts.tareas?.length ?? 0} tareas`,
    },
  },
  remove: {
    record: 'el trabajador',
    parts: {
      trabajador_empresas: { as: 'empresas', keep: 'empresa_id' },
      tareas_trabajador: { as: 'tareas', keep: ['id', 'titulo', 'fecha', 'completada', 'vivienda_id'] },
      uploads: { as: 'foto', keep: ['id', 'nombre_original'] },
      notificaciones: false,
      password_resets: false,
    },
  },
  check: {
    update: async (input, { actor, tx, row }) => {
      refuseAdminOnSuperadmin(actor, row, input.rol)
      await keepOneSuperadmin(tx, row, input)
    },
    remove: async ({ actor, tx, row }) => {
      if (row.id === actor.id) throw new AppError('FORBIDDEN', trabajadorMessages.propioEliminar)
      refuseAdminOnSuperadmin(actor, row)
      await refuseAdminOnOthersWorker(tx, actor, row.id)
      await keepOneSuperadmin(tx, row, { removed: true })
      const foto = await tx.select({ id: uploads.id }).from(uploads).where(eq(uploads.fotoTrabajadorId, row.id))
      return foto.map((f) => f.id)
    },
  },
  after: {
    update: async (input, { actor, tx, row }) => {
      if (input.fotoUrl !== undefined && (input.fotoUrl || null) !== row.fotoUrl)
        await setFoto(tx, actor, row.id, input.fotoUrl || null)
      // DECISIONS S2: a deactivated worker's tokens stop working and its streams end, on every process.
      if (row.activo && input.activo === false) await revokeSessions(tx, row.id)
    },
    // Its row is gone, so its tokens are refused already; its open streams are told to end (on commit).
    remove: async (_before, { tx, row }) => announce(tx, row.id, 'sesion'),
  },
  afterRemove: (deps, files) => discardFiles(deps, files as string[]),
  ownRoutes: ['get', 'create', 'update'],
  override: (uniform) => ({
    create: async (deps, actor, input) => (await createTrabajador(deps, actor, input)).trabajador,
    // SPEC §2.21: a worker edits its own settings whatever its role; everything else is an admin's edit.
    update: (deps, actor, id, input, context) =>
      actor.id === id ? updateOwnSettings(deps, actor, input) : uniform.update(deps, actor, id, input, context),
  }),
  docs: {
    list: 'SPEC §2.10: los trabajadores que comparten empresa con quien llama (SUPERADMIN: todos), buscados por nombre, apellidos, email y NIF (`q`), ordenados y paginados; `X-Total-Count` lleva el total.',
    remove:
      'Elimina el trabajador con sus vínculos a empresas, sus tareas, su foto y sus notificaciones; sus sesiones terminan al momento (DECISIONS S2). Nadie se elimina a sí mismo; un ADMIN no elimina a un SUPERADMIN; el último SUPERADMIN activo no se elimina (409).',
  },
})

/**
 * SPEC §2.18-2.19, DECISIONS P4/S2: only the worker itself changes its password; the current one is
 * required unless it is still temporary, and wrong guesses count against the same kind of limit as logins
 * (DECISIONS S3) and are logged. `field` is the body's field the new password came in (SPEC §7's PATCH of a
 * worker sends it as `password`), which a refusal of it names.
 */
export async function cambiarPassword(
  deps: AppDeps,
  actor: Actor,
  id: number,
  body: CambiarPasswordBody,
  field: 'passwordNueva' | 'password' = 'passwordNueva',
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
    const updated = await replacePassword(tx, deps.clock, id, { plain: body.passwordNueva, hash, field })
    await logChange(tx, actor, {
      accion: current.passwordTemporal ? 'Cambio de contraseña temporal' : 'Cambio de contraseña',
      url: current.passwordTemporal ? '/cambiar-password' : '/cambiar-password-con-actual',
      cambio: 'warning',
      descripcion: `${current.nombre} ${current.apellidos} ha cambiado su contraseña`,
    })
    return { worker: await presentTrabajador(deps, tx, updated), tokenVersion: updated.tokenVersion }
  })
}

/**
 * Creates a worker with a random temporary password generated here and shown once (DECISIONS S1), linked
 * to its companies and with its photo, all in one transaction: a refused company or photo leaves no
 * half-created worker. DECISIONS P3: an ADMIN creates only EMPLEADO or ADMIN workers, only in its own
 * companies; nobody else creates workers. `actor` null is the command line (`npm run admin:create`), the
 * only way to create the first SUPERADMIN.
 */
export async function createTrabajador(
  deps: Pick<AppDeps, 'db'> & PresenterDeps,
  actor: Actor | null,
  input: TrabajadorCreate,
): Promise<{ trabajador: Trabajador; password: string }> {
  if (actor) {
    authorize(actor, 'trabajadores', 'create')
    if (!isSuper(actor) && input.rol === 'SUPERADMIN') throw new AppError('FORBIDDEN')
  }
  const password = generateTemporaryPassword()
  const passwordHash = await hashPassword(password)
  return onUniqueViolation(
    () =>
      deps.db.transaction(async (tx: Tx) => {
        const empresaIds = await checkEmpresas(tx, actor, input.empresaIds)
        // An ADMIN's worker in none of its companies would be out of its reach the moment it was made.
        if (actor && !isSuper(actor) && empresaIds.length === 0) {
          throw new AppError('VALIDATION_FAILED', undefined, { empresaIds: trabajadorMessages.empresaObligatoria })
        }
        const fotoUrl = input.fotoUrl || null
        const [row] = await tx
          .insert(trabajadores)
          .values({
            nombre: input.nombre,
            apellidos: input.apellidos,
            email: input.email.toLowerCase(),
            nif: input.nif,
            rol: input.rol,
            activo: input.activo ?? true,
            passwordHash,
            passwordTemporal: true,
            fotoUrl,
          })
          .returning()
        if (!row) throw new Error('No se pudo crear el trabajador')
        if (empresaIds.length)
          await tx.insert(trabajadorEmpresas).values(empresaIds.map((empresaId) => ({ trabajadorId: row.id, empresaId })))
        if (fotoUrl && actor) await setFoto(tx, actor, row.id, fotoUrl)
        const trabajador = await presentTrabajador(deps, tx, row, actor ?? row)
        await logChange(tx, actor ?? row, {
          accion: 'Crear trabajador',
          url: actor ? '/trabajadores' : 'admin:create',
          cambio: 'create',
          descripcion: `Trabajador creado: ${fullName(row)} (${row.email}, ${row.rol})${actor ? '' : ' desde la línea de órdenes'}`,
          despues: logValues(trabajador),
        })
        return { trabajador, password }
      }),
    'trabajadores_email_unique',
    emailConflict,
  )
}

/** SPEC §2.21 / DECISIONS P3: what a worker may change of itself. */
const OWN_FIELDS = new Set(['nombre', 'apellidos', 'email'])
const ownRefusal: Partial<Record<keyof TrabajadorUpdate, string>> = {
  rol: trabajadorMessages.propioRol,
  activo: trabajadorMessages.propioActivo,
}

/**
 * PATCH /api/trabajadores/{own id} (SPEC §2.21): a worker changes its own nombre, apellidos and email, whatever
 * its role. Any other field it sends with a different value is refused (403: its role, its active flag, its
 * NIF or photo, DECISIONS A5, P3); the same value is ignored. Nothing else is ever stored.
 */
async function updateOwnSettings(deps: AppDeps, actor: Actor, input: TrabajadorUpdate): Promise<Trabajador> {
  const edit = onUniqueViolation(
    () =>
      deps.db.transaction(async (tx) => {
        const row = await lockRow(tx, trabajadores, actor.id, undefined, NOT_FOUND)
        const current: Record<string, unknown> = { ...row, fotoUrl: row.fotoUrl ?? '' }
        for (const [field, value] of Object.entries(input)) {
          if (value === undefined || OWN_FIELDS.has(field)) continue
          if ((value ?? '') === current[field]) continue
          throw new AppError('FORBIDDEN', ownRefusal[field as keyof TrabajadorUpdate] ?? trabajadorMessages.propioCampos)
        }
        const changes = {
          nombre: input.nombre,
          apellidos: input.apellidos,
          email: input.email?.toLowerCase(),
        }
        const before = await presentTrabajador(deps, tx, row, actor)
        await tx
          .update(trabajadores)
          .set({ ...changes, updatedAt: nextVersion(deps.clock, row.updatedAt) })
          .where(eq(trabajadores.id, actor.id))
        const after = await presentTrabajador(deps, tx, row, actor)
        // Saved as it was: nothing to log, and no new version.
        if (sameRecord(logValues(before), logValues(after))) throw new Unchanged(before)
        await logChange(tx, actor, {
          accion: 'Modificar configuración de usuario',
          url: '/configuracionUsuario',
          cambio: 'update',
          descripcion: `Configuración de usuario modificada: ${fullName(after)} (${after.email})`,
          antes: logValues(before),
          despues: logValues(after),
        })
        return after
      }),
    'trabajadores_email_unique',
    emailConflict,
  )
  return orUnchanged(edit, [])
}

/**
 * POST /api/trabajadores/{id}/restablecer-password: an ADMIN or SUPERADMIN gives a worker it reaches a new
 * random temporary password, shown once (DECISIONS S1), under PATCH's rules (P3: an ADMIN never touches a
 * SUPERADMIN; a worker outside the actor's companies is 404). Nobody resets its own this way: that is
 * «Cambiar contraseña», with the current one. Like every password change (DECISIONS S2), it ends
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
    const row = await lockRow(tx, trabajadores, id, scope, NOT_FOUND)
    refuseAdminOnSuperadmin(actor, row)
    const updated = await replacePassword(tx, deps.clock, id, { plain: password, hash }, { temporal: true })
    const trabajador = await presentTrabajador(deps, tx, updated, actor)
    await logChange(tx, actor, {
      accion: 'Restablecimiento de contraseña',
      url: '/trabajadores',
      cambio: 'warning',
      descripcion: `Contraseña de ${fullName(row)} (${row.email}) restablecida con una contraseña temporal`,
    })
    return { trabajador, password }
  })
}

/**
 * POST and DELETE /api/trabajadores/{id}/empresas/{empresaId} (SPEC §7): a company link of a worker the actor
 * may edit (DECISIONS P3: an ADMIN only links or unlinks its own companies, 'No puedes asignar trabajadores a
 * empresas donde no perteneces.', and never a SUPERADMIN's; nobody changes its own companies). Linking twice
 * changes nothing; unlinking a company the worker is not in is 404.
 */
export async function setEmpresa(
  deps: AppDeps,
  actor: Actor,
  id: number,
  empresaId: number,
  linked: boolean,
): Promise<Trabajador> {
  const scope = scopeFor(actor, 'trabajadores', 'update')
  return deps.db.transaction(async (tx) => {
    const row = await lockRow(tx, trabajadores, id, scope, NOT_FOUND)
    if (row.id === actor.id) throw new AppError('FORBIDDEN', trabajadorMessages.propioEmpresas)
    refuseAdminOnSuperadmin(actor, row)
    if (!reachesEmpresa(actor, empresaId)) throw new AppError('FORBIDDEN', permissionMessages.asignarEmpresa)
    const [empresa] = await tx.select().from(empresas).where(eq(empresas.id, empresaId))
    if (!empresa) throw notFound(trabajadorMessages.empresaInvalida)
    const before = await presentTrabajador(deps, tx, row, actor)
    const link = and(eq(trabajadorEmpresas.trabajadorId, id), eq(trabajadorEmpresas.empresaId, empresaId))
    if (linked) {
      const added = await tx.insert(trabajadorEmpresas).values({ trabajadorId: id, empresaId }).onConflictDoNothing().returning()
      if (!added.length) return before
    } else {
      const removed = await tx.delete(trabajadorEmpresas).where(link).returning()
      if (!removed.length) throw notFound(trabajadorMessages.noVinculado)
    }
    await tx
      .update(trabajadores)
      .set({ updatedAt: nextVersion(deps.clock, row.updatedAt) })
      .where(eq(trabajadores.id, id))
    const after = await presentTrabajador(deps, tx, row, actor)
    await logChange(tx, actor, {
      accion: 'Modificar trabajador',
      url: '/trabajadores',
      cambio: 'update',
      descripcion: `Trabajador ${fullName(row)} (${row.email}) ${linked ? 'vinculado a' : 'desvinculado de'} la empresa ${empresa.nombre}`,
      antes: logValues(before),
      despues: logValues(after),
    })
    return after
  })
}
