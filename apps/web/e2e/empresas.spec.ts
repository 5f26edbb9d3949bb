import type { Page } from '@playwright/test'
import { apiAs, expect, expectAccessible, unique } from './fixtures'
import { createViaApi, lettered, listTest, SCREENS } from './list-screen'

/** SPEC §2.4 companies: the shared list block, the modals and the role matrix of SPEC §6. */

const test = listTest(SCREENS.empresas)

const { toasts } = SCREENS.empresas
/** Company names in the order the table shows them. */
const names = (page: Page) => page.getByRole('row').locator('td:nth-child(2)').allInnerTexts()

test('superadmin creates, edits, finds and deletes a company', async ({ page, list }) => {
  await list.open('superadmin')
  await expect(list.header('Nombre de Empresa')).toHaveAttribute('aria-sort', 'ascending')
  await expect(list.cell('Hogares Mediterráneo S.L.')).toBeVisible()
  await expectAccessible(page)

  const nombre = unique('Empresa Alta')
  const alta = await list.openCreate()
  // A logo the app itself serves, so the <img> really loads.
  await list.fill(alta, { 'Nombre de Empresa': nombre, 'URL del logo': `${new URL(page.url()).origin}/favicon.svg` })
  await expectAccessible(page)
  await list.save(alta, toasts.created)

  await list.search(nombre)
  await expect(list.cell(nombre)).toBeVisible()
  await expect(page.getByRole('img', { name: `Logo de ${nombre}` })).toBeVisible()
  await expect(list.showing('Mostrando 1–1 de 1')).toBeVisible()

  const nuevo = unique('Empresa Cambiada')
  const edicion = await list.openEdit(nombre)
  await expect(edicion.getByLabel('Nombre de Empresa')).toHaveValue(nombre)
  await list.fill(edicion, { 'Nombre de Empresa': nuevo })
  await list.save(edicion, toasts.updated)
  await page.getByRole('button', { name: 'Limpiar' }).click()
  await expect(list.searchbox).toHaveValue('')
  await list.search(nuevo)
  await expect(list.cell(nuevo)).toBeVisible()

  const confirmacion = await list.askDelete(nuevo)
  await confirmacion.getByRole('button', { name: 'Cancelar' }).click()
  await expect(confirmacion).toBeHidden()
  await expect(list.cell(nuevo)).toBeVisible()

  await list.remove(nuevo)
})

test('errors show under their field and clear when the field is edited', async ({ page, list }) => {
  await list.open('superadmin')
  const alta = await list.openCreate()
  const nombre = alta.getByLabel('Nombre de Empresa')
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta.getByText('El nombre es obligatorio')).toBeVisible()
  await expect(nombre).toHaveAttribute('aria-invalid', 'true')

  await nombre.fill('Empresa <mala>')
  await expect(alta.getByText('El nombre es obligatorio')).toBeHidden()
  await alta.getByLabel('URL del logo').fill('no es una url')
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(
    alta.getByText('El nombre solo puede contener letras, números, espacios y los caracteres . , & ( ) -'),
  ).toBeVisible()
  await expect(alta.getByText('La URL del logo no es válida')).toBeVisible()
  await expectAccessible(page)

  // Escape with typed changes asks first; discarding closes the modal and gives focus back
  // to the button that opened it.
  await page.keyboard.press('Escape')
  await expect(alta.getByText('Tienes cambios sin guardar. ¿Quieres descartarlos?')).toBeVisible()
  await alta.getByRole('button', { name: 'Seguir editando' }).click()
  await expect(nombre).toHaveValue('Empresa <mala>')
  await page.keyboard.press('Escape')
  await alta.getByRole('button', { name: 'Descartar cambios' }).click()
  await expect(alta).toBeHidden()
  await expect(list.newButton).toBeFocused()
})

test('search is debounced, sorting toggles and pages come from the server', async ({ page, list }) => {
  const prefix = unique('Orden')
  // 11 companies: two pages of 10 (SPEC §9).
  const created = await createViaApi(
    page,
    'superadmin',
    '/empresas',
    lettered(prefix, 11).map((nombre) => ({ nombre })),
  )
  try {
    await list.open('superadmin', { sees: 'Hogares Mediterráneo S.L.' })

    const queries: string[] = []
    page.on('request', (r) => {
      const url = new URL(r.url())
      if (url.pathname === '/api/empresas' && url.searchParams.has('q')) queries.push(url.searchParams.get('q') ?? '')
    })
    await list.searchbox.pressSequentially(prefix, { delay: 30 })
    await expect(list.showing('Mostrando 1–10 de 11')).toBeVisible()
    // One request for the whole typed text, none per key stroke.
    expect(queries).toEqual([prefix])
    expect(await names(page)).toEqual(lettered(prefix, 10))

    await list.turnPage('Página 2', 'Mostrando 11–11 de 11')
    await expect(page.getByRole('button', { name: 'Página siguiente' })).toHaveCount(0)
    expect(await names(page)).toEqual([`${prefix} K`])
    await list.turnPage('Página anterior', 'Mostrando 1–10 de 11')

    await list.sortSteps('Nombre de Empresa', [
      ['descending', `${prefix} K`],
      ['ascending', `${prefix} A`],
    ])

    // A new search goes back to page 1.
    await list.turnPage('Página 2', 'Mostrando 11–11 de 11')
    await list.search(`${prefix} C`)
    await expect(list.showing('Mostrando 1–1 de 1')).toBeVisible()
    expect(await names(page)).toEqual([`${prefix} C`])
  } finally {
    await created.remove()
  }
})

test('a row deleted while its search is still being read does not come back', async ({ page, list }) => {
  // A name that sorts first, so the row is on the unfiltered first page while the search's own read is held.
  const nombre = unique('AAA Empresa Fugaz')
  await createViaApi(page, 'superadmin', '/empresas', [{ nombre }])
  await list.open('superadmin')
  await expect(list.cell(nombre)).toBeVisible()
  // The search's first read is answered by the server before the deletion, and reaches the page after it.
  const search = /\/api\/empresas\?q=/
  let release!: () => void
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(search, async (route) => {
    // The server answers at once (the row is there); the answer reaches the page once the deletion is done.
    const response = await route.fetch()
    await held
    await route.fulfill({ response }).catch(() => {
      /* the app dropped this read: it began before the deletion */
    })
  })
  const searching = page.waitForRequest(search)
  await list.search(nombre)
  await searching
  const confirmacion = await list.askDelete(nombre)
  const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes('/api/empresas/'))
  // After the deletion the list must read again, not take the answer of the read under way.
  const readAgain = page.waitForRequest(search, { timeout: 10_000 })
  await confirmacion.getByRole('button', { name: 'Eliminar' }).click()
  expect((await deleted).status()).toBe(204)
  await readAgain
  release()
  await expect(page.getByText(SCREENS.empresas.empty)).toBeVisible()
  await expect(list.cell(nombre)).toHaveCount(0)
})

test('a company with homes cannot be deleted: the server says why', async ({ page, list }) => {
  const nombre = unique('Empresa Con Casas')
  const created = await createViaApi(page, 'superadmin', '/empresas', [{ nombre }])
  const [empresaId] = created.ids
  const api = await apiAs(page, 'superadmin')
  const vivienda = await (await api.post('/viviendas', { nombre: unique('Calle Prueba'), empresaId })).json()
  try {
    await list.open('superadmin')
    await list.search(nombre)
    const confirmacion = await list.askDelete(nombre)
    await confirmacion.getByRole('button', { name: 'Eliminar' }).click()
    await expect(
      page.getByText('No se puede eliminar la empresa: todavía tiene 1 vivienda. Elimínalos o trasládalos antes a otra empresa.'),
    ).toBeVisible()
    await expect(list.cell(nombre)).toBeVisible()
  } finally {
    await api.delete(`/viviendas/${vivienda.id}`)
    await created.remove()
  }
})

test('admin modifies its own companies but neither creates nor deletes', async ({ page, list }) => {
  await list.open('admin')
  await expect(list.showing('Mostrando 1–2 de 2')).toBeVisible()
  await expect(list.cell('Residencias del Norte (Asturias)')).toHaveCount(0)
  await expect(list.newButton).toHaveCount(0)

  const original = 'Fundación Vivir Acompañados'
  const renombrada = unique('Fundación Renombrada')
  await list.rowMenu(original).click()
  await expect(page.getByRole('button', { name: 'Eliminar' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Modificar' }).click()
  await list.fill(list.editDialog, { 'Nombre de Empresa': renombrada })
  await list.save(list.editDialog, toasts.updated)
  await expect(list.cell(renombrada)).toBeVisible()

  // Put the demo name back for the other journeys.
  await list.edit(renombrada, { 'Nombre de Empresa': original })
  await expect(list.cell(original)).toBeVisible()
  await expectAccessible(page)
})

test('empleado only views its company', async ({ page, list }) => {
  await list.open('empleado')
  await expect(list.showing('Mostrando 1–1 de 1')).toBeVisible()
  await expect(list.cell('Hogares Mediterráneo S.L.')).toBeVisible()
  await expect(page.getByRole('columnheader', { name: 'Acciones' })).toHaveCount(0)
  await list.expectReadOnly()
  await expectAccessible(page)
})

test('below 768 px the companies are cards', async ({ page, list }) => {
  await list.openCards('superadmin')
  await expect(page.getByRole('heading', { name: 'Hogares Mediterráneo S.L.' })).toBeVisible()
  await expect(page.getByRole('img', { name: 'Sin logo' }).first()).toBeVisible()

  await list.sortCards('Nombre de Empresa (Z-A)')
  await expect(list.firstCard()).toHaveText('Residencias del Norte (Asturias)')

  await list.rowMenu('Hogares Mediterráneo S.L.').click()
  await expect(page.getByRole('button', { name: 'Modificar' })).toBeVisible()
  await expectAccessible(page)

  // The last card's menu reaches past the card, which otherwise clips what it paints (data-list.css): its last
  // action is below the card and takes the click.
  await page.keyboard.press('Escape')
  await list.rowMenu('Fundación Vivir Acompañados').click()
  const eliminar = page.getByRole('button', { name: 'Eliminar' })
  const card = page.locator('.vb-list-cards > li').last()
  const [menuBox, cardBox] = [await eliminar.boundingBox(), await card.boundingBox()]
  expect((menuBox?.y ?? 0) + (menuBox?.height ?? 0)).toBeGreaterThan((cardBox?.y ?? 0) + (cardBox?.height ?? 0))
  await eliminar.click({ trial: true, timeout: 5_000 })
})

test('the list says when it is loading and when the server refuses it', async ({ page, list }) => {
  // Only the list's paged calls (the top bar's company switcher also reads /api/empresas).
  const listCall = /\/api\/empresas\?(.*&)?page=/
  let release: () => void = () => undefined
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(listCall, async (route) => {
    await released
    await route.continue()
  })
  await list.open('empleado')
  await expect(page.getByText('Cargando...')).toBeVisible()
  release()
  await expect(list.cell('Hogares Mediterráneo S.L.')).toBeVisible()
  await expect(page.getByText('Cargando...')).toBeHidden()

  await page.unroute(listCall)
  await page.route(listCall, (route) =>
    route.fulfill({
      status: 403,
      contentType: 'application/json',
      body: JSON.stringify({ statusCode: 403, code: 'FORBIDDEN', message: 'No tienes permisos para realizar esta acción' }),
    }),
  )
  await page.reload()
  await expect(page.getByText('No tienes permisos para ver esta página')).toBeVisible()
  await expect(page.getByRole('table')).toHaveCount(0)
})
