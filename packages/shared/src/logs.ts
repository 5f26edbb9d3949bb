import { z } from 'zod'
import { idFilter, listQuerySchema } from './list'

/** SPEC §3 Log entry, as read (trabajador and vivienda resolved). */
export const logTipos = ['success', 'warning', 'error', 'info'] as const
export const logSchema = z.object({
  id: z.number().int(),
  fecha: z.string(),
  trabajadorId: z.number().int().nullable(),
  trabajador: z.object({ id: z.number().int(), nombre: z.string(), apellidos: z.string(), email: z.string() }).nullable(),
  accion: z.string(),
  url: z.string(),
  viviendaId: z.number().int().nullable(),
  vivienda: z.object({ id: z.number().int(), nombre: z.string() }).nullable(),
  usuarioId: z.number().int().nullable(),
  tipo: z.enum(logTipos),
  descripcion: z.string(),
})
export type Log = z.infer<typeof logSchema>

/** POST /api/logs: client events such as the CSV download (DECISIONS L1). */
export const logCreateSchema = z.object({
  accion: z.string().trim().min(1).max(100),
  url: z.string().trim().max(300).default(''),
  viviendaId: z.number().int().positive().nullable().optional(),
  tipo: z.enum(logTipos).default('info'),
  descripcion: z.string().trim().max(1000).default(''),
})
export type LogCreate = z.infer<typeof logCreateSchema>

export const logListQuerySchema = listQuerySchema(['fecha', 'accion'] as const).extend({
  fecha: z.iso.date().optional(),
  desde: z.iso.date().optional(),
  hasta: z.iso.date().optional(),
  trabajadorId: idFilter,
})

/** Log types by change (DECISIONS L1): create success, modify warning, delete error. */
export const logTipoPorCambio = { create: 'success', update: 'warning', delete: 'error' } as const
