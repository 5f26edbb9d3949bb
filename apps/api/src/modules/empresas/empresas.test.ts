import { empresaConDatosMessage, empresaMessages, permissionMessages } from '@vb/shared'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { contactos, empresas, trabajadorEmpresas } from '../../db/schema'
import { makeContacto, makeEmpresa, makeVivienda } from '../../test/factories'
import { testScenario } from '../../test/scenario'

const { t, empresaA, empresaB, superadmin, admin, empleado, lastLog, logCount } = await testScenario({
  empresaA: { nombre: 'Empresa Alfa' },
  empresaB: { nombre: 'Empresa Beta' },
})

const rowOf = async (id: number) => (await t.db.select().from(empresas).where(eq(empresas.id, id)))[0]
const ids = (res: { json(): unknown }) => (res.json() as { id: number }[]).map((e) => e.id)
const names = (res: { json(): unknown }) => (res.json() as { nombre: string }[]).map((e) => e.nombre)

describe('GET /api/empresas', () => {
  it('shows SUPERADMIN every company and ADMIN / EMPLEADO only their own', async () => {
    const all = await t.as(superadmin, { method: 'GET', url: '/api/empresas' })
    expect(all.statusCode).toBe(200)
    expect(ids(all)).toEqual(expect.arrayContaining([empresaA.id, empresaB.id]))
    for (const w of [admin, empleado]) {
      const res = await t.as(w, { method: 'GET', url: '/api/empresas' })
      expect(res.json()).toEqual([{ id: empresaA.id, nombre: 'Empresa Alfa', logoUrl: null }])
    }
  })

  it('searches case- and accent-insensitively, sorts both ways and pages with X-Total-Count', async () => {
    const w = await t.worker('ADMIN', [])
    const mine = [
      await makeEmpresa(t.db, { nombre: 'Fundación José Ortega' }),
      await makeEmpresa(t.db, { nombre: 'Residencias García' }),
      await makeEmpresa(t.db, { nombre: 'Ábaco Hogares' }),
      await makeEmpresa(t.db, { nombre: 'cuidados del Sur' }),
    ]
    // An ADMIN linked to exactly these four: its list is this set.
    await t.db.insert(trabajadorEmpresas).values(mine.map((e) => ({ trabajadorId: w.id, empresaId: e.id })))
    expect(names(await t.as(w, { method: 'GET', url: '/api/empresas?q=jose' }))).toEqual(['Fundación José Ortega'])
    expect(names(await t.as(w, { method: 'GET', url: '/api/empresas?q=GARCIA' }))).toEqual(['Residencias García'])
    expect(names(await t.as(w, { method: 'GET', url: '/api/empresas?sort=nombre' }))).toEqual([
      'Ábaco Hogares',
      'cuidados del Sur',
      'Fundación José Ortega',
      'Residencias García',
    ])
    expect(names(await t.as(w, { method: 'GET', url: '/api/empresas?order=desc' }))).toEqual([
      'Residencias García',
      'Fundación José Ortega',
      'cuidados del Sur',
      'Ábaco Hogares',
    ])
    const page = await t.as(w, { method: 'GET', url: '/api/empresas?page=2&pageSize=3' })
    expect(page.headers['x-total-count']).toBe('4')
    expect(names(page)).toEqual(['Residencias García'])
  })

  it('rejects a bad query with 400 and requires a token', async () => {
    const bad = await t.as(superadmin, { method: 'GET', url: '/api/empresas?order=up&pageSize=101' })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json().fieldErrors).sort()).toEqual(['order', 'pageSize'])
    expect((await t.app.inject({ method: 'GET', url: '/api/empresas' })).statusCode).toBe(401)
  })
})

describe('GET /api/empresas/:id', () => {
  it('returns an own company, 404 for another, 401 without token', async () => {
    expect((await t.as(empleado, { method: 'GET', url: `/api/empresas/${empresaA.id}` })).json()).toEqual({
      id: empresaA.id,
      nombre: 'Empresa Alfa',
      logoUrl: null,
    })
    const other = await t.as(admin, { method: 'GET', url: `/api/empresas/${empresaB.id}` })
    expect(other.statusCode).toBe(404)
    expect(other.json()).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: 'No se ha encontrado la empresa.' })
    expect((await t.as(superadmin, { method: 'GET', url: `/api/empresas/${empresaB.id}` })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'GET', url: `/api/empresas/${empresaA.id}` })).statusCode).toBe(401)
  })
})

describe('POST /api/empresas', () => {
  it('lets SUPERADMIN create a company ("" logo stored as null) and logs it', async () => {
    const res = await t.as(superadmin, {
      method: 'POST',
      url: '/api/empresas',
      payload: { nombre: 'Hogares del Norte, S.L.', logoUrl: '' },
    })
    expect(res.statusCode).toBe(201)
    const body = res.json()
    expect(body).toEqual({ id: body.id, nombre: 'Hogares del Norte, S.L.', logoUrl: null })
    const log = await lastLog(superadmin.id)
    expect(log).toMatchObject({ accion: 'Crear empresa', url: '/empresas', tipo: 'success', viviendaId: null })
    expect(log?.datos).toEqual({ despues: body })
  })

  it('answers 400 with SPEC’s field messages', async () => {
    const empty = await t.as(superadmin, { method: 'POST', url: '/api/empresas', payload: {} })
    expect(empty.statusCode).toBe(400)
    expect(empty.json().fieldErrors).toEqual({ nombre: 'El nombre es obligatorio' })
    const wrong = await t.as(superadmin, {
      method: 'POST',
      url: '/api/empresas',
      payload: { nombre: 'Hogar$ SA', logoUrl: 'javascript:alert(1)' },
    })
    expect(wrong.json().fieldErrors).toEqual({
      nombre: 'El nombre solo puede contener letras, números, espacios y los caracteres . , & ( ) -',
      logoUrl: 'La URL del logo no es válida',
    })
    const short = await t.as(superadmin, { method: 'POST', url: '/api/empresas', payload: { nombre: 'A' } })
    expect(short.json().fieldErrors).toEqual({ nombre: empresaMessages.nombreLongitud })
  })

  it('refuses ADMIN and EMPLEADO with 403 before validating, and requires a token', async () => {
    const before = await logCount()
    for (const w of [admin, empleado]) {
      const res = await t.as(w, { method: 'POST', url: '/api/empresas', payload: { nombre: 'Empresa Prohibida' } })
      expect(res.statusCode).toBe(403)
      expect(res.json().message).toBe(permissionMessages.generic)
      expect((await t.as(w, { method: 'POST', url: '/api/empresas', payload: {} })).statusCode).toBe(403)
    }
    expect(await t.db.select().from(empresas).where(eq(empresas.nombre, 'Empresa Prohibida'))).toEqual([])
    expect(await logCount()).toBe(before)
    expect((await t.app.inject({ method: 'POST', url: '/api/empresas', payload: { nombre: 'Empresa X' } })).statusCode).toBe(401)
  })
})

describe('PATCH /api/empresas/:id', () => {
  it('lets ADMIN modify its company and logs antes/despues', async () => {
    const own = await makeEmpresa(t.db, { nombre: 'Empresa Vieja' })
    const w = await t.worker('ADMIN', [own.id])
    const res = await t.as(w, { method: 'PATCH', url: `/api/empresas/${own.id}`, payload: { logoUrl: 'https://logos.es/n.png' } })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ id: own.id, nombre: 'Empresa Vieja', logoUrl: 'https://logos.es/n.png' })
    const log = await lastLog(w.id)
    expect(log).toMatchObject({ accion: 'Modificar empresa', url: '/empresas', tipo: 'warning' })
    expect(log?.datos).toMatchObject({ antes: { logoUrl: null }, despues: { logoUrl: 'https://logos.es/n.png' } })
  })

  it('answers 400, 403 for EMPLEADO, 404 for another company and 401', async () => {
    const bad = await t.as(admin, { method: 'PATCH', url: `/api/empresas/${empresaA.id}`, payload: { nombre: '  ' } })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().fieldErrors).toEqual({ nombre: 'El nombre es obligatorio' })
    expect(
      (await t.as(empleado, { method: 'PATCH', url: `/api/empresas/${empresaA.id}`, payload: { nombre: 'Otra' } })).statusCode,
    ).toBe(403)
    expect(
      (await t.as(admin, { method: 'PATCH', url: `/api/empresas/${empresaB.id}`, payload: { nombre: 'Robada' } })).statusCode,
    ).toBe(404)
    expect((await rowOf(empresaB.id))?.nombre).toBe('Empresa Beta')
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/api/empresas/${empresaA.id}`, payload: { nombre: 'Otra' } })).statusCode,
    ).toBe(401)
  })
})

describe('DELETE /api/empresas/:id', () => {
  it('lets SUPERADMIN delete a company with nothing left in it, and logs it with the workers it was linked to', async () => {
    const e = await makeEmpresa(t.db, { nombre: 'Empresa Cerrada' })
    const linked = await t.worker('EMPLEADO', [e.id])
    const res = await t.as(superadmin, { method: 'DELETE', url: `/api/empresas/${e.id}` })
    expect(res.statusCode).toBe(204)
    expect(await rowOf(e.id)).toBeUndefined()
    const log = await lastLog(superadmin.id)
    expect(log).toMatchObject({ accion: 'Eliminar empresa', tipo: 'error', descripcion: 'Empresa eliminada: Empresa Cerrada' })
    expect(log?.datos).toMatchObject({ antes: { id: e.id, nombre: 'Empresa Cerrada', trabajadores: [linked.id] } })
  })

  it('refuses with 409 while the company has homes or contacts, saying what it has, and removes nothing', async () => {
    const e = await makeEmpresa(t.db)
    await makeVivienda(t.db, e.id)
    const c1 = await makeContacto(t.db, e.id)
    await makeContacto(t.db, e.id)
    const before = await logCount()
    const res = await t.as(superadmin, { method: 'DELETE', url: `/api/empresas/${e.id}` })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message:
        'No se puede eliminar la empresa: todavía tiene 1 vivienda y 2 contactos. Elimínalos o trasládalos antes a otra empresa.',
    })
    expect(res.json().message).toBe(empresaConDatosMessage({ viviendas: 1, contactos: 2, tareas: 0 }))
    expect(await rowOf(e.id)).toBeDefined()
    expect(await t.db.select().from(contactos).where(eq(contactos.id, c1.id))).toHaveLength(1)
    expect(await logCount()).toBe(before)
  })

  it('is SUPERADMIN only: 403 for ADMIN and EMPLEADO on their own company; 404 for a missing one; 401', async () => {
    for (const w of [admin, empleado]) {
      expect((await t.as(w, { method: 'DELETE', url: `/api/empresas/${empresaA.id}` })).statusCode).toBe(403)
    }
    expect(await rowOf(empresaA.id)).toBeDefined()
    expect((await t.as(superadmin, { method: 'DELETE', url: '/api/empresas/999999' })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'DELETE', url: `/api/empresas/${empresaA.id}` })).statusCode).toBe(401)
  })
})
