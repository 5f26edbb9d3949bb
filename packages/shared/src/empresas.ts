import { z } from 'zod'
import { LETTERS, optionalUrl, requiredText } from './common'
import { listQuerySchema } from './list'

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
  conViviendas: 'No se puede eliminar la empresa porque tiene viviendas. Elimina o traslada antes sus viviendas.',
} as const

/** SPEC §5 Company (create and edit). */
export const empresaCreateSchema = z.object({
  nombre: requiredText(empresaMessages.nombreObligatorio)
    .min(2, empresaMessages.nombreLongitud)
    .max(100, empresaMessages.nombreLongitud)
    .regex(new RegExp(`^[${LETTERS}0-9 .,&()\\-]+$`), empresaMessages.nombreCaracteres),
  logoUrl: optionalUrl(empresaMessages.logo),
})
export type EmpresaCreate = z.infer<typeof empresaCreateSchema>
export const empresaUpdateSchema = empresaCreateSchema.partial()
export type EmpresaUpdate = z.infer<typeof empresaUpdateSchema>

export const empresaSortFields = ['nombre'] as const
export const empresaListQuerySchema = listQuerySchema(empresaSortFields)
export type EmpresaListQuery = z.infer<typeof empresaListQuerySchema>
