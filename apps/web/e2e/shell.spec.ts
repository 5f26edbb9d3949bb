import type { Page } from '@playwright/test'
import { apiAs, expect, expectAccessible, loginAs, test } from './fixtures'

const MAIN = [
  'Empresas',
  'Viviendas',
  'Usuarios',
  'Informes',
  'Planing dia tareas',
  'Tareas Trabajador',
  'Presupuestos',
  'Contactos',
]

async function menuLinks(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Menú principal' })
  const config = nav.getByRole('button', { name: 'Configuración' })
  if ((await config.getAttribute('aria-expanded')) !== 'true') await config.click()
  await expect(config).toHaveAttribute('aria-expanded', 'true')
  return (await nav.getByRole('link').allTextContents()).map((t) => t.trim())
}

/** From now on, keeps the details of the `empresa-cambiada` events the page sends (read by empresaEvents). */
const recordEmpresaEvents = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { eventos: unknown[] }
    w.eventos = []
    window.addEventListener('empresa-cambiada', (e) => w.eventos.push((e as CustomEvent).detail))
  })
const empresaEvents = (page: Page) => page.evaluate(() => (window as unknown as { eventos: unknown[] }).eventos)

/** Chooses a company in the switcher's list and waits until the switcher names it. */
async function switchEmpresa(page: Page, nombre: string) {
  await page.getByRole('button', { name: /^Empresa:/ }).click()
  await page.getByRole('list', { name: 'Empresas disponibles' }).getByRole('button', { name: nombre }).click()
  await expect(page.getByRole('button', { name: `Empresa: ${nombre}` })).toBeVisible()
}

test.describe('Shell and navigation (SPEC §2.2)', () => {
  test('unknown paths show Página no encontrada, logged in or not', async ({ page }) => {
    await page.goto('/no-existe/en/absoluto')
    await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible()
    await expect(page).toHaveTitle('Página no encontrada')
    await loginAs(page, 'admin', '/esto-tampoco')
    await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible()
    await page.getByRole('link', { name: 'Volver al inicio' }).click()
    await expect(page).toHaveURL('/inicio')
    // SPEC §2.1: SPEC's client registered this screen with a doubled leading slash; such an address opens it.
    await page.goto(`${new URL(page.url()).origin}//cambiar-password-con-actual`)
    await expect(page).toHaveURL('/cambiar-password-con-actual')
    await expect(page.getByLabel('Contraseña actual', { exact: true })).toBeVisible()
  })

  test('without a token every protected route goes to the login screen', async ({ page }) => {
    for (const path of ['/inicio', '/empresas', '/informes', '/configuracion', '/cambiar-password', '/documentacion/12345678Z']) {
      await page.goto(path)
      await expect(page, path).toHaveURL('/')
      await expect(page.getByRole('heading', { name: 'Bienvenido' })).toBeVisible()
    }
  })

  for (const who of ['superadmin', 'admin'] as const) {
    test(`${who} sees every menu entry in SPEC order`, async ({ page }) => {
      await loginAs(page, who)
      expect(await menuLinks(page)).toEqual([...MAIN, 'Trabajadores', 'Logs', 'Integraciones'])
      await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Trabajadores' }).click()
      await expect(page).toHaveURL('/trabajadores')
      await expect(page.getByRole('heading', { level: 1, name: 'Trabajadores' })).toBeVisible()
      await page.goto('/configuracion')
      await expect(page.getByRole('main').getByRole('link', { name: 'Trabajadores' })).toBeVisible()
      await expect(page.getByRole('main').getByRole('link', { name: 'Logs' })).toBeVisible()
    })
  }

  test('empleado does not see Trabajadores or Logs and is sent to /inicio from them, still logged in', async ({ page }) => {
    await loginAs(page, 'empleado')
    expect(await menuLinks(page)).toEqual([...MAIN, 'Integraciones'])
    await page.goto('/configuracion')
    await expect(page.getByRole('main').getByRole('link', { name: 'Integraciones' })).toBeVisible()
    await expect(page.getByRole('main').getByRole('link', { name: 'Trabajadores' })).toHaveCount(0)
    await expect(page.getByRole('main').getByRole('link', { name: 'Logs' })).toHaveCount(0)

    for (const path of ['/trabajadores', '/logs']) {
      await loginAs(page, 'empleado', path)
      // DECISIONS D14: to /inicio, never to the login screen (that would log the worker out).
      await expect(page, path).toHaveURL('/inicio')
      await expect(page.getByRole('heading', { level: 1, name: 'Inicio' })).toBeVisible()
    }
  })

  test("the page title is the screen's Spanish name with its accents (D14)", async ({ page }) => {
    await loginAs(page, 'admin')
    const cases: Array<[string, string]> = [
      ['/inicio', 'Inicio'],
      ['/informes', 'Informes'],
      ['/planing', 'Planing'],
      ['/tareas', 'Tareas'],
      ['/ficha-trabajador', 'Ficha del trabajador'],
      ['/configuracionUsuario', 'Configuración de usuario'],
      ['/configuracion', 'Configuración'],
      ['/documentacion/12345678Z', 'Documentación'],
      ['/caja/12345678Z', 'Caja'],
    ]
    for (const [path, title] of cases) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 }), path).toHaveText(title)
      await expect(page).toHaveTitle(title)
    }
    // Client-side navigation updates it too.
    await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Presupuestos' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Presupuestos')
    await expect(page).toHaveTitle('Presupuestos')
    await page.getByRole('link', { name: 'Gestión Viviendas: ir a inicio' }).click()
    await expect(page).toHaveURL('/inicio')
  })

  test('user menu links to the profile and the user settings', async ({ page }) => {
    await loginAs(page, 'empleado')
    await page.getByRole('button', { name: /^Menú de usuario/ }).click()
    await page.getByRole('link', { name: 'Ficha del trabajador' }).click()
    await expect(page).toHaveURL('/ficha-trabajador')
    await page.getByRole('button', { name: /^Menú de usuario/ }).click()
    await page.getByRole('link', { name: 'Configuración de usuario' }).click()
    await expect(page).toHaveURL('/configuracionUsuario')
  })
})

test.describe('Company switcher (SPEC §2.2, DECISIONS D1)', () => {
  async function switcherOptions(page: Page): Promise<string[]> {
    await page.getByRole('button', { name: /^Empresa:/ }).click()
    const group = page.getByRole('list', { name: 'Empresas disponibles' })
    await expect(group.getByRole('button').nth(1)).toBeVisible()
    return (await group.getByRole('button').allTextContents()).map((t) => t.trim())
  }

  test('superadmin sees every company, admin only its two', async ({ page }) => {
    const all = (await (await (await apiAs(page, 'superadmin')).get('/empresas?pageSize=100')).json()) as Array<{
      nombre: string
    }>
    await loginAs(page, 'superadmin')
    const superOptions = await switcherOptions(page)
    expect(superOptions[0]).toBe('Todas mis empresas')
    expect(superOptions.slice(1).sort()).toEqual(all.map((e) => e.nombre).sort())
    for (const demo of ['Hogares Mediterráneo S.L.', 'Fundación Vivir Acompañados', 'Residencias del Norte (Asturias)']) {
      expect(superOptions).toContain(demo)
    }

    const admin = await loginAs(page, 'admin')
    const adminOptions = await switcherOptions(page)
    expect(adminOptions).toHaveLength(3)
    expect(adminOptions.slice(1).sort()).toEqual(
      (admin.trabajador as unknown as { empresas: Array<{ nombre: string }> }).empresas.map((e) => e.nombre).sort(),
    )
  })

  test('choosing a company stores it, announces empresa-cambiada and survives a reload', async ({ page }) => {
    const { trabajador } = (await loginAs(page, 'admin')) as unknown as {
      trabajador: { empresas: Array<{ id: number; nombre: string }> }
    }
    const [first, second] = trabajador.empresas
    if (!first || !second) throw new Error('admin@demo.es should belong to two companies')
    // Initially the worker's first company.
    await expect(page.getByRole('button', { name: `Empresa: ${first.nombre}` })).toBeVisible()
    await recordEmpresaEvents(page)

    await switchEmpresa(page, second.nombre)
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('empresa') ?? 'null'))).toEqual({
      id: second.id,
      nombre: second.nombre,
    })
    expect(await empresaEvents(page)).toEqual([{ id: second.id, nombre: second.nombre }])

    await page.reload()
    await expect(page.getByRole('button', { name: `Empresa: ${second.nombre}` })).toBeVisible()

    await recordEmpresaEvents(page)
    await switchEmpresa(page, 'Todas mis empresas')
    expect(await page.evaluate(() => localStorage.getItem('empresa'))).toBeNull()
    expect(await empresaEvents(page)).toEqual([null])
  })
})

test.describe('Notifications (SPEC §2.2, §4)', () => {
  test('the bell shows the worker notifications and dismissing one removes it', async ({ page }) => {
    const api = await apiAs(page, 'superadmin')
    await loginAs(page, 'superadmin')
    // The bell reads the worker's own notifications a page at a time; its badge counts them all (X-Total-Count).
    const res = await api.get('/notificaciones?pageSize=20')
    const total = Number(res.headers()['x-total-count'])
    const before = (await res.json()) as Array<{ titulo: string }>
    expect(total).toBeGreaterThan(0)

    const bell = page.getByRole('button', { name: `Notificaciones: ${total} sin leer` })
    await bell.click()
    const list = page.getByRole('list', { name: 'Notificaciones' })
    await expect(list.getByRole('listitem')).toHaveCount(before.length)
    const first = before[0]!
    await expect(list.getByRole('listitem').first()).toContainText(first.titulo)

    await list
      .getByRole('button', { name: `Descartar notificación: ${first.titulo}` })
      .first()
      .click()
    await expect(
      page.getByRole('button', { name: total - 1 ? `Notificaciones: ${total - 1} sin leer` : 'Notificaciones' }),
    ).toBeVisible()
    const after = await api.get('/notificaciones?pageSize=1')
    expect(Number(after.headers()['x-total-count'])).toBe(total - 1)
  })

  test('a dismiss the server refuses keeps the notification and shows the error in a red toast', async ({ page }) => {
    await loginAs(page, 'empleado')
    await page.route('**/api/notificaciones/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({
              statusCode: 500,
              code: 'INTERNAL',
              message: 'Se ha producido un error interno. Inténtalo más tarde.',
            }),
          })
        : route.continue(),
    )
    await page.getByRole('button', { name: /^Notificaciones: \d+ sin leer$/ }).click()
    const list = page.getByRole('list', { name: 'Notificaciones' })
    const count = await list.getByRole('listitem').count()
    expect(count).toBeGreaterThan(0)
    await list
      .getByRole('button', { name: /^Descartar notificación/ })
      .first()
      .click()
    await expect(
      page.getByRole('alert').filter({ hasText: 'Se ha producido un error interno. Inténtalo más tarde.' }),
    ).toBeVisible()
    await expect(list.getByRole('listitem')).toHaveCount(count)
  })

  test('Notificaciones in the user menu opens the panel, and nueva-notificacion re-polls at once', async ({ page }) => {
    await loginAs(page, 'admin')
    // Wait for the first poll: the bell's name then carries the count, and only the menu item is 'Notificaciones'.
    await expect(page.getByRole('button', { name: /^Notificaciones: \d+ sin leer$/ })).toBeVisible()
    await page.getByRole('button', { name: /^Menú de usuario/ }).click()
    await page.getByRole('button', { name: 'Notificaciones', exact: true }).click()
    await expect(page.getByRole('heading', { name: 'Notificaciones' })).toBeVisible()

    // The 15 s poll has not come round yet: a request now can only come from the event.
    const polled = page.waitForRequest((r) => /\/api\/notificaciones\?/.test(r.url()), { timeout: 4000 })
    await page.evaluate(() => window.dispatchEvent(new Event('nueva-notificacion')))
    await polled
  })

  test('the bell follows the server stream with the token in the header, and re-polls at once on a pushed event', async ({
    page,
  }) => {
    // The server side of the stream (LISTEN/NOTIFY, per-worker delivery) is proven by the API suite; here the
    // stream answers with one pushed event, as the server does when a notification is committed.
    const list = /\/api\/notificaciones\?/
    const firstRead = page.waitForResponse((r) => list.test(r.url()))
    let pushed = false
    await page.route('**/api/notificaciones/stream', async (route) => {
      if (pushed) return route.abort()
      pushed = true
      // A notification committed once the bell has read its list: the server pushes its event.
      await firstRead
      await route.fulfill({
        status: 200,
        headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' },
        body: 'retry: 60000\n: conectado\n\nevent: notificacion\ndata: {"id":123}\n\n',
      })
    })
    let polls = 0
    page.on('request', (r) => {
      if (list.test(r.url())) polls += 1
    })
    const stream = page.waitForRequest('**/api/notificaciones/stream')
    const { token } = await loginAs(page, 'empleado')
    const request = await stream
    expect(request.url()).not.toContain(token)
    expect(await request.headerValue('authorization')).toBe(`Bearer ${token}`)
    // The first read on opening, then the one the pushed event causes, long before the 15 s poll comes round.
    await expect.poll(() => polls, { timeout: 5000 }).toBeGreaterThanOrEqual(2)
  })

  test('an event pushed while the first read is still under way starts a new read instead of joining it', async ({ page }) => {
    // The first read may have been answered before the announced notification was committed: joining it would
    // leave the bell without that notification until the 15 s poll. Here the first read is held until the
    // page has heard the event, so the order is certain.
    const list = /\/api\/notificaciones\?/
    let heard!: () => void
    const eventHeard = new Promise<void>((resolve) => {
      heard = resolve
    })
    await page.exposeFunction('vbEventHeard', () => heard())
    await page.addInitScript(() =>
      window.addEventListener('nueva-notificacion', () => (window as unknown as { vbEventHeard: () => void }).vbEventHeard()),
    )
    let pushed = false
    await page.route('**/api/notificaciones/stream', (route) => {
      if (pushed) return route.abort()
      pushed = true
      return route.fulfill({
        status: 200,
        headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' },
        body: 'retry: 60000\n: conectado\n\nevent: notificacion\ndata: {"id":123}\n\n',
      })
    })
    let held = false
    await page.route(list, async (route) => {
      if (!held) {
        held = true
        await eventHeard
      }
      await route.continue()
    })
    let polls = 0
    page.on('request', (r) => {
      if (list.test(r.url())) polls += 1
    })
    await loginAs(page, 'empleado')
    await expect.poll(() => polls, { timeout: 5000 }).toBeGreaterThanOrEqual(2)
    await expect(page.getByRole('button', { name: /^Notificaciones: \d+ sin leer$/ })).toBeVisible()
  })
})

test.describe('Small screens (SPEC §2.2: the menu collapses below 1399 px)', () => {
  test('the menu is fixed at 1399 px and collapses at 1398 px', async ({ page }) => {
    await page.setViewportSize({ width: 1399, height: 900 })
    await loginAs(page, 'admin')
    await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Abrir menú' })).toBeHidden()
    await page.setViewportSize({ width: 1398, height: 900 })
    await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeHidden()
    await expect(page.getByRole('button', { name: 'Abrir menú' })).toBeVisible()
  })

  test('at 375 px the menu is behind a button and shows the sample alerts', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 })
    await loginAs(page, 'admin')
    const nav = page.getByRole('navigation', { name: 'Menú principal' })
    await expect(nav).toBeHidden()
    await page.getByRole('button', { name: 'Abrir menú' }).click()
    const menu = page.getByRole('dialog')
    await expect(menu.getByRole('navigation', { name: 'Menú principal' })).toBeVisible()
    await expect(menu.getByRole('region', { name: 'Avisos' })).toBeVisible()
    await expect(menu.getByText('Hay certificados PIR próximos a caducar.')).toBeVisible()
    await menu.getByRole('link', { name: 'Informes' }).click()
    await expect(page).toHaveURL('/informes')
    await expect(page.getByRole('dialog')).toBeHidden()
    // Nothing spills sideways at phone width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)

    await page.getByRole('button', { name: 'Abrir menú' }).click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByRole('dialog')).toBeHidden()
  })

  test('at 1440 px the menu is fixed and there is no menu button', async ({ page }) => {
    await loginAs(page, 'admin')
    await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Abrir menú' })).toBeHidden()
  })

  test('every list fits the screen from a tablet to a desktop: a table where it fits, cards where it does not', async ({
    page,
  }) => {
    await loginAs(page, 'superadmin')
    for (const width of [768, 820, 991, 992, 1024, 1280, 1399]) {
      await page.setViewportSize({ width, height: 900 })
      for (const path of ['/usuarios', '/trabajadores', '/viviendas', '/contactos', '/empresas', '/presupuestos', '/logs']) {
        await page.goto(path)
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
        await expect(page.getByText('Cargando...')).toHaveCount(0)
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0)
      }
    }
  })
})

test.describe('A new version put on the server while a page is open', () => {
  /** The page's own marker: gone after a reload. */
  const mark = (page: Page) => page.evaluate(() => Object.assign(window, { sinRecargar: true }))
  const marked = (page: Page) => page.evaluate(() => 'sinRecargar' in window)
  const viviendasChunk = /\/assets\/viviendas-page-[^/]+\.js$/

  test('a screen whose code is gone reloads the page onto it, from the new version', async ({ page }) => {
    await loginAs(page, 'admin')
    await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeVisible()
    // The old build's screen is gone from the server until the page loads again, and the server's index.html
    // names a new entry script.
    let reloaded = false
    page.on('request', (request) => {
      if (request.isNavigationRequest()) reloaded = true
    })
    await page.route(viviendasChunk, (route) =>
      reloaded ? route.fallback() : route.fulfill({ status: 404, contentType: 'application/json', body: '{"code":"NOT_FOUND"}' }),
    )
    let checked = 0
    await page.route('/', async (route) => {
      if (route.request().isNavigationRequest()) return route.fallback()
      checked += 1
      const res = await route.fetch()
      const body = (await res.text()).replace(/\/assets\/index-[^"]+\.js/, '/assets/index-NuevaVersion.js')
      return route.fulfill({ response: res, body })
    })
    await mark(page)
    await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Viviendas' }).click()
    await expect(page).toHaveURL('/viviendas')
    await expect(page.getByRole('button', { name: 'Nueva vivienda' })).toBeVisible()
    expect(await marked(page)).toBe(false)
    expect(checked).toBe(1)
    await expect(page.getByText('Se ha producido un error inesperado')).toBeHidden()
    // Still logged in, on the new page.
    await expect(page.getByRole('button', { name: /^Empresa:/ })).toBeVisible()
  })

  test('a page left open says when a new version is on the server, and reloads only when asked', async ({ page }) => {
    await loginAs(page, 'admin', '/viviendas')
    await expect(page.getByRole('button', { name: 'Nueva vivienda' })).toBeVisible()
    const notice = page.getByText('Hay una versión nueva de la aplicación.')
    // The tab shown again asks the server: the same version, nothing said.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')))
    await page.waitForTimeout(300)
    await expect(notice).toHaveCount(0)
    // A new build is put on the server: its index.html names another entry script.
    await page.route('/', async (route) => {
      if (route.request().isNavigationRequest()) return route.fallback()
      const res = await route.fetch()
      const body = (await res.text()).replace(/\/assets\/index-[^"]+\.js/, '/assets/index-NuevaVersion.js')
      return route.fulfill({ response: res, body })
    })
    await page.getByRole('button', { name: 'Nueva vivienda' }).click()
    await page.getByRole('dialog').getByLabel('Dirección').fill('Calle sin guardar 1')
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')))
    await expect(notice).toBeVisible()
    // Nothing reloads by itself: what is being typed stays.
    await mark(page)
    await page.waitForTimeout(300)
    await expect(page.getByRole('dialog').getByLabel('Dirección')).toHaveValue('Calle sin guardar 1')
    expect(await marked(page)).toBe(true)
    await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click()
    await page.getByRole('button', { name: 'Descartar cambios' }).click()
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Recargar' }).click()
    await expect(page.getByRole('button', { name: 'Nueva vivienda' })).toBeVisible()
    expect(await marked(page)).toBe(false)
    await expect(notice).toHaveCount(0)
  })

  test('a screen that fails to load with no new version shows the error screen and does not reload', async ({ page }) => {
    await loginAs(page, 'admin')
    await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeVisible()
    await page.route(viviendasChunk, (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{}' }))
    await mark(page)
    await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Viviendas' }).click()
    await expect(page.getByRole('heading', { name: 'Se ha producido un error inesperado' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Recargar' })).toBeVisible()
    expect(await marked(page)).toBe(true)
  })
})
