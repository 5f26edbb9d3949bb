import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { isPirTitle, madridDay, pirStatus } from '@vb/shared'
import { count, eq, isNotNull } from 'drizzle-orm'
import { fileTypeFromBuffer } from 'file-type'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/client'
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
  uploads,
  usuarios,
  viviendas,
} from '../db/schema'
import { verifyPassword } from '../lib/password'
import { freshDatabase } from '../test/build-test-app'
import { DEMO_PASSWORD, isEmpty, seedDemo } from './demo'

let database: Database
const now = new Date('2026-11-21T11:00:00Z')
const uploadsDir = path.join(mkdtempSync(path.join(tmpdir(), 'vb-demo-')), 'uploads')
beforeAll(async () => {
  database = await freshDatabase()
  expect(await isEmpty(database.db)).toBe(true)
  await seedDemo(database.db, now, { uploadsDir })
})
afterAll(async () => {
  await database.close()
  rmSync(path.dirname(uploadsDir), { recursive: true, force: true })
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

  it('has documents with uploaded files and movements with receipts: real PDF and PNG files, 0600, matching their rows', async () => {
    const files = await database.db.select().from(uploads)
    expect(files.filter((f) => f.documentoId !== null).length).toBeGreaterThanOrEqual(3)
    expect(files.filter((f) => f.movimientoId !== null).length).toBeGreaterThanOrEqual(3)
    expect(new Set(files.map((f) => f.mime))).toEqual(new Set(['application/pdf', 'image/png']))
    for (const f of files) {
      const file = path.join(uploadsDir, f.id)
      const content = readFileSync(file)
      expect(createHash('sha256').update(content).digest('hex')).toBe(f.sha256)
      expect((await fileTypeFromBuffer(content))?.mime).toBe(f.mime)
      expect(statSync(file).mode & 0o777).toBe(0o600)
    }
    expect(statSync(uploadsDir).mode & 0o777).toBe(0o700)
    // A document with an uploaded file keeps no external URL.
    const withFile = await database.db
      .select()
      .from(documentosUsuario)
      .where(eq(documentosUsuario.id, files.find((f) => f.documentoId)!.documentoId!))
    expect(withFile[0]?.archivoUrl).toBeNull()
  })

  it('has the PIR warnings the server creates, for the workers of each resident’s company', async () => {
    const pir = await database.db.select().from(notificaciones).where(isNotNull(notificaciones.dedupeKey))
    expect(new Set(pir.map((n) => n.titulo))).toEqual(new Set(['PIR próximo a caducar', 'PIR caducado']))
    expect(pir.every((n) => n.tipo === 'PIR' && /^pir:\d+:(aviso|caducado):\d{4}-\d{2}-\d{2}$/.test(n.dedupeKey ?? ''))).toBe(
      true,
    )
    const empleado = (await database.db.select().from(trabajadores).where(eq(trabajadores.email, 'empleado@demo.es')))[0]!
    expect(pir.some((n) => n.trabajadorId === empleado.id)).toBe(true)
  })

  it('has budgets in every state; the decided ones say who decided', async () => {
    const rows = await database.db.select().from(presupuestos)
    expect([...new Set(rows.map((p) => p.estado))].sort()).toEqual(['APROBADO', 'PENDIENTE_APROBACION', 'REALIZADO'])
    for (const p of rows.filter((r) => r.estado !== 'PENDIENTE_APROBACION')) expect(p.estadoCambiadoPor).toBeTruthy()
    // DECISIONS D6: one carries its quote as a real uploaded file.
    expect(await database.db.select().from(uploads).where(isNotNull(uploads.presupuestoId))).toHaveLength(1)
  })

  it('has calendar tasks this month (Madrid) for every company, today’s among them, one for everyone', async () => {
    const rows = await database.db.select().from(planingTareas)
    const month = madridDay(now).slice(0, 7)
    expect(rows.every((r) => madridDay(r.fecha).startsWith(month))).toBe(true)
    expect(new Set(rows.map((r) => r.empresaId)).size).toBe(3)
    expect(rows.some((r) => madridDay(r.fecha) === madridDay(now))).toBe(true)
    expect(rows.some((r) => r.todos)).toBe(true)
  })

  it('has worker tasks pending and completed for every demo account', async () => {
    const tasks = await database.db.select().from(tareasTrabajador)
    const accounts = await database.db.select().from(trabajadores)
    for (const email of ['superadmin@demo.es', 'admin@demo.es', 'empleado@demo.es', 'nuevo@demo.es']) {
      const id = accounts.find((a) => a.email === email)?.id
      const own = tasks.filter((t) => t.trabajadorId === id)
      expect(new Set(own.map((t) => t.completada)), email).toEqual(new Set([true, false]))
    }
  })
})

describe('demo calendar on any day of the month', () => {
  // The calendar's today cell shows three tasks before '+N más'. On the 27th a fixed 09:00 task, and on a month's
  // last day the one of today + 5, used to land on today and push 'Cita médica' out of it.
  for (const instant of ['2026-11-27T11:00:00Z', '2026-11-30T11:00:00Z', '2027-02-28T11:00:00Z', '2027-03-01T11:00:00Z']) {
    it(`${instant.slice(0, 10)}: the first company's day starts with its own tasks, 'Cita médica' first`, async () => {
      const day = new Date(instant)
      const dir = mkdtempSync(path.join(tmpdir(), 'vb-demo-'))
      const db = await freshDatabase()
      try {
        await seedDemo(db.db, day, { uploadsDir: path.join(dir, 'uploads') })
        const [first] = await db.db.select({ id: empresas.id }).from(empresas).orderBy(empresas.id).limit(1)
        const rows = await db.db
          .select({ titulo: planingTareas.titulo, fecha: planingTareas.fecha })
          .from(planingTareas)
          .where(eq(planingTareas.empresaId, first!.id))
          .orderBy(planingTareas.fecha, planingTareas.id)
        const shown = rows.filter((r) => madridDay(r.fecha) === madridDay(day)).map((r) => r.titulo)
        expect(shown[0]).toBe('Cita médica')
        expect(shown.slice(0, 3)).toContain('Taller de cocina')
      } finally {
        await db.close()
        rmSync(dir, { recursive: true, force: true })
      }
    })
  }
})
