import { createHash, randomUUID } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { addDays, addMonthsToMonth, madridDateTime, madridDay, nifCheckLetter } from '@vb/shared'
import { count, sql } from 'drizzle-orm'
import type { Db, DbOrTx, Tx } from '../db/client'
import {
  cajaUsuario,
  contactos,
  documentosUsuario,
  empresas,
  logs,
  type notificaciones,
  planingTareas,
  planingTareaUsuarios,
  presupuestos,
  tareasTrabajador,
  trabajadorEmpresas,
  trabajadores,
  uploads,
  usuarios,
  viviendas,
} from '../db/schema'
import { ensurePrivateDir } from '../lib/data-dir'
import { hashPassword } from '../lib/password'
import { samplePdf, samplePng } from '../lib/sample-files'
import { createNotificaciones } from '../modules/notificaciones/notificaciones.service'
import { notifyPir } from '../modules/pir/pir.service'

/** Where the demo's uploaded files go (DATA_DIR/uploads); without it, the demo has no uploaded files. */
export interface SeedOptions {
  uploadsDir?: string
}

/** DECISIONS R: demo accounts, all with password Demo1234. */
export const DEMO_PASSWORD = 'Demo1234'
export const DEMO_ACCOUNTS = [
  {
    email: 'superadmin@demo.es',
    nombre: 'Sara',
    apellidos: 'Martín Ruiz',
    nif: '11111111H',
    rol: 'SUPERADMIN',
    empresas: [1, 2, 3],
    temporal: false,
  },
  {
    email: 'admin@demo.es',
    nombre: 'Alberto',
    apellidos: 'Gómez Sánchez',
    nif: '22222222J',
    rol: 'ADMIN',
    empresas: [1, 2],
    temporal: false,
  },
  {
    email: 'empleado@demo.es',
    nombre: 'Elena',
    apellidos: 'Navarro Díaz',
    nif: '33333333P',
    rol: 'EMPLEADO',
    empresas: [1],
    temporal: false,
  },
  {
    email: 'nuevo@demo.es',
    nombre: 'Nicolás',
    apellidos: 'Ortega Vidal',
    nif: '44444444A',
    rol: 'EMPLEADO',
    empresas: [1],
    temporal: true,
  },
] as const

export async function isEmpty(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(trabajadores)
  return Number(row?.n ?? 0) === 0
}

/** Deterministic pseudo-random numbers, so every demo database looks the same. */
function rng(seed: number) {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

const NOMBRES = [
  'José',
  'María',
  'Antonio',
  'Carmen',
  'Manuel',
  'Josefa',
  'Francisco',
  'Isabel',
  'Juan',
  'Dolores',
  'Ángel',
  'Lucía',
  'Rafael',
  'Pilar',
  'Miguel',
  'Rosario',
  'Jesús',
  'Teresa',
  'Andrés',
  'Inés',
]
const APELLIDOS = [
  'García',
  'Fernández',
  'González',
  'Rodríguez',
  'López',
  'Martínez',
  'Sánchez',
  'Pérez',
  'Gómez',
  'Martín',
  'Jiménez',
  'Ruiz',
  'Hernández',
  'Díaz',
  'Moreno',
  'Muñoz',
  'Álvarez',
  'Romero',
  'Alonso',
  'Gutiérrez',
  'Núñez',
  'Peña',
]

function day(base: Date, offsetDays: number, hour = 10): Date {
  const d = new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), base.getUTCDate(), hour - 1, 0, 0))
  d.setUTCDate(d.getUTCDate() + offsetDays)
  return d
}

/**
 * DECISIONS R demo data: 3 companies, 10 homes, 40 residents (PIR documents in each of the four
 * states relative to `now`), documents, cash, contacts, calendar and worker tasks, budgets in every
 * state, notifications and logs.
 */
export async function seedDemo(db: Db, now: Date = new Date(), options: SeedOptions = {}): Promise<void> {
  await db.transaction((tx) => seedInto(tx, now, options))
}

/**
 * Loads the demo data if the database has no workers yet, and says whether it did. Several processes
 * starting together on one database wait on an advisory lock, so only the first one seeds.
 */
export async function seedDemoIfEmpty(db: Db, now: Date = new Date(), options: SeedOptions = {}): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727275)`)
    if (!(await isEmpty(tx))) return false
    await seedInto(tx, now, options)
    return true
  })
}

/**
 * A real file in the uploads folder and its row, attached to a record (the demo's documents with uploaded
 * files and movements with receipts).
 */
async function seedFile(
  tx: Tx,
  dir: string,
  file: { nombre: string; mime: string; content: Buffer; trabajadorId: number; createdAt: Date },
  to: { documentoId: number } | { movimientoId: number } | { presupuestoId: number },
): Promise<void> {
  const id = randomUUID()
  await writeFile(path.join(dir, id), file.content, { mode: 0o600 })
  await tx.insert(uploads).values({
    id,
    nombreOriginal: file.nombre,
    mime: file.mime,
    tamano: file.content.length,
    sha256: createHash('sha256').update(file.content).digest('hex'),
    trabajadorId: file.trabajadorId,
    createdAt: file.createdAt,
    ...to,
  })
}

async function seedInto(tx: Tx, now: Date, options: SeedOptions): Promise<void> {
  const random = rng(20261121)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T
  const hash = await hashPassword(DEMO_PASSWORD)
  {
    const emp = await tx
      .insert(empresas)
      .values([
        { nombre: 'Hogares Mediterráneo S.L.', logoUrl: null },
        { nombre: 'Fundación Vivir Acompañados', logoUrl: null },
        { nombre: 'Residencias del Norte (Asturias)', logoUrl: null },
      ])
      .returning()
    const empresaIds = emp.map((e) => e.id)

    const workers = await tx
      .insert(trabajadores)
      .values([
        ...DEMO_ACCOUNTS.map((a) => ({
          email: a.email,
          nombre: a.nombre,
          apellidos: a.apellidos,
          nif: a.nif,
          rol: a.rol,
          activo: true,
          passwordHash: hash,
          passwordTemporal: a.temporal,
        })),
        {
          email: 'laura.campos@demo.es',
          nombre: 'Laura',
          apellidos: 'Campos Ibáñez',
          nif: '55555555K',
          rol: 'EMPLEADO',
          activo: true,
          passwordHash: hash,
          passwordTemporal: false,
        },
        {
          email: 'pablo.serrano@demo.es',
          nombre: 'Pablo',
          apellidos: 'Serrano Gil',
          nif: '66666666Q',
          rol: 'EMPLEADO',
          activo: false,
          passwordHash: hash,
          passwordTemporal: false,
        },
      ])
      .returning()
    const byEmail = new Map(workers.map((w) => [w.email, w]))
    const links: Array<{ trabajadorId: number; empresaId: number }> = []
    for (const a of DEMO_ACCOUNTS) {
      for (const i of a.empresas) links.push({ trabajadorId: byEmail.get(a.email)!.id, empresaId: empresaIds[i - 1]! })
    }
    links.push({ trabajadorId: byEmail.get('laura.campos@demo.es')!.id, empresaId: empresaIds[1]! })
    links.push({ trabajadorId: byEmail.get('pablo.serrano@demo.es')!.id, empresaId: empresaIds[2]! })
    await tx.insert(trabajadorEmpresas).values(links)

    const homeNames = [
      [
        'Calle Mayor 12, 2º A, Valencia',
        'Avenida del Puerto 45, Valencia',
        'Calle Colón 8, Alicante',
        'Plaza de la Reina 3, Valencia',
      ],
      ['Calle Alcalá 120, Madrid', 'Paseo de la Castellana 200, Madrid', 'Calle Toledo 33, Getafe'],
      ['Calle Uría 15, Oviedo', 'Avenida de la Costa 7, Gijón', 'Calle Corrida 22, Gijón'],
    ]
    const homeRows = await tx
      .insert(viviendas)
      .values(homeNames.flatMap((names, i) => names.map((nombre) => ({ nombre, empresaId: empresaIds[i]! }))))
      .returning()

    const usedNifs = new Set<string>()
    const residentValues = Array.from({ length: 40 }, (_, i) => {
      let num: number
      let nif: string
      do {
        num = 10_000_000 + Math.floor(random() * 89_999_999)
        nif = `${num}${nifCheckLetter(num)}`
      } while (usedNifs.has(nif))
      usedNifs.add(nif)
      return {
        nombre: pick(NOMBRES),
        apellidos: `${pick(APELLIDOS)} ${pick(APELLIDOS)}`,
        nif,
        gradoDependencia: i % 3 === 0 ? null : i % 3 === 1 ? 'PVS' : 'PEI',
        viviendaId: homeRows[i % homeRows.length]!.id,
      }
    })
    // One resident with a NIE, and one without a home.
    residentValues[7]!.nif = 'X1234567L'
    residentValues[39]!.viviendaId = null as unknown as number
    const residents = await tx.insert(usuarios).values(residentValues).returning()

    // PIR documents in the four states: none (i % 4 === 0), valid, warning (0-30 days left), expired.
    const docs: Array<typeof documentosUsuario.$inferInsert> = []
    residents.forEach((r, i) => {
      const state = i % 4
      if (state === 1)
        docs.push({ titulo: 'PIR', fecha: day(now, -60), usuarioId: r.id, archivoUrl: 'https://example.org/documentos/pir.pdf' })
      if (state === 2) docs.push({ titulo: 'PIR', fecha: day(now, -170 + (i % 10)), usuarioId: r.id, archivoUrl: null })
      if (state === 3)
        docs.push({
          titulo: 'PIR',
          fecha: day(now, -220),
          usuarioId: r.id,
          archivoUrl: 'https://example.org/documentos/pir-antiguo.pdf',
        })
      docs.push({
        titulo: 'Informe social',
        fecha: day(now, -30 - i),
        usuarioId: r.id,
        archivoUrl: 'https://example.org/documentos/informe-social.pdf',
      })
      if (i % 2 === 0)
        docs.push({ titulo: 'Contrato de alojamiento', fecha: day(now, -400 + i), usuarioId: r.id, archivoUrl: null })
    })
    const docRows = await tx.insert(documentosUsuario).values(docs).returning()

    const conceptos: Array<[string, string]> = [
      ['Ingreso pensión', '450.00'],
      ['Compra farmacia', '-23.45'],
      ['Peluquería', '-12.00'],
      ['Actividad de ocio', '-8.50'],
      ['Ropa de invierno', '-64.99'],
      ['Reintegro familiar', '100.00'],
    ]
    const cash: Array<typeof cajaUsuario.$inferInsert> = []
    residents.forEach((r, i) => {
      const n = 2 + (i % 4)
      for (let k = 0; k < n; k++) {
        const [concepto, cantidad] = conceptos[(i + k) % conceptos.length]!
        cash.push({ concepto, cantidad, fecha: day(now, -k * 9 - (i % 7)), usuarioId: r.id })
      }
    })
    const cashRows = await tx.insert(cajaUsuario).values(cash).returning()

    // Uploaded files: every fifth resident's social report is a PDF uploaded here (not a link), and the
    // pharmacy and hairdresser movements of the first residents carry a receipt (a photo or a PDF).
    if (options.uploadsDir) {
      const dir = options.uploadsDir
      ensurePrivateDir(dir, 0o700, () => {})
      const uploader = workers.find((w) => w.email === 'empleado@demo.es')!
      const informes = docRows.filter((d, i) => d.titulo === 'Informe social' && i % 5 === 0)
      for (const d of informes) {
        const r = residents.find((x) => x.id === d.usuarioId)!
        const content = await samplePdf(['Informe social', `${r.nombre} ${r.apellidos}`, `NIF ${r.nif}`])
        await tx.update(documentosUsuario).set({ archivoUrl: null }).where(sql`${documentosUsuario.id} = ${d.id}`)
        await seedFile(
          tx,
          dir,
          { nombre: 'informe-social.pdf', mime: 'application/pdf', content, trabajadorId: uploader.id, createdAt: d.fecha },
          { documentoId: d.id },
        )
      }
      const conRecibo = cashRows.filter((m) => ['Compra farmacia', 'Peluquería'].includes(m.concepto)).slice(0, 8)
      for (const [k, m] of conRecibo.entries()) {
        const file =
          k % 2
            ? { nombre: 'ticket.png', mime: 'image/png', content: samplePng(24, 32, [240, 240, 230]) }
            : {
                nombre: 'recibo.pdf',
                mime: 'application/pdf',
                content: await samplePdf(['Recibo', m.concepto, `${m.cantidad.replace('-', '').replace('.', ',')} €`]),
              }
        await seedFile(tx, dir, { ...file, trabajadorId: uploader.id, createdAt: m.fecha }, { movimientoId: m.id })
      }
    }

    await tx.insert(contactos).values([
      {
        nombreComercial: 'Fontanería Levante S.L.',
        agente: 'Vicente Soler',
        correo: 'vicente@fontanerialevante.es',
        telefono: '+34 961 234 567',
        empresaId: empresaIds[0]!,
      },
      {
        nombreComercial: 'Farmacia Central',
        agente: 'Amparo Lloret',
        correo: 'pedidos@farmaciacentral.es',
        telefono: '963 111 222',
        empresaId: empresaIds[0]!,
      },
      {
        nombreComercial: 'Limpiezas Brillo',
        agente: 'Rosa Mora',
        correo: 'rosa@limpiezasbrillo.es',
        telefono: '600-123-456',
        empresaId: empresaIds[0]!,
      },
      {
        nombreComercial: 'Electricidad Castilla',
        agente: 'Javier Prieto',
        correo: 'javier@elecastilla.es',
        telefono: '+34 912 345 678',
        empresaId: empresaIds[1]!,
      },
      {
        nombreComercial: 'Catering Buen Provecho',
        agente: "María O'Donnell",
        correo: 'maria@buenprovecho.es',
        telefono: '915 556 677',
        empresaId: empresaIds[1]!,
      },
      {
        nombreComercial: 'Reformas Cantábrico',
        agente: 'Iván Fernández-Llano',
        correo: 'ivan@reformascantabrico.es',
        telefono: '985 000 111',
        empresaId: empresaIds[2]!,
      },
    ])

    const admin = byEmail.get('admin@demo.es')!
    const empleado = byEmail.get('empleado@demo.es')!
    const superadmin = byEmail.get('superadmin@demo.es')!
    const nuevo = byEmail.get('nuevo@demo.es')!
    // Calendar tasks of this month in Madrid (SPEC §2.9): spread over its days, today's among them, one for
    // everyone (black) per company, some notifiable. Days past the month's end are left out.
    const today = madridDay(now)
    const monthStart = `${today.slice(0, 8)}01`
    const monthLength = Number(addDays(addMonthsToMonth(monthStart, 1), -1).slice(8))
    const todayNumber = Number(today.slice(8))
    const inMonth = (n: number) => Math.min(Math.max(n, 1), monthLength)
    // A morning task of another day must not land on today (a fixed day, or one clamped at the month's end): today's
    // cell shows three tasks before '+N más', and today's own tasks come first.
    const notToday = (n: number) => (inMonth(n) === todayNumber ? todayNumber + (todayNumber > 1 ? -1 : 1) : n)
    const at = (n: number, hora: string) => madridDateTime(`${today.slice(0, 8)}${String(inMonth(n)).padStart(2, '0')}`, hora)
    const planingSeed: Array<{
      empresa: number
      day: number
      hora: string
      titulo: string
      descripcion: string
      notificable?: boolean
      todos?: boolean
      creador: { id: number }
      residentes?: number
    }> = [
      {
        empresa: 0,
        day: todayNumber,
        hora: '10:00',
        titulo: 'Cita médica',
        descripcion: 'Revisión en el centro de salud',
        notificable: true,
        creador: empleado,
      },
      {
        empresa: 0,
        day: todayNumber,
        hora: '17:30',
        titulo: 'Taller de cocina',
        descripcion: 'Actividad de grupo en la vivienda',
        todos: true,
        creador: admin,
      },
      {
        empresa: 0,
        day: todayNumber + 2,
        hora: '11:00',
        titulo: 'Visita familiar',
        descripcion: 'Visita de la familia por la mañana',
        creador: empleado,
        residentes: 1,
      },
      {
        empresa: 0,
        day: notToday(todayNumber + 5),
        hora: '09:15',
        titulo: 'Análisis de sangre',
        descripcion: 'En ayunas, centro de salud',
        notificable: true,
        creador: empleado,
      },
      {
        empresa: 0,
        day: 3,
        hora: '12:00',
        titulo: 'Compra de ropa',
        descripcion: 'Acompañamiento a la tienda',
        creador: admin,
        residentes: 1,
      },
      { empresa: 0, day: 8, hora: '16:00', titulo: 'Fisioterapia', descripcion: 'Sesión semanal', creador: empleado },
      {
        empresa: 0,
        day: 15,
        hora: '10:30',
        titulo: 'Excursión al parque',
        descripcion: 'Salida de grupo',
        todos: true,
        creador: admin,
      },
      { empresa: 0, day: 22, hora: '18:00', titulo: 'Cine', descripcion: 'Sesión de tarde', creador: empleado, residentes: 3 },
      {
        empresa: 0,
        day: notToday(27),
        hora: '09:00',
        titulo: 'Renovación DNI',
        descripcion: 'Acompañamiento a la comisaría',
        notificable: true,
        creador: admin,
        residentes: 1,
      },
      {
        empresa: 1,
        day: todayNumber - 3,
        hora: '09:00',
        titulo: 'Renovación DNI',
        descripcion: 'Acompañamiento a la comisaría',
        notificable: true,
        creador: admin,
      },
      {
        empresa: 1,
        day: todayNumber + 1,
        hora: '12:00',
        titulo: 'Excursión',
        descripcion: 'Salida al parque',
        todos: true,
        creador: admin,
      },
      { empresa: 1, day: 12, hora: '10:00', titulo: 'Dentista', descripcion: 'Revisión anual', creador: admin, residentes: 1 },
      {
        empresa: 2,
        day: todayNumber + 1,
        hora: '16:00',
        titulo: 'Reunión con trabajadora social',
        descripcion: 'Seguimiento trimestral',
        notificable: true,
        creador: superadmin,
      },
      {
        empresa: 2,
        day: 20,
        hora: '11:30',
        titulo: 'Taller de memoria',
        descripcion: 'Actividad semanal',
        todos: true,
        creador: superadmin,
      },
    ]
    const planing = await tx
      .insert(planingTareas)
      .values(
        planingSeed.map((p) => ({
          fecha: at(p.day, p.hora),
          titulo: p.titulo,
          descripcion: p.descripcion,
          notificable: p.notificable ?? false,
          todos: p.todos ?? false,
          empresaId: empresaIds[p.empresa]!,
          creadorId: p.creador.id,
        })),
      )
      .returning()
    const residentsOf = (empresaIndex: number) =>
      residents.filter((r) => homeRows.find((h) => h.id === r.viviendaId)?.empresaId === empresaIds[empresaIndex])
    await tx.insert(planingTareaUsuarios).values(
      planing.flatMap((p, i) => {
        const seed = planingSeed[i]!
        const list = residentsOf(seed.empresa)
        const chosen = seed.todos ? list : list.slice(i % list.length, (i % list.length) + (seed.residentes ?? 2))
        return chosen.map((r) => ({ tareaId: p.id, usuarioId: r.id }))
      }),
    )

    // Worker tasks in both states for every demo worker, in homes of their companies.
    const task = (
      titulo: string,
      descripcion: string,
      offset: number,
      prioridad: 'ALTA' | 'MEDIA' | 'BAJA',
      home: number,
      trabajador: { id: number },
      creador: { id: number },
      completada = false,
    ) => ({
      titulo,
      descripcion,
      fecha: day(now, offset),
      prioridad,
      completada,
      viviendaId: homeRows[home]!.id,
      trabajadorId: trabajador.id,
      creadorId: creador.id,
    })
    await tx
      .insert(tareasTrabajador)
      .values([
        task('Revisar botiquín', 'Comprobar caducidades del botiquín', 1, 'ALTA', 0, empleado, admin),
        task('Compra semanal', 'Lista de la compra de la semana', 2, 'MEDIA', 1, empleado, empleado),
        task('Llamar al fontanero', 'La cisterna del baño pierde agua', -1, 'ALTA', 2, empleado, admin),
        task('Actualizar inventario', 'Inventario de ropa de cama', -2, 'BAJA', 0, empleado, empleado, true),
        task('Preparar informe mensual', 'Informe de ocupación para dirección', 4, 'ALTA', 4, admin, admin),
        task('Coordinar reforma baño', 'Hablar con el proveedor de reformas', 6, 'MEDIA', 5, admin, superadmin),
        task('Revisar facturas', 'Facturas de suministros del mes', -4, 'BAJA', 1, admin, admin, true),
        task('Visitar la vivienda', 'Revisión trimestral con el equipo', 1, 'MEDIA', 3, admin, admin),
        task('Revisar contratos', 'Contratos de alojamiento pendientes de firma', -5, 'MEDIA', 7, superadmin, superadmin, true),
        task('Auditoría de seguridad', 'Revisión anual de extintores', 9, 'ALTA', 8, superadmin, superadmin),
        task('Conocer la vivienda', 'Visita con la coordinadora', 3, 'MEDIA', 0, nuevo, admin),
        task('Leer el protocolo', 'Protocolo de acogida de residentes', -3, 'BAJA', 0, nuevo, admin, true),
      ])

    // Budgets in every state; the approved and done ones say who decided, and when.
    const decidio = (quien: { id: number; nombre: string; apellidos: string }, offset: number) => ({
      estadoCambiadoPorId: quien.id,
      estadoCambiadoPor: `${quien.nombre} ${quien.apellidos}`,
      estadoCambiadoEn: day(now, offset, 12),
    })
    // descripción, precio, días hasta la fecha prevista (null: sin fecha), estado, vivienda, quién decidió y cuándo
    const budgetRows: Array<
      [
        string,
        string,
        number | null,
        (typeof presupuestos.$inferInsert)['estado'],
        number,
        [Parameters<typeof decidio>[0], number]?,
      ]
    > = [
      ['Pintura del salón y pasillo', '1250.00', 20, 'PENDIENTE_APROBACION', 0],
      ['Cambio de caldera', '2399.90', 35, 'APROBADO', 1, [admin, -2]],
      ['Reparación de persianas', '180.50', -10, 'REALIZADO', 2, [empleado, -9]],
      ['Sustitución de grifería (cocina y baño)', '345.20', 8, 'PENDIENTE_APROBACION', 0],
      ['Colchones viscoelásticos (x4)', '1196.00', 15, 'APROBADO', 0, [admin, -1]],
      ['Revisión anual de la calefacción', '95.00', -20, 'REALIZADO', 3, [admin, -19]],
      ['Mobiliario de cocina (armarios)', '3100.00', null, 'PENDIENTE_APROBACION', 4],
      ['Revisión instalación eléctrica', '420.00', 12, 'APROBADO', 5, [admin, -3]],
      ['Adaptación de baño accesible', '5400.75', -30, 'REALIZADO', 7, [superadmin, -31]],
      ['Rampa de acceso al portal', '2890.00', 40, 'PENDIENTE_APROBACION', 8],
    ]
    const budgets = await tx
      .insert(presupuestos)
      .values(
        budgetRows.map(([descripcion, precio, dias, estado, home, decision]) => ({
          descripcion,
          precio,
          fechaPrevista: dias === null ? null : day(now, dias),
          estado,
          viviendaId: homeRows[home]!.id,
          ...(decision ? decidio(...decision) : {}),
        })),
      )
      .returning()
    // DECISIONS D6: a budget carries a real file (the quote), not a placeholder URL.
    if (options.uploadsDir) {
      const caldera = budgets.find((b) => b.descripcion === 'Cambio de caldera')!
      await seedFile(
        tx,
        options.uploadsDir,
        {
          nombre: 'presupuesto-caldera.pdf',
          mime: 'application/pdf',
          content: await samplePdf(['Presupuesto: cambio de caldera', 'Importe: 2.399,90 €']),
          trabajadorId: admin.id,
          createdAt: day(now, -3),
        },
        { presupuestoId: caldera.id },
      )
    }

    const notif: Array<typeof notificaciones.$inferInsert> = []
    for (const w of [superadmin, admin, empleado]) {
      notif.push(
        {
          titulo: 'Nueva tarea asignada',
          descripcion: 'Tienes una tarea nueva: Revisar botiquín.',
          tipo: 'TAREA',
          trabajadorId: w.id,
          fechaNotificacion: day(now, -1, 9),
        },
        {
          titulo: 'Presupuesto aprobado',
          descripcion: 'El presupuesto «Cambio de caldera» ha sido aprobado.',
          tipo: 'success',
          trabajadorId: w.id,
          fechaNotificacion: day(now, -2, 12),
        },
      )
    }
    await createNotificaciones(tx, notif)
    // SPEC §4, DECISIONS D3: the PIR warnings the server itself creates (the start-up run finds them made).
    await notifyPir(tx, { now: () => now })

    // The access log of the last days (DECISIONS L1), written as the server writes it: names kept beside ids.
    const laura = byEmail.get('laura.campos@demo.es')!
    const pablo = byEmail.get('pablo.serrano@demo.es')!
    const who = (w: { id: number; email: string; nombre: string; apellidos: string }) => ({
      trabajadorId: w.id,
      trabajadorEmail: w.email,
      trabajadorNombre: w.nombre,
      trabajadorApellidos: w.apellidos,
    })
    const en = (v: { id: number; nombre: string }) => ({ viviendaId: v.id, viviendaNombre: v.nombre })
    const [h0, h1, h2] = [homeRows[0]!, homeRows[1]!, homeRows[homeRows.length - 1]!]
    const r0 = residents[0]!
    const logRows: Array<typeof logs.$inferInsert> = [
      {
        ...who(superadmin),
        accion: 'Crear empresa',
        url: '/empresas',
        tipo: 'success',
        descripcion: 'Empresa creada: Hogares Mediterráneo S.L.',
        fecha: day(now, -7, 9),
      },
      {
        ...who(admin),
        ...en(h0),
        accion: 'Crear vivienda',
        url: '/viviendas',
        tipo: 'success',
        descripcion: `Vivienda creada: ${h0.nombre} (Hogares Mediterráneo S.L.)`,
        fecha: day(now, -6, 11),
      },
      {
        ...who(empleado),
        ...en(h0),
        usuarioId: r0.id,
        accion: 'Modificar usuario',
        url: '/usuarios',
        tipo: 'warning',
        descripcion: `Usuario modificado: ${r0.nombre} ${r0.apellidos} (${r0.nif})`,
        datos: {
          antes: { nombre: r0.nombre, gradoDependencia: null },
          despues: { nombre: r0.nombre, gradoDependencia: r0.gradoDependencia },
        },
        fecha: day(now, -5, 12),
      },
      {
        ...who(laura),
        ...en(h1),
        accion: 'Crear documento',
        url: '/documentacion',
        tipo: 'success',
        descripcion: 'Documento creado: Informe social',
        fecha: day(now, -4, 16),
      },
      {
        ...who(pablo),
        ...en(h2),
        accion: 'Eliminar contacto',
        url: '/contactos',
        tipo: 'error',
        descripcion: 'Contacto eliminado: Reformas Antiguas',
        fecha: day(now, -4, 17),
      },
      {
        ...who(superadmin),
        accion: 'Modificar trabajador',
        url: '/trabajadores',
        tipo: 'warning',
        descripcion: `Trabajador modificado: ${pablo.nombre} ${pablo.apellidos} (${pablo.email}); desactivado`,
        fecha: day(now, -3, 9),
      },
      {
        accion: 'Inicio de sesión fallido',
        url: '/',
        tipo: 'error',
        descripcion: 'Intento fallido para desconocido@ejemplo.es',
        fecha: day(now, -2, 8),
      },
    ]
    // Every working day of the last week: the staff logging in and keeping the ledger.
    for (let d = -7; d <= -1; d++) {
      for (const [i, w] of [superadmin, admin, empleado, laura].entries()) {
        logRows.push({
          ...who(w),
          accion: 'Inicio de sesión',
          url: '/',
          tipo: 'success',
          descripcion: `${w.nombre} ${w.apellidos} ha iniciado sesión`,
          fecha: day(now, d, 8 + i),
        })
      }
      logRows.push({
        ...who(empleado),
        ...en(h0),
        usuarioId: r0.id,
        accion: 'Crear movimiento de caja',
        url: `/caja/${r0.nif}`,
        tipo: 'success',
        descripcion: `Movimiento creado: Compra semanal (-25,00 €) de ${r0.nombre} ${r0.apellidos}`,
        fecha: day(now, d, 13),
      })
    }
    await tx.insert(logs).values(logRows)
  }
}
