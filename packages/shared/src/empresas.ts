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
  noEncontrada: 'No se ha encontrado la empresa.',
} as const

/**
 * Issue 'faults' item 5: deleting a company never removes anything silently; while it still has homes,
 * contacts or calendar tasks it is refused, saying what it has.
 */
export function empresaConDatosMessage(counts: { viviendas: number; contactos: number; tareas: number }): string {
  const parts = [
    counts.viviendas ? `${counts.viviendas} ${counts.viviendas === 1 ? 'vivienda' : 'viviendas'}` : '',
    counts.contactos ? `${counts.contactos} ${counts.contactos === 1 ? 'contacto' : 'contactos'}` : '',
    counts.tareas ? `${counts.tareas} ${counts.tareas === 1 ? 'tarea del planing' : 'tareas del planing'}` : '',
  ].filter(Boolean)
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} y ${parts.at(-1)}` : parts[0]
  return `No se puede eliminar la empresa: todavía tiene ${list}. Elimínalos o trasládalos antes a otra empresa.`
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
