import { isPirTitle, pirStatus } from '@vb/shared'
import { count } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openPglite } from '../db/client'
import {
  cajaUsuario,
  contactos,
  documentosUsuario,
  empresas,
  notificaciones,
  planingTareas,
  presupuestos,
  tareasTrabajador,
  trabajadores,
  usuarios,
  viviendas,
} from '../db/schema'
import { verifyPassword } from '../lib/password'
import { DEMO_PASSWORD, isEmpty, seedDemo } from './demo'

let database: Database
const now = new Date('2026-11-21T11:00:00Z')
beforeAll(async () => {
  database = await openPglite(null)
  expect(await isEmpty(database.db)).toBe(true)
  await seedDemo(database.db, now)
})
afterAll(async () => {
  await database.close()
})

const total = async (table: Parameters<ReturnType<Database['db']['select']>['from']>[0]) =>
  Number((await database.db.select({ n: count() }).from(table))[0]?.n ?? 0)

describe('demo data (DECISIONS R)', () => {
  it('has the sizes DECISIONS R names', async () => {
    expect(await total(empresas)).toBe(3)
    expect(await total(viviendas)).toBe(10)
    expect(await total(usuarios)).toBe(40)
    for (const table of [contactos, planingTareas, tareasTrabajador, presupuestos, notificaciones, cajaUsuario]) {
      expect(await total(table)).toBeGreaterThan(0)
    }
    expect(await isEmpty(database.db)).toBe(false)
  })

  it('has the four demo accounts with Demo1234, nuevo@demo.es with a temporary password', async () => {
    const rows = await database.db.select().from(trabajadores)
    const byEmail = new Map(rows.map((r) => [r.email, r]))
    expect(byEmail.get('superadmin@demo.es')?.rol).toBe('SUPERADMIN')
    expect(byEmail.get('admin@demo.es')?.rol).toBe('ADMIN')
    expect(byEmail.get('empleado@demo.es')?.rol).toBe('EMPLEADO')
    expect(byEmail.get('nuevo@demo.es')?.passwordTemporal).toBe(true)
    expect(await verifyPassword(DEMO_PASSWORD, byEmail.get('admin@demo.es')!.passwordHash)).toBe(true)
  })

  it('has residents in each of the four PIR states', async () => {
    const docs = await database.db.select().from(documentosUsuario)
    const residents = await database.db.select({ id: usuarios.id }).from(usuarios)
    const states = new Set(
      residents.map(
        (r) =>
          pirStatus(
            docs.filter((d) => d.usuarioId === r.id && isPirTitle(d.titulo)).map((d) => d.fecha),
            now,
          ).estado,
      ),
    )
    expect([...states].sort()).toEqual(['aviso', 'caducado', 'sinpir', 'vigente'])
  })

  it('has budgets in every state', async () => {
    const estados = new Set((await database.db.select().from(presupuestos)).map((p) => p.estado))
    expect([...estados].sort()).toEqual(['APROBADO', 'PENDIENTE_APROBACION', 'REALIZADO'])
  })
})
