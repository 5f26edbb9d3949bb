import {
  AppError,
  addDays,
  fechaPrevistaPasada,
  formatMoney,
  madridDay,
  madridStartOfDay,
  type Presupuesto,
  presupuestoCreateSchema,
  presupuestoEstadoLabels,
  presupuestoListQuerySchema,
  presupuestoMessages,
  presupuestoSchema,
  presupuestoUpdateSchema,
  uploadReference,
} from '@vb/shared'
import { and, eq, gte, lt, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { estadoOrden, presupuestos, uploads, viviendas } from '../../db/schema'
import type { AppDeps } from '../../deps'
import type { Actor } from '../../lib/actor'
import { defineResource } from '../../lib/resource'
import { archivoOf, type UploadRow } from '../uploads/uploads.service'

/** The columns a budget shows (not its stored search and sort keys). */
const columns = {
  id: presupuestos.id,
  descripcion: presupuestos.descripcion,
  precio: presupuestos.precio,
  fechaPrevista: presupuestos.fechaPrevista,
  estado: presupuestos.estado,
  viviendaId: presupuestos.viviendaId,
  estadoCambiadoPor: presupuestos.estadoCambiadoPor,
  estadoCambiadoEn: presupuestos.estadoCambiadoEn,
  updatedAt: presupuestos.updatedAt,
}
type Row = Pick<typeof presupuestos.$inferSelect, keyof typeof columns>
/** What 'Abrir' needs of the budget's file. */
const fileColumns = { id: uploads.id, nombreOriginal: uploads.nombreOriginal, mime: uploads.mime, tamano: uploads.tamano }
type FileRow = Pick<UploadRow, keyof typeof fileColumns>
type ViviendaRef = { id: number; nombre: string; empresaId: number }

/** Row, its home and its file → SPEC §3 Budget, with who last changed its state (beyond SPEC). */
export function toPresupuesto(
  deps: Pick<AppDeps, 'files'>,
  actor: Actor,
  row: Row,
  vivienda: ViviendaRef,
  upload: FileRow | null,
): Presupuesto {
  return {
    id: row.id,
    descripcion: row.descripcion,
    // DECISIONS A6: the decimal string PostgreSQL gives for numeric(12,2), never a float.
    precio: row.precio,
    fechaPrevista: row.fechaPrevista?.toISOString() ?? null,
    estado: row.estado as Presupuesto['estado'],
    archivoUrl: upload ? uploadReference(upload.id) : null,
    archivo: upload ? archivoOf(deps.files, actor, upload) : null,
    viviendaId: row.viviendaId,
    vivienda,
    estadoCambio:
      row.estadoCambiadoEn && row.estadoCambiadoPor
        ? { trabajador: row.estadoCambiadoPor, fecha: row.estadoCambiadoEn.toISOString() }
        : null,
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** Who changes a state, and when (kept on the row: who approved a spend). */
const estadoCambio = (actor: Actor, now: Date) => ({
  estadoCambiadoPorId: actor.id,
  estadoCambiadoPor: `${actor.nombre} ${actor.apellidos}`,
  estadoCambiadoEn: now,
})

/**
 * DECISIONS D6: a planned date set or changed may not be before today (the injected clock, Madrid days). The
 * date is the Madrid day (SPEC §3: a date): the same day sent again, to the minute as the form reads it back or as
 * a plain 'YYYY-MM-DD' as SPEC's clients send it, is no change, so the other fields of a budget whose day has
 * passed can still be edited.
 */
function checkFecha(fecha: string | undefined, previous: Date | null, now: Date) {
  if (fecha === undefined || (previous && madridDay(previous) === madridDay(fecha))) return
  if (fechaPrevistaPasada(fecha, now)) {
    throw new AppError('VALIDATION_FAILED', presupuestoMessages.fechaPasada, { fechaPrevista: presupuestoMessages.fechaPasada })
  }
}

const label = (p: Presupuesto) => `${p.descripcion} (${formatMoney(p.precio)})`

/**
 * SPEC §2.13, §6; DECISIONS A6, D6, P1: budgets of the homes of the worker's companies, searched by
 * description, filtered by home, company, state and planned day, sorted by any column. Prices are exact
 * decimals; a budget may carry one real file (a quote or an invoice); a change of state records who made it.
 * Creating one in another company's home is 403, reading one 404.
 */
export const presupuestosResource = defineResource({
  name: 'presupuestos',
  table: presupuestos,
  schemas: {
    entity: presupuestoSchema,
    listQuery: presupuestoListQuerySchema,
    create: presupuestoCreateSchema,
    update: presupuestoUpdateSchema,
  },
  read: (db: DbOrTx) =>
    db
      .select({
        presupuesto: columns,
        vivienda: { id: viviendas.id, nombre: viviendas.nombre, empresaId: viviendas.empresaId },
        upload: fileColumns,
      })
      .from(presupuestos)
      .innerJoin(viviendas, eq(viviendas.id, presupuestos.viviendaId))
      .leftJoin(uploads, eq(uploads.presupuestoId, presupuestos.id)),
  toEntity: (r, { deps, actor }) => toPresupuesto(deps, actor, r.presupuesto, r.vivienda, r.upload),
  notFound: presupuestoMessages.noEncontrado,
  search: presupuestos.busqueda,
  sort: {
    fechaPrevista: presupuestos.fechaPrevista,
    descripcion: presupuestos.ordenDescripcion,
    // numeric: compared as a number (a plain SQL key is never folded to text).
    precio: sql`${presupuestos.precio}`,
    // SPEC §4 order of the states: pending first, then approved, then done.
    estado: estadoOrden(presupuestos.estado),
  },
  // `empresaId` (the top bar's company) is the scope's own: the rule's visibleIn (lib/scope.ts).
  filters: {
    viviendaId: (id) => eq(presupuestos.viviendaId, id),
    estado: (estado) => eq(presupuestos.estado, estado),
    fecha: (day) =>
      and(
        gte(presupuestos.fechaPrevista, madridStartOfDay(day)),
        lt(presupuestos.fechaPrevista, madridStartOfDay(addDays(day, 1))),
      ),
  },
  insert: (p, { actor, deps }) => ({
    descripcion: p.descripcion,
    precio: p.precio,
    fechaPrevista: new Date(p.fechaPrevista),
    estado: p.estado,
    viviendaId: p.viviendaId,
    // Created already approved or done: that is a decision too, and it has its author.
    ...(p.estado !== 'PENDIENTE_APROBACION' ? estadoCambio(actor, deps.clock.now()) : {}),
  }),
  patch: (p, { actor, deps, row }) => ({
    descripcion: p.descripcion,
    precio: p.precio,
    fechaPrevista: p.fechaPrevista === undefined ? undefined : new Date(p.fechaPrevista),
    estado: p.estado,
    viviendaId: p.viviendaId,
    ...(p.estado !== undefined && p.estado !== row.estado ? estadoCambio(actor, deps.clock.now()) : {}),
  }),
  file: { field: 'archivoUrl', link: 'presupuestoId' },
  references: {
    viviendaId: {
      resource: 'viviendas',
      invalid: presupuestoMessages.viviendaTipo,
    },
  },
  versioned: presupuestoMessages.cambiado,
  check: {
    create: (p, { deps }) => checkFecha(p.fechaPrevista, null, deps.clock.now()),
    update: (p, { deps, row }) => checkFecha(p.fechaPrevista, row.fechaPrevista, deps.clock.now()),
  },
  log: {
    noun: 'presupuesto',
    title: 'Presupuesto',
    label,
    context: (p) => p.vivienda.nombre,
    vivienda: (p) => p.vivienda,
    moved: (a, b) => {
      const estado = a.estado === b.estado ? '' : `; ${presupuestoEstadoLabels[a.estado]} → ${presupuestoEstadoLabels[b.estado]}`
      const casa = a.viviendaId === b.viviendaId ? '' : `; trasladado de ${a.vivienda.nombre} a ${b.vivienda.nombre}`
      return `${estado}${casa}`
    },
    // The file's identity, never its signed links (they expire and carry a signature).
    values: ({ archivo, ...p }) => ({
      ...p,
      archivo: archivo ? { nombre: archivo.nombre, mime: archivo.mime, tamano: archivo.tamano } : null,
    }),
  },
  remove: { parts: { uploads: { as: 'archivo', keep: ['id', 'nombre_original', 'sha256'] } } },
})
