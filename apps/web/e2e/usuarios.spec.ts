import type { Page } from '@playwright/test'
import { apiAs, combobox, expect, expectAccessible, loginAs, pick, randomNif, test, uniqueWord } from './fixtures'

/** SPEC §2.6 residents: the shared list, the form with per-field errors (§5) and the row menu. */

const search = (page: Page) => page.getByRole('searchbox', { name: 'Buscar usuario' })
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })
const rowMenu = (page: Page, nombre: string) => page.getByRole('button', { name: `Acciones de ${nombre}`, exact: true })
/** Texts of one column (1-based) of the rows on screen. */
const column = (page: Page, n: number) => page.getByRole('row').locator(`td:nth-child(${n})`).allInnerTexts()

async function viviendaId(page: Page, nombre: string): Promise<number> {
  const api = await apiAs(page, 'superadmin')
  const [vivienda] = await (await api.get(`/viviendas?q=${encodeURIComponent(nombre)}`)).json()
  return vivienda.id
}

async function chooseEmpresa(page: Page, nombre: string) {
  await page.getByRole('button', { name: /^Empresa:/ }).click()
  await page.getByRole('button', { name: nombre, exact: true }).click()
  await expect(page.getByRole('button', { name: `Empresa: ${nombre}` })).toBeVisible()
}

test('admin creates, moves, finds and deletes a resident', async ({ page }) => {
  await loginAs(page, 'admin', '/usuarios')
  await expect(page.getByRole('row')).not.toHaveCount(0)
  await expectAccessible(page)

  const apellidos = uniqueWord('Alta')
  const nombreCompleto = `Prueba ${apellidos}`
  const nif = randomNif()
  await page.getByRole('button', { name: 'Nuevo usuario' }).click()
  const alta = page.getByRole('dialog', { name: 'Añadir Nuevo Usuario' })
  await alta.getByLabel('Nombre', { exact: true }).fill('Prueba')
  await alta.getByLabel('Apellidos').fill(apellidos)
  // Typed in lower case: the NIF is stored upper-case (DECISIONS D2).
  await alta.getByLabel('NIF').fill(nif.toLowerCase())
  await pick(alta, 'Vivienda', 'Calle Mayor 12, 2º A, Valencia')
  await alta.getByLabel('Grado de dependencia').selectOption('PVS')
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta).toBeHidden()
  await expect(page.getByText('Usuario creado correctamente')).toBeVisible()

  await search(page).fill(nif.toLowerCase())
  await expect(page.getByText('Mostrando 1–1 de 1')).toBeVisible()
  await expect(row(page, nif)).toContainText('Calle Mayor 12, 2º A, Valencia')
  await expect(row(page, nif)).toContainText('PVS')

  await rowMenu(page, nombreCompleto).click()
  await expect(page.getByRole('link', { name: 'Documentación' })).toHaveAttribute('href', `/documentacion/${nif}`)
  await expect(page.getByRole('link', { name: 'Caja' })).toHaveAttribute('href', `/caja/${nif}`)
  await page.getByRole('button', { name: 'Modificar' }).click()
  const edicion = page.getByRole('dialog', { name: 'Modificar Usuario' })
  await expect(edicion.getByLabel('NIF')).toHaveValue(nif)
  await expect(combobox(edicion, 'Vivienda')).toHaveValue('Calle Mayor 12, 2º A, Valencia')
  await pick(edicion, 'Vivienda', 'Calle Colón 8, Alicante')
  await edicion.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Usuario modificado correctamente')).toBeVisible()
  await expect(row(page, nif)).toContainText('Calle Colón 8, Alicante')

  // Closing a dialog opened from the row menu gives focus back to that menu's button.
  await rowMenu(page, nombreCompleto).click()
  await page.getByRole('button', { name: 'Modificar' }).click()
  await edicion.getByRole('button', { name: 'Cancelar' }).click()
  await expect(edicion).toBeHidden()
  await expect(rowMenu(page, nombreCompleto)).toBeFocused()

  await rowMenu(page, nombreCompleto).click()
  await page.getByRole('button', { name: 'Eliminar' }).click()
  const confirmacion = page.getByRole('dialog', { name: 'Confirmar Eliminación' })
  await expect(confirmacion).toContainText(`¿Seguro que quieres eliminar el usuario ${nombreCompleto}?`)
  await confirmacion.getByRole('button', { name: 'Eliminar' }).click()
  await expect(page.getByText('Usuario eliminado correctamente')).toBeVisible()
  await expect(page.getByText('No hay usuarios.')).toBeVisible()
})

test('empleado creates and deletes residents too', async ({ page }) => {
  await loginAs(page, 'empleado', '/usuarios')
  const apellidos = uniqueWord('Empleado')
  const nif = randomNif()
  await page.getByRole('button', { name: 'Nuevo usuario' }).click()
  const alta = page.getByRole('dialog', { name: 'Añadir Nuevo Usuario' })
  await alta.getByLabel('Nombre', { exact: true }).fill('Lucía')
  await alta.getByLabel('Apellidos').fill(apellidos)
  await alta.getByLabel('NIF').fill(nif)
  await pick(alta, 'Vivienda', 'Plaza de la Reina 3, Valencia')
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Usuario creado correctamente')).toBeVisible()

  await search(page).fill(apellidos)
  await expect(row(page, nif)).toContainText('Plaza de la Reina 3, Valencia')
  await expect(row(page, nif)).toContainText('—')
  await rowMenu(page, `Lucía ${apellidos}`).click()
  await page.getByRole('button', { name: 'Eliminar' }).click()
  await page.getByRole('dialog', { name: 'Confirmar Eliminación' }).getByRole('button', { name: 'Eliminar' }).click()
  await expect(page.getByText('Usuario eliminado correctamente')).toBeVisible()
  await expect(page.getByText('No hay usuarios.')).toBeVisible()
})

test('each field shows its own error, cleared when it is edited', async ({ page }) => {
  await loginAs(page, 'admin', '/usuarios')
  await page.getByRole('button', { name: 'Nuevo usuario' }).click()
  const alta = page.getByRole('dialog', { name: 'Añadir Nuevo Usuario' })
  const nif = alta.getByLabel('NIF')
  await alta.getByLabel('Nombre', { exact: true }).fill('Ana 2')
  await nif.fill('12345678A')
  await alta.getByLabel('Foto (URL)').fill('foto')
  await alta.getByRole('button', { name: 'Guardar' }).click()

  await expect(nif).toHaveAccessibleDescription('El NIF no es válido')
  await expect(nif).toHaveAttribute('aria-invalid', 'true')
  await expect(alta.getByLabel('Nombre', { exact: true })).toHaveAccessibleDescription(
    'El nombre solo puede contener letras y espacios',
  )
  await expect(alta.getByLabel('Apellidos')).toHaveAccessibleDescription('Los apellidos son obligatorios')
  await expect(combobox(alta, 'Vivienda')).toHaveAccessibleDescription('La vivienda es obligatoria')
  await expect(alta.getByLabel('Foto (URL)')).toHaveAccessibleDescription('La foto debe ser una URL válida')
  await expectAccessible(page)

  // Editing a field clears its error only.
  await nif.press('End')
  await nif.press('Backspace')
  await expect(alta.getByText('El NIF no es válido')).toBeHidden()
  await expect(alta.getByText('Los apellidos son obligatorios')).toBeVisible()

  await nif.fill('1234')
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(nif).toHaveAccessibleDescription('El NIF debe tener 8 números y 1 letra (ej: 12345678Z)')
})

test('a NIF that already exists is refused under the NIF field', async ({ page }) => {
  const api = await apiAs(page, 'admin')
  const nif = randomNif()
  const res = await api.post('/usuarios', {
    nombre: 'Existente',
    apellidos: uniqueWord('Duplicado'),
    nif,
    viviendaId: await viviendaId(page, 'Calle Mayor 12'),
  })
  expect(res.status()).toBe(201)
  const existente = await res.json()
  try {
    await loginAs(page, 'admin', '/usuarios')
    await page.getByRole('button', { name: 'Nuevo usuario' }).click()
    const alta = page.getByRole('dialog', { name: 'Añadir Nuevo Usuario' })
    await alta.getByLabel('Nombre', { exact: true }).fill('Otra')
    await alta.getByLabel('Apellidos').fill('Persona Distinta')
    await alta.getByLabel('NIF').fill(nif)
    await pick(alta, 'Vivienda', 'Calle Colón 8, Alicante')
    await alta.getByRole('button', { name: 'Guardar' }).click()
    await expect(alta.getByLabel('NIF')).toHaveAccessibleDescription('Ya existe un usuario con ese NIF')
    await expect(alta).toBeVisible()
  } finally {
    await api.delete(`/usuarios/${existente.id}`)
  }
})

test('search, sort by field or home, and paging happen on the server', async ({ page }) => {
  await loginAs(page, 'admin', '/usuarios')
  await expect(page.getByText(/^Mostrando 1–10 de \d+$/)).toBeVisible()
  await expect(page.getByRole('columnheader', { name: 'Nombre', exact: true })).toHaveAttribute('aria-sort', 'ascending')

  const nifHeader = page.getByRole('columnheader', { name: 'NIF' })
  await nifHeader.getByRole('button').click()
  await expect(nifHeader).toHaveAttribute('aria-sort', 'ascending')
  await expect(page.getByRole('columnheader', { name: 'Nombre', exact: true })).toHaveAttribute('aria-sort', 'none')
  // Polls until what is on screen is sorted (the expected value is read from the screen at each try).
  const sorted = async (reverse = false) => {
    const nifs = await column(page, 3)
    const wanted = [...nifs].sort()
    return nifs.join() === (reverse ? wanted.reverse() : wanted).join()
  }
  await expect.poll(() => sorted()).toBe(true)
  const primeraPagina = await column(page, 3)

  await page.getByRole('button', { name: 'Página 2' }).click()
  await expect(page.getByText(/^Mostrando 11–/)).toBeVisible()
  const segunda = await column(page, 3)
  expect(segunda.every((nif) => primeraPagina.every((p) => p < nif))).toBe(true)

  await nifHeader.getByRole('button').click()
  await expect(nifHeader).toHaveAttribute('aria-sort', 'descending')
  // A new sort starts again at page 1.
  await expect(page.getByText(/^Mostrando 1–10 de/)).toBeVisible()
  await expect.poll(() => sorted(true)).toBe(true)

  const vivienda = page.getByRole('columnheader', { name: 'Vivienda' })
  await vivienda.getByRole('button').click()
  await expect(page.getByRole('row').nth(1)).toContainText('Avenida del Puerto 45, Valencia')
  await vivienda.getByRole('button').click()
  await expect(page.getByRole('row').nth(1)).toContainText('Plaza de la Reina 3, Valencia')

  // By surname and by NIF, case-insensitive.
  const api = await apiAs(page, 'admin')
  const [alguien] = await (await api.get('/usuarios?page=1&pageSize=1&sort=nif&order=desc')).json()
  await search(page).fill(alguien.nif.toLowerCase())
  await expect(page.getByText('Mostrando 1–1 de 1')).toBeVisible()
  await expect(row(page, alguien.nif)).toContainText(alguien.apellidos)
  await search(page).fill(alguien.apellidos)
  await expect(row(page, alguien.nif)).toBeVisible()
  await page.getByRole('button', { name: 'Limpiar' }).click()
  await expect(page.getByText(/^Mostrando 1–10 de \d+$/)).toBeVisible()
})

test('a resident without a home shows Sin vivienda', async ({ page }) => {
  const api = await apiAs(page, 'superadmin')
  const todos: Array<{ nif: string; viviendas: unknown[] }> = await (await api.get('/usuarios?pageSize=100')).json()
  const sinCasa = todos.find((u) => u.viviendas.length === 0)
  expect(sinCasa, 'demo data has a resident without a home').toBeTruthy()
  await loginAs(page, 'superadmin', '/usuarios')
  await chooseEmpresa(page, 'Todas mis empresas')
  await search(page).fill(sinCasa?.nif ?? '')
  await expect(row(page, sinCasa?.nif ?? '')).toContainText('Sin vivienda')
})

test('the company switcher re-filters the residents', async ({ page }) => {
  await loginAs(page, 'admin', '/usuarios')
  const vivienda = page.getByRole('columnheader', { name: 'Vivienda' })
  await vivienda.getByRole('button').click()
  await expect(page.getByRole('row').nth(1)).toContainText('Avenida del Puerto 45, Valencia')
  await chooseEmpresa(page, 'Fundación Vivir Acompañados')
  await expect(page.getByRole('row').nth(1)).toContainText('Calle Alcalá 120, Madrid')
  await expect(page.getByRole('cell', { name: 'Avenida del Puerto 45, Valencia' })).toHaveCount(0)
})

test('below 768 px the residents are cards', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 })
  await loginAs(page, 'empleado', '/usuarios')
  await expect(page.getByRole('table')).toHaveCount(0)
  const primera = page.getByRole('heading', { level: 2 }).first()
  await expect(primera).toBeVisible()
  const nombre = (await primera.textContent()) ?? ''
  await page.getByLabel('Ordenar por').selectOption({ label: 'Nombre (Z-A)' })
  await expect(page.getByRole('heading', { level: 2 }).first()).not.toHaveText(nombre)
  await expect(page.getByRole('term').filter({ hasText: 'Vivienda' }).first()).toBeVisible()
  const ultima = (await page.getByRole('heading', { level: 2 }).first().textContent()) ?? ''
  await rowMenu(page, ultima).click()
  await expect(page.getByRole('link', { name: 'Documentación' })).toBeVisible()
  await expectAccessible(page)
})

test('the list keeps its search, sort and page in the URL: Back, a reload and a copied link show the same list', async ({
  page,
}) => {
  await loginAs(page, 'admin', '/usuarios')
  await page.getByRole('columnheader', { name: 'NIF' }).getByRole('button').click()
  await page.getByRole('button', { name: 'Página 2' }).click()
  await expect(page).toHaveURL(/sort=nif/)
  await expect(page).toHaveURL(/page=2/)
  await expect(page.getByText(/^Mostrando 11–/)).toBeVisible()
  const secondPage = await column(page, 3)

  // Into a resident's documents and Back: the same page of the same sort.
  const first = (await page.getByRole('row').nth(1).locator('td').first().innerText()).trim()
  const apellidos = (await page.getByRole('row').nth(1).locator('td').nth(1).innerText()).trim()
  await rowMenu(page, `${first} ${apellidos}`).click()
  await page.getByRole('link', { name: 'Documentación' }).click()
  await expect(page).toHaveURL(/\/documentacion\//)
  await page.goBack()
  await expect(page.getByText(/^Mostrando 11–/)).toBeVisible()
  await expect(page.getByRole('columnheader', { name: 'NIF' })).toHaveAttribute('aria-sort', 'ascending')
  expect(await column(page, 3)).toEqual(secondPage)

  // A reload, and the copied link in a fresh tab.
  await page.reload()
  await expect(page.getByText(/^Mostrando 11–/)).toBeVisible()
  expect(await column(page, 3)).toEqual(secondPage)
  const link = page.url()
  const other = await page.context().newPage()
  await other.goto(link)
  await expect(other.getByText(/^Mostrando 11–/)).toBeVisible()
  await other.close()

  // Typing goes back to page 1 at once; choosing a page before the search fires is not undone by it.
  await search(page).pressSequentially('a', { delay: 20 })
  await expect(page).not.toHaveURL(/page=/)
  await page.getByRole('button', { name: 'Página 2' }).click()
  // The debounced search arrives after the click (q appears in the URL) and leaves page 2 alone.
  await expect(page).toHaveURL(/q=a/)
  await expect(page).toHaveURL(/page=2/)
  await expect(search(page)).toHaveValue('a')
})
