import { passwordNuevaSchema } from './auth'
import { httpUrl, idParam, PERSON_NAME, requiredId, requiredText } from './common'
import { idFilter, listQuerySchema } from './list'
import { type Rol, rolSchema } from './roles'
import { trabajadorMessages } from './trabajadores-core'
import { archivoSchema, uploadIdOf } from './uploads'
import { z } from './zod-es'

export * from './trabajadores-core'

/** SPEC §3 Worker, as the API returns it (DECISIONS A2: never a password hash). */
export const trabajadorSchema = z.object({
  id: z.number().int(),
  nombre: z.string(),
  apellidos: z.string(),
  email: z.string(),
  nif: z.string(),
  rol: rolSchema,
  activo: z.boolean(),
  passwordTemporal: z.boolean(),
  /** The stored photo: an uploaded file's reference ('/api/uploads/<id>') or an http(s) URL. */
  fotoUrl: z.string().nullable(),
  /** The photo to show: short-lived signed links for an uploaded file (DECISIONS S5), or the URL. */
  foto: archivoSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  empresas: z.array(z.object({ id: z.number().int(), nombre: z.string() })),
})
export type Trabajador = z.infer<typeof trabajadorSchema>

/** Login answer (DECISIONS A2). */
export const loginResponseSchema = z.object({ token: z.string(), trabajador: trabajadorSchema })
export type LoginResponse = z.infer<typeof loginResponseSchema>

/** SPEC §5 Worker: the name and surnames, as the workers screen and one's own settings check them. */
const nombreTrabajador = requiredText(trabajadorMessages.nombreObligatorio)
  .min(2, trabajadorMessages.nombreLongitud)
  .max(60, trabajadorMessages.nombreLongitud)
  .regex(PERSON_NAME, trabajadorMessages.nombreCaracteres)
const apellidosTrabajador = requiredText(trabajadorMessages.apellidosObligatorios)
  .min(2, trabajadorMessages.apellidosLongitud)
  .max(100, trabajadorMessages.apellidosLongitud)
  .regex(PERSON_NAME, trabajadorMessages.apellidosCaracteres)

/**
 * SPEC §5 Own settings (/configuracionUsuario): its messages for the required fields and the e-mail, and the
 * Worker's rules for the name and surnames (the record is a worker's), so that every error comes at once.
 */
export const ajustesUsuarioSchema = z.object({
  nombre: nombreTrabajador,
  apellidos: apellidosTrabajador,
  email: requiredText(trabajadorMessages.emailObligatorio)
    .max(254, trabajadorMessages.emailSettings)
    .pipe(z.email(trabajadorMessages.emailSettings)),
})
export type AjustesUsuario = z.infer<typeof ajustesUsuarioSchema>

/** SPEC §5 Worker NIF: 7-9 digits + letter, or X/Y/Z + 7 digits + letter; trimmed, upper-cased. */
export const trabajadorNifSchema = z
  .string({ error: trabajadorMessages.nif })
  .trim()
  .toUpperCase()
  .regex(/^(\d{7,9}[A-Z]|[XYZ]\d{7}[A-Z])$/, trabajadorMessages.nif)

/**
 * SPEC §2.10 photo: an uploaded file's reference (SPEC's types, DECISIONS S5) or an http(s) URL; '' or null
 * mean none.
 */
const fotoSchema = z
  .union(
    [z.literal(''), z.string().refine((v) => uploadIdOf(v) !== null, trabajadorMessages.foto), httpUrl(trabajadorMessages.foto)],
    { error: trabajadorMessages.foto },
  )
  .nullable()
  .optional()

/** SPEC §5 Worker, as a create body (DECISIONS S1: no password in it; the server generates one). */
export const trabajadorCreateSchema = z.object({
  nombre: nombreTrabajador,
  apellidos: apellidosTrabajador,
  email: requiredText(trabajadorMessages.emailObligatorio)
    .max(254, trabajadorMessages.email)
    .pipe(z.email(trabajadorMessages.email)),
  nif: trabajadorNifSchema,
  rol: rolSchema,
  activo: z.boolean().optional(),
  fotoUrl: fotoSchema,
  /** Companies to link it to (SPEC §7 links them one by one; here in the same transaction). */
  empresaIds: z.array(requiredId('Selecciona una empresa', 'Selecciona una empresa')).max(100).default([]),
})
export type TrabajadorCreate = z.output<typeof trabajadorCreateSchema>
/** The create form's values (companies may still be unchosen). */
export type TrabajadorCreateInput = z.input<typeof trabajadorCreateSchema>

/**
 * The answer to a create, and to an admin's password reset: the worker and its one-time temporary password
 * (DECISIONS S1).
 */
export const trabajadorCreadoSchema = z.object({ trabajador: trabajadorSchema, passwordTemporal: z.string() })

/**
 * PATCH /api/trabajadores/{id} (SPEC §7): the fields of the workers screen, or of the worker's own
 * settings (nombre, apellidos, email). Companies are linked through their own calls.
 */
export const trabajadorUpdateSchema = trabajadorCreateSchema.omit({ empresaIds: true }).partial()

/**
 * The body PATCH /api/trabajadores/{id} takes: those fields, or SPEC §7's `password` alone, a worker's change of
 * its own temporary password (SPEC §2.18; the web's screen uses /cambiar-password, which answers a new token).
 */
export const trabajadorPatchSchema = trabajadorUpdateSchema.extend({ password: passwordNuevaSchema.optional() })
export type TrabajadorUpdate = z.output<typeof trabajadorUpdateSchema>

/** GET /api/trabajadores (SPEC §2.10, DECISIONS A4): searched by nombre, apellidos, email and NIF. */
export const trabajadorListQuerySchema = listQuerySchema([
  'apellidos',
  'nombre',
  'email',
  'nif',
  'rol',
  'activo',
] as const).extend({
  empresaId: idFilter,
  /** One role or several, comma-joined ('EMPLEADO,ADMIN': SPEC §6's task selector leaves SUPERADMIN out). */
  rol: z
    .string()
    .regex(/^(SUPERADMIN|ADMIN|EMPLEADO)(,(SUPERADMIN|ADMIN|EMPLEADO)){0,2}$/, 'Selecciona un rol válido')
    .transform((v) => v.split(',') as Rol[])
    .optional(),
  activo: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
})
export type TrabajadorListQuery = z.output<typeof trabajadorListQuerySchema>

/** POST/DELETE /api/trabajadores/{id}/empresas/{empresaId} (SPEC §7). */
export const trabajadorEmpresaParamsSchema = z.object({ id: idParam, empresaId: idParam })
