import { charLength, daySchema, fechaSchema, requiredId } from './common'
import { madridDay } from './dates'
import { idFilter, listQuerySchema } from './list'
import type { MoneyMessages } from './money'
import { moneySchema, moneyValueSchema } from './money-schema'
import { archivoSchema, uploadIdOf } from './uploads'
import { z } from './zod-es'

/** SPEC §3 / §9: the three budget states; PENDIENTE_APROBACION on creation (SPEC §4). */
export const presupuestoEstados = ['PENDIENTE_APROBACION', 'APROBADO', 'REALIZADO'] as const
export type PresupuestoEstado = (typeof presupuestoEstados)[number]

/** How each state reads on screen, and the word of a change to it ('Aprobado por Ana García'). */
export const presupuestoEstadoLabels: Record<PresupuestoEstado, string> = {
  PENDIENTE_APROBACION: 'Pendiente de aprobación',
  APROBADO: 'Aprobado',
  REALIZADO: 'Realizado',
}

/** The badge of each state (SPEC §2.13: 'Estado as a coloured badge'). */
export const presupuestoEstadoVariants: Record<PresupuestoEstado, 'warning' | 'primary' | 'success'> = {
  PENDIENTE_APROBACION: 'warning',
  APROBADO: 'primary',
  REALIZADO: 'success',
}

/** SPEC §5 Budget and §8 Budgets, word for word. */
export const presupuestoMessages = {
  descripcionObligatoria: 'La descripción es obligatoria',
  descripcionFormato:
    'La descripción debe tener entre 5 y 200 caracteres y solo puede incluir letras, números y puntuación común',
  precioObligatorio: 'El precio es obligatorio',
  precioNumero: 'El precio debe ser un número válido',
  precioPositivo: 'El precio debe ser mayor que 0',
  precioDecimales: 'El precio solo puede tener hasta 2 decimales',
  precioMaximo: 'El precio no puede superar 9.999.999.999,99 €',
  fechaObligatoria: 'La fecha prevista es obligatoria',
  fechaInvalida: 'La fecha no es válida',
  fechaPasada: 'La fecha no puede estar en el pasado',
  estadoObligatorio: 'El estado es obligatorio',
  estadoInvalido: 'Estado no válido',
  viviendaObligatoria: 'La vivienda es obligatoria',
  viviendaTipo: 'Selecciona una vivienda',
  archivoInvalido: 'El archivo debe ser un archivo subido',
  creado: 'Presupuesto añadido correctamente',
  modificado: 'Presupuesto modificado correctamente',
  eliminado: 'Presupuesto eliminado correctamente',
  noEncontrado: 'No se ha encontrado el presupuesto.',
  /** A stale edit of money (CONTRIBUTING.md, habits). */
  cambiado: 'El presupuesto ha cambiado desde que lo abriste. Vuelve a cargarlo.',
  vacio: 'No hay presupuestos.',
  sinFecha: 'Sin fecha',
} as const

/** The money messages of a budget's price (SPEC §5: above 0, at most 2 decimals, a comma accepted). */
export const precioMessages: MoneyMessages = {
  obligatoria: presupuestoMessages.precioObligatorio,
  numero: presupuestoMessages.precioNumero,
  decimales: presupuestoMessages.precioDecimales,
  positivo: presupuestoMessages.precioPositivo,
  maximo: presupuestoMessages.precioMaximo,
}

/** SPEC §9: description 5-200 characters. */
export const DESCRIPCION_MIN = 5
export const DESCRIPCION_MAX = 200
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
 * DECISIONS D6: a planned date may not be before today (Europe/Madrid) when it is set or changed. Today comes
 * from the caller (the server's clock, the browser's date), so the rule lives beside the schema.
 */
export function fechaPrevistaPasada(fechaPrevista: string, now: Date): boolean {
  return madridDay(fechaPrevista) < madridDay(now)
}

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
