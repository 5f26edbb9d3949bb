import { LETTERS, optionalUrl, requiredText } from './common'
import { empresaMessages } from './empresas-core'
import { listQuerySchema } from './list'
import { deletionBlockedMessage } from './ownership'
import { z } from './zod-es'

export * from './empresas-core'

/** SPEC §3 Company. */
export const empresaSchema = z.object({
  id: z.number().int(),
  nombre: z.string(),
  logoUrl: z.string().nullable(),
})
export type Empresa = z.infer<typeof empresaSchema>

/**
 * A company is never deleted while rows still point at it (homes, contacts, calendar tasks, or any table
 * added later): the refusal says what it still has.
 */
export function empresaConDatosMessage(counts: { viviendas: number; contactos: number; tareas: number }): string {
  return deletionBlockedMessage(
    'la empresa',
    [
      { tabla: 'viviendas', n: counts.viviendas },
      { tabla: 'contactos', n: counts.contactos },
      { tabla: 'planing_tareas', n: counts.tareas },
    ],
    'otra empresa',
  )
}

/** SPEC §5 Company (create and edit). */
export const empresaCreateSchema = z.object({
  nombre: requiredText(empresaMessages.nombreObligatorio)
    .min(2, empresaMessages.nombreLongitud)
    .max(100, empresaMessages.nombreLongitud)
    .regex(new RegExp(`^[${LETTERS}0-9 .,&()\\-]+$`, 'u'), empresaMessages.nombreCaracteres),
  logoUrl: optionalUrl(empresaMessages.logo),
})
export type EmpresaCreate = z.infer<typeof empresaCreateSchema>
export const empresaUpdateSchema = empresaCreateSchema.partial()
export type EmpresaUpdate = z.infer<typeof empresaUpdateSchema>

export const empresaSortFields = ['nombre'] as const
export const empresaListQuerySchema = listQuerySchema(empresaSortFields)
export type EmpresaListQuery = z.infer<typeof empresaListQuerySchema>
