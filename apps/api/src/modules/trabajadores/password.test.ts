import { passwordMessages, RESTABLECER_INVALID, trabajadorMessages } from '@vb/shared'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { logs } from '../../db/schema'
import { buildTestApp, TEST_PASSWORD } from '../../test/build-test-app'
import { makeEmpresa } from '../../test/factories'
import { testApp } from '../../test/scenario'

const t = await testApp()

const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/trabajadores/login', payload: { email, password } })

describe('temporary password (DECISIONS P4)', () => {
  it('allows only /me and the password change until the password is changed', async () => {
    const empresa = await makeEmpresa(t.db)
    const w = await t.worker('EMPLEADO', [empresa.id], { passwordTemporal: true })
    const res = await login(w.email, TEST_PASSWORD)
    expect(res.statusCode).toBe(200)
    expect(res.json().trabajador.passwordTemporal).toBe(true)
    const token = res.json().token as string
    const auth = { authorization: `Bearer ${token}` }

    expect((await t.app.inject({ method: 'GET', url: '/api/trabajadores/me', headers: auth })).statusCode).toBe(200)
    for (const url of ['/api/empresas', `/api/trabajadores/${w.id}/notificaciones`]) {
      const refused = await t.app.inject({ method: 'GET', url, headers: auth })
      expect(refused.statusCode).toBe(403)
      expect(refused.json().code).toBe('PASSWORD_CHANGE_REQUIRED')
    }

    const weak = await t.app.inject({
      method: 'PATCH',
      url: `/api/trabajadores/${w.id}/cambiar-password`,
      headers: auth,
      payload: { passwordNueva: 'debil' },
    })
    expect(weak.statusCode).toBe(400)
    expect(weak.json().fieldErrors).toEqual({ passwordNueva: passwordMessages.rule })

    const changed = await t.app.inject({
      method: 'PATCH',
      url: `/api/trabajadores/${w.id}/cambiar-password`,
      headers: auth,
      payload: { passwordNueva: 'NuevaClave1' },
    })
    expect(changed.statusCode).toBe(200)
    expect(changed.json().trabajador.passwordTemporal).toBe(false)
    const newAuth = { authorization: `Bearer ${changed.json().token}` }

    // The old token stopped working; the new one reaches everything.
    expect((await t.app.inject({ method: 'GET', url: '/api/trabajadores/me', headers: auth })).statusCode).toBe(401)
    expect((await t.app.inject({ method: 'GET', url: '/api/empresas', headers: newAuth })).statusCode).toBe(200)
    expect((await login(w.email, 'NuevaClave1')).statusCode).toBe(200)
    expect((await login(w.email, TEST_PASSWORD)).statusCode).toBe(401)
    const entries = await t.db.select().from(logs).where(eq(logs.trabajadorId, w.id))
    expect(entries.map((e) => e.accion)).toContain('Cambio de contraseña temporal')
  })
})

describe("SPEC §7's PATCH /api/trabajadores/:id with password: the temporary password changed", () => {
  const patch = (id: number, token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: `/api/trabajadores/${id}`, headers: { authorization: `Bearer ${token}` }, payload })

  it("changes one's own temporary password, alone, with SPEC §5's rule; the sessions end as for any change", async () => {
    const empresa = await makeEmpresa(t.db)
    const w = await t.worker('EMPLEADO', [empresa.id], { passwordTemporal: true })
    const token = (await login(w.email, TEST_PASSWORD)).json().token as string
    // Anything else this way is still refused until the password is changed (DECISIONS P4).
    const other = await patch(w.id, token, { nombre: 'Otro' })
    expect(other.statusCode).toBe(403)
    expect(other.json().code).toBe('PASSWORD_CHANGE_REQUIRED')
    const mixed = await patch(w.id, token, { password: 'NuevaClave1', nombre: 'Otro' })
    expect(mixed.statusCode).toBe(400)
    expect(mixed.json().fieldErrors).toEqual({ password: trabajadorMessages.passwordSola })
    const weak = await patch(w.id, token, { password: 'debil' })
    expect(weak.statusCode).toBe(400)
    expect(weak.json().fieldErrors).toEqual({ password: passwordMessages.rule })
    // The same password again is refused under the field this body sent it in.
    const same = await patch(w.id, token, { password: TEST_PASSWORD })
    expect(same.statusCode).toBe(400)
    expect(same.json().fieldErrors).toEqual({ password: passwordMessages.igualActual })

    const changed = await patch(w.id, token, { password: 'NuevaClave1' })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json()).toMatchObject({ id: w.id, passwordTemporal: false })
    expect(changed.json()).not.toHaveProperty('password')
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/trabajadores/me', headers: { authorization: `Bearer ${token}` } }))
        .statusCode,
    ).toBe(401)
    expect((await login(w.email, TEST_PASSWORD)).statusCode).toBe(401)
    const again = await login(w.email, 'NuevaClave1')
    expect(again.statusCode).toBe(200)
    const entries = await t.db.select().from(logs).where(eq(logs.trabajadorId, w.id))
    expect(entries.map((e) => e.accion)).toContain('Cambio de contraseña temporal')
    expect(JSON.stringify(entries)).not.toContain('NuevaClave1')

    // Not temporary any more: this way is refused (the change with the current one is its own call), never ignored.
    const later = await patch(w.id, again.json().token, { password: 'OtraClave22' })
    expect(later.statusCode).toBe(403)
    expect(later.json().message).toBe(trabajadorMessages.restablecerPropia)
    expect((await login(w.email, 'OtraClave22')).statusCode).toBe(401)
  })

  it("never sets another worker's password, whoever asks", async () => {
    const empresa = await makeEmpresa(t.db)
    const target = await t.worker('EMPLEADO', [empresa.id], { passwordTemporal: true })
    const boss = await t.worker('SUPERADMIN', [])
    const token = (await login(boss.email, TEST_PASSWORD)).json().token as string
    const res = await patch(target.id, token, { password: 'NuevaClave1' })
    expect(res.statusCode).toBe(403)
    expect((await login(target.email, 'NuevaClave1')).statusCode).toBe(401)
  })
})

describe('PATCH /api/trabajadores/:id/cambiar-password with the current password', () => {
  it('requires the current password, refuses a wrong one and changes it with the right one', async () => {
    const w = await t.worker('ADMIN', [])
    const url = `/api/trabajadores/${w.id}/cambiar-password`
    const missing = await t.as(w, { method: 'PATCH', url, payload: { passwordNueva: 'OtraClave9' } })
    expect(missing.statusCode).toBe(400)
    expect(missing.json().fieldErrors).toEqual({ passwordActual: passwordMessages.actual })
    const wrong = await t.as(w, { method: 'PATCH', url, payload: { passwordActual: 'NoEsLaMia1', passwordNueva: 'OtraClave9' } })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().fieldErrors).toEqual({ passwordActual: passwordMessages.actualIncorrecta })
    const ok = await t.as(w, { method: 'PATCH', url, payload: { passwordActual: TEST_PASSWORD, passwordNueva: 'OtraClave9' } })
    expect(ok.statusCode).toBe(200)
    expect((await login(w.email, 'OtraClave9')).statusCode).toBe(200)
  })

  it("refuses to change another worker's password", async () => {
    const a = await t.worker('SUPERADMIN', [])
    const b = await t.worker('EMPLEADO', [])
    const res = await t.as(a, {
      method: 'PATCH',
      url: `/api/trabajadores/${b.id}/cambiar-password`,
      payload: { passwordActual: TEST_PASSWORD, passwordNueva: 'OtraClave9' },
    })
    expect(res.statusCode).toBe(403)
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: 'No tienes permisos para realizar esta acción' })
  })
})

describe('forgot password (DECISIONS S4)', () => {
  const ask = (email: string) => t.app.inject({ method: 'POST', url: '/api/auth/recuperar', payload: { email } })
  const reset = (token: string, passwordNueva: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/restablecer', payload: { token, passwordNueva } })

  it('answers the same for known and unknown e-mails and sends a one-time link only to the known one', async () => {
    const w = await t.worker('EMPLEADO', [])
    t.mails.length = 0
    const known = await ask(w.email)
    const unknown = await ask('nadie.conocido@prueba.es')
    expect(known.statusCode).toBe(202)
    expect(unknown.statusCode).toBe(202)
    expect(known.json()).toEqual(unknown.json())
    // The e-mail goes after the answer (the answer's timing says nothing): wait for it.
    await t.app.deps.background.idle()
    expect(t.mails).toHaveLength(1)
    const token = t.mails[0]!.text.match(/#token=([\w-]+)/)?.[1]
    expect(token).toBeTruthy()
    expect(t.mails[0]!.text).toContain('/recuperar-contraseña#token=')

    expect((await reset(token!, 'debil')).json().fieldErrors).toEqual({ passwordNueva: passwordMessages.rule })
    expect((await reset(token!, 'Recuperada1')).statusCode).toBe(200)
    expect((await login(w.email, 'Recuperada1')).statusCode).toBe(200)
    // One time only.
    const again = await reset(token!, 'OtraMas123')
    expect(again.statusCode).toBe(400)
    expect(again.json().message).toBe(RESTABLECER_INVALID)
  })

  it('honours a link for 30 minutes and refuses it after, leaving the password as it was', async () => {
    let now = new Date('2026-11-21T10:00:00Z')
    const t2 = await buildTestApp({ clock: { now: () => now } })
    try {
      const linkFor = async (email: string) => {
        t2.mails.length = 0
        await t2.app.inject({ method: 'POST', url: '/api/auth/recuperar', payload: { email } })
        await t2.app.deps.background.idle()
        return t2.mails[0]?.text.match(/#token=([\w-]+)/)?.[1] as string
      }
      const restablecer = (token: string, passwordNueva: string) =>
        t2.app.inject({ method: 'POST', url: '/api/auth/restablecer', payload: { token, passwordNueva } })
      const loginOn = (email: string, password: string) =>
        t2.app.inject({ method: 'POST', url: '/api/auth/trabajadores/login', payload: { email, password } })

      // Used at 29 minutes: it works.
      const early = await t2.worker('EMPLEADO', [])
      const earlyToken = await linkFor(early.email)
      now = new Date('2026-11-21T10:29:00Z')
      expect((await restablecer(earlyToken, 'Recuperada1')).statusCode).toBe(200)
      expect((await loginOn(early.email, 'Recuperada1')).statusCode).toBe(200)

      // Used at 31 minutes: refused, and the old password still opens the account.
      now = new Date('2026-11-21T11:00:00Z')
      const late = await t2.worker('EMPLEADO', [])
      const lateToken = await linkFor(late.email)
      now = new Date('2026-11-21T11:31:00Z')
      const res = await restablecer(lateToken, 'Recuperada1')
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ message: RESTABLECER_INVALID, fieldErrors: { token: RESTABLECER_INVALID } })
      expect((await loginOn(late.email, 'Recuperada1')).statusCode).toBe(401)
      expect((await loginOn(late.email, TEST_PASSWORD)).statusCode).toBe(200)
    } finally {
      await t2.close()
    }
  })
})
