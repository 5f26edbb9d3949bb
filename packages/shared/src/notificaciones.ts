import { charLength, fechaSchema, requiredId } from './common'
import { listQuerySchema } from './list'
import { notificacionMessages, notificacionTipos } from './notificacion-tipos'
import { z } from './zod-es'

export const notificacionSchema = z.object({
  id: z.number().int(),
  titulo: z.string(),
  descripcion: z.string(),
  fechaNotificacion: z.string(),
  tipo: z.enum(notificacionTipos),
  trabajadorId: z.number().int(),
})
export type Notificacion = z.infer<typeof notificacionSchema>

/**
 * SPEC §7 POST /notificaciones: body titulo, descripcion, fechaNotificacion (ISO; now when absent), tipo,
 * trabajadorId. The worker must share a company with the caller (otherwise 404, as if it did not exist).
 */
export const notificacionCreateSchema = z.object({
  titulo: z
    .string({ error: notificacionMessages.tituloObligatorio })
    .trim()
    .min(1, notificacionMessages.tituloObligatorio)
    .refine((v) => charLength(v) <= 200, notificacionMessages.tituloLargo),
  descripcion: z
    .string({ error: notificacionMessages.descripcionObligatoria })
    .trim()
    .min(1, notificacionMessages.descripcionObligatoria)
    .refine((v) => charLength(v) <= 2000, notificacionMessages.descripcionLarga),
  fechaNotificacion: fechaSchema({
    obligatoria: notificacionMessages.fechaInvalida,
    invalida: notificacionMessages.fechaInvalida,
  }).optional(),
  tipo: z.enum(notificacionTipos, { error: notificacionMessages.tipoInvalido }).default('info'),
  trabajadorId: requiredId(notificacionMessages.trabajadorObligatorio, notificacionMessages.trabajadorTipo),
})
export type NotificacionCreate = z.input<typeof notificacionCreateSchema>

/** GET /api/notificaciones: the caller's own, newest first, server-paged (DECISIONS A4). */
export const notificacionListQuerySchema = listQuerySchema(['fechaNotificacion'] as const)
export type NotificacionListQuery = z.infer<typeof notificacionListQuerySchema>

/**
 * GET /api/trabajadores/{id}/notificaciones (SPEC §7): the same pages, 50 a page unless `pageSize` (or `limit`,
 * its older name) says otherwise.
 */
export const notificacionesDeQuerySchema = z.object({
  page: notificacionListQuerySchema.shape.page,
  pageSize: notificacionListQuerySchema.shape.pageSize.unwrap(),
  limit: notificacionListQuerySchema.shape.pageSize.unwrap(),
})
export const NOTIFICACIONES_DE_PAGE_SIZE = 50
