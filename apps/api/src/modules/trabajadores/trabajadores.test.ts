import type { AddressInfo } from 'node:net'
import { permissionMessages, RESTABLECER_INVALID, trabajadorMessages } from '@vb/shared'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { logs } from '../../db/schema'
import { TEST_PASSWORD, type TestWorker } from '../../test/build-test-app'
import { makeNif } from '../../test/factories'
import { STANDARD_WORKERS, testScenario } from '../../test/scenario'

const scenario = await testScenario({ workers: { ...STANDARD_WORKERS, superadmin: { rol: 'SUPERADMIN', of: ['A', 'B'] } } })
const { t, superadmin, admin, empleado } = scenario
const propia = scenario.empresaA.id
const ajena = scenario.empresaB.id

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

describe('POST /api/trabajadores/:id/restablecer-password (issue faults item 4)', () => {
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
