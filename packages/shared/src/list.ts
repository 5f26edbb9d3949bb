import { z } from 'zod'

/** DECISIONS A4: page size at most 100; SPEC §9: screens use 10. */
export const MAX_PAGE_SIZE = 100
export const DEFAULT_PAGE_SIZE = 10

/** Query fields every list call takes (DECISIONS A4). `sort` is narrowed per resource. */
export function listQuerySchema<const S extends readonly [string, ...string[]]>(sortFields: S) {
  return z.object({
    q: z.string().trim().max(100).optional(),
    sort: z.enum(sortFields).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    page: z.coerce.number().int().min(1).optional(),
    pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  })
}

/** Comma-joined id list in a query string ('1,2,3'), as SPEC §6 sends empresaIds. */
export const idListQuery = z
  .string()
  .regex(/^\d+(,\d+)*$/, 'Lista de identificadores no válida')
  .optional()

export const idParam = z.coerce.number().int().positive()
export const idParamsSchema = z.object({ id: idParam })
