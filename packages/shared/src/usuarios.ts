import { optionalUrl, PERSON_NAME, requiredId, requiredText } from './common'
import { idFilter, idListQuery, listQuerySchema } from './list'
import { hasNifShape, isValidNif } from './nif'
import { pirBadgeSchema, pirStatusSchema } from './pir'
import { usuarioMessages } from './usuarios-core'
import { z } from './zod-es'

export * from './usuarios-core'

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
