import { ID_MESSAGE, idParam } from './common'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PAGE_MESSAGE } from './list-core'
import { z } from './zod-es'

export * from './list-core'

const digits = (message: string) =>
  z
    .string({ error: message })
    .regex(/^[1-9][0-9]{0,8}$/, message)
    .transform(Number)

/** Query fields every list call takes (DECISIONS A4). `sort` is narrowed per resource. */
export function listQuerySchema<const S extends readonly [string, ...string[]]>(sortFields: S) {
  return z.object({
    q: z.string().trim().max(100).optional(),
    sort: z.enum(sortFields).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    page: digits(PAGE_MESSAGE).optional().default(1),
    pageSize: digits('El tamaño de página no es válido')
      .pipe(z.number().max(MAX_PAGE_SIZE, `El tamaño de página no puede superar ${MAX_PAGE_SIZE}`))
      .optional()
      .default(DEFAULT_PAGE_SIZE),
  })
}

/** An optional id filter in a query string (`empresaId=3`). */
export const idFilter = idParam.optional()

/** Comma-joined id list in a query string ('1,2,3'), as SPEC §6 sends empresaIds. */
export const idListQuery = z
  .string()
  .regex(/^[1-9][0-9]{0,9}(,[1-9][0-9]{0,9}){0,99}$/, ID_MESSAGE)
  .transform((s) => s.split(',').map(Number))
  .refine((ids) => ids.every((id) => id <= 2_147_483_647), ID_MESSAGE)
  .optional()
