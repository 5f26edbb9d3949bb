import { existsSync } from 'node:fs'
import path from 'node:path'
import { Writable } from 'node:stream'
import { cajaMessages } from '@vb/shared'
import { desc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { cajaUsuario } from '../../db/schema'
import { usePdfFontFiles } from '../../lib/fonts'
import { samplePng } from '../../lib/sample-files'
import { shapeTemplated } from '../../lib/select-rows'
import { buildTestApp, type TestApp, type TestWorker } from '../../test/build-test-app'
import { makeMovimientoCaja, makeUsuario } from '../../test/factories'
import { multipart } from '../../test/files'
import { pdfLines, pdfPages } from '../../test/pdf-text'
import { recordsScenario } from '../../test/scenario'
import { warmUpExtracto } from './caja-usuario.extracto'

const clock = { at: new Date('2026-11-21T11:00:00Z'), now: () => clock.at }
const scenario = await recordsScenario({ clock, empresa: 'Hogares Caja S.L.', vivienda: 'Calle Caja 5, Valencia' })
const { t, viviendaA: homeA, admin, empleado, adminB, lastLog, logCount } = scenario
const homeB = scenario.viviendaB.id

const at = (iso: string) => new Date(iso)
const list = (w: TestWorker, qs: string) => t.as(w, { method: 'GET', url: `/api/caja-usuario?${qs}` })
const post = (w: TestWorker, payload: Record<string, unknown>) => t.as(w, { method: 'POST', url: '/api/caja-usuario', payload })

describe('GET /api/caja-usuario: the ledger (SPEC §2.15, DECISIONS D7, A6)', () => {
  it('newest first, a running balance per row and the balances in headers; pages and ranges keep them exact', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    const moves: Array<[string, string, string]> = [
      ['Ingreso pensión', '450.00', '2026-10-01T09:00:00Z'],
      ['Farmacia', '-23.45', '2026-10-05T09:00:00Z'],
      ['Peluquería', '-12.00', '2026-10-05T09:00:00Z'],
      ['Reintegro', '100.00', '2026-11-02T09:00:00Z'],
      ['Ropa', '-64.99', '2026-11-10T09:00:00Z'],
    ]
    for (const [concepto, cantidad, fecha] of moves)
      await makeMovimientoCaja(t.db, u.id, { concepto, cantidad, fecha: at(fecha) })
    const res = await list(empleado, `nif=${u.nif.toLowerCase()}`)
    expect(res.statusCode).toBe(200)
    expect(
      res.json().map((m: { concepto: string; cantidad: string; saldo: string }) => [m.concepto, m.cantidad, m.saldo]),
    ).toEqual([
      ['Ropa', '-64.99', '449.56'],
      ['Reintegro', '100.00', '514.55'],
      ['Peluquería', '-12.00', '414.55'],
      ['Farmacia', '-23.45', '426.55'],
      ['Ingreso pensión', '450.00', '450.00'],
    ])
    expect(res.headers).toMatchObject({
      'x-total-count': '5',
      'x-saldo': '449.56',
      'x-saldo-inicial': '0.00',
      'x-saldo-final': '449.56',
    })
    // Page 2 of 2 rows: the balances are the ledger's, not the page's.
    const page2 = await list(empleado, `usuarioId=${u.id}&page=2&pageSize=2`)
    expect(page2.json().map((m: { saldo: string }) => m.saldo)).toEqual(['414.55', '426.55'])
    const asc = await list(empleado, `usuarioId=${u.id}&sort=fecha&order=asc&page=2&pageSize=2`)
    expect(asc.json().map((m: { concepto: string; saldo: string }) => [m.concepto, m.saldo])).toEqual([
      ['Peluquería', '414.55'],
      ['Reintegro', '514.55'],
    ])
    // November only: the opening balance is October's closing one.
    const nov = await list(empleado, `usuarioId=${u.id}&desde=2026-11-01&hasta=2026-11-30`)
    expect(nov.headers).toMatchObject({
      'x-total-count': '2',
      'x-saldo': '449.56',
      'x-saldo-inicial': '414.55',
      'x-saldo-final': '449.56',
    })
    expect(nov.json().map((m: { saldo: string }) => m.saldo)).toEqual(['449.56', '514.55'])
    const oct = await list(empleado, `usuarioId=${u.id}&hasta=2026-10-31`)
    expect(oct.headers).toMatchObject({ 'x-total-count': '3', 'x-saldo-inicial': '0.00', 'x-saldo-final': '414.55' })
    expect(oct.json()[0].saldo).toBe('414.55')
    const empty = await list(empleado, `usuarioId=${u.id}&desde=2026-12-01`)
    expect(empty.json()).toEqual([])
    expect(empty.headers).toMatchObject({ 'x-total-count': '0', 'x-saldo-inicial': '449.56', 'x-saldo': '449.56' })
    const bad = await list(empleado, `usuarioId=${u.id}&desde=2026-11-30&hasta=2026-11-01`)
    expect(bad.statusCode).toBe(400)
    expect(bad.json().fieldErrors).toEqual({ hasta: cajaMessages.rangoInvalido })
  })

  it('sums that floats get wrong stay exact: 0.10 + 0.20 three times, and 1,000 × 0.07', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    for (let i = 0; i < 3; i++) {
      expect((await post(empleado, { concepto: 'Diez', cantidad: 0.1, fecha: '2026-11-01', usuarioId: u.id })).statusCode).toBe(
        201,
      )
      expect(
        (await post(empleado, { concepto: 'Veinte', cantidad: '0,20', fecha: '2026-11-01', usuarioId: u.id })).statusCode,
      ).toBe(201)
    }
    const res = await list(empleado, `usuarioId=${u.id}&pageSize=100`)
    expect(res.headers['x-saldo']).toBe('0.90')
    expect(res.json().map((m: { saldo: string }) => m.saldo)).toEqual(['0.90', '0.70', '0.60', '0.40', '0.30', '0.10'])
    // 0.1 + 0.2 computed by a client in floating point is refused, never rounded.
    const float = await post(empleado, { concepto: 'Flotante', cantidad: 0.1 + 0.2, fecha: '2026-11-01', usuarioId: u.id })
    expect(float.json().fieldErrors).toEqual({ cantidad: 'La cantidad solo puede tener hasta 2 decimales' })

    const v = await makeUsuario(t.db, homeA.id)
    await t.db.insert(cajaUsuario).values(
      Array.from({ length: 1000 }, (_, i) => ({
        concepto: `Siete céntimos ${i}`,
        cantidad: '0.07',
        fecha: new Date(Date.UTC(2026, 9, 1) + i * 60_000),
        usuarioId: v.id,
      })),
    )
    const many = await list(empleado, `usuarioId=${v.id}&pageSize=3`)
    expect(many.headers).toMatchObject({ 'x-total-count': '1000', 'x-saldo': '70.00' })
    expect(many.json().map((m: { saldo: string }) => m.saldo)).toEqual(['70.00', '69.93', '69.86'])
    const oldest = await list(empleado, `usuarioId=${v.id}&pageSize=2&sort=fecha&order=asc&page=500`)
    expect(oldest.json().map((m: { saldo: string }) => m.saldo)).toEqual(['69.93', '70.00'])
  })

  it('answers 404 for another company’s resident (SPEC’s message by NIF) and never shows its movements', async () => {
    const foreign = await makeUsuario(t.db, homeB)
    await makeMovimientoCaja(t.db, foreign.id)
    for (const w of [admin, empleado]) {
      const res = await list(w, `nif=${foreign.nif}`)
      expect(res.statusCode).toBe(404)
      expect(res.json().message).toBe(`No se encontró ningún usuario con NIF ${foreign.nif}`)
      expect((await list(w, `usuarioId=${foreign.id}`)).statusCode).toBe(404)
      const all = await list(w, 'pageSize=100')
      expect(all.json().every((m: { usuarioId: number }) => m.usuarioId !== foreign.id)).toBe(true)
    }
  })
})

describe('POST /api/caja-usuario', () => {
  it('movements of one resident entered at once do not queue behind each other, and every one counts', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    // Another creation's transaction, still open, holding the resident as a creation does (FOR SHARE).
    const other = await t.database.pool.connect()
    let released = false
    try {
      await other.query('begin')
      await other.query('select id from usuarios where id = $1 for share', [u.id])
      const release = setTimeout(() => {
        released = true
        other.query('rollback').catch(() => {})
      }, 3000)
      const res = await post(admin, { concepto: 'A la vez', cantidad: '2.50', fecha: '2026-11-20', usuarioId: u.id })
      clearTimeout(release)
      expect(res.statusCode).toBe(201)
      // Answered while the other one still held the resident: it did not wait for it.
      expect(released).toBe(false)
    } finally {
      if (!released) await other.query('rollback')
      other.release()
    }
    // Ten at once: all stored, the balance their exact sum.
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(empleado, { concepto: `Compra ${i}`, cantidad: '0.10', fecha: '2026-11-20', usuarioId: u.id }),
      ),
    )
    expect(burst.map((r) => r.statusCode)).toEqual(Array(10).fill(201))
    const ledger = await list(admin, `usuarioId=${u.id}&pageSize=100`)
    expect(ledger.json()).toHaveLength(11)
    expect(ledger.headers['x-saldo']).toBe('3.50')
  })

  it('a resident deleted while movements of theirs are being entered: no error, no deadlock, nothing left behind', async () => {
    for (let round = 0; round < 3; round++) {
      const u = await makeUsuario(t.db, homeA.id)
      const creations = Array.from({ length: 8 }, (_, i) =>
        post(empleado, { concepto: `Carrera ${i}`, cantidad: '1.00', fecha: '2026-11-20', usuarioId: u.id }),
      )
      const deletion = t.as(admin, { method: 'DELETE', url: `/api/usuarios/${u.id}` })
      const [removed, ...created] = await Promise.all([deletion, ...creations])
      expect(removed?.statusCode).toBe(204)
      // Each movement was entered before the deletion (and went with the resident) or found no resident.
      for (const r of created) expect([201, 404]).toContain(r.statusCode)
      expect(await t.db.select().from(cajaUsuario).where(eq(cajaUsuario.usuarioId, u.id))).toEqual([])
    }
  })

  it('stores amounts exactly or refuses them with a clear message, never rounding', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    const ok = await post(empleado, { concepto: 'Coma', cantidad: '12,5', fecha: '2026-11-20T10:00:00+01:00', usuarioId: u.id })
    expect(ok.statusCode).toBe(201)
    expect(ok.json()).toMatchObject({ cantidad: '12.50', fecha: '2026-11-20T09:00:00.000Z', justificante: null })
    const [row] = await t.db.select().from(cajaUsuario).where(eq(cajaUsuario.id, ok.json().id))
    expect(row?.cantidad).toBe('12.50')
    const max = await post(empleado, { concepto: 'Máximo', cantidad: '-9999999999.99', fecha: '2026-11-20', usuarioId: u.id })
    expect(max.json().cantidad).toBe('-9999999999.99')
    for (const [cantidad, message] of [
      ['1e3', 'La cantidad debe ser un número'],
      ['0.001', 'La cantidad solo puede tener hasta 2 decimales'],
      ['abc', 'La cantidad debe ser un número'],
      ['', 'La cantidad es obligatoria'],
      [0, 'La cantidad no puede ser 0'],
      ['-0,00', 'La cantidad no puede ser 0'],
      [10 ** 15, 'La cantidad no puede superar 9.999.999.999,99 €'],
      ['1.000,50', 'La cantidad debe ser un número'],
    ] as const) {
      const res = await post(empleado, { concepto: 'Prueba', cantidad, fecha: '2026-11-20', usuarioId: u.id })
      expect(res.statusCode, String(cantidad)).toBe(400)
      expect(res.json().fieldErrors).toEqual({ cantidad: message })
    }
    const empty = await post(empleado, {})
    expect(empty.json().fieldErrors).toEqual({
      concepto: 'El concepto es obligatorio',
      cantidad: 'La cantidad es obligatoria',
      fecha: 'La fecha es obligatoria',
      usuarioId: 'El usuario es obligatorio',
    })
    const count = await t.db.select().from(cajaUsuario).where(eq(cajaUsuario.usuarioId, u.id))
    expect(count).toHaveLength(2)
  })

  it('stores a concept of 150 characters with quotes, <script> and emoji exactly, and logs the creation', async () => {
    const u = await makeUsuario(t.db, homeA.id, { nombre: 'Ana', apellidos: 'Caja Exacta' })
    const concepto = `"Compra" <script>alert('x')</script> 😀 ${'é'.repeat(111)}`
    expect([...concepto].length).toBe(150)
    const res = await post(empleado, { concepto, cantidad: '-5', fecha: '2026-11-20', usuarioId: u.id })
    expect(res.statusCode).toBe(201)
    expect(res.json().concepto).toBe(concepto)
    expect((await list(empleado, `usuarioId=${u.id}`)).json()[0].concepto).toBe(concepto)
    expect(
      (await post(empleado, { concepto: `${concepto}!`, cantidad: '-5', fecha: '2026-11-20', usuarioId: u.id })).json()
        .fieldErrors,
    ).toEqual({
      concepto: 'El concepto no puede superar 150 caracteres',
    })
    expect(await lastLog(empleado)).toMatchObject({
      accion: 'Crear movimiento de caja',
      url: `/caja/${u.nif}`,
      tipo: 'success',
      viviendaId: homeA.id,
      viviendaNombre: 'Calle Caja 5, Valencia',
      usuarioId: u.id,
      descripcion: `Movimiento creado: ${concepto} (-5,00\u00a0€) de Ana Caja Exacta`,
      datos: { despues: { concepto, cantidad: '-5.00', usuarioId: u.id, justificante: null } },
    })
  })

  it('answers 404 for another company’s resident', async () => {
    const foreign = await makeUsuario(t.db, homeB)
    const res = await post(admin, { concepto: 'Ajeno', cantidad: '1', fecha: '2026-11-20', usuarioId: foreign.id })
    expect(res.statusCode).toBe(404)
    expect(await t.db.select().from(cajaUsuario).where(eq(cajaUsuario.usuarioId, foreign.id))).toEqual([])
    // The creation's hold on the resident (FOR SHARE) is a shape of its own, built once too.
    expect(shapeTemplated('titular:share', true)).toBe(true)
  })

  it('carries a receipt (the paperclip), visible to the company and 404 to another one', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    const up = await t.as(empleado, {
      method: 'POST',
      url: '/api/uploads',
      ...multipart({ filename: 'ticket.png', content: samplePng() }),
    })
    const res = await post(empleado, {
      concepto: 'Farmacia',
      cantidad: '-7,30',
      fecha: '2026-11-20',
      usuarioId: u.id,
      justificanteUrl: up.json().url,
    })
    expect(res.statusCode, res.body).toBe(201)
    const mov = res.json()
    expect(mov).toMatchObject({
      justificanteUrl: up.json().url,
      justificante: { origen: 'subido', nombre: 'ticket.png', mime: 'image/png' },
    })
    const row = (await list(admin, `usuarioId=${u.id}`)).json()[0]
    const img = await t.app.inject({ method: 'GET', url: row.justificante.url })
    expect(img.statusCode).toBe(200)
    expect(img.headers['content-type']).toBe('image/png')
    expect((await t.as(adminB, { method: 'GET', url: `/api/caja-usuario/${mov.id}` })).statusCode).toBe(404)
    expect((await t.as(adminB, { method: 'GET', url: `/api/uploads/${up.json().id}` })).statusCode).toBe(404)
    // Removing the receipt removes the file.
    const removed = await t.as(empleado, {
      method: 'PATCH',
      url: `/api/caja-usuario/${mov.id}`,
      payload: { justificanteUrl: null },
    })
    expect(removed.json().justificante).toBeNull()
    expect(existsSync(path.join(t.uploadsDir, up.json().id))).toBe(false)
  })
})

describe('PATCH and DELETE /api/caja-usuario/:id (DECISIONS L1, L3)', () => {
  it('two people editing one movement: the second save gets 409; a call without a version is accepted', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    const mov = (await post(empleado, { concepto: 'Compra', cantidad: '-10', fecha: '2026-11-20', usuarioId: u.id })).json()
    const first = await t.as(admin, {
      method: 'PATCH',
      url: `/api/caja-usuario/${mov.id}`,
      headers: { 'if-match': mov.updatedAt },
      payload: { cantidad: '-12,40' },
    })
    expect(first.statusCode).toBe(200)
    const second = await t.as(empleado, {
      method: 'PATCH',
      url: `/api/caja-usuario/${mov.id}`,
      headers: { 'if-match': `W/"${mov.updatedAt}"` },
      payload: { concepto: 'Pisado' },
    })
    expect(second.statusCode).toBe(409)
    expect(second.json()).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'El movimiento ha cambiado desde que lo abriste. Vuelve a cargarlo.',
    })
    const viaBody = await t.as(empleado, {
      method: 'PATCH',
      url: `/api/caja-usuario/${mov.id}`,
      payload: { concepto: 'Pisado', updatedAt: mov.updatedAt },
    })
    expect(viaBody.statusCode).toBe(409)
    const plain = await t.as(empleado, {
      method: 'PATCH',
      url: `/api/caja-usuario/${mov.id}`,
      payload: { concepto: 'Compra farmacia' },
    })
    expect(plain.statusCode).toBe(200)
    expect(plain.json()).toMatchObject({ concepto: 'Compra farmacia', cantidad: '-12.40' })
    expect(await lastLog(empleado)).toMatchObject({
      accion: 'Modificar movimiento de caja',
      tipo: 'warning',
      viviendaId: homeA.id,
      usuarioId: u.id,
      datos: {
        antes: { concepto: 'Compra', cantidad: '-12.40' },
        despues: { concepto: 'Compra farmacia', cantidad: '-12.40' },
      },
    })
  })

  it('saved as it was: 200 with the movement, no log entry, and the version the other editor holds still valid', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    const mov = (await post(empleado, { concepto: 'Farmacia', cantidad: '-7,5', fecha: '2026-11-20', usuarioId: u.id })).json()
    const entries = await logCount()
    const patch = (w: TestWorker, payload: Record<string, unknown>) =>
      t.as(w, { method: 'PATCH', url: `/api/caja-usuario/${mov.id}`, headers: { 'if-match': mov.updatedAt }, payload })
    // The form sends every field back, the amount as typed: '-7,50' is the '-7.50' stored.
    const same = await patch(empleado, { concepto: 'Farmacia', cantidad: '-7,50', fecha: mov.fecha, justificanteUrl: null })
    expect(same.statusCode, same.body).toBe(200)
    expect(same.json()).toEqual(mov)
    expect(await logCount()).toBe(entries)
    const changed = await patch(admin, { cantidad: '-8' })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(await logCount()).toBe(entries + 1)
    expect(await lastLog(admin)).toMatchObject({ accion: 'Modificar movimiento de caja' })
  })

  it('of concurrent saves with the version they both read, exactly one wins', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    const mov = (await post(empleado, { concepto: 'Carrera', cantidad: '1', fecha: '2026-11-20', usuarioId: u.id })).json()
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.as(i % 2 ? admin : empleado, {
          method: 'PATCH',
          url: `/api/caja-usuario/${mov.id}`,
          headers: { 'if-match': mov.updatedAt },
          payload: { cantidad: String(i + 2) },
        }),
      ),
    )
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409])
  })

  it('deleting needs no version, logs the values it had, and 404s for another company', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    const mov = (await post(empleado, { concepto: 'Error', cantidad: '99,99', fecha: '2026-11-20', usuarioId: u.id })).json()
    expect((await t.as(adminB, { method: 'DELETE', url: `/api/caja-usuario/${mov.id}` })).statusCode).toBe(404)
    expect(
      (await t.as(adminB, { method: 'PATCH', url: `/api/caja-usuario/${mov.id}`, payload: { concepto: 'x' } })).statusCode,
    ).toBe(404)
    expect((await t.as(admin, { method: 'DELETE', url: `/api/caja-usuario/${mov.id}` })).statusCode).toBe(204)
    expect(await lastLog(admin)).toMatchObject({
      accion: 'Eliminar movimiento de caja',
      tipo: 'error',
      viviendaId: homeA.id,
      usuarioId: u.id,
      descripcion: expect.stringContaining('Error (99,99\u00a0€)'),
      datos: { antes: { concepto: 'Error', cantidad: '99.99', fecha: '2026-11-19T23:00:00.000Z' } },
    })
    expect((await t.as(admin, { method: 'DELETE', url: `/api/caja-usuario/${mov.id}` })).statusCode).toBe(404)
  })
})

describe('GET /api/caja-usuario/extracto: the statement PDF', () => {
  it('prints the company, home, resident, opening balance, every movement with its balance, totals and closing balance', async () => {
    const u = await makeUsuario(t.db, homeA.id, { nombre: 'Íñigo', apellidos: 'Muñoz Peña' })
    await makeMovimientoCaja(t.db, u.id, {
      concepto: 'Saldo de septiembre',
      cantidad: '100.00',
      fecha: at('2026-09-15T10:00:00Z'),
    })
    for (let i = 0; i < 3; i++) {
      await makeMovimientoCaja(t.db, u.id, {
        concepto: `Diez céntimos ${i}`,
        cantidad: '0.10',
        fecha: at(`2026-10-0${i + 1}T10:00:00Z`),
      })
      await makeMovimientoCaja(t.db, u.id, {
        concepto: `Veinte céntimos ${i}`,
        cantidad: '0.20',
        fecha: at(`2026-10-0${i + 1}T11:00:00Z`),
      })
    }
    await makeMovimientoCaja(t.db, u.id, {
      concepto: 'Compra de ropa (€)',
      cantidad: '-1234.56',
      fecha: at('2026-10-20T10:00:00Z'),
    })
    await makeMovimientoCaja(t.db, u.id, { concepto: 'Ingreso pensión', cantidad: '1500.00', fecha: at('2026-10-31T23:30:00Z') })
    // Default range: the last full month in Madrid (October 2026); 31 Oct 23:30 UTC is 1 November in Madrid.
    const res = await t.as(empleado, { method: 'GET', url: `/api/caja-usuario/extracto?nif=${u.nif.toLowerCase()}` })
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200)
    expect(res.headers['content-type']).toBe('application/pdf')
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="extracto-caja-${u.nif}-2026-10-01-2026-10-31.pdf"; filename*=UTF-8''extracto-caja-${u.nif}-2026-10-01-2026-10-31.pdf`,
    )
    const lines = await pdfLines(res.rawPayload)
    const text = lines.join('\n')
    expect(lines).toContain('Extracto de caja')
    expect(lines).toContain('Empresa: Hogares Caja S.L.')
    expect(lines).toContain('Vivienda: Calle Caja 5, Valencia')
    expect(lines).toContain('Usuario: Íñigo Muñoz Peña')
    expect(lines).toContain(`NIF: ${u.nif}`)
    expect(lines).toContain('Periodo: del 01/10/2026 al 31/10/2026')
    expect(lines).toContain('Saldo inicial: 100,00 €')
    expect(lines).toContain('01/10/2026 Diez céntimos 0 0,10 € 100,10 €')
    expect(lines).toContain('03/10/2026 Veinte céntimos 2 0,20 € 100,90 €')
    expect(lines).toContain('20/10/2026 Compra de ropa (€) -1.234,56 € -1.133,66 €')
    expect(text).not.toContain('Ingreso pensión')
    expect(lines).toContain('Total ingresos: 0,90 €')
    expect(lines).toContain('Total gastos: -1.234,56 €')
    expect(lines).toContain('Saldo final: -1.133,66 €')
    expect(text).toMatch(/Generado el 21\/11\/2026, 12:00/)
    expect(lines).toContain('Generado el 21/11/2026, 12:00 Página 1 de 1')
    expect(await pdfPages(res.rawPayload)).toBe(1)
    // November as asked: the pension counts there.
    const nov = await t.as(empleado, {
      method: 'GET',
      url: `/api/caja-usuario/extracto?usuarioId=${u.id}&desde=2026-11-01&hasta=2026-11-30`,
    })
    const novLines = await pdfLines(nov.rawPayload)
    expect(novLines).toContain('Saldo inicial: -1.133,66 €')
    expect(novLines).toContain('01/11/2026 Ingreso pensión 1.500,00 € 366,34 €')
    expect(novLines).toContain('Saldo final: 366,34 €')
  })

  it('is exact for 1,000 × 0.07, answers 404 for another company and 400 without a resident', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    await t.db.insert(cajaUsuario).values(
      Array.from({ length: 1000 }, (_, i) => ({
        concepto: `Siete ${i}`,
        cantidad: '0.07',
        fecha: new Date(Date.UTC(2026, 9, 2) + i * 60_000),
        usuarioId: u.id,
      })),
    )
    const res = await t.as(admin, { method: 'GET', url: `/api/caja-usuario/extracto?usuarioId=${u.id}` })
    const lines = await pdfLines(res.rawPayload)
    expect(lines).toContain('Total ingresos: 70,00 €')
    expect(lines).toContain('Saldo final: 70,00 €')
    expect(lines.filter((l) => l.startsWith('02/10/2026 Siete ')).at(-1)).toMatch(/0,07 € 70,00 €$/)
    const foreign = await makeUsuario(t.db, homeB)
    expect((await t.as(admin, { method: 'GET', url: `/api/caja-usuario/extracto?nif=${foreign.nif}` })).statusCode).toBe(404)
    const none = await t.as(admin, { method: 'GET', url: '/api/caja-usuario/extracto' })
    expect(none.statusCode).toBe(400)
    expect(none.json().fieldErrors).toEqual({ nif: cajaMessages.usuarioRequerido })
  })

  it('produces a month of 500 movements in under a second', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    await t.db.insert(cajaUsuario).values(
      Array.from({ length: 500 }, (_, i) => ({
        concepto:
          i % 7 ? `Compra número ${i} en la farmacia del barrio` : `Un concepto largo ${'que ocupa varias líneas '.repeat(5)}`,
        cantidad: i % 3 ? '-3.15' : '12.60',
        fecha: new Date(Date.UTC(2026, 9, 1) + i * 80 * 60_000),
        usuarioId: u.id,
      })),
    )
    // As the server does after start-up, the fonts are loaded once first. Then the time the API process
    // spends on it (its CPU time, best of three): other processes sharing the machine cannot make it fail,
    // a slow generation does. `npm run bench:caja` measures the wall-clock time.
    await warmUpExtracto(clock.now())
    let ms = Number.POSITIVE_INFINITY
    let res: Awaited<ReturnType<TestApp['as']>> | undefined
    for (let i = 0; i < 3; i++) {
      const started = process.cpuUsage()
      res = await t.as(admin, { method: 'GET', url: `/api/caja-usuario/extracto?usuarioId=${u.id}` })
      const used = process.cpuUsage(started)
      ms = Math.min(ms, (used.user + used.system) / 1000)
    }
    if (!res) throw new Error('no answer')
    expect(res.statusCode).toBe(200)
    expect(ms).toBeLessThan(1000)
    const lines = await pdfLines(res.rawPayload)
    expect(lines.filter((l) => /^\d\d\/10\/2026 /.test(l))).toHaveLength(500)
    const pages = await pdfPages(res.rawPayload)
    // One footer per page, numbered, and no empty page.
    const footers = lines.filter((l) => l.startsWith('Generado el '))
    expect(footers).toHaveLength(pages)
    expect(footers.at(-1)).toMatch(new RegExp(`Página ${pages} de ${pages}$`))
  })
})

describe('the statement is bounded and consistent', () => {
  const extracto = (qs: string) => t.as(admin, { method: 'GET', url: `/api/caja-usuario/extracto?${qs}` })

  it('refuses a range longer than a year with 400 and a message that says how to narrow it; a year is fine', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    const long = await extracto(`usuarioId=${u.id}&desde=2025-01-01&hasta=2026-01-02`)
    expect(long.statusCode).toBe(400)
    expect(long.json().fieldErrors).toEqual({ hasta: cajaMessages.extractoRangoLargo })
    expect(cajaMessages.extractoRangoLargo).toMatch(/como máximo un año.*periodo más corto/)
    // Only `desde`: up to today (21/11/2026), computed by the server, and refused the same way.
    const open = await extracto(`usuarioId=${u.id}&desde=2024-06-01`)
    expect(open.statusCode).toBe(400)
    expect(open.json().message).toBe(cajaMessages.extractoRangoLargo)
    // 366 days, both ends included: the longest range allowed.
    expect((await extracto(`usuarioId=${u.id}&desde=2025-01-01&hasta=2026-01-01`)).statusCode).toBe(200)
    expect((await extracto(`usuarioId=${u.id}&desde=2024-01-01&hasta=2024-12-31`)).statusCode).toBe(200)
  })

  it('refuses more than 5,000 movements with 400 and says how to narrow it; 5,000 are printed, the last row’s balance the closing one', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    await t.db.insert(cajaUsuario).values(
      Array.from({ length: 5001 }, (_, i) => ({
        concepto: `Movimiento ${i}`,
        cantidad: i % 2 ? '-1.25' : '2.50',
        fecha: new Date(Date.UTC(2026, 0, 1) + i * 90 * 60_000),
        usuarioId: u.id,
      })),
    )
    const tooMany = await extracto(`usuarioId=${u.id}&desde=2026-01-01&hasta=2026-12-31`)
    expect(tooMany.statusCode).toBe(400)
    expect(tooMany.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: cajaMessages.extractoDemasiados })
    expect(cajaMessages.extractoDemasiados).toMatch(/más de 5\.000 movimientos.*periodo más corto/)
    const [last] = await t.db
      .select()
      .from(cajaUsuario)
      .where(eq(cajaUsuario.usuarioId, u.id))
      .orderBy(desc(cajaUsuario.fecha))
      .limit(1)
    await t.db.delete(cajaUsuario).where(eq(cajaUsuario.id, last?.id as number))
    const res = await extracto(`usuarioId=${u.id}&desde=2026-01-01&hasta=2026-12-31`)
    expect(res.statusCode).toBe(200)
    const lines = await pdfLines(res.rawPayload)
    const rows = lines.filter((l) => /^\d\d\/\d\d\/2026 Movimiento /.test(l))
    expect(rows).toHaveLength(5000)
    expect(lines).toContain('Saldo final: 3.125,00 €')
    expect(rows.at(-1)).toMatch(/ 3.125,00 €$/)
  }, 60_000)

  it('reads the totals and the rows in one snapshot: a concurrent insert never makes the closing balance disagree with the last row', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    await t.db.insert(cajaUsuario).values(
      Array.from({ length: 200 }, (_, i) => ({
        concepto: `Antes ${i}`,
        cantidad: '1.00',
        fecha: new Date(Date.UTC(2026, 9, 1 + (i % 9), 10)),
        usuarioId: u.id,
      })),
    )
    // Another connection writes movements into the same month as fast as it can, committing each one.
    const writer = await t.database.pool.connect()
    let writing = true
    let written = 0
    const writes = (async () => {
      while (writing && written < 1500) {
        await writer.query(
          "insert into caja_usuario (concepto, cantidad, fecha, usuario_id) values ('Escrito a la vez', 0.01, '2026-10-20T10:00:00Z', $1)",
          [u.id],
        )
        written++
      }
    })()
    try {
      for (let round = 0; round < 20; round++) {
        const res = await extracto(`usuarioId=${u.id}&desde=2026-10-01&hasta=2026-10-31`)
        expect(res.statusCode).toBe(200)
        const lines = await pdfLines(res.rawPayload)
        const rows = lines.filter((l) => /^\d\d\/10\/2026 /.test(l))
        const closing = lines.find((l) => l.startsWith('Saldo final: '))?.slice('Saldo final: '.length)
        expect(rows.at(-1)?.endsWith(` ${closing}`), `round ${round}: ${rows.at(-1)} / ${closing}`).toBe(true)
      }
    } finally {
      writing = false
      await writes
      writer.release()
    }
    expect(written).toBeGreaterThan(20)
  }, 60_000)

  it('a missing font answers 500 with a log line of its own, not an outage', async () => {
    const lines: Array<Record<string, unknown>> = []
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
        done()
      },
    })
    const logged = await buildTestApp({ database: t.database, clock, logger: { level: 'info', stream: sink } })
    usePdfFontFiles({ regular: '/no/existe/DejaVuSans.ttf', bold: '/no/existe/DejaVuSans-Bold.ttf' })
    try {
      const u = await makeUsuario(t.db, homeA.id)
      const res = await logged.as(admin, { method: 'GET', url: `/api/caja-usuario/extracto?usuarioId=${u.id}` })
      expect([res.statusCode, res.json().code]).toEqual([500, 'INTERNAL'])
      expect(res.headers['retry-after']).toBeUndefined()
      expect(lines.find((l) => l.msg === 'PDF font missing')).toMatchObject({ level: 50, font: '/no/existe/DejaVuSans.ttf' })
      expect(lines.some((l) => l.msg === 'database unavailable')).toBe(false)
    } finally {
      usePdfFontFiles()
      await logged.close({ keepDatabase: true })
    }
  })
})
