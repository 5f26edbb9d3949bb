import { LETTERS, optionalUrl, requiredText } from './common'
import { listQuerySchema } from './list'
import { deletionBlockedMessage } from './ownership'
import { z } from './zod-es'

/** SPEC §3 Company. */
export const empresaSchema = z.object({
  id: z.number().int(),
  nombre: z.string(),
  logoUrl: z.string().nullable(),
})
export type Empresa = z.infer<typeof empresaSchema>

export const empresaMessages = {
  nombreObligatorio: 'El nombre es obligatorio',
  nombreLongitud: 'El nombre debe tener entre 2 y 100 caracteres',
  nombreCaracteres: 'El nombre solo puede contener letras, números, espacios y los caracteres . , & ( ) -',
  logo: 'La URL del logo no es válida',
  vacio: 'No hay empresas.',
  noEncontrada: 'No se ha encontrado la empresa.',
} as const

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
