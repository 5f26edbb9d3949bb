import { optionalUrl, PERSON_NAME, requiredId, requiredText } from './common'
import { idFilter, idListQuery, listQuerySchema } from './list'
import { hasNifShape, isValidNif } from './nif'
import { pirBadgeSchema, pirStatusSchema } from './pir'
import { z } from './zod-es'

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

/** A row of the residents list: the resident and its PIR badge (SPEC §4, aviso or caducado shown in the row). */
export const usuarioListItemSchema = usuarioSchema.extend({ pir: pirBadgeSchema })
export type UsuarioListItem = z.infer<typeof usuarioListItemSchema>

/** GET /api/usuarios/nif/:nif: the header of /documentacion/{nif} and /caja/{nif}. */
export const usuarioFichaSchema = usuarioSchema.extend({
  nombreCompleto: z.string(),
  /** SPEC §2.14 PIR card, from the resident's PIR documents and today in Europe/Madrid (DECISIONS D3). */
  pir: pirStatusSchema,
  /** The PIR document the status comes from (the latest titled 'PIR'), for 'Editar PIR'; null without PIR. */
  pirDocumentoId: z.number().int().nullable(),
})
export type UsuarioFicha = z.infer<typeof usuarioFichaSchema>

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
  noEncontrado: 'No se ha encontrado el usuario.',
  /** Only a SUPERADMIN sees a resident without a home (DECISIONS P1): anyone else would lose it. */
  sinViviendaSoloSuperadmin:
    'Solo un superadministrador puede dejar a un usuario sin vivienda. Para trasladarlo, vincúlalo a su nueva vivienda.',
} as const

/** SPEC §8 Documents and Cash: the NIF of the screen's URL matches no resident the worker reaches. */
export const usuarioNifNoEncontrado = (nif: string) => `No se encontró ningún usuario con NIF ${nif}`

/** DECISIONS D12: letters, spaces, apostrophes, hyphens, periods and 'ª'. */
const letters = PERSON_NAME

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
  empresaId: idFilter,
  viviendaId: idFilter,
  /** These residents only (up to 100, comma-joined): a form naming the residents it holds, in one request. */
  ids: idListQuery,
  nif: z.string().trim().max(20).optional(),
  /** Residents whose PIR has expired, or expires within 30 days (the start page's links). */
  pir: z.enum(['caducado', 'aviso']).optional(),
})
export type UsuarioListQuery = z.infer<typeof usuarioListQuerySchema>
