import { contactoMessages } from '@vb/shared'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { contactos, empresas } from '../../db/schema'
import { makeContacto, makeEmpresa } from '../../test/factories'
import { testScenario } from '../../test/scenario'

const LOGO_A = 'https://logos.es/alfa.png'

const { t, empresaA, empresaB, superadmin, admin, empleado, lastLog, logCount } = await testScenario({
  empresaA: { nombre: 'Empresa Alfa', logoUrl: LOGO_A },
  empresaB: { nombre: 'Empresa Beta' },
})

const rowOf = async (id: number) => (await t.db.select().from(contactos).where(eq(contactos.id, id)))[0]
const ids = (res: { json(): unknown }) => (res.json() as { id: number }[]).map((c) => c.id)
const valid = () => ({
  nombreComercial: 'Suministros Norte, S.L.',
  agente: "María O'Donnell",
  correo: 'ventas@norte.es',
  telefono: '+34 600-123-456',
  empresaId: empresaA.id,
})

describe('GET /api/contactos', () => {
  it('shows ADMIN and EMPLEADO only their companies’ contacts, with the company logo as photo', async () => {
    const own = await makeContacto(t.db, empresaA.id)
    const foreign = await makeContacto(t.db, empresaB.id)
    for (const w of [admin, empleado]) {
      const res = await t.as(w, { method: 'GET', url: '/api/contactos' })
      expect(res.statusCode).toBe(200)
      expect(ids(res)).toContain(own.id)
      expect(ids(res)).not.toContain(foreign.id)
    }
    const all = await t.as(superadmin, { method: 'GET', url: '/api/contactos' })
    expect(ids(all)).toEqual(expect.arrayContaining([own.id, foreign.id]))
    expect(all.json().find((c: { id: number }) => c.id === own.id)).toEqual({
      id: own.id,
      nombreComercial: own.nombreComercial,
      agente: own.agente,
      correo: own.correo,
      telefono: own.telefono,
      fotoUrl: LOGO_A,
      empresaId: empresaA.id,
      empresa: { id: empresaA.id, nombre: empresaA.nombre },
    })
    expect(all.json().find((c: { id: number }) => c.id === foreign.id).fotoUrl).toBeNull()
  })

  it('filters to the selected company (SPEC §2.7), never beyond the actor’s', async () => {
    const c = await makeEmpresa(t.db)
    const mine = await makeContacto(t.db, c.id)
    expect(ids(await t.as(superadmin, { method: 'GET', url: `/api/contactos?empresaId=${c.id}` }))).toEqual([mine.id])
    expect((await t.as(admin, { method: 'GET', url: `/api/contactos?empresaId=${c.id}` })).json()).toEqual([])
  })

  it('searches case- and accent-insensitively over name, agent, e-mail and phone', async () => {
    const c = await makeEmpresa(t.db)
    const jose = await makeContacto(t.db, c.id, { nombreComercial: 'Fontanería Ruiz', agente: 'José Pérez' })
    const garcia = await makeContacto(t.db, c.id, { nombreComercial: 'Limpiezas García', agente: 'Ana Gil' })
    const tel = await makeContacto(t.db, c.id, { nombreComercial: 'Electricidad Sur', telefono: '955 111 222' })
    const q = (text: string) =>
      t.as(superadmin, { method: 'GET', url: `/api/contactos?empresaId=${c.id}&q=${encodeURIComponent(text)}` })
    expect(ids(await q('jose'))).toEqual([jose.id])
    expect(ids(await q('GARCIA'))).toEqual([garcia.id])
    expect(ids(await q('fontaneria'))).toEqual([jose.id])
    expect(ids(await q('111 222'))).toEqual([tel.id])
  })

  it('sorts by a field ascending and descending, and pages with X-Total-Count', async () => {
    const c = await makeEmpresa(t.db)
    const b = await makeContacto(t.db, c.id, { nombreComercial: 'Beta Servicios', agente: 'Zoe' })
    const a = await makeContacto(t.db, c.id, { nombreComercial: 'Ágora Obras', agente: 'luis' })
    const d = await makeContacto(t.db, c.id, { nombreComercial: 'delta Gas', agente: 'Ángela' })
    const list = (params: string) => t.as(superadmin, { method: 'GET', url: `/api/contactos?empresaId=${c.id}${params}` })
    expect(ids(await list(''))).toEqual([a.id, b.id, d.id])
    expect(ids(await list('&order=desc'))).toEqual([d.id, b.id, a.id])
    expect(ids(await list('&sort=agente'))).toEqual([d.id, a.id, b.id])
    expect(ids(await list('&sort=agente&order=desc'))).toEqual([b.id, a.id, d.id])
    const page = await list('&page=2&pageSize=2')
    expect(page.headers['x-total-count']).toBe('3')
    expect(ids(page)).toEqual([d.id])
  })

  it('rejects a bad query with 400 and requires a token', async () => {
    const bad = await t.as(superadmin, { method: 'GET', url: '/api/contactos?empresaId=abc' })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json().fieldErrors)).toEqual(['empresaId'])
    expect((await t.app.inject({ method: 'GET', url: '/api/contactos' })).statusCode).toBe(401)
  })
})

describe('GET /api/contactos/:id', () => {
  it('returns an own contact, 404 for another company’s, 401 without token', async () => {
    const own = await makeContacto(t.db, empresaA.id)
    const foreign = await makeContacto(t.db, empresaB.id)
    const res = await t.as(empleado, { method: 'GET', url: `/api/contactos/${own.id}` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id: own.id, fotoUrl: LOGO_A, empresaId: empresaA.id })
    const other = await t.as(admin, { method: 'GET', url: `/api/contactos/${foreign.id}` })
    expect(other.statusCode).toBe(404)
    expect(other.json()).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: 'No se ha encontrado el contacto.' })
    expect((await t.as(superadmin, { method: 'GET', url: `/api/contactos/${foreign.id}` })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'GET', url: `/api/contactos/${own.id}` })).statusCode).toBe(401)
  })
})

describe('POST /api/contactos', () => {
  it('lets EMPLEADO create a contact in its company; a fotoUrl in the body is ignored (the photo is the logo); logged', async () => {
    const res = await t.as(empleado, {
      method: 'POST',
      url: '/api/contactos',
      payload: { ...valid(), fotoUrl: 'https://malicioso.es/x.png', id: 777 },
    })
    expect(res.statusCode).toBe(201)
    const body = res.json()
    expect(body).toEqual({ id: body.id, ...valid(), fotoUrl: LOGO_A, empresa: { id: empresaA.id, nombre: empresaA.nombre } })
    expect(body.id).not.toBe(777)
    // Derived, not stored: a new logo is the contact's new photo.
    const c = await makeEmpresa(t.db, { logoUrl: 'https://logos.es/antes.png' })
    const w = await t.worker('EMPLEADO', [c.id])
    const created = await t.as(w, {
      method: 'POST',
      url: '/api/contactos',
      payload: { ...valid(), empresaId: c.id, fotoUrl: 'https://x.es/z.png' },
    })
    await t.db.update(empresas).set({ logoUrl: 'https://logos.es/despues.png' }).where(eq(empresas.id, c.id))
    const reread = await t.as(w, { method: 'GET', url: `/api/contactos/${created.json().id}` })
    expect(reread.json().fotoUrl).toBe('https://logos.es/despues.png')
    const log = await lastLog(empleado.id)
    expect(log).toMatchObject({
      accion: 'Crear contacto',
      url: '/contactos',
      tipo: 'success',
      viviendaId: null,
      usuarioId: null,
      descripcion: 'Contacto creado: Suministros Norte, S.L. (Empresa Alfa)',
    })
    expect(log?.datos).toEqual({ despues: body })
  })

  it('answers 400 with SPEC’s field messages', async () => {
    const empty = await t.as(admin, { method: 'POST', url: '/api/contactos', payload: {} })
    expect(empty.statusCode).toBe(400)
    expect(empty.json().fieldErrors).toEqual({
      nombreComercial: 'El nombre comercial es obligatorio',
      agente: contactoMessages.agenteObligatorio,
      correo: contactoMessages.correoObligatorio,
      telefono: contactoMessages.telefonoObligatorio,
      empresaId: contactoMessages.empresaObligatoria,
    })
    const wrong = await t.as(admin, {
      method: 'POST',
      url: '/api/contactos',
      payload: { nombreComercial: 'AB', agente: 'Ag3nte', correo: 'no-es-correo', telefono: '12345', empresaId: 'a' },
    })
    expect(wrong.json().fieldErrors).toEqual({
      nombreComercial: contactoMessages.nombreComercialLongitud,
      agente: contactoMessages.agenteCaracteres,
      correo: 'El correo no es válido',
      telefono: contactoMessages.telefonoLongitud,
      empresaId: 'Selecciona una empresa',
    })
  })

  it('answers the same 400 on empresaId for a missing company and for another company, writing nothing', async () => {
    const before = await logCount()
    const missing = await t.as(superadmin, { method: 'POST', url: '/api/contactos', payload: { ...valid(), empresaId: 999999 } })
    expect(missing.statusCode).toBe(400)
    expect(missing.json().fieldErrors).toEqual({ empresaId: 'Selecciona una empresa' })
    const other = await t.as(admin, {
      method: 'POST',
      url: '/api/contactos',
      payload: { ...valid(), nombreComercial: 'Ajeno SA', empresaId: empresaB.id },
    })
    // Nothing tells an ADMIN which ids exist in other companies.
    expect(other.statusCode).toBe(400)
    expect(other.json()).toEqual(missing.json())
    expect(await t.db.select().from(contactos).where(eq(contactos.nombreComercial, 'Ajeno SA'))).toEqual([])
    expect(await logCount()).toBe(before)
  })

  it('requires a token', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/contactos', payload: valid() })).statusCode).toBe(401)
  })
})

describe('PATCH /api/contactos/:id', () => {
  it('modifies an own contact and logs antes/despues', async () => {
    const own = await makeContacto(t.db, empresaA.id, { agente: 'Antiguo Agente' })
    const res = await t.as(admin, {
      method: 'PATCH',
      url: `/api/contactos/${own.id}`,
      payload: { agente: 'Nuevo Agente', fotoUrl: 'https://x.es/y.png' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id: own.id, agente: 'Nuevo Agente', fotoUrl: LOGO_A })
    const log = await lastLog(admin.id)
    expect(log).toMatchObject({ accion: 'Modificar contacto', url: '/contactos', tipo: 'warning', viviendaId: null })
    expect(log?.datos).toMatchObject({ antes: { agente: 'Antiguo Agente' }, despues: { agente: 'Nuevo Agente' } })
  })

  it('moves a contact between own companies (photo follows the logo), refuses another company like a missing one', async () => {
    const c = await makeEmpresa(t.db, { logoUrl: 'https://logos.es/c.png' })
    const admin2 = await t.worker('ADMIN', [empresaA.id, c.id])
    const own = await makeContacto(t.db, empresaA.id)
    const moved = await t.as(admin2, { method: 'PATCH', url: `/api/contactos/${own.id}`, payload: { empresaId: c.id } })
    expect(moved.statusCode).toBe(200)
    expect(moved.json()).toMatchObject({ empresaId: c.id, fotoUrl: 'https://logos.es/c.png' })
    const refused = await t.as(admin2, { method: 'PATCH', url: `/api/contactos/${own.id}`, payload: { empresaId: empresaB.id } })
    expect(refused.statusCode).toBe(400)
    expect(refused.json().fieldErrors).toEqual({ empresaId: 'Selecciona una empresa' })
    expect((await rowOf(own.id))?.empresaId).toBe(c.id)
  })

  it('answers 400, 404 for another company’s contact and 401', async () => {
    const own = await makeContacto(t.db, empresaA.id)
    const foreign = await makeContacto(t.db, empresaB.id)
    const bad = await t.as(admin, {
      method: 'PATCH',
      url: `/api/contactos/${own.id}`,
      payload: { correo: 'x@', telefono: '600 12a 456' },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().fieldErrors).toEqual({ correo: 'El correo no es válido', telefono: contactoMessages.telefonoCaracteres })
    expect(
      (await t.as(empleado, { method: 'PATCH', url: `/api/contactos/${foreign.id}`, payload: { agente: 'Otro' } })).statusCode,
    ).toBe(404)
    expect((await rowOf(foreign.id))?.agente).toBe(foreign.agente)
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/api/contactos/${own.id}`, payload: { agente: 'Otro' } })).statusCode,
    ).toBe(401)
  })

  it('rolls the change back when its log entry cannot be written', async () => {
    const own = await makeContacto(t.db, empresaA.id, { agente: 'Agente Fijo' })
    await t.db.execute(sql`alter table logs add constraint logs_test_block check (accion <> 'Modificar contacto') not valid`)
    try {
      expect(
        (await t.as(admin, { method: 'PATCH', url: `/api/contactos/${own.id}`, payload: { agente: 'Agente Perdido' } }))
          .statusCode,
      ).toBe(500)
    } finally {
      await t.db.execute(sql`alter table logs drop constraint logs_test_block`)
    }
    expect((await rowOf(own.id))?.agente).toBe('Agente Fijo')
  })
})

describe('DELETE /api/contactos/:id', () => {
  it('deletes an own contact and logs it', async () => {
    const own = await makeContacto(t.db, empresaA.id)
    const res = await t.as(empleado, { method: 'DELETE', url: `/api/contactos/${own.id}` })
    expect(res.statusCode).toBe(204)
    expect(await rowOf(own.id)).toBeUndefined()
    const log = await lastLog(empleado.id)
    expect(log).toMatchObject({ accion: 'Eliminar contacto', url: '/contactos', tipo: 'error', viviendaId: null })
    expect(log?.datos).toMatchObject({ antes: { id: own.id, nombreComercial: own.nombreComercial } })
  })

  it('answers 404 for another company’s contact and 401 without token', async () => {
    const foreign = await makeContacto(t.db, empresaB.id)
    expect((await t.as(admin, { method: 'DELETE', url: `/api/contactos/${foreign.id}` })).statusCode).toBe(404)
    expect(await rowOf(foreign.id)).toBeDefined()
    expect((await t.app.inject({ method: 'DELETE', url: `/api/contactos/${foreign.id}` })).statusCode).toBe(401)
  })
})
