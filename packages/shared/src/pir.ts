import { pirEstados } from './pir-core'
import { z } from './zod-es'

export * from './pir-core'

/** The PIR status as the API answers it (the resident's header, SPEC §2.14). */
export const pirStatusSchema = z.object({
  estado: z.enum(pirEstados),
  diasRestantes: z.number().int().nullable(),
  caducidad: z.string().nullable(),
})

/** The small PIR badge of a residents list row. */
export const pirBadgeSchema = pirStatusSchema.pick({ estado: true, diasRestantes: true })
export type PirBadge = z.infer<typeof pirBadgeSchema>
