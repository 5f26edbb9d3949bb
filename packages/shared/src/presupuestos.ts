import { charLength, daySchema, fechaSchema, requiredId } from './common'
import { idFilter, listQuerySchema } from './list'
import { moneySchema, moneyValueSchema } from './money-schema'
import {
  DESCRIPCION_MAX,
  DESCRIPCION_MIN,
  fechaPrevistaPasada,
  precioMessages,
  presupuestoEstados,
  presupuestoMessages,
} from './presupuestos-core'
import { archivoSchema, uploadIdOf } from './uploads'
import { z } from './zod-es'

export * from './presupuestos-core'

/** SPEC §5: letters, digits, whitespace and . , ; : ( ) - – — & % € # + / º ª ° and quotes. */
const DESCRIPCION_CHARS = /^[\p{L}\p{M}0-9\s.,;:()\-–—&%€#+/ºª°'"‘’“”«»]+$/u

/** SPEC §3 Budget as the API answers it; `precio` is a decimal string (DECISIONS A6). */
export const presupuestoSchema = z.object({
  id: z.number().int(),
  descripcion: z.string(),
  precio: moneyValueSchema,
  /** ISO instant, or null ('Sin fecha'). */
  fechaPrevista: z.string().nullable(),
  estado: z.enum(presupuestoEstados),
  /** The file's reference ('/api/uploads/<id>'), or null (DECISIONS D6: a real file, never a placeholder). */
  archivoUrl: z.string().nullable(),
  /** The file's links ('Abrir'), or null. */
  archivo: archivoSchema.nullable(),
  viviendaId: z.number().int(),
  vivienda: z.object({ id: z.number().int(), nombre: z.string(), empresaId: z.number().int() }),
  /** Who last changed the state, and when (beyond SPEC: who approved a spend); null until it changes. */
  estadoCambio: z.object({ trabajador: z.string(), fecha: z.string() }).nullable(),
  /** The version to send back in If-Match (or as `updatedAt`) when editing. */
  updatedAt: z.string(),
})
export type Presupuesto = z.infer<typeof presupuestoSchema>

const descripcion = z
  .string({ error: presupuestoMessages.descripcionObligatoria })
  .trim()
  .min(1, presupuestoMessages.descripcionObligatoria)
  .refine(
    (v) => charLength(v) >= DESCRIPCION_MIN && charLength(v) <= DESCRIPCION_MAX && DESCRIPCION_CHARS.test(v),
    presupuestoMessages.descripcionFormato,
  )

const precio = moneySchema(precioMessages, { positive: true })
const fechaPrevista = fechaSchema({
  obligatoria: presupuestoMessages.fechaObligatoria,
  invalida: presupuestoMessages.fechaInvalida,
})
const estado = z.enum(presupuestoEstados, {
  error: (iss) =>
    iss.input === undefined || iss.input === null || iss.input === ''
      ? presupuestoMessages.estadoObligatorio
      : presupuestoMessages.estadoInvalido,
})

/** An uploaded file's reference; null or '' (on edit) removes it. */
const archivoUrl = z
  .preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z
      .string({ error: presupuestoMessages.archivoInvalido })
      .trim()
      .refine((v) => uploadIdOf(v) !== null, presupuestoMessages.archivoInvalido)
      .nullable(),
  )
  .optional()

/** SPEC §5 Budget: create (SPEC §7 POST body descripcion, precio, fechaPrevista, estado, archivoUrl, viviendaId). */
export const presupuestoCreateSchema = z.object({
  descripcion,
  precio,
  fechaPrevista,
  estado,
  archivoUrl,
  viviendaId: requiredId(presupuestoMessages.viviendaObligatoria, presupuestoMessages.viviendaTipo),
})
export type PresupuestoCreate = z.infer<typeof presupuestoCreateSchema>

/**
 * Edit: only the fields sent change (SPEC §4: any state may be chosen). `updatedAt` is the version the client
 * read (If-Match does the same): a stale one answers 409.
 */
export const presupuestoUpdateSchema = z.object({
  descripcion: descripcion.optional(),
  precio: precio.optional(),
  fechaPrevista: fechaPrevista.optional(),
  estado: estado.optional(),
  archivoUrl,
  viviendaId: requiredId(presupuestoMessages.viviendaObligatoria, presupuestoMessages.viviendaTipo).optional(),
  updatedAt: z.string().optional(),
})
export type PresupuestoUpdate = z.infer<typeof presupuestoUpdateSchema>

/**
 * The form's schema: the API's, plus the planned date checked against today in the browser (D6), on the field
 * itself, so its message comes with the others (SPEC §5: every error at once).
 */
export function presupuestoFormSchema(now: () => Date, original?: string | null) {
  return presupuestoCreateSchema.extend({
    fechaPrevista: fechaPrevista.refine(
      (value) => value === original || !fechaPrevistaPasada(value, now()),
      presupuestoMessages.fechaPasada,
    ),
  })
}

export const presupuestoSortFields = ['descripcion', 'precio', 'fechaPrevista', 'estado'] as const
/** GET /api/presupuestos: the home select, the text and date searches and the state select of SPEC §2.13. */
export const presupuestoListQuerySchema = listQuerySchema(presupuestoSortFields).extend({
  viviendaId: idFilter,
  empresaId: idFilter,
  estado: z.enum(presupuestoEstados, { error: presupuestoMessages.estadoInvalido }).optional(),
  /** The planned day (YYYY-MM-DD, Europe/Madrid). */
  fecha: daySchema(presupuestoMessages.fechaInvalida).optional(),
})
export type PresupuestoListQuery = z.infer<typeof presupuestoListQuerySchema>
