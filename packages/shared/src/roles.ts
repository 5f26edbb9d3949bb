import { roles } from './roles-core'
import { z } from './zod-es'

export * from './roles-core'

export const rolSchema = z.enum(roles, { error: 'Selecciona un rol válido' })
