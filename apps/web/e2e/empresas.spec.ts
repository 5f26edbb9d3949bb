import type { Page } from '@playwright/test'
import { apiAs, expect, expectAccessible, loginAs, test, unique } from './fixtures'

/** SPEC §2.4 companies: the shared list block, the modals and the role matrix of SPEC §6. */

const search = (page: Page) => page.getByRole('searchbox', { name: 'Buscar empresa' })
const cell = (page: Page, text: string) => page.getByRole('cell', { name: text, exact: true })
const rowMenu = (page: Page, nombre: string) => page.getByRole('button', { name: `Acciones de ${nombre}`, exact: true })
/** Company names in the order the table shows them. */
const names = (page: Page) => page.getByRole('row').locator('td:nth-child(2)').allInnerTexts()

async function createViaApi(page: Page, nombres: string[]): Promise<number[]> {
  const api = await apiAs(page, 'superadmin')
  const ids: number[] = []
  for (const nombre of nombres) {
    const res = await api.post('/empresas', { nombre })
    expect(res.status()).toBe(201)
    ids.push((await res.json()).id)
  }
  return ids
}

async function removeViaApi(page: Page, ids: number[]) {
  const api = await apiAs(page, 'superadmin')
  for (const id of ids) await api.delete(`/empresas/${id}`)
}

test('superadmin creates, edits, finds and deletes a company', async ({ page }) => {
  await loginAs(page, 'superadmin', '/empresas')
  await expect(page.getByRole('columnheader', { name: 'Nombre de Empresa' })).toHaveAttribute('aria-sort', 'ascending')
  await expect(cell(page, 'Hogares Mediterráneo S.L.')).toBeVisible()
  await expectAccessible(page)

  const nombre = unique('Empresa Alta')
  await page.getByRole('button', { name: 'Nueva empresa' }).click()
  const alta = page.getByRole('dialog', { name: 'Añadir Nueva Empresa' })
  await alta.getByLabel('Nombre de Empresa').fill(nombre)
  // A logo the app itself serves, so the <img> really loads.
  await alta.getByLabel('URL del logo').fill(`${new URL(page.url()).origin}/favicon.svg`)
  await expectAccessible(page)
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta).toBeHidden()
  await expect(page.getByText('Empresa creada correctamente')).toBeVisible()

  await search(page).fill(nombre)
  await expect(cell(page, nombre)).toBeVisible()
  await expect(page.getByRole('img', { name: `Logo de ${nombre}` })).toBeVisible()
  await expect(page.getByText('Mostrando 1–1 de 1')).toBeVisible()

  const nuevo = unique('Empresa Cambiada')
  await rowMenu(page, nombre).click()
  await page.getByRole('button', { name: 'Modificar' }).click()
  const edicion = page.getByRole('dialog', { name: 'Modificar Empresa' })
  await expect(edicion.getByLabel('Nombre de Empresa')).toHaveValue(nombre)
  await edicion.getByLabel('Nombre de Empresa').fill(nuevo)
  await edicion.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Empresa modificada correctamente')).toBeVisible()
  await page.getByRole('button', { name: 'Limpiar' }).click()
  await expect(search(page)).toHaveValue('')
  await search(page).fill(nuevo)
  await expect(cell(page, nuevo)).toBeVisible()

  await rowMenu(page, nuevo).click()
  await page.getByRole('button', { name: 'Eliminar' }).click()
  const confirmacion = page.getByRole('dialog', { name: 'Confirmar Eliminación' })
  await expect(confirmacion).toContainText(`¿Seguro que quieres eliminar la empresa ${nuevo}?`)
  await confirmacion.getByRole('button', { name: 'Cancelar' }).click()
  await expect(confirmacion).toBeHidden()
  await expect(cell(page, nuevo)).toBeVisible()

  await rowMenu(page, nuevo).click()
  await page.getByRole('button', { name: 'Eliminar' }).click()
  await page.getByRole('dialog', { name: 'Confirmar Eliminación' }).getByRole('button', { name: 'Eliminar' }).click()
  await expect(page.getByText('Empresa eliminada correctamente')).toBeVisible()
  await expect(page.getByText('No hay empresas.')).toBeVisible()
})

test('errors show under their field and clear when the field is edited', async ({ page }) => {
  await loginAs(page, 'superadmin', '/empresas')
  await page.getByRole('button', { name: 'Nueva empresa' }).click()
  const alta = page.getByRole('dialog', { name: 'Añadir Nueva Empresa' })
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

  // Escape with typed changes asks first (issue 8 item 8); discarding closes the modal and gives focus back
  // to the button that opened it.
  await page.keyboard.press('Escape')
  await expect(alta.getByText('Tienes cambios sin guardar. ¿Quieres descartarlos?')).toBeVisible()
  await alta.getByRole('button', { name: 'Seguir editando' }).click()
  await expect(nombre).toHaveValue('Empresa <mala>')
  await page.keyboard.press('Escape')
  await alta.getByRole('button', { name: 'Descartar cambios' }).click()
  await expect(alta).toBeHidden()
  await expect(page.getByRole('button', { name: 'Nueva empresa' })).toBeFocused()
})

test('search is debounced, sorting toggles and pages come from the server', async ({ page }) => {
  const prefix = unique('Orden')
  // 11 companies: two pages of 10 (SPEC §9).
  const created = await createViaApi(
    page,
    Array.from({ length: 11 }, (_, i) => `${prefix} ${String.fromCharCode(65 + i)}`),
  )
  try {
    await loginAs(page, 'superadmin', '/empresas')
    await expect(cell(page, 'Hogares Mediterráneo S.L.')).toBeVisible()

    const queries: string[] = []
    page.on('request', (r) => {
      const url = new URL(r.url())
      if (url.pathname === '/api/empresas' && url.searchParams.has('q')) queries.push(url.searchParams.get('q') ?? '')
    })
    await search(page).pressSequentially(prefix, { delay: 30 })
    await expect(page.getByText('Mostrando 1–10 de 11')).toBeVisible()
    // One request for the whole typed text, none per key stroke.
    expect(queries).toEqual([prefix])
    expect(await names(page)).toEqual(Array.from({ length: 10 }, (_, i) => `${prefix} ${String.fromCharCode(65 + i)}`))

    await page.getByRole('button', { name: 'Página 2' }).click()
    await expect(page.getByText('Mostrando 11–11 de 11')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Página siguiente' })).toHaveCount(0)
    expect(await names(page)).toEqual([`${prefix} K`])
    await page.getByRole('button', { name: 'Página anterior' }).click()
    await expect(page.getByText('Mostrando 1–10 de 11')).toBeVisible()

    const header = page.getByRole('columnheader', { name: 'Nombre de Empresa' })
    await header.getByRole('button').click()
    await expect(header).toHaveAttribute('aria-sort', 'descending')
    await expect(page.getByRole('row').nth(1)).toContainText(`${prefix} K`)
    await header.getByRole('button').click()
    await expect(header).toHaveAttribute('aria-sort', 'ascending')
    await expect(page.getByRole('row').nth(1)).toContainText(`${prefix} A`)

    // A new search goes back to page 1.
    await page.getByRole('button', { name: 'Página 2' }).click()
    await expect(page.getByText('Mostrando 11–11 de 11')).toBeVisible()
    await search(page).fill(`${prefix} C`)
    await expect(page.getByText('Mostrando 1–1 de 1')).toBeVisible()
    expect(await names(page)).toEqual([`${prefix} C`])
  } finally {
    await removeViaApi(page, created)
  }
})

test('a company with homes cannot be deleted: the server says why', async ({ page }) => {
  const nombre = unique('Empresa Con Casas')
  const [empresaId] = await createViaApi(page, [nombre])
  const api = await apiAs(page, 'superadmin')
  const vivienda = await (await api.post('/viviendas', { nombre: unique('Calle Prueba'), empresaId })).json()
  try {
    await loginAs(page, 'superadmin', '/empresas')
    await search(page).fill(nombre)
    await rowMenu(page, nombre).click()
    await page.getByRole('button', { name: 'Eliminar' }).click()
    await page.getByRole('dialog', { name: 'Confirmar Eliminación' }).getByRole('button', { name: 'Eliminar' }).click()
    await expect(
      page.getByText('No se puede eliminar la empresa: todavía tiene 1 vivienda. Elimínalos o trasládalos antes a otra empresa.'),
    ).toBeVisible()
    await expect(cell(page, nombre)).toBeVisible()
  } finally {
    await api.delete(`/viviendas/${vivienda.id}`)
    await api.delete(`/empresas/${empresaId}`)
  }
})

test('admin modifies its own companies but neither creates nor deletes', async ({ page }) => {
  await loginAs(page, 'admin', '/empresas')
  await expect(page.getByText('Mostrando 1–2 de 2')).toBeVisible()
  await expect(cell(page, 'Residencias del Norte (Asturias)')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Nueva empresa' })).toHaveCount(0)

  const original = 'Fundación Vivir Acompañados'
  const renombrada = unique('Fundación Renombrada')
  await rowMenu(page, original).click()
  await expect(page.getByRole('button', { name: 'Eliminar' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Modificar' }).click()
  const edicion = page.getByRole('dialog', { name: 'Modificar Empresa' })
  await edicion.getByLabel('Nombre de Empresa').fill(renombrada)
  await edicion.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Empresa modificada correctamente')).toBeVisible()
  await expect(cell(page, renombrada)).toBeVisible()

  // Put the demo name back for the other journeys.
  await rowMenu(page, renombrada).click()
  await page.getByRole('button', { name: 'Modificar' }).click()
  await edicion.getByLabel('Nombre de Empresa').fill(original)
  await edicion.getByRole('button', { name: 'Guardar' }).click()
  await expect(cell(page, original)).toBeVisible()
  await expectAccessible(page)
})

test('empleado only views its company', async ({ page }) => {
  await loginAs(page, 'empleado', '/empresas')
  await expect(page.getByText('Mostrando 1–1 de 1')).toBeVisible()
  await expect(cell(page, 'Hogares Mediterráneo S.L.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Nueva empresa' })).toHaveCount(0)
  await expect(page.getByRole('columnheader', { name: 'Acciones' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Acciones de/ })).toHaveCount(0)
  await expectAccessible(page)
})

test('below 768 px the companies are cards', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 })
  await loginAs(page, 'superadmin', '/empresas')
  await expect(page.getByRole('heading', { name: 'Hogares Mediterráneo S.L.' })).toBeVisible()
  await expect(page.getByRole('table')).toHaveCount(0)
  await expect(page.getByRole('img', { name: 'Sin logo' }).first()).toBeVisible()

  const orden = page.getByLabel('Ordenar por')
  await orden.selectOption({ label: 'Nombre de Empresa (Z-A)' })
  await expect(page.getByRole('heading', { level: 2 }).first()).toHaveText('Residencias del Norte (Asturias)')

  await rowMenu(page, 'Hogares Mediterráneo S.L.').click()
  await expect(page.getByRole('button', { name: 'Modificar' })).toBeVisible()
  await expectAccessible(page)
})

test('the list says when it is loading and when the server refuses it', async ({ page }) => {
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
  await loginAs(page, 'empleado', '/empresas')
  await expect(page.getByText('Cargando...')).toBeVisible()
  release()
  await expect(cell(page, 'Hogares Mediterráneo S.L.')).toBeVisible()
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
