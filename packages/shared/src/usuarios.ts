import { z } from 'zod'
import { LETTERS, optionalUrl, requiredId, requiredText } from './common'
import { listQuerySchema } from './list'
import { hasNifShape, isValidNif } from './nif'

export const gradosDependencia = ['PVS', 'PEI'] as const

/** SPEC §3 Resident (one home at a time: `viviendas` has 0 or 1 entries). */
export const usuarioSchema = z.object({
  id: z.number().int(),
  nombre: z.string(),
  apellidos: z.string(),
  nif: z.string(),
  gradoDependencia: z.enum(gradosDependencia).nullable(),
  fotoUrl: z.string().nullable(),
  viviendas: z.array(z.object({ id: z.number().int(), nombre: z.string(), empresaId: z.number().int() })),
})
export type Usuario = z.infer<typeof usuarioSchema>

export const usuarioMessages = {
  nombreObligatorio: 'El nombre es obligatorio',
  nombreLongitud: 'El nombre debe tener entre 2 y 50 caracteres',
  nombreCaracteres: 'El nombre solo puede contener letras y espacios',
  apellidosObligatorios: 'Los apellidos son obligatorios',
  apellidosLongitud: 'Los apellidos deben tener entre 2 y 100 caracteres',
  apellidosCaracteres: 'Los apellidos solo pueden contener letras y espacios',
  nifObligatorio: 'El NIF es obligatorio',
  nifFormato: 'El NIF debe tener 8 números y 1 letra (ej: 12345678Z)',
  nifInvalido: 'El NIF no es válido',
  nifDuplicado: 'Ya existe un usuario con ese NIF',
  viviendaObligatoria: 'La vivienda es obligatoria',
  viviendaTipo: 'Selecciona una vivienda',
  viviendaInvalida: 'Selecciona una vivienda válida',
  grado: 'El grado de dependencia debe ser PVS o PEI',
  foto: 'La foto debe ser una URL válida',
  sinVivienda: 'Sin vivienda',
  vacio: 'No hay usuarios.',
  errorCarga: 'Error cargando usuarios o viviendas',
} as const

const letters = new RegExp(`^[${LETTERS} ]+$`)

/** NIF or NIE (DECISIONS D2), trimmed and upper-cased (stored that way, unique). */
export const nifSchema = z
  .string({ error: usuarioMessages.nifObligatorio })
  .trim()
  .toUpperCase()
  .min(1, usuarioMessages.nifObligatorio)
  .refine(hasNifShape, { message: usuarioMessages.nifFormato, abort: true })
  .refine(isValidNif, usuarioMessages.nifInvalido)

/** SPEC §5 Resident: create (with its home). */
export const usuarioCreateSchema = z.object({
  nombre: requiredText(usuarioMessages.nombreObligatorio)
    .min(2, usuarioMessages.nombreLongitud)
    .max(50, usuarioMessages.nombreLongitud)
    .regex(letters, usuarioMessages.nombreCaracteres),
  apellidos: requiredText(usuarioMessages.apellidosObligatorios)
    .min(2, usuarioMessages.apellidosLongitud)
    .max(100, usuarioMessages.apellidosLongitud)
    .regex(letters, usuarioMessages.apellidosCaracteres),
  nif: nifSchema,
  viviendaId: requiredId(usuarioMessages.viviendaObligatoria, usuarioMessages.viviendaTipo, usuarioMessages.viviendaInvalida),
  gradoDependencia: z
    .union([z.literal(''), z.enum(gradosDependencia)], { error: usuarioMessages.grado })
    .nullable()
    .optional(),
  fotoUrl: optionalUrl(usuarioMessages.foto),
})
export type UsuarioCreate = z.infer<typeof usuarioCreateSchema>

/** Edit: every field optional; a new `viviendaId` moves the resident (unlink + link in one transaction). */
export const usuarioUpdateSchema = usuarioCreateSchema.partial()
export type UsuarioUpdate = z.infer<typeof usuarioUpdateSchema>

export const usuarioSortFields = ['nombre', 'apellidos', 'nif', 'gradoDependencia', 'vivienda'] as const
export const usuarioListQuerySchema = listQuerySchema(usuarioSortFields).extend({
  empresaId: z.coerce.number().int().positive().optional(),
  viviendaId: z.coerce.number().int().positive().optional(),
  nif: z.string().trim().max(20).optional(),
})
export type UsuarioListQuery = z.infer<typeof usuarioListQuerySchema>
