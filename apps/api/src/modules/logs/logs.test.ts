import { type Log, type LogListItem, logMessages } from '@vb/shared'
import { desc, eq, gt, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { logs, trabajadores, viviendas } from '../../db/schema'
import { buildTestApp, freshDatabase, TEST_PASSWORD, type TestApp, type TestWorker } from '../../test/build-test-app'
import { makeEmpresa, makeNif, makeVivienda } from '../../test/factories'
import { neutralised } from './logs.service'

let t: TestApp
let propia: number
let ajena: number
let superadmin: TestWorker
let admin: TestWorker
let empleado: TestWorker
/** A worker of the admin's company and one of another company, with entries of their own. */
let colega: TestWorker
let ajeno: TestWorker
let casa: { id: number; nombre: string }

type NewEntry = typeof logs.$inferInsert
const entry = (values: Partial<NewEntry> & Pick<NewEntry, 'accion'>): NewEntry => ({
  url: '/prueba',
  tipo: 'info',
  descripcion: '',
  ...values,
})

beforeAll(async () => {
  t = await buildTestApp()
  propia = (await makeEmpresa(t.db)).id
  ajena = (await makeEmpresa(t.db)).id
  superadmin = await t.worker('SUPERADMIN', [propia, ajena])
  admin = await t.worker('ADMIN', [propia])
  empleado = await t.worker('EMPLEADO', [propia])
  colega = await t.worker('EMPLEADO', [propia], { nombre: 'Colega', apellidos: 'De Propia' })
  ajeno = await t.worker('EMPLEADO', [ajena], { nombre: 'Otro', apellidos: 'De Ajena' })
  casa = await makeVivienda(t.db, propia, { nombre: 'Calle Mayor 12' })
  await t.db.insert(logs).values([
    // Madrid is UTC+1 in March: 23:30 UTC on the 10th is already the 11th there.
    entry({
      accion: 'Modificar usuario',
      descripcion: 'Usuario José Núñez modificado',
      trabajadorId: colega.id,
      trabajadorNombre: 'Colega',
      trabajadorApellidos: 'De Propia',
      trabajadorEmail: colega.email,
      viviendaId: casa.id,
      viviendaNombre: casa.nombre,
      tipo: 'warning',
      fecha: new Date('2026-03-10T23:30:00Z'),
      datos: { antes: { nombre: 'José' }, despues: { nombre: 'José María' } },
    }),
    entry({
      accion: 'Crear vivienda',
      trabajadorId: colega.id,
      trabajadorNombre: 'Colega De Propia',
      tipo: 'success',
      fecha: new Date('2026-03-10T12:00:00Z'),
    }),
    entry({
      accion: 'Eliminar contacto',
      trabajadorId: ajeno.id,
      trabajadorNombre: 'Otro De Ajena',
      tipo: 'error',
      fecha: new Date('2026-03-11T09:00:00Z'),
    }),
    entry({
      accion: 'Inicio de sesión fallido',
      descripcion: 'Intento fallido para nadie@x.es',
      tipo: 'error',
      fecha: new Date('2026-03-11T10:00:00Z'),
    }),
  ])
})
afterAll(async () => {
  await t.close()
})

const list = (who: TestWorker | null, query = '') => t.as(who, { method: 'GET', url: `/api/logs?${query}` })
const accionesOf = (res: { json(): unknown }) => (res.json() as Log[]).map((l) => l.accion)

describe('GET /api/logs (SPEC §2.11, DECISIONS P1)', () => {
  it('shows SUPERADMIN every entry and ADMIN those of workers sharing a company; EMPLEADO gets 403', async () => {
    const day = 'desde=2026-03-10&hasta=2026-03-11'
    expect(accionesOf(await list(superadmin, day))).toEqual([
      'Inicio de sesión fallido',
      'Eliminar contacto',
      'Modificar usuario',
      'Crear vivienda',
    ])
    expect(accionesOf(await list(admin, day))).toEqual(['Modificar usuario', 'Crear vivienda'])
    const refused = await list(empleado, day)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().code).toBe('FORBIDDEN')
    expect((await list(null, day)).statusCode).toBe(401)
  })

  it('answers each entry with its worker and home by id and name, its type, and whether it has values before and after', async () => {
    const [first, second] = (await list(admin, 'desde=2026-03-10&hasta=2026-03-11')).json() as LogListItem[]
    expect(first).toEqual({
      id: expect.any(Number),
      fecha: '2026-03-10T23:30:00.000Z',
      trabajadorId: colega.id,
      trabajador: { id: colega.id, nombre: 'Colega', apellidos: 'De Propia', email: colega.email },
      accion: 'Modificar usuario',
      url: '/prueba',
      viviendaId: casa.id,
      vivienda: { id: casa.id, nombre: 'Calle Mayor 12' },
      usuarioId: null,
      tipo: 'warning',
      descripcion: 'Usuario José Núñez modificado',
      cambios: true,
    })
    // The values themselves are the opened entry's (GET /api/logs/:id), not the page's.
    expect(first).not.toHaveProperty('antes')
    expect(second).toMatchObject({ accion: 'Crear vivienda', cambios: false, vivienda: null })
    // Written before the surnames were kept apart: the whole name in nombre.
    expect(second?.trabajador).toEqual({ id: colega.id, nombre: 'Colega De Propia', apellidos: '', email: null })
  })

  it('filters by Madrid day, range, worker, home, type and free text (no case or accents), newest first, paged', async () => {
    const range = 'desde=2026-03-10&hasta=2026-03-11'
    expect(accionesOf(await list(superadmin, 'fecha=2026-03-10'))).toEqual(['Crear vivienda'])
    expect(accionesOf(await list(superadmin, `${range}&trabajadorId=${colega.id}`))).toEqual([
      'Modificar usuario',
      'Crear vivienda',
    ])
    expect(accionesOf(await list(superadmin, `${range}&viviendaId=${casa.id}`))).toEqual(['Modificar usuario'])
    expect(accionesOf(await list(superadmin, `${range}&tipo=error`))).toEqual(['Inicio de sesión fallido', 'Eliminar contacto'])
    expect(accionesOf(await list(superadmin, `${range}&q=NUNEZ`))).toEqual(['Modificar usuario'])
    expect(accionesOf(await list(superadmin, `${range}&q=sesion fallido`))).toEqual(['Inicio de sesión fallido'])
    expect(accionesOf(await list(superadmin, `${range}&order=asc&pageSize=1&page=2`))).toEqual(['Modificar usuario'])
    const paged = await list(superadmin, `${range}&pageSize=3`)
    expect(paged.headers['x-total-count']).toBe('4')
    expect(paged.json()).toHaveLength(3)
    // ADMIN filtering on another company's worker finds nothing rather than its entries.
    expect(accionesOf(await list(admin, `${range}&trabajadorId=${ajeno.id}`))).toEqual([])
  })

  it('refuses bad filters with a clear message', async () => {
    const backwards = await list(superadmin, 'desde=2026-03-11&hasta=2026-03-10')
    expect(backwards.statusCode).toBe(400)
    expect(backwards.json().fieldErrors).toEqual({ hasta: logMessages.rangoInvalido })
    expect((await list(superadmin, 'fecha=2026-02-30')).json().fieldErrors).toEqual({ fecha: logMessages.fechaInvalida })
    expect((await list(superadmin, 'tipo=borrado')).json().fieldErrors).toEqual({ tipo: logMessages.tipo })
    expect((await list(superadmin, 'pageSize=101')).statusCode).toBe(400)
    // A page starting past the 100,000th row (DECISIONS D13: an OFFSET reads every row before it) is refused on
    // `page`; the last one before it is answered.
    const deep = await list(superadmin, 'page=4002&pageSize=25')
    expect(deep.statusCode).toBe(400)
    expect(deep.json().fieldErrors).toEqual({ page: 'La página no es válida' })
    expect((await list(superadmin, 'page=999999999')).json().fieldErrors).toEqual({ page: 'La página no es válida' })
    const last = await list(superadmin, 'page=4001&pageSize=25')
    expect(last.statusCode).toBe(200)
    expect(last.json()).toEqual([])
  })

  it('keeps the names an entry was written with when the worker or the home changes later (DECISIONS L2)', async () => {
    await t.db.update(trabajadores).set({ nombre: 'Renombrado' }).where(eq(trabajadores.id, colega.id))
    await t.db.update(viviendas).set({ nombre: 'Calle Nueva 1' }).where(eq(viviendas.id, casa.id))
    const [first] = (await list(admin, 'fecha=2026-03-11')).json() as Log[]
    expect(first?.trabajador).toMatchObject({ nombre: 'Colega', apellidos: 'De Propia' })
    expect(first?.vivienda?.nombre).toBe('Calle Mayor 12')
  })
})

describe('GET /api/logs/:id (an entry opened, DECISIONS L3, P1)', () => {
  const open = (who: TestWorker | null, id: number | string) => t.as(who, { method: 'GET', url: `/api/logs/${id}` })
  /** The id of the entry of this action that beforeAll wrote (the first one: later tests may write more). */
  const idOf = async (accion: string) => {
    const [row] = await t.db.select({ id: logs.id }).from(logs).where(eq(logs.accion, accion)).orderBy(logs.id).limit(1)
    return row!.id
  }

  it('gives whom the list shows the entry to the whole entry, with its values before and after', async () => {
    const id = await idOf('Modificar usuario')
    const [listed] = (await list(admin, 'fecha=2026-03-11')).json() as LogListItem[]
    const res = await open(admin, id)
    expect(res.statusCode).toBe(200)
    const { cambios: _cambios, ...entry } = listed!
    expect(res.json()).toEqual({ ...entry, antes: { nombre: 'José' }, despues: { nombre: 'José María' } })
    // An entry without them: both null.
    expect((await open(superadmin, await idOf('Crear vivienda'))).json()).toMatchObject({ antes: null, despues: null })
  })

  it("answers 404 to an ADMIN for another company's worker's entry as for none, 403 to EMPLEADO, 404 to an id that is not one", async () => {
    const ajena = await idOf('Eliminar contacto')
    expect((await open(superadmin, ajena)).statusCode).toBe(200)
    const hidden = await open(admin, ajena)
    expect(hidden.statusCode).toBe(404)
    expect(hidden.json().message).toBe(logMessages.noEncontrado)
    const missing = await open(admin, 2_000_000_000)
    expect(missing.statusCode).toBe(404)
    expect(missing.json().message).toBe(logMessages.noEncontrado)
    expect((await open(empleado, ajena)).statusCode).toBe(403)
    expect((await open(null, ajena)).statusCode).toBe(401)
    expect((await open(superadmin, 'abc')).statusCode).toBe(404)
  })
})

describe('GET /api/logs/csv (SPEC §2.11 Descargar)', () => {
  const csv = (who: TestWorker, query: string) => t.as(who, { method: 'GET', url: `/api/logs/csv?${query}` })

  it('is SPEC’s format byte for byte: BOM, ; separated, every value quoted, es-ES dates, hostile values made inert', async () => {
    const w = await t.worker('EMPLEADO', [propia])
    await t.db.insert(logs).values([
      entry({
        accion: 'Crear "contacto"; con punto y coma',
        url: '/contactos',
        trabajadorId: w.id,
        trabajadorNombre: 'Lucía',
        trabajadorApellidos: 'Peña',
        viviendaNombre: null,
        fecha: new Date('2026-07-01T08:09:10Z'),
      }),
      entry({
        accion: '=HYPERLINK("http://malo.es","pulsa")',
        url: '+34 600;000',
        trabajadorId: w.id,
        trabajadorNombre: '@SUMA(A1)',
        viviendaId: casa.id,
        viviendaNombre: '-2+3',
        fecha: new Date('2026-07-01T08:09:11Z'),
      }),
      entry({
        accion: 'Dos\nlíneas',
        url: '\t/tab',
        trabajadorId: w.id,
        trabajadorNombre: null,
        trabajadorEmail: 'solo@correo.es',
        fecha: new Date('2026-12-31T23:59:59Z'),
      }),
    ])
    const res = await csv(superadmin, `trabajadorId=${w.id}`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.headers['content-disposition']).toBe('attachment; filename="logs.csv"')
    const expected = Buffer.from(
      '\uFEFF' +
        '"Fecha";"Trabajador";"Accion";"URL";"Vivienda"\r\n' +
        // Newest first, like the screen; 2026-12-31 23:59:59 UTC is 1 January in Madrid.
        '"01/01/2027, 00:59:59";"solo@correo.es";"Dos\nlíneas";"\'\t/tab";""\r\n' +
        '"01/07/2026, 10:09:11";"\'@SUMA(A1)";"\'=HYPERLINK(""http://malo.es"",""pulsa"")";"\'+34 600;000";"\'-2+3"\r\n' +
        '"01/07/2026, 10:09:10";"Lucía Peña";"Crear ""contacto""; con punto y coma";"/contactos";""\r\n',
      'utf8',
    )
    expect(
      res.rawPayload.equals(expected),
      `${JSON.stringify(res.rawPayload.toString())}\n${JSON.stringify(expected.toString())}`,
    ).toBe(true)
  })

  it('holds every entry the filters match, only what the role sees, and logs the download', async () => {
    const before = await t.db.select({ id: logs.id }).from(logs).orderBy(desc(logs.id)).limit(1)
    const res = await csv(admin, 'desde=2026-03-10&hasta=2026-03-11')
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
    expect(lines).toHaveLength(3)
    expect(lines.slice(1).map((l) => l.split(';')[2])).toEqual(['"Modificar usuario"', '"Crear vivienda"'])
    const written = await t.db
      .select()
      .from(logs)
      .where(gt(logs.id, before[0]?.id ?? 0))
    expect(written).toEqual([
      expect.objectContaining({
        trabajadorId: admin.id,
        accion: 'Descargar logs',
        url: '/logs',
        tipo: 'info',
        descripcion: 'Exportación CSV del registro de actividad (desde=2026-03-10, hasta=2026-03-11)',
      }),
    ])
    expect((await csv(empleado, '')).statusCode).toBe(403)
    expect((await csv(admin, 'desde=2026-03-11&hasta=2026-03-01')).statusCode).toBe(400)
  })

  it('streams thousands of entries in order', async () => {
    const w = await t.worker('EMPLEADO', [propia])
    const start = Date.parse('2025-01-01T00:00:00Z')
    await t.db.execute(sql`
      insert into logs (fecha, trabajador_id, trabajador_nombre, accion, url, tipo, descripcion)
      select to_timestamp(${start / 1000} + g), ${w.id}, 'Masivo', 'Acción ' || g, '/x', 'info', ''
        from generate_series(1, 5000) g`)
    const res = await csv(superadmin, `trabajadorId=${w.id}`)
    const lines = res.body.trimEnd().split('\r\n')
    expect(lines).toHaveLength(5001)
    expect(lines[1]).toContain('"Acción 5000"')
    expect(lines[5000]).toContain('"Acción 1"')
  })

  it("outlasts a request's statement timeout: an export runs as its own transaction", async () => {
    // Every fetch of a cursor counts against one statement timeout: with the pool's (300 ms here), a long export was cut.
    const t2 = await buildTestApp({ database: await freshDatabase({ statementTimeoutMs: 300 }) })
    try {
      const boss = await t2.worker('SUPERADMIN', [])
      // Arranged without the short timeouts (the server's, and the client's read timeout, which is per query), so
      // that a busy machine cannot make the set-up fail; the connection is then discarded, not pooled.
      const client = await t2.database.pool.connect()
      // pg reads `query_timeout` per query, though its types do not declare it.
      const patient = (text: string, values: unknown[] = []) =>
        client.query({ text, values, query_timeout: 120_000 } as { text: string; values: unknown[] })
      try {
        await patient('set statement_timeout = 0')
        await patient(
          `insert into logs (fecha, trabajador_id, trabajador_nombre, accion, url, tipo, descripcion)
           select now() - g * interval '1 second', $1, 'Exportación Larga', 'Acción ' || g, '/x', 'info', ''
             from generate_series(1, 80000) g`,
          [boss.id],
        )
      } finally {
        client.release(true)
      }
      const started = performance.now()
      const res = await t2.as(boss, { method: 'GET', url: `/api/logs/csv?trabajadorId=${boss.id}&tipo=info` })
      expect(performance.now() - started).toBeGreaterThan(300)
      expect(res.statusCode).toBe(200)
      // The header, the 80,000 entries, and the download's own entry (it is logged before the file is read).
      expect(res.body.trimEnd().split('\r\n')).toHaveLength(80002)
      // The connection went back to the pool in a clean state: the next request works.
      expect((await t2.as(boss, { method: 'GET', url: '/api/logs?pageSize=1' })).statusCode).toBe(200)
    } finally {
      await t2.close()
    }
  })

  it('neutralises every value a spreadsheet would run as a formula, and only those', () => {
    for (const v of ['=1+1', '+1', '-1', '@A1', '\tx', '\rx']) expect(neutralised(v)).toBe(`'${v}`)
    for (const v of ['1-1', 'a=b', '', 'María']) expect(neutralised(v)).toBe(v)
  })
})

describe('POST /api/logs (DECISIONS L1): client events', () => {
  const post = (who: TestWorker, payload: Record<string, unknown>) => t.as(who, { method: 'POST', url: '/api/logs', payload })

  it("records the caller and the server's time, whatever the body says", async () => {
    const started = Date.now()
    const res = await post(empleado, {
      accion: 'Abrir extracto',
      url: '/caja/12345678Z',
      viviendaId: casa.id,
      descripcion: 'Extracto de marzo',
      trabajadorId: superadmin.id,
      fecha: '2000-01-01T00:00:00Z',
    })
    expect(res.statusCode, res.body).toBe(201)
    const log = res.json() as Log
    expect(log).toMatchObject({
      trabajadorId: empleado.id,
      accion: 'Abrir extracto',
      vivienda: { id: casa.id },
      tipo: 'info',
      descripcion: 'Extracto de marzo',
    })
    expect(Math.abs(Date.parse(log.fecha) - started)).toBeLessThan(60_000)
  })

  it("answers 404 for a home outside the caller's companies and 400 for a bad body", async () => {
    const foreign = await makeVivienda(t.db, ajena)
    const res = await post(admin, { accion: 'Abrir extracto', viviendaId: foreign.id })
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toBe(logMessages.viviendaNoEncontrada)
    expect((await post(superadmin, { accion: 'Abrir extracto', viviendaId: foreign.id })).statusCode).toBe(201)
    const bad = await post(admin, { accion: ' ', tipo: 'otro' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().fieldErrors).toEqual({ accion: logMessages.accionObligatoria, tipo: logMessages.tipo })
  })
})

describe('the log is append-only (DECISIONS L2)', () => {
  it('has no call that changes or deletes an entry', async () => {
    const [one] = await t.db.select({ id: logs.id }).from(logs).limit(1)
    for (const method of ['PATCH', 'PUT', 'DELETE'] as const) {
      const res = await t.as(superadmin, { method, url: `/api/logs/${one?.id}`, payload: { accion: 'x' } })
      expect(res.statusCode).toBe(404)
    }
  })

  it('refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    await expect(t.db.execute(sql`update logs set accion = 'x'`)).rejects.toThrow()
    await expect(t.db.execute(sql`delete from logs`)).rejects.toThrow()
    await expect(t.db.execute(sql`truncate logs`)).rejects.toThrow()
    const result = (await t.db.execute(sql`select count(*)::int as n from logs`)) as unknown as { rows: [{ n: number }] }
    expect(result.rows[0].n).toBeGreaterThan(0)
    expect(await t.db.select().from(logs).where(eq(logs.accion, 'x'))).toEqual([])
  })
})

describe('the log is complete (DECISIONS L1): every login, logout, password change and mutation, with its home', () => {
  it('writes one entry per call, with the right action, type and home', async () => {
    const empresa = (await makeEmpresa(t.db)).id
    const boss = await t.worker('SUPERADMIN', [empresa])
    const call = (who: TestWorker | null, method: string, url: string, payload?: unknown) =>
      t.as(who, { method: method as 'POST', url: `/api/${url}`, payload: payload as Record<string, unknown> })
    let last = (await t.db.select({ id: logs.id }).from(logs).orderBy(desc(logs.id)).limit(1))[0]?.id ?? 0
    /** The entries written since the previous step. */
    const since = async () => {
      const rows = await t.db.select().from(logs).where(gt(logs.id, last)).orderBy(logs.id)
      last = rows.at(-1)?.id ?? last
      return rows.map((r) => ({ accion: r.accion, tipo: r.tipo, viviendaId: r.viviendaId, trabajadorId: r.trabajadorId }))
    }
    const one = (accion: string, tipo: string, viviendaId: number | null = null, trabajadorId: number | null = boss.id) => [
      { accion, tipo, viviendaId, trabajadorId },
    ]

    const login = (email: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/trabajadores/login', payload: { email, password } })
    expect((await login(boss.email, TEST_PASSWORD)).statusCode).toBe(200)
    expect(await since()).toEqual(one('Inicio de sesión', 'success'))
    await login(boss.email, 'Equivocada1')
    expect(await since()).toEqual(one('Inicio de sesión fallido', 'error'))
    await login('nadie.aqui@prueba.es', 'Equivocada1')
    const [unknown] = await t.db.select().from(logs).where(gt(logs.id, last))
    expect(unknown?.descripcion).toContain('nadie.aqui@prueba.es')
    expect(await since()).toEqual(one('Inicio de sesión fallido', 'error', null, null))
    expect((await call(boss, 'POST', 'auth/logout')).statusCode).toBe(204)
    expect(await since()).toEqual(one('Cierre de sesión', 'info'))

    const vivienda = (await call(boss, 'POST', 'viviendas', { nombre: 'Calle Registro 1', empresaId: empresa })).json()
    expect(await since()).toEqual(one('Crear vivienda', 'success', vivienda.id))
    await call(boss, 'PATCH', `viviendas/${vivienda.id}`, { nombre: 'Calle Registro 2' })
    expect(await since()).toEqual(one('Modificar vivienda', 'warning', vivienda.id))
    const usuario = (
      await call(boss, 'POST', 'usuarios', { nombre: 'Rosa', apellidos: 'Vidal', nif: makeNif(), viviendaId: vivienda.id })
    ).json()
    expect(await since()).toEqual(one('Crear usuario', 'success', vivienda.id))
    const documento = (
      await call(boss, 'POST', 'documentos-usuario', {
        titulo: 'Informe',
        archivoUrl: 'https://e.es/i.pdf',
        fecha: '2026-01-10',
        usuarioId: usuario.id,
      })
    ).json()
    expect(await since()).toEqual(one('Crear documento', 'success', vivienda.id))
    await call(boss, 'DELETE', `documentos-usuario/${documento.id}`)
    expect(await since()).toEqual(one('Eliminar documento', 'error', vivienda.id))
    const movimiento = (
      await call(boss, 'POST', 'caja-usuario', {
        concepto: 'Farmacia',
        cantidad: '-3,20',
        fecha: '2026-01-10',
        usuarioId: usuario.id,
      })
    ).json()
    expect(await since()).toEqual(one('Crear movimiento de caja', 'success', vivienda.id))
    await call(boss, 'PATCH', `caja-usuario/${movimiento.id}`, { cantidad: '4,00' })
    expect(await since()).toEqual(one('Modificar movimiento de caja', 'warning', vivienda.id))
    await call(boss, 'DELETE', `usuarios/${usuario.id}`)
    expect(await since()).toEqual(one('Eliminar usuario', 'error', vivienda.id))
    await call(boss, 'DELETE', `viviendas/${vivienda.id}`)
    expect(await since()).toEqual(one('Eliminar vivienda', 'error', vivienda.id))

    const contacto = (
      await call(boss, 'POST', 'contactos', {
        nombreComercial: 'Proveedor Registro',
        agente: 'Ana Ruiz',
        correo: 'a@b.es',
        telefono: '600111222',
        empresaId: empresa,
      })
    ).json()
    expect(await since()).toEqual(one('Crear contacto', 'success'))
    await call(boss, 'DELETE', `contactos/${contacto.id}`)
    expect(await since()).toEqual(one('Eliminar contacto', 'error'))

    const nuevo = (
      await call(boss, 'POST', 'trabajadores', {
        nombre: 'Nuevo',
        apellidos: 'Registro',
        email: `nuevo.${Date.now()}@prueba.es`,
        nif: '12345678Z',
        rol: 'EMPLEADO',
        empresaIds: [empresa],
      })
    ).json()
    expect(await since()).toEqual(one('Crear trabajador', 'success'))
    await call(boss, 'PATCH', `trabajadores/${nuevo.trabajador.id}`, { apellidos: 'Registrado' })
    expect(await since()).toEqual(one('Modificar trabajador', 'warning'))
    await call(boss, 'DELETE', `trabajadores/${nuevo.trabajador.id}/empresas/${empresa}`)
    expect(await since()).toEqual(one('Modificar trabajador', 'warning'))
    await call(boss, 'POST', `trabajadores/${nuevo.trabajador.id}/restablecer-password`)
    expect(await since()).toEqual(one('Restablecimiento de contraseña', 'warning'))
    await call(boss, 'DELETE', `trabajadores/${nuevo.trabajador.id}`)
    expect(await since()).toEqual(one('Eliminar trabajador', 'error'))
    await call(boss, 'PATCH', `trabajadores/${boss.id}`, { nombre: 'Jefa' })
    expect(await since()).toEqual(one('Modificar configuración de usuario', 'warning'))
    await call(boss, 'PATCH', `trabajadores/${boss.id}/cambiar-password`, {
      passwordActual: TEST_PASSWORD,
      passwordNueva: 'OtraClave9',
    })
    expect(await since()).toEqual(one('Cambio de contraseña', 'warning'))

    const otra = (await call(superadmin, 'POST', 'empresas', { nombre: 'Empresa Registro' })).json()
    await call(superadmin, 'DELETE', `empresas/${otra.id}`)
    expect((await since()).map((e) => e.accion)).toEqual(['Crear empresa', 'Eliminar empresa'])
  })
})
