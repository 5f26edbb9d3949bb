import { permissionMessages, viviendaMessages } from '@vb/shared'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { viviendas } from '../../db/schema'
import { makeEmpresa, makeUsuario, makeVivienda } from '../../test/factories'
import { testScenario } from '../../test/scenario'

const { t, empresaA, empresaB, superadmin, admin, empleado, lastLog, logCount } = await testScenario({
  empresaA: { nombre: 'Empresa Alfa' },
  empresaB: { nombre: 'Empresa Beta' },
})

const names = (res: { json(): unknown }) => (res.json() as { nombre: string }[]).map((v) => v.nombre)

describe('GET /api/viviendas', () => {
  it('shows ADMIN and EMPLEADO only their companies’ homes, with the company, and SUPERADMIN all', async () => {
    const own = await makeVivienda(t.db, empresaA.id, { nombre: 'Calle Propia 1' })
    const foreign = await makeVivienda(t.db, empresaB.id, { nombre: 'Calle Ajena 1' })
    for (const w of [admin, empleado]) {
      const res = await t.as(w, { method: 'GET', url: '/api/viviendas' })
      expect(res.statusCode).toBe(200)
      const ids = res.json().map((v: { id: number }) => v.id)
      expect(ids).toContain(own.id)
      expect(ids).not.toContain(foreign.id)
    }
    const all = await t.as(superadmin, { method: 'GET', url: '/api/viviendas' })
    const ids = all.json().map((v: { id: number }) => v.id)
    expect(ids).toEqual(expect.arrayContaining([own.id, foreign.id]))
    expect(all.json().find((v: { id: number }) => v.id === foreign.id)).toEqual({
      id: foreign.id,
      nombre: 'Calle Ajena 1',
      empresaId: empresaB.id,
      empresa: { id: empresaB.id, nombre: 'Empresa Beta' },
    })
  })

  it('filters by empresaId and by the comma-joined empresaIds, never beyond the actor’s companies', async () => {
    const c = await makeEmpresa(t.db, { nombre: 'Empresa Filtro C' })
    const d = await makeEmpresa(t.db, { nombre: 'Empresa Filtro D' })
    const vc = await makeVivienda(t.db, c.id)
    const vd = await makeVivienda(t.db, d.id)
    const one = await t.as(superadmin, { method: 'GET', url: `/api/viviendas?empresaId=${c.id}` })
    expect(one.json().map((v: { id: number }) => v.id)).toEqual([vc.id])
    const two = await t.as(superadmin, { method: 'GET', url: `/api/viviendas?empresaIds=${c.id},${d.id}` })
    expect(
      two
        .json()
        .map((v: { id: number }) => v.id)
        .sort(),
    ).toEqual([vc.id, vd.id].sort())
    // An ADMIN asking for another company's homes gets none of them.
    const foreign = await t.as(admin, { method: 'GET', url: `/api/viviendas?empresaIds=${c.id},${empresaA.id}` })
    expect(foreign.statusCode).toBe(200)
    expect(foreign.json().every((v: { empresaId: number }) => v.empresaId === empresaA.id)).toBe(true)
    expect((await t.as(admin, { method: 'GET', url: `/api/viviendas?empresaId=${c.id}` })).json()).toEqual([])
  })

  it('searches the Dirección case- and accent-insensitively', async () => {
    const e = await makeEmpresa(t.db)
    await makeVivienda(t.db, e.id, { nombre: 'Calle José Echegaray 4' })
    await makeVivienda(t.db, e.id, { nombre: 'Avenida García Lorca 10' })
    await makeVivienda(t.db, e.id, { nombre: 'Plaza Mayor 1' })
    const jose = await t.as(superadmin, { method: 'GET', url: `/api/viviendas?empresaId=${e.id}&q=jose` })
    expect(names(jose)).toEqual(['Calle José Echegaray 4'])
    const garcia = await t.as(superadmin, { method: 'GET', url: `/api/viviendas?empresaId=${e.id}&q=GARCIA` })
    expect(names(garcia)).toEqual(['Avenida García Lorca 10'])
    const none = await t.as(superadmin, { method: 'GET', url: `/api/viviendas?empresaId=${e.id}&q=%25` })
    expect(none.json()).toEqual([])
  })

  it("finds what an address holds as written: '2º A', '1ª', Catalan's 'l·l', on either engine's unaccent rules", async () => {
    const e = await makeEmpresa(t.db)
    await makeVivienda(t.db, e.id, { nombre: 'Calle Mayor 12, 2º A, Valencia' })
    await makeVivienda(t.db, e.id, { nombre: 'Carrer del Col·legi 3, 1ª, Girona' })
    const q = async (text: string) =>
      names(await t.as(superadmin, { method: 'GET', url: `/api/viviendas?empresaId=${e.id}&q=${encodeURIComponent(text)}` }))
    expect(await q('Calle Mayor 12, 2º A, Valencia')).toEqual(['Calle Mayor 12, 2º A, Valencia'])
    expect(await q('2º A')).toEqual(['Calle Mayor 12, 2º A, Valencia'])
    expect(await q('2º')).toEqual(['Calle Mayor 12, 2º A, Valencia'])
    expect(await q('col·legi')).toEqual(['Carrer del Col·legi 3, 1ª, Girona'])
    expect(await q('COL·LEGI 3, 1ª')).toEqual(['Carrer del Col·legi 3, 1ª, Girona'])
  })

  it('sorts by Dirección and by Empresa, ascending and descending, accents with their base letter', async () => {
    const avila = await makeEmpresa(t.db, { nombre: 'Ávila Servicios' })
    const zamora = await makeEmpresa(t.db, { nombre: 'Zamora Hogares' })
    await makeVivienda(t.db, zamora.id, { nombre: 'Álamo 1' })
    await makeVivienda(t.db, avila.id, { nombre: 'camino 2' })
    await makeVivienda(t.db, avila.id, { nombre: 'Bosque 3' })
    const base = `/api/viviendas?empresaIds=${avila.id},${zamora.id}`
    expect(names(await t.as(superadmin, { method: 'GET', url: `${base}&sort=nombre` }))).toEqual([
      'Álamo 1',
      'Bosque 3',
      'camino 2',
    ])
    expect(names(await t.as(superadmin, { method: 'GET', url: `${base}&sort=nombre&order=desc` }))).toEqual([
      'camino 2',
      'Bosque 3',
      'Álamo 1',
    ])
    expect(names(await t.as(superadmin, { method: 'GET', url: `${base}&sort=empresa` }))).toEqual([
      'Bosque 3',
      'camino 2',
      'Álamo 1',
    ])
    expect(names(await t.as(superadmin, { method: 'GET', url: `${base}&sort=empresa&order=desc` }))).toEqual([
      'Álamo 1',
      'camino 2',
      'Bosque 3',
    ])
  })

  it('pages with X-Total-Count', async () => {
    const e = await makeEmpresa(t.db)
    for (const n of ['A', 'B', 'C', 'D', 'E']) await makeVivienda(t.db, e.id, { nombre: `Portal ${n}` })
    const res = await t.as(superadmin, { method: 'GET', url: `/api/viviendas?empresaId=${e.id}&page=2&pageSize=2` })
    expect(res.statusCode).toBe(200)
    expect(res.headers['x-total-count']).toBe('5')
    expect(names(res)).toEqual(['Portal C', 'Portal D'])
    const last = await t.as(superadmin, { method: 'GET', url: `/api/viviendas?empresaId=${e.id}&page=3&pageSize=2` })
    expect(names(last)).toEqual(['Portal E'])
    expect(last.headers['x-total-count']).toBe('5')
  })

  it('rejects bad query parameters with 400 and requires a token', async () => {
    const bad = await t.as(superadmin, { method: 'GET', url: '/api/viviendas?empresaIds=1,a&pageSize=500&sort=precio' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().fieldErrors).toMatchObject({ empresaIds: 'Identificador no válido' })
    expect(Object.keys(bad.json().fieldErrors).sort()).toEqual(['empresaIds', 'pageSize', 'sort'])
    expect((await t.app.inject({ method: 'GET', url: '/api/viviendas' })).statusCode).toBe(401)
  })
})

describe('GET /api/viviendas/:id', () => {
  it('returns an own home, 404 for another company’s or a missing one, 401 without token', async () => {
    const own = await makeVivienda(t.db, empresaA.id)
    const foreign = await makeVivienda(t.db, empresaB.id)
    const res = await t.as(empleado, { method: 'GET', url: `/api/viviendas/${own.id}` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      id: own.id,
      nombre: own.nombre,
      empresaId: empresaA.id,
      empresa: { id: empresaA.id, nombre: 'Empresa Alfa' },
    })
    const other = await t.as(admin, { method: 'GET', url: `/api/viviendas/${foreign.id}` })
    expect(other.statusCode).toBe(404)
    expect(other.json()).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: 'No se ha encontrado la vivienda.' })
    expect((await t.as(superadmin, { method: 'GET', url: `/api/viviendas/${foreign.id}` })).statusCode).toBe(200)
    expect((await t.as(superadmin, { method: 'GET', url: '/api/viviendas/999999' })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: `/api/viviendas/${own.id}` })).statusCode).toBe(401)
  })
})

describe('POST /api/viviendas', () => {
  it('creates a home for ADMIN in its company and logs it in the same transaction', async () => {
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/viviendas',
      payload: { nombre: '  Calle Nueva 7  ', empresaId: empresaA.id, id: 12345, createdAt: '2000-01-01' },
    })
    expect(res.statusCode).toBe(201)
    const body = res.json()
    expect(body).toEqual({
      id: body.id,
      nombre: 'Calle Nueva 7',
      empresaId: empresaA.id,
      empresa: { id: empresaA.id, nombre: 'Empresa Alfa' },
    })
    expect(body.id).not.toBe(12345)
    const log = await lastLog(admin.id)
    expect(log).toMatchObject({
      accion: 'Crear vivienda',
      url: '/viviendas',
      tipo: 'success',
      viviendaId: body.id,
      usuarioId: null,
      descripcion: 'Vivienda creada: Calle Nueva 7 (Empresa Alfa)',
    })
    expect(log?.datos).toEqual({ despues: body })
  })

  it('answers 400 with SPEC’s field messages', async () => {
    const empty = await t.as(admin, { method: 'POST', url: '/api/viviendas', payload: {} })
    expect(empty.statusCode).toBe(400)
    expect(empty.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: { nombre: 'La dirección es obligatoria', empresaId: 'La empresa es obligatoria' },
    })
    const wrongType = await t.as(admin, { method: 'POST', url: '/api/viviendas', payload: { nombre: '   ', empresaId: 'uno' } })
    expect(wrongType.json().fieldErrors).toEqual({ nombre: 'La dirección es obligatoria', empresaId: 'Selecciona una empresa' })
  })

  it('answers 400 on empresaId for a company that does not exist, leaving no row and no log', async () => {
    const before = await logCount()
    const res = await t.as(superadmin, {
      method: 'POST',
      url: '/api/viviendas',
      payload: { nombre: 'Calle Fantasma', empresaId: 999999 },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().fieldErrors).toEqual({ empresaId: 'Selecciona una empresa' })
    expect(await t.db.select().from(viviendas).where(eq(viviendas.nombre, 'Calle Fantasma'))).toEqual([])
    expect(await logCount()).toBe(before)
  })

  it('refuses EMPLEADO (403 before validation) and ADMIN in another company (400, as a missing one), writing nothing', async () => {
    const before = await logCount()
    const emp = await t.as(empleado, {
      method: 'POST',
      url: '/api/viviendas',
      payload: { nombre: 'Calle Empleado', empresaId: empresaA.id },
    })
    expect(emp.statusCode).toBe(403)
    expect(emp.json()).toEqual({ statusCode: 403, code: 'FORBIDDEN', message: permissionMessages.generic })
    expect((await t.as(empleado, { method: 'POST', url: '/api/viviendas', payload: {} })).statusCode).toBe(403)
    const other = await t.as(admin, {
      method: 'POST',
      url: '/api/viviendas',
      payload: { nombre: 'Calle Ajena', empresaId: empresaB.id },
    })
    expect(other.statusCode).toBe(400)
    expect(other.json().fieldErrors).toEqual({ empresaId: 'Selecciona una empresa' })
    const rows = await t.db.select().from(viviendas).where(sql`${viviendas.nombre} in ('Calle Empleado', 'Calle Ajena')`)
    expect(rows).toEqual([])
    expect(await logCount()).toBe(before)
  })

  it('rolls the home back when its log entry cannot be written', async () => {
    await t.db.execute(sql`alter table logs add constraint logs_test_block check (accion <> 'Crear vivienda') not valid`)
    try {
      const res = await t.as(superadmin, {
        method: 'POST',
        url: '/api/viviendas',
        payload: { nombre: 'Calle Sin Log', empresaId: empresaA.id },
      })
      expect(res.statusCode).toBe(500)
      expect(res.json()).toEqual({
        statusCode: 500,
        code: 'INTERNAL',
        message: 'Se ha producido un error interno. Inténtalo más tarde.',
      })
    } finally {
      await t.db.execute(sql`alter table logs drop constraint logs_test_block`)
    }
    expect(await t.db.select().from(viviendas).where(eq(viviendas.nombre, 'Calle Sin Log'))).toEqual([])
  })

  it('requires a token', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/viviendas', payload: { nombre: 'X', empresaId: 1 } })).statusCode,
    ).toBe(401)
  })
})

describe('PATCH /api/viviendas/:id', () => {
  it('modifies an own home and logs antes/despues as a warning', async () => {
    const own = await makeVivienda(t.db, empresaA.id, { nombre: 'Calle Vieja 1' })
    const res = await t.as(admin, { method: 'PATCH', url: `/api/viviendas/${own.id}`, payload: { nombre: 'Calle Renovada 1' } })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id: own.id, nombre: 'Calle Renovada 1', empresaId: empresaA.id })
    const log = await lastLog(admin.id)
    expect(log).toMatchObject({ accion: 'Modificar vivienda', url: '/viviendas', tipo: 'warning', viviendaId: own.id })
    expect(log?.datos).toMatchObject({ antes: { nombre: 'Calle Vieja 1' }, despues: { nombre: 'Calle Renovada 1' } })
  })

  it('saved as it was (a form sent back untouched): 200 with the home, no log entry, no new version', async () => {
    const own = await makeVivienda(t.db, empresaA.id, { nombre: 'Calle Quieta 2' })
    const version = async () =>
      (await t.db.select({ v: viviendas.updatedAt }).from(viviendas).where(eq(viviendas.id, own.id)))[0]?.v
    const [logsBefore, versionBefore] = [await logCount(), await version()]
    const same = await t.as(admin, {
      method: 'PATCH',
      url: `/api/viviendas/${own.id}`,
      payload: { nombre: 'Calle Quieta 2', empresaId: empresaA.id },
    })
    expect(same.statusCode, same.body).toBe(200)
    expect(same.json()).toMatchObject({ id: own.id, nombre: 'Calle Quieta 2', empresaId: empresaA.id })
    expect(await logCount()).toBe(logsBefore)
    expect(await version()).toEqual(versionBefore)
    // One field changed is a change: logged, with what it was.
    const changed = await t.as(admin, { method: 'PATCH', url: `/api/viviendas/${own.id}`, payload: { nombre: 'Calle Quieta 3' } })
    expect(changed.statusCode).toBe(200)
    expect(await logCount()).toBe(logsBefore + 1)
    expect((await lastLog(admin.id))?.datos).toMatchObject({
      antes: { nombre: 'Calle Quieta 2' },
      despues: { nombre: 'Calle Quieta 3' },
    })
  })

  it('moves a home between the companies of an ADMIN, and refuses another company and a missing one alike (400)', async () => {
    const c = await makeEmpresa(t.db, { nombre: 'Empresa Segunda' })
    const admin2 = await t.worker('ADMIN', [empresaA.id, c.id])
    const own = await makeVivienda(t.db, empresaA.id)
    const moved = await t.as(admin2, { method: 'PATCH', url: `/api/viviendas/${own.id}`, payload: { empresaId: c.id } })
    expect(moved.statusCode).toBe(200)
    expect(moved.json().empresa).toEqual({ id: c.id, nombre: 'Empresa Segunda' })
    const refused = await t.as(admin2, { method: 'PATCH', url: `/api/viviendas/${own.id}`, payload: { empresaId: empresaB.id } })
    const missing = await t.as(admin2, { method: 'PATCH', url: `/api/viviendas/${own.id}`, payload: { empresaId: 999999 } })
    expect(missing.statusCode).toBe(400)
    expect(missing.json().fieldErrors).toEqual({ empresaId: 'Selecciona una empresa' })
    expect(refused.json()).toEqual(missing.json())
    const [row] = await t.db.select().from(viviendas).where(eq(viviendas.id, own.id))
    expect(row?.empresaId).toBe(c.id)
  })

  it('answers 400, 403 for EMPLEADO, 404 for another company’s home and 401', async () => {
    const own = await makeVivienda(t.db, empresaA.id)
    const foreign = await makeVivienda(t.db, empresaB.id, { nombre: 'Calle Intocable' })
    const bad = await t.as(admin, { method: 'PATCH', url: `/api/viviendas/${own.id}`, payload: { nombre: '', empresaId: 0 } })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().fieldErrors).toEqual({ nombre: 'La dirección es obligatoria', empresaId: 'Selecciona una empresa' })
    expect(
      (await t.as(empleado, { method: 'PATCH', url: `/api/viviendas/${own.id}`, payload: { nombre: 'Calle X' } })).statusCode,
    ).toBe(403)
    const other = await t.as(admin, { method: 'PATCH', url: `/api/viviendas/${foreign.id}`, payload: { nombre: 'Calle Robada' } })
    expect(other.statusCode).toBe(404)
    const [row] = await t.db.select().from(viviendas).where(eq(viviendas.id, foreign.id))
    expect(row?.nombre).toBe('Calle Intocable')
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/api/viviendas/${own.id}`, payload: { nombre: 'Calle Y' } })).statusCode,
    ).toBe(401)
  })
})

describe('DELETE /api/viviendas/:id', () => {
  it('lets SUPERADMIN delete an empty home and logs it as an error-type entry', async () => {
    const home = await makeVivienda(t.db, empresaB.id, { nombre: 'Calle Demolida 3' })
    const res = await t.as(superadmin, { method: 'DELETE', url: `/api/viviendas/${home.id}` })
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
    expect(await t.db.select().from(viviendas).where(eq(viviendas.id, home.id))).toEqual([])
    const log = await lastLog(superadmin.id)
    expect(log).toMatchObject({ accion: 'Eliminar vivienda', url: '/viviendas', tipo: 'error' })
    expect(log?.datos).toMatchObject({ antes: { id: home.id, nombre: 'Calle Demolida 3' } })
  })

  it('refuses with 409 while residents live there, keeping the home and writing no log', async () => {
    const home = await makeVivienda(t.db, empresaA.id)
    await makeUsuario(t.db, home.id)
    const before = await logCount()
    const res = await t.as(superadmin, { method: 'DELETE', url: `/api/viviendas/${home.id}` })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({ statusCode: 409, code: 'CONFLICT', message: viviendaMessages.conUsuarios })
    expect(await t.db.select().from(viviendas).where(eq(viviendas.id, home.id))).toHaveLength(1)
    expect(await logCount()).toBe(before)
  })

  it('is SUPERADMIN only (DECISIONS P2): ADMIN and EMPLEADO get 403; a missing home 404; no token 401', async () => {
    const home = await makeVivienda(t.db, empresaA.id)
    for (const w of [admin, empleado]) {
      const res = await t.as(w, { method: 'DELETE', url: `/api/viviendas/${home.id}` })
      expect(res.statusCode).toBe(403)
      expect(res.json().message).toBe(permissionMessages.generic)
    }
    expect(await t.db.select().from(viviendas).where(eq(viviendas.id, home.id))).toHaveLength(1)
    expect((await t.as(superadmin, { method: 'DELETE', url: '/api/viviendas/999999' })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'DELETE', url: `/api/viviendas/${home.id}` })).statusCode).toBe(401)
  })
})
