import { existsSync } from 'node:fs'
import path from 'node:path'
import { documentoMessages } from '@vb/shared'
import { and, eq, like } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { documentosUsuario, notificaciones, uploads } from '../../db/schema'
import { samplePdf, samplePng } from '../../lib/sample-files'
import { shapeTemplated } from '../../lib/select-rows'
import type { TestWorker } from '../../test/build-test-app'
import { makeDocumento, makeUsuario } from '../../test/factories'
import { multipart } from '../../test/files'
import { recordsScenario } from '../../test/scenario'

const clock = { at: new Date('2026-11-21T11:00:00Z'), now: () => clock.at }
const scenario = await recordsScenario({ clock, empresa: 'Empresa Documentos', vivienda: 'Calle Documentos 1' })
const { t, viviendaA: homeA, admin, empleado, adminB, lastLog, logCount } = scenario
const homeB = scenario.viviendaB.id
const pdf = await samplePdf(['Informe'])

const upload = async (w: TestWorker, filename = 'informe.pdf', content = pdf) => {
  const res = await t.as(w, { method: 'POST', url: '/api/uploads', ...multipart({ filename, content }) })
  expect(res.statusCode).toBe(201)
  return res.json() as { id: string; url: string }
}

describe('GET /api/documentos-usuario', () => {
  it('lists one resident’s documents by NIF in any case or by id, newest first, paged with X-Total-Count', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    const other = await makeUsuario(t.db, homeA.id)
    for (const [titulo, day] of [
      ['Informe médico', '2026-03-01'],
      ['Contrato', '2026-05-10'],
      ['Autorización', '2026-01-20'],
    ] as const)
      await makeDocumento(t.db, u.id, { titulo, fecha: new Date(`${day}T10:00:00Z`), archivoUrl: 'https://ejemplo.es/d.pdf' })
    await makeDocumento(t.db, other.id, { titulo: 'De otro' })
    const byNif = await t.as(empleado, { method: 'GET', url: `/api/documentos-usuario?nif=${u.nif.toLowerCase()}` })
    expect(byNif.statusCode).toBe(200)
    expect(byNif.headers['x-total-count']).toBe('3')
    expect(byNif.json().map((d: { titulo: string }) => d.titulo)).toEqual(['Contrato', 'Informe médico', 'Autorización'])
    expect(byNif.json()[0]).toMatchObject({
      usuarioId: u.id,
      archivoUrl: 'https://ejemplo.es/d.pdf',
      fecha: '2026-05-10T10:00:00.000Z',
      archivo: { origen: 'enlace', url: 'https://ejemplo.es/d.pdf', descargaUrl: 'https://ejemplo.es/d.pdf' },
    })
    const page = await t.as(empleado, { method: 'GET', url: `/api/documentos-usuario?usuarioId=${u.id}&page=2&pageSize=2` })
    expect(page.json().map((d: { titulo: string }) => d.titulo)).toEqual(['Autorización'])
    expect(page.headers['x-total-count']).toBe('3')
    // The resident is read by a statement built once and rendered into (lib/select-rows.ts), not rebuilt per call.
    expect(shapeTemplated('titular:read', true)).toBe(true)
  })

  it('searches the título without case or accents, filters a Madrid day and sorts by título and fecha', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    await makeDocumento(t.db, u.id, { titulo: 'Autorización médica', fecha: new Date('2026-04-01T22:30:00Z') })
    await makeDocumento(t.db, u.id, { titulo: 'autorizacion salida', fecha: new Date('2026-04-02T10:00:00Z') })
    await makeDocumento(t.db, u.id, { titulo: 'Baja', fecha: new Date('2026-04-03T10:00:00Z') })
    const get = async (qs: string) =>
      (await t.as(admin, { method: 'GET', url: `/api/documentos-usuario?usuarioId=${u.id}&${qs}` }))
        .json()
        .map((d: { titulo: string }) => d.titulo)
    expect(await get('q=AUTORIZACIÓN')).toEqual(['autorizacion salida', 'Autorización médica'])
    // 22:30 UTC on 1 April is 2 April in Madrid.
    expect(await get('fecha=2026-04-02')).toEqual(['autorizacion salida', 'Autorización médica'])
    expect(await get('fecha=2026-04-01')).toEqual([])
    expect(await get('sort=titulo')).toEqual(['Autorización médica', 'autorizacion salida', 'Baja'])
    expect(await get('sort=titulo&order=desc')).toEqual(['Baja', 'autorizacion salida', 'Autorización médica'])
    expect(await get('sort=fecha&order=asc')).toEqual(['Autorización médica', 'autorizacion salida', 'Baja'])
    const bad = await t.as(admin, { method: 'GET', url: `/api/documentos-usuario?usuarioId=${u.id}&fecha=2026-02-30&sort=x` })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().fieldErrors).toMatchObject({ fecha: 'La fecha no es válida' })
  })

  it('answers 404 for another company’s resident (by NIF with SPEC’s message) and an unknown NIF', async () => {
    const foreign = await makeUsuario(t.db, homeB)
    await makeDocumento(t.db, foreign.id)
    for (const w of [admin, empleado]) {
      const byNif = await t.as(w, { method: 'GET', url: `/api/documentos-usuario?nif=${foreign.nif}` })
      expect(byNif.statusCode).toBe(404)
      expect(byNif.json().message).toBe(`No se encontró ningún usuario con NIF ${foreign.nif}`)
      expect((await t.as(w, { method: 'GET', url: `/api/documentos-usuario?usuarioId=${foreign.id}` })).statusCode).toBe(404)
    }
    const unknown = await t.as(admin, { method: 'GET', url: '/api/documentos-usuario?nif=x1234567l' })
    expect(unknown.json().message).toBe('No se encontró ningún usuario con NIF X1234567L')
  })
})

describe('POST /api/documentos-usuario', () => {
  it('creates a document with an external URL, stores text exactly, and logs it with the resident’s home', async () => {
    const u = await makeUsuario(t.db, homeA.id, { nombre: 'Lola', apellidos: 'Flores Ruiz' })
    const titulo = `"Informe" <script>alert('x')</script> 😀 ${'ñ'.repeat(80)}`
    expect([...titulo].length).toBe(120)
    const res = await t.as(empleado, {
      method: 'POST',
      url: '/api/documentos-usuario',
      payload: { titulo: `  ${titulo}  `, archivoUrl: 'https://ejemplo.es/informe.pdf', fecha: '2026-11-20', usuarioId: u.id },
    })
    expect(res.statusCode, res.body).toBe(201)
    const body = res.json()
    expect(body).toMatchObject({
      titulo,
      archivoUrl: 'https://ejemplo.es/informe.pdf',
      fecha: '2026-11-19T23:00:00.000Z',
      usuarioId: u.id,
    })
    const [row] = await t.db.select().from(documentosUsuario).where(eq(documentosUsuario.id, body.id))
    expect(row?.titulo).toBe(titulo)
    expect((await t.as(empleado, { method: 'GET', url: `/api/documentos-usuario/${body.id}` })).json().titulo).toBe(titulo)
    expect(await lastLog(empleado)).toMatchObject({
      accion: 'Crear documento',
      url: `/documentacion/${u.nif}`,
      tipo: 'success',
      viviendaId: homeA.id,
      viviendaNombre: 'Calle Documentos 1',
      usuarioId: u.id,
      descripcion: `Documento creado: ${titulo} (Lola Flores Ruiz)`,
    })
  })

  it('answers 400 with SPEC §5’s messages, and 404 for another company’s resident', async () => {
    const empty = await t.as(empleado, { method: 'POST', url: '/api/documentos-usuario', payload: {} })
    expect(empty.statusCode).toBe(400)
    expect(empty.json().fieldErrors).toEqual({
      titulo: documentoMessages.tituloObligatorio,
      archivoUrl: documentoMessages.archivoObligatorio,
      fecha: documentoMessages.fechaObligatoria,
      usuarioId: documentoMessages.usuarioObligatorio,
    })
    const u = await makeUsuario(t.db, homeA.id)
    const bad = await t.as(empleado, {
      method: 'POST',
      url: '/api/documentos-usuario',
      payload: { titulo: 'ab', archivoUrl: 'ftp://x', fecha: 'ayer', usuarioId: u.id },
    })
    expect(bad.json().fieldErrors).toEqual({
      titulo: documentoMessages.tituloCorto,
      archivoUrl: documentoMessages.archivoInvalido,
      fecha: documentoMessages.fechaInvalida,
    })
    const long = await t.as(empleado, {
      method: 'POST',
      url: '/api/documentos-usuario',
      payload: { titulo: 'x'.repeat(121), archivoUrl: 'https://e.es', fecha: '2026-01-01', usuarioId: u.id },
    })
    expect(long.json().fieldErrors).toEqual({ titulo: documentoMessages.tituloLargo })
    const foreign = await makeUsuario(t.db, homeB)
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/documentos-usuario',
      payload: { titulo: 'Informe', archivoUrl: 'https://e.es', fecha: '2026-01-01', usuarioId: foreign.id },
    })
    expect(res.statusCode).toBe(404)
  })

  it('takes an uploaded file: signed links for whoever sees the resident, 404 for another company, never taken twice', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    const file = await upload(empleado)
    const res = await t.as(empleado, {
      method: 'POST',
      url: '/api/documentos-usuario',
      payload: { titulo: 'Informe subido', archivoUrl: file.url, fecha: '2026-11-20', usuarioId: u.id },
    })
    expect(res.statusCode, res.body).toBe(201)
    const doc = res.json()
    expect(doc.archivoUrl).toBe(file.url)
    expect(doc.archivo).toMatchObject({ origen: 'subido', nombre: 'informe.pdf', mime: 'application/pdf' })
    // A colleague of the company now sees it (it belongs to the resident's record).
    const seen = await t.as(admin, { method: 'GET', url: `/api/documentos-usuario/${doc.id}` })
    const open = await t.app.inject({ method: 'GET', url: seen.json().archivo.url })
    expect(open.statusCode).toBe(200)
    expect(open.rawPayload.equals(pdf)).toBe(true)
    expect((await t.as(admin, { method: 'GET', url: `/api/uploads/${file.id}` })).statusCode).toBe(200)
    // Another company's ADMIN: the document, the file and a link made for it are all 404/403.
    expect((await t.as(adminB, { method: 'GET', url: `/api/documentos-usuario/${doc.id}` })).statusCode).toBe(404)
    expect((await t.as(adminB, { method: 'GET', url: `/api/uploads/${file.id}` })).statusCode).toBe(404)
    const forged = seen.json().archivo.url.replace(/t=\d+/, `t=${adminB.id}`)
    expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(403)
    // The same file cannot be taken by a second document; nor can a colleague's unattached upload.
    const again = await t.as(empleado, {
      method: 'POST',
      url: '/api/documentos-usuario',
      payload: { titulo: 'Otra vez', archivoUrl: file.url, fecha: '2026-11-20', usuarioId: u.id },
    })
    expect(again.statusCode).toBe(400)
    expect(again.json().fieldErrors).toEqual({ archivoUrl: 'El archivo subido no existe o ya está adjunto a otro registro.' })
    const colleagues = await upload(admin)
    const stolen = await t.as(empleado, {
      method: 'POST',
      url: '/api/documentos-usuario',
      payload: { titulo: 'Ajeno', archivoUrl: colleagues.url, fecha: '2026-11-20', usuarioId: u.id },
    })
    expect(stolen.statusCode).toBe(400)
  })
})

describe('PATCH and DELETE /api/documentos-usuario/:id', () => {
  it('writes only the fields sent; a stale version is 409, none is accepted', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    const created = (
      await t.as(empleado, {
        method: 'POST',
        url: '/api/documentos-usuario',
        payload: { titulo: 'Original', archivoUrl: 'https://e.es/a.pdf', fecha: '2026-11-01', usuarioId: u.id },
      })
    ).json()
    const first = await t.as(admin, {
      method: 'PATCH',
      url: `/api/documentos-usuario/${created.id}`,
      headers: { 'if-match': `"${created.updatedAt}"` },
      payload: { titulo: 'Cambiado por el admin' },
    })
    expect(first.statusCode).toBe(200)
    expect(first.json()).toMatchObject({ titulo: 'Cambiado por el admin', archivoUrl: 'https://e.es/a.pdf' })
    expect(first.json().updatedAt).not.toBe(created.updatedAt)
    const stale = await t.as(empleado, {
      method: 'PATCH',
      url: `/api/documentos-usuario/${created.id}`,
      payload: { titulo: 'Pisado', updatedAt: created.updatedAt },
    })
    expect(stale.statusCode).toBe(409)
    expect(stale.json()).toMatchObject({ code: 'CONFLICT', message: documentoMessages.cambiado })
    const plain = await t.as(empleado, {
      method: 'PATCH',
      url: `/api/documentos-usuario/${created.id}`,
      payload: { fecha: '2026-11-02' },
    })
    expect(plain.statusCode).toBe(200)
    expect(plain.json()).toMatchObject({ titulo: 'Cambiado por el admin', fecha: '2026-11-01T23:00:00.000Z' })
    expect(await lastLog(empleado)).toMatchObject({ accion: 'Modificar documento', tipo: 'warning', viviendaId: homeA.id })
  })

  it('replacing or deleting a document’s file removes the old file, its row and, on delete, logs the values', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    const first = await upload(empleado, 'uno.pdf')
    const second = await upload(empleado, 'dos.png', samplePng())
    const doc = (
      await t.as(empleado, {
        method: 'POST',
        url: '/api/documentos-usuario',
        payload: { titulo: 'Con archivo', archivoUrl: first.url, fecha: '2026-11-01', usuarioId: u.id },
      })
    ).json()
    const replaced = await t.as(empleado, {
      method: 'PATCH',
      url: `/api/documentos-usuario/${doc.id}`,
      payload: { archivoUrl: second.url },
    })
    expect(replaced.statusCode, replaced.body).toBe(200)
    expect(replaced.json().archivo).toMatchObject({ nombre: 'dos.png', mime: 'image/png' })
    expect(existsSync(path.join(t.uploadsDir, first.id))).toBe(false)
    expect(await t.db.select().from(uploads).where(eq(uploads.id, first.id))).toEqual([])
    // Back to an external URL: the upload goes too.
    const toUrl = await t.as(empleado, {
      method: 'PATCH',
      url: `/api/documentos-usuario/${doc.id}`,
      payload: { archivoUrl: 'https://e.es/b.pdf' },
    })
    expect(toUrl.json()).toMatchObject({ archivoUrl: 'https://e.es/b.pdf', archivo: { origen: 'enlace' } })
    expect(existsSync(path.join(t.uploadsDir, second.id))).toBe(false)

    const third = await upload(empleado, 'tres.pdf')
    await t.as(empleado, { method: 'PATCH', url: `/api/documentos-usuario/${doc.id}`, payload: { archivoUrl: third.url } })
    expect((await t.as(adminB, { method: 'DELETE', url: `/api/documentos-usuario/${doc.id}` })).statusCode).toBe(404)
    const del = await t.as(admin, { method: 'DELETE', url: `/api/documentos-usuario/${doc.id}` })
    expect(del.statusCode).toBe(204)
    expect(existsSync(path.join(t.uploadsDir, third.id))).toBe(false)
    expect(await lastLog(admin)).toMatchObject({
      accion: 'Eliminar documento',
      tipo: 'error',
      viviendaId: homeA.id,
      usuarioId: u.id,
      datos: { antes: { titulo: 'Con archivo', archivoUrl: third.url, archivo: { nombre: 'tres.pdf' } } },
    })
    expect((await t.as(admin, { method: 'GET', url: `/api/documentos-usuario/${doc.id}` })).statusCode).toBe(404)
  })

  it('deleting a resident removes its documents’ files from disk', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    const file = await upload(empleado)
    await t.as(empleado, {
      method: 'POST',
      url: '/api/documentos-usuario',
      payload: { titulo: 'Se irá', archivoUrl: file.url, fecha: '2026-11-01', usuarioId: u.id },
    })
    expect((await t.as(admin, { method: 'DELETE', url: `/api/usuarios/${u.id}` })).statusCode).toBe(204)
    expect(existsSync(path.join(t.uploadsDir, file.id))).toBe(false)
    expect(await t.db.select().from(uploads).where(eq(uploads.id, file.id))).toEqual([])
  })
})

describe('PIR documents notify (DECISIONS D3)', () => {
  it('20 concurrent creations of an expiring PIR notify each worker of the company once', async () => {
    const u = await makeUsuario(t.db, homeA.id, { nombre: 'Paz', apellidos: 'Veinte Carreras' })
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.as(i % 2 ? admin : empleado, {
          method: 'POST',
          url: '/api/documentos-usuario',
          payload: { titulo: i % 3 ? 'PIR' : ' pir ', archivoUrl: 'https://e.es/pir.pdf', fecha: '2026-06-01', usuarioId: u.id },
        }),
      ),
    )
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(201))
    for (const w of [admin, empleado]) {
      const mine = await t.db
        .select()
        .from(notificaciones)
        .where(and(eq(notificaciones.trabajadorId, w.id), like(notificaciones.descripcion, '%Veinte Carreras%')))
      expect(mine.map((n) => [n.titulo, n.descripcion])).toEqual([
        ['PIR próximo a caducar', 'El PIR de Paz Veinte Carreras caduca en 10 días.'],
      ])
    }
    expect(
      await t.db
        .select()
        .from(notificaciones)
        .where(and(eq(notificaciones.trabajadorId, adminB.id), like(notificaciones.descripcion, '%Veinte%'))),
    ).toEqual([])
  })

  it('renewing the PIR by editing its date, then deleting the new one, notifies the state it leaves', async () => {
    const u = await makeUsuario(t.db, homeA.id, { nombre: 'Luz', apellidos: 'Renovación Total' })
    const old = await makeDocumento(t.db, u.id, { titulo: 'PIR', fecha: new Date('2026-05-01T10:00:00Z') })
    const count = async () =>
      (
        await t.db
          .select()
          .from(notificaciones)
          .where(and(eq(notificaciones.trabajadorId, empleado.id), like(notificaciones.descripcion, '%Renovación Total%')))
          .orderBy(notificaciones.id)
      ).map((n) => n.titulo)
    const renewed = await t.as(empleado, {
      method: 'POST',
      url: '/api/documentos-usuario',
      payload: { titulo: 'PIR', archivoUrl: 'https://e.es/p.pdf', fecha: '2026-11-20', usuarioId: u.id },
    })
    expect(renewed.statusCode).toBe(201)
    expect(await count()).toEqual([])
    await t.as(empleado, { method: 'DELETE', url: `/api/documentos-usuario/${renewed.json().id}` })
    expect(await count()).toEqual(['PIR caducado'])
    await t.as(empleado, { method: 'PATCH', url: `/api/documentos-usuario/${old.id}`, payload: { fecha: '2026-06-01' } })
    expect(await count()).toEqual(['PIR caducado', 'PIR próximo a caducar'])
  })
})

describe('PATCH /api/documentos-usuario/:id saved as it was', () => {
  it('answers the document as it is, with its file: no log entry, no new version, the file kept', async () => {
    const u = await makeUsuario(t.db, homeA.id)
    const up = await upload(empleado)
    const created = (
      await t.as(empleado, {
        method: 'POST',
        url: '/api/documentos-usuario',
        payload: { titulo: 'PIR', archivoUrl: up.url, fecha: '2026-11-02', usuarioId: u.id },
      })
    ).json()
    const entries = await logCount()
    const same = await t.as(admin, {
      method: 'PATCH',
      url: `/api/documentos-usuario/${created.id}`,
      headers: { 'if-match': created.updatedAt },
      payload: { titulo: 'PIR', archivoUrl: created.archivoUrl, fecha: created.fecha, usuarioId: u.id },
    })
    expect(same.statusCode, same.body).toBe(200)
    expect(same.json()).toMatchObject({ id: created.id, updatedAt: created.updatedAt, archivoUrl: created.archivoUrl })
    expect(await logCount()).toBe(entries)
    expect(existsSync(path.join(t.uploadsDir, up.id))).toBe(true)
    const renamed = await t.as(admin, {
      method: 'PATCH',
      url: `/api/documentos-usuario/${created.id}`,
      headers: { 'if-match': created.updatedAt },
      payload: { titulo: 'Informe PIR' },
    })
    expect(renamed.statusCode, renamed.body).toBe(200)
    expect(await logCount()).toBe(entries + 1)
    expect(await lastLog(admin)).toMatchObject({ accion: 'Modificar documento' })
  })
})
