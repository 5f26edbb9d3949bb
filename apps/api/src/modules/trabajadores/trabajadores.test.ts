import type { AddressInfo } from 'node:net'
import { permissionMessages, RESTABLECER_INVALID, trabajadorMessages, uploadMessages } from '@vb/shared'
import { and, desc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../../app'
import {
  logs,
  notificaciones,
  passwordResets,
  tareasTrabajador,
  trabajadorEmpresas,
  trabajadores,
  uploads,
} from '../../db/schema'
import { samplePng } from '../../lib/sample-files'
import { loadActor } from '../../plugins/auth'
import { buildTestApp, TEST_JWT_SECRET, TEST_PASSWORD, type TestWorker } from '../../test/build-test-app'
import { makeEmpresa, makeNif, makeVivienda } from '../../test/factories'
import { multipart } from '../../test/files'
import { STANDARD_WORKERS, testScenario } from '../../test/scenario'
import { trabajadoresResource } from './trabajadores.service'

const scenario = await testScenario({ workers: { ...STANDARD_WORKERS, superadmin: { rol: 'SUPERADMIN', of: ['A', 'B'] } } })
const { t, superadmin, admin, empleado } = scenario
const propia = scenario.empresaA.id
const ajena = scenario.empresaB.id

/** A PNG uploaded by `who`, not attached to anything yet. */
async function uploadPng(who: TestWorker): Promise<{ id: string; url: string }> {
  const res = await t.as(who, {
    method: 'POST',
    url: '/api/uploads',
    ...multipart({ filename: 'foto.png', content: samplePng() }),
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json()
}

const body = (extra: Record<string, unknown> = {}) => ({
  nombre: 'Lucía',
  apellidos: "O'Donnell-García",
  email: `lucia.${Math.random().toString(36).slice(2)}@prueba.es`,
  nif: makeNif(),
  rol: 'EMPLEADO',
  empresaIds: [propia],
  ...extra,
})

describe('POST /api/trabajadores (DECISIONS P3, S1)', () => {
  it('creates a worker with a one-time temporary password that the worker must change', async () => {
    const res = await t.as(admin, { method: 'POST', url: '/api/trabajadores', payload: body() })
    expect(res.statusCode, res.body).toBe(201)
    const { trabajador, passwordTemporal } = res.json()
    expect(trabajador).toMatchObject({ rol: 'EMPLEADO', activo: true, passwordTemporal: true, empresas: [{ id: propia }] })
    expect(passwordTemporal).toMatch(/^(?=.*[A-Z])(?=.*\d).{12}$/)
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/trabajadores/login',
      payload: { email: trabajador.email, password: passwordTemporal },
    })
    expect(login.json().trabajador.passwordTemporal).toBe(true)
  })

  it('lets an ADMIN create only EMPLEADO or ADMIN, only in its own companies; EMPLEADO creates nobody', async () => {
    expect(
      (await t.as(admin, { method: 'POST', url: '/api/trabajadores', payload: body({ rol: 'SUPERADMIN' }) })).statusCode,
    ).toBe(403)
    const foreign = await t.as(admin, { method: 'POST', url: '/api/trabajadores', payload: body({ empresaIds: [ajena] }) })
    expect(foreign.statusCode).toBe(403)
    expect(foreign.json().message).toBe(permissionMessages.asignarEmpresa)
    expect((await t.as(empleado, { method: 'POST', url: '/api/trabajadores', payload: body() })).statusCode).toBe(403)
    expect(
      (await t.as(superadmin, { method: 'POST', url: '/api/trabajadores', payload: body({ rol: 'SUPERADMIN' }) })).statusCode,
    ).toBe(201)
  })

  it("refuses an ADMIN's worker in no company, which none of its lists would show; a SUPERADMIN's may be", async () => {
    const none = body({ empresaIds: [] })
    const res = await t.as(admin, { method: 'POST', url: '/api/trabajadores', payload: none })
    expect(res.statusCode).toBe(400)
    expect(res.json().fieldErrors).toEqual({ empresaIds: trabajadorMessages.empresaObligatoria })
    expect(await t.db.select().from(trabajadores).where(eq(trabajadores.email, none.email))).toEqual([])
    const bySuper = await t.as(superadmin, { method: 'POST', url: '/api/trabajadores', payload: body({ empresaIds: [] }) })
    expect(bySuper.statusCode, bySuper.body).toBe(201)
  })

  it('answers 409 for an e-mail already in use (any case) and 400 with SPEC messages', async () => {
    const first = body()
    expect((await t.as(superadmin, { method: 'POST', url: '/api/trabajadores', payload: first })).statusCode).toBe(201)
    const again = await t.as(superadmin, {
      method: 'POST',
      url: '/api/trabajadores',
      payload: body({ email: first.email.toUpperCase() }),
    })
    expect(again.statusCode).toBe(409)
    expect(again.json().fieldErrors).toEqual({ email: trabajadorMessages.emailDuplicado })
    const bad = await t.as(superadmin, {
      method: 'POST',
      url: '/api/trabajadores',
      payload: { ...body(), nif: 'X12', rol: 'JEFE' },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().fieldErrors).toMatchObject({ nif: trabajadorMessages.nif, rol: 'Selecciona un rol válido' })
  })
})

describe('PATCH /api/trabajadores/:id', () => {
  const patch = (who: TestWorker, id: number, payload: Record<string, unknown>) =>
    t.as(who, { method: 'PATCH', url: `/api/trabajadores/${id}`, payload })

  it('lets a worker edit its own name and e-mail, never its role or its own switch', async () => {
    const me = await t.worker('EMPLEADO', [propia])
    const ok = await patch(me, me.id, { nombre: 'Mª José', apellidos: 'Núñez' })
    expect(ok.statusCode, ok.body).toBe(200)
    expect(ok.json()).toMatchObject({ nombre: 'Mª José', apellidos: 'Núñez' })
    expect((await patch(me, me.id, { rol: 'ADMIN' })).statusCode).toBe(403)
    expect((await patch(me, me.id, { activo: false })).statusCode).toBe(403)
    const [entry] = await t.db.select().from(logs).where(eq(logs.trabajadorId, me.id))
    expect(entry?.accion).toBe('Modificar configuración de usuario')
    // Saved again as it is (the pencil opened and closed): the same answer, no second entry.
    const same = await patch(me, me.id, { nombre: 'Mª José', apellidos: 'Núñez', email: ok.json().email })
    expect(same.statusCode, same.body).toBe(200)
    expect(same.json()).toEqual(ok.json())
    expect(await t.db.select().from(logs).where(eq(logs.trabajadorId, me.id))).toHaveLength(1)
  })

  it("an administrator's edit that changes nothing writes no log entry; one that changes a field does", async () => {
    const colleague = await t.worker('EMPLEADO', [propia], { nombre: 'Lola', apellidos: 'Prieto' })
    const entries = async () => (await t.db.select().from(logs).where(eq(logs.trabajadorId, admin.id))).length
    const before = await entries()
    const same = await patch(admin, colleague.id, { nombre: 'Lola', apellidos: 'Prieto', rol: 'EMPLEADO', activo: true })
    expect(same.statusCode, same.body).toBe(200)
    expect(await entries()).toBe(before)
    expect((await patch(admin, colleague.id, { activo: false })).statusCode).toBe(200)
    expect(await entries()).toBe(before + 1)
  })

  it('lets an ADMIN edit the workers of its companies but not a SUPERADMIN, nor make one; others are 404', async () => {
    const colleague = await t.worker('EMPLEADO', [propia])
    const outsider = await t.worker('EMPLEADO', [ajena])
    expect((await patch(admin, colleague.id, { apellidos: 'Renombrado' })).statusCode).toBe(200)
    expect((await patch(admin, colleague.id, { rol: 'SUPERADMIN' })).statusCode).toBe(403)
    expect((await patch(admin, superadmin.id, { apellidos: 'Intento' })).statusCode).toBe(403)
    expect((await patch(admin, outsider.id, { apellidos: 'Intento' })).statusCode).toBe(404)
    expect((await patch(empleado, colleague.id, { apellidos: 'Intento' })).statusCode).toBe(403)
  })

  it('deactivating a worker ends its open streams at once and its tokens stop working', async () => {
    const target = await t.worker('EMPLEADO', [propia])
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    const res = await fetch(`${base}/api/notificaciones/stream`, { headers: { authorization: `Bearer ${target.token}` } })
    expect(res.status).toBe(200)
    const ended = res.text()
    const off = await patch(admin, target.id, { activo: false })
    expect(off.statusCode).toBe(200)
    expect(off.json().activo).toBe(false)
    await expect(ended).resolves.toBeTypeOf('string')
    expect((await t.as(target, { method: 'GET', url: '/api/trabajadores/me' })).statusCode).toBe(401)
  })
})

describe('POST /api/trabajadores/:id/restablecer-password', () => {
  const restablecer = (who: TestWorker, id: number) =>
    t.as(who, { method: 'POST', url: `/api/trabajadores/${id}/restablecer-password` })
  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/trabajadores/login', payload: { email, password } })
  const linkFor = async (email: string) => {
    t.mails.length = 0
    await t.app.inject({ method: 'POST', url: '/api/auth/recuperar', payload: { email } })
    await t.app.deps.background.idle()
    return t.mails.at(-1)?.text.match(/#token=([\w-]+)/)?.[1] as string
  }

  it('gives a worker a one-time temporary password and ends its sessions; the old password stops working', async () => {
    const target = await t.worker('EMPLEADO', [propia])
    const res = await restablecer(admin, target.id)
    expect(res.statusCode, res.body).toBe(200)
    const { trabajador, passwordTemporal } = res.json()
    expect(trabajador).toMatchObject({ id: target.id, passwordTemporal: true, empresas: [{ id: propia }] })
    expect(passwordTemporal).toMatch(/^(?=.*[A-Z])(?=.*\d).{12}$/)
    const fresh = await login(target.email, passwordTemporal)
    expect(fresh.statusCode).toBe(200)
    expect(fresh.json().trabajador.passwordTemporal).toBe(true)
    expect((await login(target.email, TEST_PASSWORD)).statusCode).toBe(401)
    expect((await t.as(target, { method: 'GET', url: '/api/trabajadores/me' })).statusCode).toBe(401)
  })

  it('spends a reset link the worker asked for before', async () => {
    const target = await t.worker('EMPLEADO', [propia])
    const token = await linkFor(target.email)
    expect(token).toBeTruthy()
    expect((await restablecer(admin, target.id)).statusCode).toBe(200)
    const used = await t.app.inject({
      method: 'POST',
      url: '/api/auth/restablecer',
      payload: { token, passwordNueva: 'Recuperada1' },
    })
    expect(used.statusCode).toBe(400)
    expect(used.json().message).toBe(RESTABLECER_INVALID)
    expect((await login(target.email, 'Recuperada1')).statusCode).toBe(401)
  })

  it("refuses EMPLEADO, one's own password and an ADMIN on a SUPERADMIN; another company's worker is 404 like a missing one", async () => {
    const colleague = await t.worker('EMPLEADO', [propia])
    const outsider = await t.worker('EMPLEADO', [ajena])
    const refused = await restablecer(empleado, colleague.id)
    expect(refused.statusCode).toBe(403)
    expect(refused.json().message).toBe(permissionMessages.generic)
    const own = await restablecer(admin, admin.id)
    expect(own.statusCode).toBe(403)
    expect(own.json().message).toBe(trabajadorMessages.restablecerPropia)
    expect((await restablecer(superadmin, superadmin.id)).statusCode).toBe(403)
    expect((await restablecer(admin, superadmin.id)).statusCode).toBe(403)
    const foreign = await restablecer(admin, outsider.id)
    const missing = await restablecer(admin, 999_999_999)
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json()).toEqual(missing.json())
    expect(missing.json().message).toBe(trabajadorMessages.noEncontrado)
    // Nothing changed for any of them.
    for (const w of [colleague, outsider, admin, superadmin]) {
      expect((await t.as(w, { method: 'GET', url: '/api/trabajadores/me' })).statusCode).toBe(200)
    }
    expect((await restablecer(superadmin, outsider.id)).statusCode).toBe(200)
  })

  it('writes a log entry that never holds the password', async () => {
    const target = await t.worker('EMPLEADO', [propia])
    const res = await restablecer(admin, target.id)
    expect(res.statusCode).toBe(200)
    const { passwordTemporal } = res.json()
    const entries = await t.db.select().from(logs).where(eq(logs.trabajadorId, admin.id))
    const entry = entries.find((e) => e.accion === 'Restablecimiento de contraseña' && e.descripcion.includes(target.email))
    expect(entry).toMatchObject({ url: '/trabajadores', tipo: 'warning' })
    expect(JSON.stringify(entry)).not.toContain(passwordTemporal)
  })
})

describe('GET /api/trabajadores/:id (SPEC §7)', () => {
  it('lets any worker read itself, as /me does; another worker only those who may list workers', async () => {
    const own = await t.as(empleado, { method: 'GET', url: `/api/trabajadores/${empleado.id}` })
    expect(own.statusCode, own.body).toBe(200)
    expect(own.json()).toEqual((await t.as(empleado, { method: 'GET', url: '/api/trabajadores/me' })).json())
    expect((await t.as(empleado, { method: 'GET', url: `/api/trabajadores/${admin.id}` })).statusCode).toBe(403)
    expect((await t.as(admin, { method: 'GET', url: `/api/trabajadores/${empleado.id}` })).json().id).toBe(empleado.id)
    // Another company's worker is out of an ADMIN's reach, as if it did not exist (P1).
    const fuera = await t.worker('EMPLEADO', [ajena])
    expect((await t.as(admin, { method: 'GET', url: `/api/trabajadores/${fuera.id}` })).statusCode).toBe(404)
  })
})

describe('GET /api/trabajadores (SPEC §2.10)', () => {
  const list = (who: TestWorker, query = '') => t.as(who, { method: 'GET', url: `/api/trabajadores?${query}` })

  it('searches by name, surname, e-mail and NIF without case or accents, sorted and paged on the server', async () => {
    const e = (await makeEmpresa(t.db)).id
    const boss = await t.worker('ADMIN', [e])
    const nif = makeNif()
    const a = await t.worker('EMPLEADO', [e], { nombre: 'Íñigo', apellidos: 'Zubizarreta Núñez', email: 'inigo.zubi@prueba.es' })
    const b = await t.worker('EMPLEADO', [e], { nombre: 'Ana', apellidos: 'Álvarez Ruiz', nif })
    for (const [q, id] of [
      ['inigo', a.id],
      ['NUNEZ', a.id],
      ['zubi@prueba', a.id],
      [nif.toLowerCase(), b.id],
    ] as const) {
      const res = await list(boss, `q=${encodeURIComponent(q)}&empresaId=${e}`)
      expect(res.statusCode).toBe(200)
      expect(res.json().map((w: { id: number }) => w.id)).toEqual([id])
      expect(res.headers['x-total-count']).toBe('1')
    }
    // Sorted by surname (accents with their letter), then paged: 3 workers, 2 per page.
    const page1 = await list(boss, `empresaId=${e}&sort=apellidos&order=asc&pageSize=2`)
    expect(page1.headers['x-total-count']).toBe('3')
    expect(page1.json().map((w: { apellidos: string }) => w.apellidos)).toEqual([
      'Álvarez Ruiz',
      expect.stringMatching(/^Trabajador/),
    ])
    const page2 = await list(boss, `empresaId=${e}&sort=apellidos&order=asc&pageSize=2&page=2`)
    expect(page2.json().map((w: { id: number }) => w.id)).toEqual([a.id])
    // Each row carries its companies and its state, never a password hash.
    expect(page2.json()[0]).toMatchObject({ activo: true, empresas: [{ id: e }], foto: null })
    expect(JSON.stringify(page2.json())).not.toMatch(/password_?hash|tokenVersion/i)
  })

  it('shows an ADMIN only the workers who share a company with it; SUPERADMIN all; EMPLEADO gets 403', async () => {
    const colleague = await t.worker('EMPLEADO', [propia])
    const outsider = await t.worker('EMPLEADO', [ajena])
    const ids = async (who: TestWorker) =>
      (await list(who, 'pageSize=100&sort=apellidos&order=desc')).json().map((w: { id: number }) => w.id)
    expect(await ids(admin)).toContain(colleague.id)
    expect(await ids(admin)).not.toContain(outsider.id)
    expect(await ids(superadmin)).toEqual(expect.arrayContaining([colleague.id, outsider.id]))
    // SPEC §6's task selector: the workers sharing a company, SUPERADMINs left out.
    const selector = (await list(admin, 'rol=EMPLEADO,ADMIN&pageSize=100')).json() as Array<{ rol: string }>
    expect(selector.length).toBeGreaterThan(0)
    expect(selector.every((w) => w.rol !== 'SUPERADMIN')).toBe(true)
    expect((await list(admin, 'rol=JEFE')).statusCode).toBe(400)
    expect((await list(empleado)).statusCode).toBe(403)
    expect((await t.as(admin, { method: 'GET', url: `/api/trabajadores/${outsider.id}` })).statusCode).toBe(404)
    expect((await t.as(admin, { method: 'GET', url: `/api/trabajadores/${colleague.id}` })).json().id).toBe(colleague.id)
  })
})

describe('bad input is refused with a clear message and leaves no half-created worker', () => {
  const post = (payload: Record<string, unknown>, who: TestWorker = superadmin) =>
    t.as(who, { method: 'POST', url: '/api/trabajadores', payload })
  const exists = async (email: string) =>
    (await t.db.select().from(trabajadores).where(eq(trabajadores.email, email.toLowerCase()))).length > 0

  it('accepts a NIE with lower-case letters and spaces and stores it normalised', async () => {
    const res = await post(body({ nif: '  x1234567l ' }))
    expect(res.statusCode, res.body).toBe(201)
    expect(res.json().trabajador.nif).toBe('X1234567L')
  })

  it('answers every SPEC §5 Worker message in fieldErrors', async () => {
    const res = await post({ nombre: '', apellidos: 'A', email: 'no-es-correo', nif: '123', rol: 'JEFE' })
    expect(res.statusCode).toBe(400)
    expect(res.json().fieldErrors).toEqual({
      nombre: trabajadorMessages.nombreObligatorio,
      apellidos: trabajadorMessages.apellidosLongitud,
      email: trabajadorMessages.email,
      nif: trabajadorMessages.nif,
      rol: 'Selecciona un rol válido',
    })
  })

  it('refuses a company that does not exist, or a photo that is not an upload of the caller, creating nothing', async () => {
    const noCompany = body({ empresaIds: [propia, 999_999_999] })
    const res = await post(noCompany)
    expect(res.statusCode).toBe(400)
    expect(res.json().fieldErrors).toEqual({ empresaIds: trabajadorMessages.empresasInvalidas })
    expect(await exists(noCompany.email)).toBe(false)

    const noUpload = body({ fotoUrl: '/api/uploads/00000000-0000-4000-8000-000000000000' })
    const refused = await post(noUpload)
    expect(refused.statusCode).toBe(400)
    expect(refused.json().fieldErrors).toEqual({ fotoUrl: uploadMessages.noDisponible })
    expect(await exists(noUpload.email)).toBe(false)

    // Someone else's upload is not the caller's to attach.
    const other = await uploadPng(admin)
    const foreign = body({ fotoUrl: other.url })
    expect((await post(foreign)).statusCode).toBe(400)
    expect(await exists(foreign.email)).toBe(false)
    const bad = await post(body({ fotoUrl: 'javascript:alert(1)' }))
    expect(bad.json().fieldErrors).toEqual({ fotoUrl: trabajadorMessages.foto })
  })

  it('refuses a photo of a type SPEC does not accept, or over 10 MB, at the upload', async () => {
    const svg = await t.as(superadmin, {
      method: 'POST',
      url: '/api/uploads',
      ...multipart({ filename: 'foto.svg', content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') }),
    })
    expect(svg.statusCode).toBe(415)
    const big = await t.as(superadmin, {
      method: 'POST',
      url: '/api/uploads',
      ...multipart({ filename: 'foto.png', content: Buffer.concat([samplePng(), Buffer.alloc(10 * 1024 * 1024)]) }),
    })
    expect(big.statusCode).toBe(413)
  })

  it('stores an uploaded photo with the worker and shows it through signed links to those who see the worker', async () => {
    const upload = await uploadPng(admin)
    const res = await post(body({ fotoUrl: upload.url }), admin)
    expect(res.statusCode, res.body).toBe(201)
    const { trabajador } = res.json()
    expect(trabajador.fotoUrl).toBe(upload.url)
    expect(trabajador.foto).toMatchObject({ origen: 'subido', mime: 'image/png' })
    const image = await t.app.inject({ method: 'GET', url: trabajador.foto.url })
    expect(image.statusCode).toBe(200)
    expect(image.headers['content-type']).toBe('image/png')
    // The worker sees its own photo; a worker of another company does not reach the file.
    const [row] = await t.db.select().from(trabajadores).where(eq(trabajadores.id, trabajador.id))
    const self = {
      id: trabajador.id,
      email: trabajador.email,
      rol: 'EMPLEADO' as const,
      token: t.app.jwt.sign({ sub: String(trabajador.id), tv: row!.tokenVersion }),
    }
    await t.db.update(trabajadores).set({ passwordTemporal: false }).where(eq(trabajadores.id, trabajador.id))
    expect((await t.as(self, { method: 'GET', url: `/api/uploads/${upload.id}` })).statusCode).toBe(200)
    const outsider = await t.worker('ADMIN', [ajena])
    expect((await t.as(outsider, { method: 'GET', url: `/api/uploads/${upload.id}` })).statusCode).toBe(404)
    // Removing the photo drops its upload.
    const cleared = await t.as(admin, { method: 'PATCH', url: `/api/trabajadores/${trabajador.id}`, payload: { fotoUrl: '' } })
    expect(cleared.json()).toMatchObject({ fotoUrl: null, foto: null })
    expect(await t.db.select().from(uploads).where(eq(uploads.id, upload.id))).toEqual([])
  })
})

describe('self-escalation (DECISIONS A5, P3): never stored through any write', () => {
  it('ignores passwordTemporal, token versions and unknown fields in a create or an edit', async () => {
    const created = await t.as(admin, {
      method: 'POST',
      url: '/api/trabajadores',
      payload: { ...body(), passwordTemporal: false, tokenVersion: 99, passwordHash: 'x', id: 1 },
    })
    expect(created.statusCode).toBe(201)
    const { trabajador } = created.json()
    expect(trabajador.passwordTemporal).toBe(true)
    expect(trabajador.id).not.toBe(1)
    const patched = await t.as(admin, {
      method: 'PATCH',
      url: `/api/trabajadores/${trabajador.id}`,
      payload: { passwordTemporal: false, empresaIds: [ajena], tokenVersion: 5 },
    })
    expect(patched.statusCode).toBe(200)
    const [row] = await t.db.select().from(trabajadores).where(eq(trabajadores.id, trabajador.id))
    expect(row).toMatchObject({ passwordTemporal: true, tokenVersion: 0 })
    expect(patched.json().empresas).toEqual([{ id: propia, nombre: expect.any(String) }])
  })

  it("refuses a worker's own role, active flag, NIF and companies through every write, whatever its role", async () => {
    for (const rol of ['EMPLEADO', 'ADMIN'] as const) {
      const me = await t.worker(rol, [propia])
      const patch = (payload: Record<string, unknown>) =>
        t.as(me, { method: 'PATCH', url: `/api/trabajadores/${me.id}`, payload })
      const role = await patch({ rol: 'SUPERADMIN' })
      expect(role.statusCode).toBe(403)
      expect(role.json().message).toBe(trabajadorMessages.propioRol)
      expect((await patch({ activo: false })).json().message).toBe(trabajadorMessages.propioActivo)
      expect((await patch({ nif: 'X1234567L' })).json().message).toBe(trabajadorMessages.propioCampos)
      expect((await patch({ nombre: 'Mismo', passwordTemporal: true })).statusCode).toBe(200)
      const link = await t.as(me, { method: 'POST', url: `/api/trabajadores/${me.id}/empresas/${ajena}` })
      expect(link.statusCode).toBe(403)
      expect((await t.as(me, { method: 'DELETE', url: `/api/trabajadores/${me.id}/empresas/${propia}` })).statusCode).toBe(403)
      expect((await t.as(me, { method: 'DELETE', url: `/api/trabajadores/${me.id}` })).statusCode).toBe(403)
      const [row] = await t.db.select().from(trabajadores).where(eq(trabajadores.id, me.id))
      expect(row).toMatchObject({ rol, activo: true, nif: '12345678Z', passwordTemporal: false, nombre: 'Mismo' })
      const links = await t.db.select().from(trabajadorEmpresas).where(eq(trabajadorEmpresas.trabajadorId, me.id))
      expect(links.map((l) => l.empresaId)).toEqual([propia])
    }
  })

  it("answers the own-settings form's messages (SPEC §5 Own settings) and a duplicate e-mail with 409", async () => {
    const me = await t.worker('EMPLEADO', [propia])
    const patchOwn = (payload: Record<string, unknown>) =>
      t.as(me, { method: 'PATCH', url: `/api/trabajadores/${me.id}`, payload })
    const res = await patchOwn({ nombre: ' ', apellidos: '', email: 'mal' })
    expect(res.statusCode).toBe(400)
    expect(res.json().fieldErrors).toEqual({
      nombre: trabajadorMessages.nombreObligatorio,
      apellidos: trabajadorMessages.apellidosObligatorios,
      email: trabajadorMessages.emailSettings,
    })
    // The Worker's rules for the name and surnames come with the e-mail's at once, not on a second save.
    const short = await patchOwn({ nombre: 'E', apellidos: 'N2', email: 'mal' })
    expect(short.statusCode).toBe(400)
    expect(short.json().fieldErrors).toEqual({
      nombre: trabajadorMessages.nombreLongitud,
      apellidos: trabajadorMessages.apellidosCaracteres,
      email: trabajadorMessages.emailSettings,
    })
    const taken = await patchOwn({ email: admin.email.toUpperCase() })
    expect(taken.statusCode).toBe(409)
    expect(taken.json().fieldErrors).toEqual({ email: trabajadorMessages.emailDuplicado })
  })
})

describe('company links: POST/DELETE /api/trabajadores/:id/empresas/:empresaId (SPEC §7, DECISIONS P3)', () => {
  const link = (who: TestWorker, id: number, empresaId: number, method: 'POST' | 'DELETE' = 'POST') =>
    t.as(who, { method, url: `/api/trabajadores/${id}/empresas/${empresaId}` })

  it("lets an ADMIN link and unlink only its own companies, never a SUPERADMIN's; each change is logged", async () => {
    const segunda = (await makeEmpresa(t.db)).id
    const boss = await t.worker('ADMIN', [propia, segunda])
    const w = await t.worker('EMPLEADO', [propia])
    const added = await link(boss, w.id, segunda)
    expect(added.statusCode, added.body).toBe(200)
    expect(added.json().empresas.map((e: { id: number }) => e.id)).toEqual([propia, segunda])
    // Twice changes nothing.
    expect((await link(boss, w.id, segunda)).json().empresas).toHaveLength(2)
    const foreign = await link(boss, w.id, ajena)
    expect(foreign.statusCode).toBe(403)
    expect(foreign.json().message).toBe(permissionMessages.asignarEmpresa)
    expect((await link(boss, superadmin.id, segunda)).statusCode).toBe(403)
    expect((await link(empleado, w.id, segunda)).statusCode).toBe(403)
    expect((await link(superadmin, w.id, 999_999_999)).statusCode).toBe(404)
    const removed = await link(boss, w.id, segunda, 'DELETE')
    expect(removed.json().empresas.map((e: { id: number }) => e.id)).toEqual([propia])
    expect((await link(boss, w.id, segunda, 'DELETE')).statusCode).toBe(404)
    expect((await link(superadmin, w.id, ajena)).statusCode).toBe(200)
    const entries = await t.db.select().from(logs).where(eq(logs.trabajadorId, boss.id))
    expect(entries.map((e) => e.descripcion)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('vinculado a la empresa'),
        expect.stringContaining('desvinculado de la empresa'),
      ]),
    )
  })
})

describe('deactivating or deleting a worker (DECISIONS S2)', () => {
  it('deleting a worker refuses its token at once and ends its open streams on every process', async () => {
    const target = await t.worker('EMPLEADO', [propia])
    const other = await buildApp({ db: t.db, listen: t.database.listen, uploadsDir: t.uploadsDir, jwtSecret: TEST_JWT_SECRET })
    await other.listen({ port: 0, host: '127.0.0.1' })
    try {
      const res = await fetch(`http://127.0.0.1:${(other.server.address() as AddressInfo).port}/api/notificaciones/stream`, {
        headers: { authorization: `Bearer ${target.token}` },
      })
      expect(res.status).toBe(200)
      const ended = res.text()
      const gone = await t.as(admin, { method: 'DELETE', url: `/api/trabajadores/${target.id}` })
      expect(gone.statusCode).toBe(204)
      await expect(ended).resolves.toBeTypeOf('string')
      expect((await t.as(target, { method: 'GET', url: '/api/trabajadores/me' })).statusCode).toBe(401)
    } finally {
      await other.close()
    }
  })

  it('takes its links, tasks, notifications and reset links with it, keeping what matters in the log', async () => {
    const target = await t.worker('EMPLEADO', [propia])
    const vivienda = await makeVivienda(t.db, propia)
    await t.db.insert(tareasTrabajador).values({
      titulo: 'Revisar botiquín',
      descripcion: 'x',
      fecha: new Date(),
      viviendaId: vivienda.id,
      trabajadorId: target.id,
    })
    await t.db.insert(notificaciones).values({ titulo: 'Aviso', descripcion: 'x', trabajadorId: target.id })
    await t.db.insert(passwordResets).values({ trabajadorId: target.id, tokenHash: 'a'.repeat(64), expiresAt: new Date() })
    expect((await t.as(admin, { method: 'DELETE', url: `/api/trabajadores/${target.id}` })).statusCode).toBe(204)
    expect(await t.db.select().from(tareasTrabajador).where(eq(tareasTrabajador.trabajadorId, target.id))).toEqual([])
    const [entry] = await t.db
      .select()
      .from(logs)
      .where(and(eq(logs.trabajadorId, admin.id), eq(logs.accion, 'Eliminar trabajador')))
      .orderBy(desc(logs.id))
      .limit(1)
    expect(entry?.descripcion).toContain('con 1 tareas')
    const antes = (entry?.datos as { antes: Record<string, unknown> } | undefined)?.antes
    expect(antes).toMatchObject({ id: target.id, empresas: [propia], tareas: [{ titulo: 'Revisar botiquín' }] })
    expect(JSON.stringify(entry?.datos)).not.toContain('a'.repeat(64))
    expect(antes).not.toHaveProperty('notificaciones')
  })

  it('nobody deactivates or deletes itself, and an ADMIN never a SUPERADMIN', async () => {
    const me = await t.worker('SUPERADMIN', [])
    const off = await t.as(me, { method: 'PATCH', url: `/api/trabajadores/${me.id}`, payload: { activo: false } })
    expect(off.statusCode).toBe(403)
    const del = await t.as(me, { method: 'DELETE', url: `/api/trabajadores/${me.id}` })
    expect(del.statusCode).toBe(403)
    expect(del.json().message).toBe(trabajadorMessages.propioEliminar)
    expect((await t.as(admin, { method: 'DELETE', url: `/api/trabajadores/${superadmin.id}` })).statusCode).toBe(403)
    expect(
      (await t.as(admin, { method: 'PATCH', url: `/api/trabajadores/${superadmin.id}`, payload: { activo: false } })).statusCode,
    ).toBe(403)
  })

  it('refuses an ADMIN deleting a worker who is also in a company it does not belong to (DECISIONS P1)', async () => {
    const shared = await t.as(superadmin, {
      method: 'POST',
      url: '/api/trabajadores',
      payload: body({ empresaIds: [propia, ajena] }),
    })
    const id = shared.json().trabajador.id
    const del = await t.as(admin, { method: 'DELETE', url: `/api/trabajadores/${id}` })
    expect(del.statusCode).toBe(403)
    expect(del.json().message).toBe(trabajadorMessages.eliminarOtrasEmpresas)
    expect(
      await t.db
        .select({ e: trabajadorEmpresas.empresaId })
        .from(trabajadorEmpresas)
        .where(eq(trabajadorEmpresas.trabajadorId, id)),
    ).toHaveLength(2)
    // Once the other company's link is gone (a SUPERADMIN's change), the worker is the ADMIN's alone to delete.
    const unlink = await t.as(superadmin, { method: 'DELETE', url: `/api/trabajadores/${id}/empresas/${ajena}` })
    expect(unlink.statusCode, unlink.body).toBe(200)
    expect((await t.as(admin, { method: 'DELETE', url: `/api/trabajadores/${id}` })).statusCode).toBe(204)
  })

  it('keeps the last active SUPERADMIN: never deactivated, demoted or deleted, even by two at once', async () => {
    const t2 = await buildTestApp()
    try {
      const a = await t2.worker('SUPERADMIN', [])
      const b = await t2.worker('SUPERADMIN', [])
      // A's request was let in, then A was switched off by someone else: B is now the last active one.
      const actorA = (await loadActor(t2.db, a.id))!
      await t2.db.update(trabajadores).set({ activo: false }).where(eq(trabajadores.id, a.id))
      const service = trabajadoresResource.service
      for (const attempt of [
        () => service.remove(t2.app.deps, actorA, b.id, {}),
        () => service.update(t2.app.deps, actorA, b.id, { activo: false }, {}),
        () => service.update(t2.app.deps, actorA, b.id, { rol: 'ADMIN' }, {}),
      ]) {
        await expect(attempt()).rejects.toMatchObject({ code: 'CONFLICT', message: trabajadorMessages.ultimoSuperadmin })
      }
      expect((await t2.db.select().from(trabajadores).where(eq(trabajadores.id, b.id)))[0]).toMatchObject({
        rol: 'SUPERADMIN',
        activo: true,
      })

      // Two SUPERADMINs deleting each other at once: one wins, the other is refused (or its session is gone).
      await t2.db.update(trabajadores).set({ activo: true }).where(eq(trabajadores.id, a.id))
      const [ab, ba] = await Promise.all([
        t2.as(a, { method: 'DELETE', url: `/api/trabajadores/${b.id}` }),
        t2.as(b, { method: 'DELETE', url: `/api/trabajadores/${a.id}` }),
      ])
      expect([ab.statusCode, ba.statusCode].sort()).toEqual([204, expect.toSatisfy((c: number) => c === 401 || c === 409)])
      expect(await t2.db.select().from(trabajadores).where(eq(trabajadores.rol, 'SUPERADMIN'))).toHaveLength(1)
    } finally {
      await t2.close()
    }
  })
})
