import { LETTERS, requiredId, requiredText } from './common'
import { contactoMessages } from './contactos-core'
import { idFilter, listQuerySchema } from './list'
import { z } from './zod-es'

export * from './contactos-core'

/** SPEC §3 Contact; `fotoUrl` is always the company's logo (SPEC §2.7). */
export const contactoSchema = z.object({
  id: z.number().int(),
  nombreComercial: z.string(),
  agente: z.string(),
  correo: z.string(),
  telefono: z.string(),
  fotoUrl: z.string().nullable(),
  empresaId: z.number().int(),
  /** The company's name, for the form's picker. */
  empresa: z.object({ id: z.number().int(), nombre: z.string() }),
})
export type Contacto = z.infer<typeof contactoSchema>

/** SPEC §5 Contact. */
export const contactoCreateSchema = z.object({
  nombreComercial: requiredText(contactoMessages.nombreComercialObligatorio)
    .min(3, contactoMessages.nombreComercialLongitud)
    .max(100, contactoMessages.nombreComercialLongitud)
    .regex(new RegExp(`^[${LETTERS}0-9 .,;:&()'’"/+ºª\\-]+$`, 'u'), contactoMessages.nombreComercialCaracteres),
  agente: requiredText(contactoMessages.agenteObligatorio)
    .min(2, contactoMessages.agenteLongitud)
    .max(60, contactoMessages.agenteLongitud)
    .regex(new RegExp(`^[${LETTERS} '’\\-]+$`, 'u'), contactoMessages.agenteCaracteres),
  correo: requiredText(contactoMessages.correoObligatorio)
    .max(254, contactoMessages.correo)
    .pipe(z.email(contactoMessages.correo)),
  telefono: requiredText(contactoMessages.telefonoObligatorio)
    .min(7, contactoMessages.telefonoLongitud)
    .max(20, contactoMessages.telefonoLongitud)
    .regex(/^\+?[0-9 -]+$/, contactoMessages.telefonoCaracteres),
  empresaId: requiredId(contactoMessages.empresaObligatoria, contactoMessages.empresaTipo),
})
export type ContactoCreate = z.infer<typeof contactoCreateSchema>
export const contactoUpdateSchema = contactoCreateSchema.partial()
export type ContactoUpdate = z.infer<typeof contactoUpdateSchema>

export const contactoSortFields = ['nombreComercial', 'agente', 'correo', 'telefono'] as const
export const contactoListQuerySchema = listQuerySchema(contactoSortFields).extend({
  empresaId: idFilter,
})
export type ContactoListQuery = z.infer<typeof contactoListQuerySchema>
