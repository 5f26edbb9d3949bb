import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type Locator, type Page } from '@playwright/test'

/** DECISIONS R demo accounts. */
export const DEMO_PASSWORD = 'Demo1234'
export const accounts = {
  superadmin: 'superadmin@demo.es',
  admin: 'admin@demo.es',
  empleado: 'empleado@demo.es',
  nuevo: 'nuevo@demo.es',
} as const
export type Account = keyof typeof accounts

/**
 * Logs in through the API and stores the session as the login screen does (SPEC §3 storage keys),
 * then opens `target`. Used by journeys that are not about the login screen itself.
 */
export async function loginAs(
  page: Page,
  who: Account,
  target = '/inicio',
): Promise<{ token: string; trabajador: { id: number } }> {
  const res = await page.request.post('/api/auth/trabajadores/login', { data: { email: accounts[who], password: DEMO_PASSWORD } })
  expect(res.status(), `login ${who}`).toBe(200)
  const body = await res.json()
  await page.goto('/api/openapi.json')
  await page.evaluate((b) => {
    localStorage.clear()
    localStorage.setItem('token', b.token)
    localStorage.setItem('mail', b.trabajador.email)
    localStorage.setItem('trabajador', JSON.stringify(b.trabajador))
    if (b.trabajador.rol === 'SUPERADMIN') localStorage.setItem('empresas', JSON.stringify(b.trabajador.empresas))
    const first = b.trabajador.empresas[0]
    if (first) localStorage.setItem('empresa', JSON.stringify({ id: first.id, nombre: first.nombre }))
    if (b.trabajador.passwordTemporal) localStorage.setItem('requiereCambioPassword', 'true')
  }, body)
  await page.goto(target)
  return body
}

/** Fills the login screen (the page is on it) and presses Entrar. */
export async function fillLogin(page: Page, email: string, password: string) {
  await page.getByLabel('Correo').fill(email)
  await page.getByLabel('Contraseña', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Entrar' }).click()
}

/**
 * The stored token stops being valid while a screen is open (it expired, or the password changed elsewhere): the
 * screen's next call answers 401 (DECISIONS A3).
 */
export const invalidateToken = (page: Page) => page.evaluate(() => localStorage.setItem('token', 'caducado.token.value'))

/** The API called as a demo account, for arranging data (data seeded through the API). */
export async function apiAs(page: Page, who: Account) {
  const res = await page.request.post('/api/auth/trabajadores/login', { data: { email: accounts[who], password: DEMO_PASSWORD } })
  const { token } = await res.json()
  const headers = { Authorization: `Bearer ${token}` }
  return {
    get: (url: string) => page.request.get(`/api${url}`, { headers }),
    post: (url: string, data: unknown) => page.request.post(`/api${url}`, { headers, data }),
    patch: (url: string, data: unknown) => page.request.patch(`/api${url}`, { headers, data }),
    delete: (url: string) => page.request.delete(`/api${url}`, { headers }),
  }
}

/** DECISIONS D11: no serious or critical axe violation on a screen. */
export async function expectAccessible(page: Page) {
  // A list whose new page is still loading shows the previous one dimmed (vb-list-stale, opacity 0.6): on a slow
  // machine a check right after a filter changed read that as low contrast (CI, 2026-11-28). Check the loaded list.
  // A list that starts loading again while axe reads the page (a debounced search or a filter's answer arriving:
  // CI, 2026-12-07) is read dimmed too: a watcher notes any list dimmed meanwhile, and then the page is read again.
  for (let attempt = 1; ; attempt++) {
    await expect(page.locator('.vb-list-stale')).toHaveCount(0, { timeout: 10_000 })
    // A modal or toast still fading in, or a list fading back from dimmed (0.15 s once the class is gone: CI,
    // 2026-11-29), has a transient opacity that axe reads as low contrast: wait until every CSS transition and
    // animation on the page has finished, so the check sees what the user sees.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'))
    await page.evaluate(() => {
      const w = window as unknown as { __vbDimmed?: boolean; __vbWatch?: MutationObserver }
      w.__vbDimmed = false
      w.__vbWatch?.disconnect()
      w.__vbWatch = new MutationObserver(() => {
        if (document.querySelector('.vb-list-stale')) w.__vbDimmed = true
      })
      w.__vbWatch.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] })
    })
    const results = await new AxeBuilder({ page }).analyze()
    const dimmed = await page.evaluate(() => {
      const w = window as unknown as { __vbDimmed?: boolean; __vbWatch?: MutationObserver }
      w.__vbWatch?.disconnect()
      return w.__vbDimmed === true || document.getAnimations().some((a) => a.playState === 'running')
    })
    if (dimmed && attempt < 3) continue
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    return
  }
}

/** A searchable remote picker (a combobox) of a form, by its label. */
export const combobox = (scope: Locator | Page, label: string) => scope.getByRole('combobox', { name: label })

/**
 * Chooses an option of a searchable picker: types part of its name (the server searches) and clicks the
 * option whose text starts with `option`.
 */
export async function pick(scope: Locator | Page, label: string, option: string, typed = option.slice(0, 12)) {
  const box = combobox(scope, label)
  await box.fill(typed)
  await ('page' in scope ? scope.page() : scope)
    .getByRole('option', { name: new RegExp(`^${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) })
    .click()
  await expect(box).toHaveValue(option)
}

/** A name unique to this run, so journeys never collide with each other or with the demo data. */
export const unique = (prefix: string) => `${prefix} ${Date.now().toString(36).slice(-5)}`

/** A valid NIF nobody else has: 8 digits and the check letter of SPEC §5. */
export function randomNif(): string {
  const n = 10_000_000 + Math.floor(Math.random() * 89_999_999)
  return `${n}${'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}`
}

let counter = 0
/** Residents' names take letters only (SPEC §5): a unique word made of letters. */
export function uniqueWord(prefix: string): string {
  counter += 1
  const tail = `${Date.now().toString(36)}${counter}`.replace(/\d/g, (d) => 'abcdefghij'[Number(d)] as string)
  return `${prefix} ${tail.slice(-7)}`
}

/**
 * A new resident in the first home `who` can see (created through the API as that worker), for journeys
 * that need a resident of their own: no documents, no movements.
 */
export async function newResident(page: Page, who: Account) {
  const api = await apiAs(page, who)
  const [vivienda] = await (await api.get('/viviendas?pageSize=1&sort=nombre&order=asc')).json()
  const apellidos = uniqueWord('Prueba')
  const nif = randomNif()
  const res = await api.post('/usuarios', { nombre: 'Lucía', apellidos, nif, viviendaId: vivienda.id })
  expect(res.status(), 'resident created').toBe(201)
  const usuario = await res.json()
  return { id: usuario.id as number, nif, nombreCompleto: `Lucía ${apellidos}`, api }
}

/** Where each resident record screen makes its records through the API. */
const RECORDS = { caja: '/caja-usuario', documentacion: '/documentos-usuario' } as const

/**
 * A new resident of `who` (newResident) with these records of a record screen (cash movements or documents)
 * made through the API, and the page logged in as `who` on that screen of the resident.
 */
export async function residentOn(page: Page, who: Account, screen: keyof typeof RECORDS, records: object[] = []) {
  const resident = await newResident(page, who)
  const created: Array<{ id: number }> = []
  for (const body of records) {
    created.push(await (await resident.api.post(RECORDS[screen], { ...body, usuarioId: resident.id })).json())
  }
  await loginAs(page, who, `/${screen}/${resident.nif}`)
  return { ...resident, created }
}

/** A small real PDF (its magic bytes are what the server checks), as Playwright's setInputFiles takes it. */
export const pdfFile = (name = 'informe.pdf') => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  ),
})

export const test = base
export { expect }

/**
 * Each role at desktop width and at a phone's (where the lists are cards): the layout matrix a record screen
 * is checked on, one journey per pair.
 */
export const ROLES_AND_WIDTHS = (['superadmin', 'admin', 'empleado'] as Account[]).flatMap((who) =>
  [1440, 375].map((width) => [who, width] as const),
)

/** The viewport at `width`, with a desktop's or a phone's height. */
export const atWidth = (page: Page, width: number) => page.setViewportSize({ width, height: width > 800 ? 900 : 800 })

/** Nothing makes the page scroll sideways at `width`, and axe finds no serious violation. */
export async function expectFitsAndAccessible(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
  await expectAccessible(page)
}

/** Stores a session as the login screen does, for any worker (SPEC §3 storage keys), then opens `target`. */
export async function loginWith(page: Page, email: string, password: string, target = '/inicio') {
  const res = await page.request.post('/api/auth/trabajadores/login', { data: { email, password } })
  expect(res.status(), `login ${email}`).toBe(200)
  const body = await res.json()
  await page.goto('/api/openapi.json')
  await page.evaluate((b) => {
    localStorage.clear()
    localStorage.setItem('token', b.token)
    localStorage.setItem('mail', b.trabajador.email)
    localStorage.setItem('trabajador', JSON.stringify(b.trabajador))
    const first = b.trabajador.empresas[0]
    if (first) localStorage.setItem('empresa', JSON.stringify({ id: first.id, nombre: first.nombre }))
  }, body)
  await page.goto(target)
  return body as { token: string; trabajador: { id: number; email: string } }
}

/**
 * A worker of its own, created through the API by the superadmin in the demo's first company, with its
 * temporary password already changed to DEMO_PASSWORD: for journeys that change a worker's data.
 */
export async function newWorker(page: Page, rol: 'EMPLEADO' | 'ADMIN' = 'EMPLEADO') {
  const api = await apiAs(page, 'superadmin')
  const [empresa] = await (await api.get('/empresas?sort=nombre&order=asc&q=Hogares')).json()
  const email = `${uniqueWord('prueba').replace(' ', '.')}@prueba.es`
  const res = await api.post('/trabajadores', {
    nombre: 'Marta',
    apellidos: uniqueWord('Prueba'),
    email,
    nif: randomNif(),
    rol,
    empresaIds: [empresa.id],
  })
  expect(res.status(), 'worker created').toBe(201)
  const { trabajador, passwordTemporal } = await res.json()
  const login = await page.request.post('/api/auth/trabajadores/login', { data: { email, password: passwordTemporal } })
  const { token } = await login.json()
  const changed = await page.request.patch(`/api/trabajadores/${trabajador.id}/cambiar-password`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { passwordNueva: DEMO_PASSWORD },
  })
  expect(changed.status(), 'password changed').toBe(200)
  return { id: trabajador.id as number, email, nombre: `${trabajador.nombre} ${trabajador.apellidos}`, api }
}

/** A small real PNG (its magic bytes are what the server checks). */
export const pngFile = (name = 'foto.png') => ({
  name,
  mimeType: 'image/png',
  buffer: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
})
