import { nifCheckLetter } from '@vb/shared'
import type { PgTable } from 'drizzle-orm/pg-core'
import type { Db } from '../db/client'
import {
  cajaUsuario,
  contactos,
  documentosUsuario,
  empresas,
  planingTareas,
  planingTareaUsuarios,
  presupuestos,
  tareasTrabajador,
  usuarios,
  viviendas,
} from '../db/schema'

let seq = 0
const next = () => ++seq

/** Inserts one row and returns it as stored (defaults and id included). */
async function insertOne<T extends PgTable>(db: Db, table: T, values: T['$inferInsert']): Promise<T['$inferSelect']> {
  const [row] = await db.insert(table).values(values).returning()
  return row as T['$inferSelect']
}

/** Data factories: rows inserted straight into the database, for arranging a test. */
export function makeEmpresa(db: Db, values: Partial<typeof empresas.$inferInsert> = {}) {
  return insertOne(db, empresas, { nombre: `Empresa ${next()}`, ...values })
}

export function makeVivienda(db: Db, empresaId: number, values: Partial<typeof viviendas.$inferInsert> = {}) {
  return insertOne(db, viviendas, { nombre: `Calle Prueba ${next()}`, empresaId, ...values })
}

/** A valid, unique NIF for tests. */
export function makeNif(): string {
  const n = 20_000_000 + next() * 7919 + Math.floor(Math.random() * 7000)
  return `${n}${nifCheckLetter(n)}`
}

export function makeUsuario(db: Db, viviendaId: number | null, values: Partial<typeof usuarios.$inferInsert> = {}) {
  return insertOne(db, usuarios, { nombre: 'Residente', apellidos: `Prueba ${next()}`, nif: makeNif(), viviendaId, ...values })
}

export function makeContacto(db: Db, empresaId: number, values: Partial<typeof contactos.$inferInsert> = {}) {
  return insertOne(db, contactos, {
    nombreComercial: `Proveedor ${next()}`,
    agente: 'Agente Prueba',
    correo: `proveedor${seq}@prueba.es`,
    telefono: '600 000 000',
    empresaId,
    ...values,
  })
}

export function makeDocumento(db: Db, usuarioId: number, values: Partial<typeof documentosUsuario.$inferInsert> = {}) {
  return insertOne(db, documentosUsuario, {
    titulo: `Documento ${next()}`,
    archivoUrl: 'https://ejemplo.es/doc.pdf',
    fecha: new Date('2026-01-15T10:00:00Z'),
    usuarioId,
    ...values,
  })
}

export function makeMovimientoCaja(db: Db, usuarioId: number, values: Partial<typeof cajaUsuario.$inferInsert> = {}) {
  return insertOne(db, cajaUsuario, {
    concepto: `Movimiento ${next()}`,
    cantidad: '12.50',
    fecha: new Date('2026-01-15T10:00:00Z'),
    usuarioId,
    ...values,
  })
}

/** A calendar task linked to the given residents. */
export async function makePlaningTarea(db: Db, usuarioIds: number[], values: Partial<typeof planingTareas.$inferInsert> = {}) {
  const row = await insertOne(db, planingTareas, {
    titulo: `Tarea ${next()}`,
    descripcion: 'Descripción',
    fecha: new Date('2026-02-01T09:00:00Z'),
    ...values,
  })
  if (usuarioIds.length)
    await db.insert(planingTareaUsuarios).values(usuarioIds.map((usuarioId) => ({ tareaId: row.id, usuarioId })))
  return row
}

export async function makePresupuesto(db: Db, viviendaId: number, values: Partial<typeof presupuestos.$inferInsert> = {}) {
  const [row] = await db
    .insert(presupuestos)
    .values({
      descripcion: `Presupuesto ${next()}`,
      precio: '100.00',
      fechaPrevista: new Date('2026-12-15T09:00:00Z'),
      viviendaId,
      ...values,
    })
    .returning()
  return row!
}

export async function makeTareaTrabajador(
  db: Db,
  trabajadorId: number,
  viviendaId: number | null,
  values: Partial<typeof tareasTrabajador.$inferInsert> = {},
) {
  const [row] = await db
    .insert(tareasTrabajador)
    .values({
      titulo: `Tarea ${next()}`,
      descripcion: 'Descripción',
      fecha: new Date('2026-11-25T09:00:00Z'),
      trabajadorId,
      viviendaId,
      ...values,
    })
    .returning()
  return row!
}
