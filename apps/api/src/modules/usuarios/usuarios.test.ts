import { nifCheckLetter, permissionMessages, usuarioMessages } from '@vb/shared'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { cajaUsuario, documentosUsuario, planingTareas, planingTareaUsuarios, usuarios } from '../../db/schema'
import { loadedTrigramCounts } from '../../lib/trigram-counts'
import {
  makeDocumento,
  makeEmpresa,
  makeMovimientoCaja,
  makeNif,
  makePlaningTarea,
  makeUsuario,
  makeVivienda,
} from '../../test/factories'
import { planNodes, statementsSent } from '../../test/plans'
import { testScenario } from '../../test/scenario'

const scenario = await testScenario({
  empresaA: { nombre: 'Empresa Alfa' },
  empresaB: { nombre: 'Empresa Beta' },
  viviendaA: { nombre: 'Calle Alfa 1' },
  viviendaB: { nombre: 'Calle Beta 1' },
})
const { t, empresaA, empresaB, viviendaA: homeA1, viviendaB: homeB, superadmin, admin, empleado, lastLog, logCount } = scenario
const homeA2 = await makeVivienda(t.db, empresaA.id, { nombre: 'Calle Alfa 2' })

const rowOf = async (id: number) => (await t.db.select().from(usuarios).where(eq(usuarios.id, id)))[0]
const ids = (res: { json(): unknown }) => (res.json() as { id: number }[]).map((u) => u.id)
const apellidosOf = (res: { json(): unknown }) => (res.json() as { apellidos: string }[]).map((u) => u.apellidos)

/** A valid NIE (DECISIONS D2): X=0, Y=1, Z=2 before the 7 digits. */
const nie = (prefix: 'X' | 'Y' | 'Z', digits: string) =>
  `${prefix}${digits}${nifCheckLetter(`${'XYZ'.indexOf(prefix)}${digits}`)}`

const valid = () => ({ nombre: 'María', apellidos: 'López Ruiz', nif: makeNif(), viviendaId: homeA1.id })

describe('GET /api/usuarios', () => {
  it('shows ADMIN and EMPLEADO residents of their companies’ homes only; residents without home only to SUPERADMIN', async () => {
    const own = await makeUsuario(t.db, homeA1.id)
    const foreign = await makeUsuario(t.db, homeB.id)
    const homeless = await makeUsuario(t.db, null)
    for (const w of [admin, empleado]) {
      const res = await t.as(w, { method: 'GET', url: '/api/usuarios' })
      expect(res.statusCode).toBe(200)
      expect(ids(res)).toContain(own.id)
      expect(ids(res)).not.toContain(foreign.id)
      expect(ids(res)).not.toContain(homeless.id)
    }
    const all = await t.as(superadmin, { method: 'GET', url: '/api/usuarios' })
    expect(ids(all)).toEqual(expect.arrayContaining([own.id, foreign.id, homeless.id]))
    const body = all.json() as { id: number }[]
    expect(body.find((u) => u.id === own.id)).toEqual({
      id: own.id,
      nombre: own.nombre,
      apellidos: own.apellidos,
      nif: own.nif,
      gradoDependencia: null,
      fotoUrl: null,
      viviendas: [{ id: homeA1.id, nombre: 'Calle Alfa 1', empresaId: empresaA.id }],
      pir: { estado: 'sinpir', diasRestantes: null },
    })
    expect(body.find((u) => u.id === homeless.id)).toMatchObject({ viviendas: [] })
  })

  it('searches nombre, apellidos and NIF case- and accent-insensitively', async () => {
    const e = await makeEmpresa(t.db)
    const h = await makeVivienda(t.db, e.id)
    const jose = await makeUsuario(t.db, h.id, { nombre: 'José', apellidos: 'Pérez Gómez' })
    const garcia = await makeUsuario(t.db, h.id, { nombre: 'Ana', apellidos: 'García Núñez' })
    const other = await makeUsuario(t.db, h.id, { nombre: 'Luis', apellidos: 'Martín Sanz', nif: '00000023T' })
    const q = (text: string) =>
      t.as(superadmin, { method: 'GET', url: `/api/usuarios?empresaId=${e.id}&q=${encodeURIComponent(text)}` })
    expect(ids(await q('jose'))).toEqual([jose.id])
    expect(ids(await q('GARCIA'))).toEqual([garcia.id])
    expect(ids(await q('nunez'))).toEqual([garcia.id])
    expect(ids(await q('jose perez'))).toEqual([jose.id])
    expect(ids(await q('00023t'))).toEqual([other.id])
    expect(ids(await q('%'))).toEqual([])
    // Letters Unicode does not decompose, as PostgreSQL reads them ('Ł' is 'L'), with the name's trigram counts.
    const lukasz = await makeUsuario(t.db, h.id, { nombre: 'Łukasz', apellidos: 'Wójcik Nowak' })
    await loadedTrigramCounts(t.db, usuarios.busqueda)
    for (const text of ['łukasz', 'Łukasz Wójcik', 'lukasz wojcik', 'WÓJCIK NOWAK'])
      expect(ids(await q(text)), text).toEqual([lukasz.id])
  })

  it('sorts by each field and by home, ascending and descending; the default is apellidos then nombre', async () => {
    const e = await makeEmpresa(t.db)
    const h1 = await makeVivienda(t.db, e.id, { nombre: 'Zurbarán 1' })
    const h2 = await makeVivienda(t.db, e.id, { nombre: 'Álvarez 2' })
    const a = await makeUsuario(t.db, h1.id, {
      nombre: 'Beatriz',
      apellidos: 'Álvarez',
      nif: '10000000Z',
      gradoDependencia: 'PVS',
    })
    const b = await makeUsuario(t.db, h2.id, {
      nombre: 'alberto',
      apellidos: 'Castro',
      nif: '30000000R',
      gradoDependencia: 'PEI',
    })
    const c = await makeUsuario(t.db, h1.id, { nombre: 'Carmen', apellidos: 'beltrán', nif: '20000000A' })
    const d = await makeUsuario(t.db, h2.id, { nombre: 'Ángel', apellidos: 'beltrán', nif: '40000000Q', gradoDependencia: 'PEI' })
    const list = (params: string) => t.as(superadmin, { method: 'GET', url: `/api/usuarios?empresaId=${e.id}${params}` })
    expect(ids(await list(''))).toEqual([a.id, d.id, c.id, b.id])
    expect(ids(await list('&order=desc'))).toEqual([b.id, c.id, d.id, a.id])
    expect(ids(await list('&sort=nombre'))).toEqual([b.id, d.id, a.id, c.id])
    expect(ids(await list('&sort=nombre&order=desc'))).toEqual([c.id, a.id, d.id, b.id])
    expect(ids(await list('&sort=nif'))).toEqual([a.id, c.id, b.id, d.id])
    expect(ids(await list('&sort=nif&order=desc'))).toEqual([d.id, b.id, c.id, a.id])
    // PEI before PVS, residents without grade last; ties by apellidos, nombre.
    expect(ids(await list('&sort=gradoDependencia'))).toEqual([d.id, b.id, a.id, c.id])
    // Homes: 'Álvarez 2' sorts with A, before 'Zurbarán 1'.
    expect(ids(await list('&sort=vivienda'))).toEqual([d.id, b.id, a.id, c.id])
    expect(ids(await list('&sort=vivienda&order=desc'))).toEqual([c.id, a.id, b.id, d.id])
    const sorted = await list('&sort=vivienda')
    expect(sorted.json()[0].viviendas).toEqual([{ id: h2.id, nombre: 'Álvarez 2', empresaId: e.id }])
    // The home's sort key is copied onto its residents: a rename and a move are followed at once.
    const renamed = await t.as(superadmin, { method: 'PATCH', url: `/api/viviendas/${h1.id}`, payload: { nombre: 'Abadía 1' } })
    expect(renamed.statusCode).toBe(200)
    expect(ids(await list('&sort=vivienda'))).toEqual([a.id, c.id, d.id, b.id])
    const moved = await t.as(superadmin, { method: 'PATCH', url: `/api/usuarios/${b.id}`, payload: { viviendaId: h1.id } })
    expect(moved.statusCode).toBe(200)
    expect(ids(await list('&sort=vivienda'))).toEqual([a.id, c.id, b.id, d.id])
    expect(ids(await list('&sort=vivienda&order=desc'))).toEqual([d.id, b.id, c.id, a.id])
  })

  it('pages with X-Total-Count, and keeps the search and filters in the total', async () => {
    const e = await makeEmpresa(t.db)
    const h = await makeVivienda(t.db, e.id)
    for (const n of ['A', 'B', 'C', 'D', 'E']) await makeUsuario(t.db, h.id, { apellidos: `Paginado ${n}` })
    await makeUsuario(t.db, h.id, { apellidos: 'Otro Apellido' })
    const res = await t.as(superadmin, { method: 'GET', url: `/api/usuarios?empresaId=${e.id}&q=paginado&page=2&pageSize=2` })
    expect(res.statusCode).toBe(200)
    expect(res.headers['x-total-count']).toBe('5')
    expect(apellidosOf(res)).toEqual(['Paginado C', 'Paginado D'])
    const all = await t.as(superadmin, { method: 'GET', url: `/api/usuarios?empresaId=${e.id}&page=1` })
    expect(all.headers['x-total-count']).toBe('6')
    expect(all.json()).toHaveLength(6)
  })

  it('filters by empresaId, viviendaId and exact NIF (any case)', async () => {
    const e = await makeEmpresa(t.db)
    const h1 = await makeVivienda(t.db, e.id)
    const h2 = await makeVivienda(t.db, e.id)
    const u1 = await makeUsuario(t.db, h1.id)
    const u2 = await makeUsuario(t.db, h2.id)
    expect(ids(await t.as(superadmin, { method: 'GET', url: `/api/usuarios?empresaId=${e.id}` })).sort()).toEqual(
      [u1.id, u2.id].sort(),
    )
    expect(ids(await t.as(superadmin, { method: 'GET', url: `/api/usuarios?viviendaId=${h2.id}` }))).toEqual([u2.id])
    // An ADMIN of two companies gets the chosen one's residents only, and the other's with the other.
    const e2 = await makeEmpresa(t.db)
    const u3 = await makeUsuario(t.db, (await makeVivienda(t.db, e2.id)).id)
    const adminDeDos = await t.worker('ADMIN', [e.id, e2.id])
    const deEmpresa = async (id: number) => ids(await t.as(adminDeDos, { method: 'GET', url: `/api/usuarios?empresaId=${id}` }))
    expect((await deEmpresa(e.id)).sort()).toEqual([u1.id, u2.id].sort())
    expect(await deEmpresa(e2.id)).toEqual([u3.id])
    expect((await t.as(adminDeDos, { method: 'GET', url: '/api/usuarios' })).headers['x-total-count']).toBe('3')
    const byNif = await t.as(superadmin, { method: 'GET', url: `/api/usuarios?nif=${u1.nif.toLowerCase()}` })
    expect(ids(byNif)).toEqual([u1.id])
    // A part of the NIF is not a match: the filter is exact (the search box uses q).
    expect(ids(await t.as(superadmin, { method: 'GET', url: `/api/usuarios?nif=${u1.nif.slice(0, 5)}` }))).toEqual([])
    // ADMIN asking for another company's residents gets none, and PostgreSQL plans no read of the residents to say
    // so: the filter is `false`, not a subquery beside the scope (which read the whole sort index at a large
    // operator, 53 ms).
    await makeUsuario(t.db, homeB.id)
    const { result: ajenos, sent } = await statementsSent(t.db, () =>
      t.as(admin, { method: 'GET', url: `/api/usuarios?empresaId=${empresaB.id}&sort=nombre` }),
    )
    expect(ajenos.json()).toEqual([])
    const read = sent.filter((q) => /from "usuarios"/.test(q.text))
    expect(read.length).toBeGreaterThan(0)
    for (const statement of read) {
      const scans = (await planNodes(t.db, statement)).filter((n) => n['Relation Name'] === 'usuarios')
      expect(scans).toEqual([])
    }
    const foreign = await makeUsuario(t.db, homeB.id)
    expect((await t.as(admin, { method: 'GET', url: `/api/usuarios?nif=${foreign.nif}` })).json()).toEqual([])
    expect((await t.as(admin, { method: 'GET', url: `/api/usuarios?viviendaId=${homeB.id}` })).json()).toEqual([])
  })

  it('reads the residents named by ids in one request, never beyond the actor’s scope', async () => {
    const u1 = await makeUsuario(t.db, homeA1.id)
    const u2 = await makeUsuario(t.db, homeA2.id)
    const other = await makeUsuario(t.db, homeA1.id)
    const foreign = await makeUsuario(t.db, homeB.id)
    const homeless = await makeUsuario(t.db, null)
    const url = `/api/usuarios?ids=${u1.id},${u2.id},${foreign.id},${homeless.id}&sort=nombre`
    const asAdmin = await t.as(admin, { method: 'GET', url })
    expect(ids(asAdmin).sort()).toEqual([u1.id, u2.id].sort())
    expect(asAdmin.headers['x-total-count']).toBe('2')
    expect(ids(asAdmin)).not.toContain(other.id)
    const asSuperadmin = await t.as(superadmin, { method: 'GET', url })
    expect(ids(asSuperadmin).sort()).toEqual([u1.id, u2.id, foreign.id, homeless.id].sort())
    // With the other filters, as any filter: the company's residents among them.
    const inA = await t.as(superadmin, { method: 'GET', url: `${url}&empresaId=${empresaA.id}` })
    expect(ids(inA).sort()).toEqual([u1.id, u2.id].sort())
    for (const bad of ['1,a', '0', '1,,2', Array.from({ length: 101 }, (_, i) => i + 1).join(',')]) {
      const res = await t.as(admin, { method: 'GET', url: `/api/usuarios?ids=${bad}` })
      expect(res.statusCode).toBe(400)
      expect(res.json().fieldErrors.ids).toBe('Identificador no válido')
    }
  })

  it('rejects a bad query with 400 and requires a token', async () => {
    const bad = await t.as(superadmin, { method: 'GET', url: '/api/usuarios?sort=edad&page=0' })
    expect(bad.statusCode).toBe(400)
    expect(Object.keys(bad.json().fieldErrors).sort()).toEqual(['page', 'sort'])
    // A page past the 100,000th row (DECISIONS D13), searched or not: refused before any statement is sent.
    for (const qs of ['page=10002', 'page=1002&pageSize=100&q=garcia']) {
      const { result: deep, sent } = await statementsSent(t.db, () =>
        t.as(superadmin, { method: 'GET', url: `/api/usuarios?${qs}` }),
      )
      expect(deep.statusCode, qs).toBe(400)
      expect(deep.json().fieldErrors, qs).toEqual({ page: 'La página no es válida' })
      expect(
        sent.filter((q) => /from "usuarios"/.test(q.text)),
        qs,
      ).toEqual([])
    }
    expect((await t.as(superadmin, { method: 'GET', url: '/api/usuarios?page=10001' })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'GET', url: '/api/usuarios' })).statusCode).toBe(401)
  })
})

describe('GET /api/usuarios/:id', () => {
  it('returns an own resident; 404 for another company’s or a homeless one unless SUPERADMIN; 401', async () => {
    const own = await makeUsuario(t.db, homeA1.id)
    const foreign = await makeUsuario(t.db, homeB.id)
    const homeless = await makeUsuario(t.db, null)
    const res = await t.as(empleado, { method: 'GET', url: `/api/usuarios/${own.id}` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      id: own.id,
      nif: own.nif,
      viviendas: [{ id: homeA1.id, nombre: 'Calle Alfa 1', empresaId: empresaA.id }],
    })
    for (const id of [foreign.id, homeless.id]) {
      const refused = await t.as(admin, { method: 'GET', url: `/api/usuarios/${id}` })
      expect(refused.statusCode).toBe(404)
      expect(refused.json()).toEqual({ statusCode: 404, code: 'NOT_FOUND', message: 'No se ha encontrado el usuario.' })
      expect((await t.as(superadmin, { method: 'GET', url: `/api/usuarios/${id}` })).statusCode).toBe(200)
    }
    expect((await t.as(superadmin, { method: 'GET', url: '/api/usuarios/999999' })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: `/api/usuarios/${own.id}` })).statusCode).toBe(401)
  })
})

describe('POST /api/usuarios', () => {
  it('lets EMPLEADO create a resident in an own home: NIF upper-cased, empty optionals null, unknown fields ignored, logged', async () => {
    const nif = makeNif()
    const res = await t.as(empleado, {
      method: 'POST',
      url: '/api/usuarios',
      payload: {
        nombre: ' José ',
        apellidos: 'García Núñez',
        nif: ` ${nif.toLowerCase()} `,
        viviendaId: homeA1.id,
        gradoDependencia: '',
        fotoUrl: '',
        id: 424242,
        viviendas: [{ id: homeB.id }],
      },
    })
    expect(res.statusCode).toBe(201)
    const body = res.json()
    expect(body).toEqual({
      id: body.id,
      nombre: 'José',
      apellidos: 'García Núñez',
      nif,
      gradoDependencia: null,
      fotoUrl: null,
      viviendas: [{ id: homeA1.id, nombre: 'Calle Alfa 1', empresaId: empresaA.id }],
    })
    expect(body.id).not.toBe(424242)
    expect(await rowOf(body.id)).toMatchObject({ nif, gradoDependencia: null, fotoUrl: null, viviendaId: homeA1.id })
    const log = await lastLog(empleado.id)
    expect(log).toMatchObject({
      accion: 'Crear usuario',
      url: '/usuarios',
      tipo: 'success',
      viviendaId: homeA1.id,
      usuarioId: body.id,
      descripcion: `Usuario creado: José García Núñez (${nif}) en la vivienda Calle Alfa 1`,
    })
    expect(log?.datos).toEqual({ despues: body })
  })

  it('accepts a NIE and the grades PVS and PEI', async () => {
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/usuarios',
      payload: { ...valid(), nif: nie('Y', '1234567'), gradoDependencia: 'PEI', fotoUrl: 'https://fotos.es/a.png' },
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({ nif: nie('Y', '1234567'), gradoDependencia: 'PEI', fotoUrl: 'https://fotos.es/a.png' })
  })

  it('answers 400 with SPEC’s field messages', async () => {
    const empty = await t.as(admin, { method: 'POST', url: '/api/usuarios', payload: {} })
    expect(empty.statusCode).toBe(400)
    expect(empty.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: {
        nombre: 'El nombre es obligatorio',
        apellidos: 'Los apellidos son obligatorios',
        nif: 'El NIF es obligatorio',
        viviendaId: 'La vivienda es obligatoria',
      },
    })
    const wrong = await t.as(admin, {
      method: 'POST',
      url: '/api/usuarios',
      payload: { nombre: 'J', apellidos: 'L0pez', nif: '1234', viviendaId: 'casa', gradoDependencia: 'XX', fotoUrl: 'no-es-url' },
    })
    expect(wrong.json().fieldErrors).toEqual({
      nombre: usuarioMessages.nombreLongitud,
      apellidos: usuarioMessages.apellidosCaracteres,
      nif: 'El NIF debe tener 8 números y 1 letra (ej: 12345678Z)',
      viviendaId: 'Selecciona una vivienda',
      gradoDependencia: 'El grado de dependencia debe ser PVS o PEI',
      fotoUrl: 'La foto debe ser una URL válida',
    })
    const letter = await t.as(admin, {
      method: 'POST',
      url: '/api/usuarios',
      payload: { ...valid(), nif: '12345678A', viviendaId: -3 },
    })
    expect(letter.json().fieldErrors).toEqual({ nif: 'El NIF no es válido', viviendaId: 'Selecciona una vivienda válida' })
  })

  it('answers 400 on viviendaId for a home that does not exist, leaving no row and no log', async () => {
    const before = await logCount()
    const payload = { ...valid(), viviendaId: 999999 }
    const res = await t.as(superadmin, { method: 'POST', url: '/api/usuarios', payload })
    expect(res.statusCode).toBe(400)
    expect(res.json().fieldErrors).toEqual({ viviendaId: 'Selecciona una vivienda válida' })
    expect(await t.db.select().from(usuarios).where(eq(usuarios.nif, payload.nif))).toEqual([])
    expect(await logCount()).toBe(before)
  })

  it('refuses ADMIN and EMPLEADO a home of another company with SPEC’s message; SUPERADMIN may', async () => {
    for (const w of [admin, empleado]) {
      const payload = { ...valid(), viviendaId: homeB.id }
      const res = await t.as(w, { method: 'POST', url: '/api/usuarios', payload })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({ statusCode: 403, code: 'FORBIDDEN', message: 'No puedes crear un usuario en esta vivienda' })
      expect(await t.db.select().from(usuarios).where(eq(usuarios.nif, payload.nif))).toEqual([])
    }
    expect(
      (await t.as(superadmin, { method: 'POST', url: '/api/usuarios', payload: { ...valid(), viviendaId: homeB.id } }))
        .statusCode,
    ).toBe(201)
  })

  it('answers 409 with the NIF field error for a duplicate NIF, whatever its case, writing nothing', async () => {
    const existing = await makeUsuario(t.db, homeB.id)
    const before = await logCount()
    const res = await t.as(admin, {
      method: 'POST',
      url: '/api/usuarios',
      payload: { ...valid(), nif: existing.nif.toLowerCase() },
    })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'Ya existe un usuario con ese NIF',
      fieldErrors: { nif: 'Ya existe un usuario con ese NIF' },
    })
    expect(await t.db.select().from(usuarios).where(eq(usuarios.nif, existing.nif))).toHaveLength(1)
    expect(await logCount()).toBe(before)
  })

  it('lets only one of two simultaneous creations with the same NIF through; the other gets the same 409', async () => {
    const nif = makeNif()
    const post = () => t.as(admin, { method: 'POST', url: '/api/usuarios', payload: { ...valid(), nif } })
    const answers = await Promise.all([post(), post()])
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409])
    expect(answers.find((r) => r.statusCode === 409)?.json().fieldErrors).toEqual({ nif: usuarioMessages.nifDuplicado })
    expect(await t.db.select().from(usuarios).where(eq(usuarios.nif, nif))).toHaveLength(1)
  })

  it('requires a token', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/usuarios', payload: valid() })).statusCode).toBe(401)
  })
})

describe('PATCH /api/usuarios/:id', () => {
  it('modifies an own resident (EMPLEADO included) and logs antes/despues with its home', async () => {
    const u = await makeUsuario(t.db, homeA1.id, { nombre: 'Pedro', gradoDependencia: 'PVS', fotoUrl: 'https://fotos.es/p.png' })
    const res = await t.as(empleado, {
      method: 'PATCH',
      url: `/api/usuarios/${u.id}`,
      payload: { nombre: 'Pablo', gradoDependencia: '', fotoUrl: '', nif: u.nif.toLowerCase() },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id: u.id, nombre: 'Pablo', nif: u.nif, gradoDependencia: null, fotoUrl: null })
    expect(await rowOf(u.id)).toMatchObject({ nombre: 'Pablo', gradoDependencia: null, fotoUrl: null, viviendaId: homeA1.id })
    const log = await lastLog(empleado.id)
    expect(log).toMatchObject({
      accion: 'Modificar usuario',
      url: '/usuarios',
      tipo: 'warning',
      viviendaId: homeA1.id,
      usuarioId: u.id,
    })
    expect(log?.datos).toMatchObject({
      antes: { nombre: 'Pedro', gradoDependencia: 'PVS' },
      despues: { nombre: 'Pablo', gradoDependencia: null },
    })
  })

  it('moves a resident to another own home through viviendaId (one home at a time)', async () => {
    const u = await makeUsuario(t.db, homeA1.id)
    const res = await t.as(admin, { method: 'PATCH', url: `/api/usuarios/${u.id}`, payload: { viviendaId: homeA2.id } })
    expect(res.statusCode).toBe(200)
    expect(res.json().viviendas).toEqual([{ id: homeA2.id, nombre: 'Calle Alfa 2', empresaId: empresaA.id }])
    expect((await rowOf(u.id))?.viviendaId).toBe(homeA2.id)
    const log = await lastLog(admin.id)
    expect(log).toMatchObject({ viviendaId: homeA2.id, usuarioId: u.id })
    expect(log?.descripcion).toContain('trasladado de Calle Alfa 1 a Calle Alfa 2')
  })

  it('refuses moving to another company’s home (403, SPEC message) and to a missing one (400)', async () => {
    const u = await makeUsuario(t.db, homeA1.id)
    const refused = await t.as(admin, {
      method: 'PATCH',
      url: `/api/usuarios/${u.id}`,
      payload: { nombre: 'Cambiado', viviendaId: homeB.id },
    })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().message).toBe('No puedes modificar un usuario a esta vivienda')
    const missing = await t.as(admin, { method: 'PATCH', url: `/api/usuarios/${u.id}`, payload: { viviendaId: 999999 } })
    expect(missing.statusCode).toBe(400)
    expect(missing.json().fieldErrors).toEqual({ viviendaId: 'Selecciona una vivienda válida' })
    expect(await rowOf(u.id)).toMatchObject({ nombre: u.nombre, viviendaId: homeA1.id })
  })

  it('answers 409 for another resident’s NIF, 400 with field messages, 404 for another company’s resident, 401', async () => {
    const u = await makeUsuario(t.db, homeA1.id)
    const other = await makeUsuario(t.db, homeB.id)
    const dup = await t.as(admin, { method: 'PATCH', url: `/api/usuarios/${u.id}`, payload: { nif: other.nif } })
    expect(dup.statusCode).toBe(409)
    expect(dup.json().fieldErrors).toEqual({ nif: 'Ya existe un usuario con ese NIF' })
    const bad = await t.as(admin, {
      method: 'PATCH',
      url: `/api/usuarios/${u.id}`,
      payload: { nombre: '', apellidos: 'A', nif: '87654321A' },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().fieldErrors).toEqual({
      nombre: 'El nombre es obligatorio',
      apellidos: usuarioMessages.apellidosLongitud,
      nif: 'El NIF no es válido',
    })
    const foreign = await t.as(admin, { method: 'PATCH', url: `/api/usuarios/${other.id}`, payload: { nombre: 'Robado' } })
    expect(foreign.statusCode).toBe(404)
    expect((await rowOf(other.id))?.nombre).toBe(other.nombre)
    expect((await t.app.inject({ method: 'PATCH', url: `/api/usuarios/${u.id}`, payload: { nombre: 'Nadie' } })).statusCode).toBe(
      401,
    )
  })
})

describe('DELETE /api/usuarios/:id', () => {
  it('deletes the resident with its documents, cash movements and calendar links in one go, and logs them', async () => {
    const u = await makeUsuario(t.db, homeA1.id)
    const keep = await makeUsuario(t.db, homeA1.id)
    const doc = await makeDocumento(t.db, u.id, { titulo: 'PIR' })
    await makeDocumento(t.db, keep.id)
    await makeMovimientoCaja(t.db, u.id, { cantidad: '-20.75', concepto: 'Farmacia' })
    const tarea = await makePlaningTarea(t.db, [u.id, keep.id])
    const res = await t.as(empleado, { method: 'DELETE', url: `/api/usuarios/${u.id}` })
    expect(res.statusCode).toBe(204)
    expect(await rowOf(u.id)).toBeUndefined()
    expect(await t.db.select().from(documentosUsuario).where(eq(documentosUsuario.usuarioId, u.id))).toEqual([])
    expect(await t.db.select().from(cajaUsuario).where(eq(cajaUsuario.usuarioId, u.id))).toEqual([])
    expect(await t.db.select().from(planingTareaUsuarios).where(eq(planingTareaUsuarios.usuarioId, u.id))).toEqual([])
    // Other residents' data stay, and the calendar task itself stays.
    expect(await t.db.select().from(documentosUsuario).where(eq(documentosUsuario.usuarioId, keep.id))).toHaveLength(1)
    expect(await t.db.select().from(planingTareas).where(eq(planingTareas.id, tarea.id))).toHaveLength(1)
    const log = await lastLog(empleado.id)
    expect(log).toMatchObject({
      accion: 'Eliminar usuario',
      url: '/usuarios',
      tipo: 'error',
      viviendaId: homeA1.id,
      usuarioId: u.id,
    })
    const datos = log?.datos as { antes: { nif: string; documentos: { id: number }[]; movimientosCaja: { cantidad: string }[] } }
    expect(datos.antes.nif).toBe(u.nif)
    expect(datos.antes.documentos.map((d) => d.id)).toEqual([doc.id])
    expect(datos.antes.movimientosCaja).toMatchObject([{ cantidad: '-20.75', concepto: 'Farmacia' }])
  })

  it('keeps everything when the deletion cannot be logged (one transaction)', async () => {
    const u = await makeUsuario(t.db, homeA1.id)
    await makeDocumento(t.db, u.id)
    await makeMovimientoCaja(t.db, u.id)
    await t.db.execute(sql`alter table logs add constraint logs_test_block check (accion <> 'Eliminar usuario') not valid`)
    try {
      expect((await t.as(admin, { method: 'DELETE', url: `/api/usuarios/${u.id}` })).statusCode).toBe(500)
    } finally {
      await t.db.execute(sql`alter table logs drop constraint logs_test_block`)
    }
    expect(await rowOf(u.id)).toBeDefined()
    expect(await t.db.select().from(documentosUsuario).where(eq(documentosUsuario.usuarioId, u.id))).toHaveLength(1)
    expect(await t.db.select().from(cajaUsuario).where(eq(cajaUsuario.usuarioId, u.id))).toHaveLength(1)
  })

  it('answers 404 for another company’s or a homeless resident (non-superadmin) and 401 without token', async () => {
    const foreign = await makeUsuario(t.db, homeB.id)
    const homeless = await makeUsuario(t.db, null)
    for (const u of [foreign, homeless]) {
      expect((await t.as(admin, { method: 'DELETE', url: `/api/usuarios/${u.id}` })).statusCode).toBe(404)
      expect(await rowOf(u.id)).toBeDefined()
    }
    expect((await t.as(superadmin, { method: 'DELETE', url: `/api/usuarios/${homeless.id}` })).statusCode).toBe(204)
    expect((await t.app.inject({ method: 'DELETE', url: `/api/usuarios/${foreign.id}` })).statusCode).toBe(401)
  })
})

describe('POST /api/usuarios/:id/viviendas/:viviendaId', () => {
  it('moves the resident to the home: the old link goes and the new one comes in one change', async () => {
    const u = await makeUsuario(t.db, homeA1.id)
    const res = await t.as(empleado, { method: 'POST', url: `/api/usuarios/${u.id}/viviendas/${homeA2.id}` })
    expect(res.statusCode).toBe(200)
    expect(res.json().viviendas).toEqual([{ id: homeA2.id, nombre: 'Calle Alfa 2', empresaId: empresaA.id }])
    expect((await rowOf(u.id))?.viviendaId).toBe(homeA2.id)
    const log = await lastLog(empleado.id)
    expect(log).toMatchObject({ accion: 'Modificar usuario', tipo: 'warning', viviendaId: homeA2.id, usuarioId: u.id })
    expect(log?.datos).toMatchObject({ antes: { viviendas: [{ id: homeA1.id }] }, despues: { viviendas: [{ id: homeA2.id }] } })
  })

  it('changes nothing and logs nothing when the resident already lives there', async () => {
    const u = await makeUsuario(t.db, homeA1.id)
    const before = await logCount()
    const res = await t.as(admin, { method: 'POST', url: `/api/usuarios/${u.id}/viviendas/${homeA1.id}` })
    expect(res.statusCode).toBe(200)
    expect(res.json().viviendas).toEqual([{ id: homeA1.id, nombre: 'Calle Alfa 1', empresaId: empresaA.id }])
    expect(await logCount()).toBe(before)
  })

  it('gives a homeless resident a home (SUPERADMIN)', async () => {
    const u = await makeUsuario(t.db, null)
    const res = await t.as(superadmin, { method: 'POST', url: `/api/usuarios/${u.id}/viviendas/${homeB.id}` })
    expect(res.statusCode).toBe(200)
    expect((await rowOf(u.id))?.viviendaId).toBe(homeB.id)
  })

  it('refuses another company’s home (403), a missing home (404), another company’s resident (404) and no token (401)', async () => {
    const u = await makeUsuario(t.db, homeA1.id)
    const foreign = await makeUsuario(t.db, homeB.id)
    const refused = await t.as(admin, { method: 'POST', url: `/api/usuarios/${u.id}/viviendas/${homeB.id}` })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().message).toBe(permissionMessages.moverUsuarioAVivienda)
    const missing = await t.as(admin, { method: 'POST', url: `/api/usuarios/${u.id}/viviendas/999999` })
    expect(missing.statusCode).toBe(404)
    expect(missing.json().message).toBe('No se ha encontrado la vivienda.')
    expect((await t.as(admin, { method: 'POST', url: `/api/usuarios/${foreign.id}/viviendas/${homeA1.id}` })).statusCode).toBe(
      404,
    )
    expect((await t.as(admin, { method: 'POST', url: `/api/usuarios/${u.id}/viviendas/abc` })).statusCode).toBe(404)
    expect((await rowOf(u.id))?.viviendaId).toBe(homeA1.id)
    expect((await rowOf(foreign.id))?.viviendaId).toBe(homeB.id)
    expect((await t.app.inject({ method: 'POST', url: `/api/usuarios/${u.id}/viviendas/${homeA2.id}` })).statusCode).toBe(401)
  })
})

describe('DELETE /api/usuarios/:id/viviendas/:viviendaId', () => {
  it("leaves the resident 'Sin vivienda' (SUPERADMIN), visible from then on to SUPERADMIN only", async () => {
    const u = await makeUsuario(t.db, homeA1.id)
    const res = await t.as(superadmin, { method: 'DELETE', url: `/api/usuarios/${u.id}/viviendas/${homeA1.id}` })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ id: u.id, viviendas: [] })
    expect((await rowOf(u.id))?.viviendaId).toBeNull()
    const log = await lastLog(superadmin.id)
    expect(log).toMatchObject({ accion: 'Modificar usuario', tipo: 'warning', viviendaId: homeA1.id, usuarioId: u.id })
    expect((await t.as(admin, { method: 'GET', url: `/api/usuarios/${u.id}` })).statusCode).toBe(404)
    expect((await t.as(superadmin, { method: 'GET', url: `/api/usuarios/${u.id}` })).json().viviendas).toEqual([])
  })

  it('refuses an ADMIN or EMPLEADO (409), who would lose the resident, and leaves it in its home; linking moves it', async () => {
    const u = await makeUsuario(t.db, homeA1.id)
    const before = await logCount()
    for (const who of [admin, empleado]) {
      const res = await t.as(who, { method: 'DELETE', url: `/api/usuarios/${u.id}/viviendas/${homeA1.id}` })
      expect(res.statusCode).toBe(409)
      expect(res.json().message).toBe(usuarioMessages.sinViviendaSoloSuperadmin)
    }
    expect((await rowOf(u.id))?.viviendaId).toBe(homeA1.id)
    expect(await logCount()).toBe(before)
    // SPEC §4's move, as the message says: the link alone, in one change.
    const moved = await t.as(admin, { method: 'POST', url: `/api/usuarios/${u.id}/viviendas/${homeA2.id}` })
    expect(moved.statusCode).toBe(200)
    expect((await rowOf(u.id))?.viviendaId).toBe(homeA2.id)
  })

  it('answers 404 for a home the resident is not linked to or another company’s resident, and 401', async () => {
    const u = await makeUsuario(t.db, homeA1.id)
    const foreign = await makeUsuario(t.db, homeB.id)
    const wrong = await t.as(admin, { method: 'DELETE', url: `/api/usuarios/${u.id}/viviendas/${homeA2.id}` })
    expect(wrong.statusCode).toBe(404)
    expect(wrong.json().message).toBe('El usuario no está vinculado a esa vivienda.')
    expect((await t.as(admin, { method: 'DELETE', url: `/api/usuarios/${foreign.id}/viviendas/${homeB.id}` })).statusCode).toBe(
      404,
    )
    expect((await rowOf(u.id))?.viviendaId).toBe(homeA1.id)
    expect((await rowOf(foreign.id))?.viviendaId).toBe(homeB.id)
    expect((await t.app.inject({ method: 'DELETE', url: `/api/usuarios/${u.id}/viviendas/${homeA1.id}` })).statusCode).toBe(401)
  })
})
