import { requiredId, requiredText } from './common'
import { idFilter, idListQuery, listQuerySchema } from './list'
import { viviendaMessages } from './viviendas-core'
import { z } from './zod-es'

export * from './viviendas-core'

/** SPEC §3 Home; `empresa` is the company name, for the 'Empresa' column. */
export const viviendaSchema = z.object({
  id: z.number().int(),
  nombre: z.string(),
  empresaId: z.number().int(),
  empresa: z.object({ id: z.number().int(), nombre: z.string() }),
})
export type Vivienda = z.infer<typeof viviendaSchema>

/** SPEC §5 Home. */
export const viviendaCreateSchema = z.object({
  nombre: requiredText(viviendaMessages.nombreObligatorio).max(200, viviendaMessages.nombreLongitud),
  empresaId: requiredId(viviendaMessages.empresaObligatoria, viviendaMessages.empresaTipo),
})
export type ViviendaCreate = z.infer<typeof viviendaCreateSchema>
export const viviendaUpdateSchema = viviendaCreateSchema.partial()
export type ViviendaUpdate = z.infer<typeof viviendaUpdateSchema>

export const viviendaSortFields = ['nombre', 'empresa'] as const
export const viviendaListQuerySchema = listQuerySchema(viviendaSortFields).extend({
  empresaId: idFilter,
  /** SPEC §6: comma-joined company ids. */
  empresaIds: idListQuery,
})
export type ViviendaListQuery = z.infer<typeof viviendaListQuerySchema>
