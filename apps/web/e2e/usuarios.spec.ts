import type { Page } from '@playwright/test'
import { apiAs, combobox, expect, expectAccessible, randomNif, uniqueWord } from './fixtures'
import { listTest, SCREENS } from './list-screen'

/** SPEC §2.6 residents: the shared list, the form with per-field errors (§5) and the row menu. */

const test = listTest(SCREENS.usuarios)

const { toasts } = SCREENS.usuarios
/** Texts of one column (1-based) of the rows on screen. */
const column = (page: Page, n: number) => page.getByRole('row').locator(`td:nth-child(${n})`).allInnerTexts()

async function viviendaId(page: Page, nombre: string): Promise<number> {
  const api = await apiAs(page, 'superadmin')
  const [vivienda] = await (await api.get(`/viviendas?q=${encodeURIComponent(nombre)}`)).json()
  return vivienda.id
}

test('admin creates, moves, finds and deletes a resident', async ({ page, list }) => {
  await list.open('admin')
  await expect(page.getByRole('row')).not.toHaveCount(0)
  await expectAccessible(page)

  const apellidos = uniqueWord('Alta')
  const nombreCompleto = `Prueba ${apellidos}`
  const nif = randomNif()
  await list.create({
    Nombre: 'Prueba',
    Apellidos: apellidos,
    // Typed in lower case: the NIF is stored upper-case (DECISIONS D2).
    NIF: nif.toLowerCase(),
    Vivienda: { pick: 'Calle Mayor 12, 2º A, Valencia' },
    'Grado de dependencia': { select: 'PVS' },
  })

  await list.search(nif.toLowerCase())
  await expect(list.showing('Mostrando 1–1 de 1')).toBeVisible()
  await expect(list.row(nif)).toContainText('Calle Mayor 12, 2º A, Valencia')
  await expect(list.row(nif)).toContainText('PVS')

  await list.rowMenu(nombreCompleto).click()
  await expect(page.getByRole('link', { name: 'Documentación' })).toHaveAttribute('href', `/documentacion/${nif}`)
  await expect(page.getByRole('link', { name: 'Caja' })).toHaveAttribute('href', `/caja/${nif}`)
  await page.getByRole('button', { name: 'Modificar' }).click()
  const edicion = list.editDialog
  await expect(edicion.getByLabel('NIF')).toHaveValue(nif)
  await expect(combobox(edicion, 'Vivienda')).toHaveValue('Calle Mayor 12, 2º A, Valencia')
  await list.fill(edicion, { Vivienda: { pick: 'Calle Colón 8, Alicante' } })
  await list.save(edicion, toasts.updated)
  await expect(list.row(nif)).toContainText('Calle Colón 8, Alicante')

  // Closing a dialog opened from the row menu gives focus back to that menu's button.
  await list.openEdit(nombreCompleto)
  await edicion.getByRole('button', { name: 'Cancelar' }).click()
  await expect(edicion).toBeHidden()
  await expect(list.rowMenu(nombreCompleto)).toBeFocused()

  await list.remove(nombreCompleto)
})

test('empleado creates and deletes residents too', async ({ list }) => {
  await list.open('empleado')
  const apellidos = uniqueWord('Empleado')
  const nif = randomNif()
  await list.create({ Nombre: 'Lucía', Apellidos: apellidos, NIF: nif, Vivienda: { pick: 'Plaza de la Reina 3, Valencia' } })

  await list.search(apellidos)
  await expect(list.row(nif)).toContainText('Plaza de la Reina 3, Valencia')
  await expect(list.row(nif)).toContainText('—')
  await list.remove(`Lucía ${apellidos}`)
})

test('each field shows its own error, cleared when it is edited', async ({ page, list }) => {
  await list.open('admin')
  const alta = await list.openCreate()
  const nif = alta.getByLabel('NIF')
  await list.fill(alta, { Nombre: 'Ana 2', NIF: '12345678A', 'Foto (URL)': 'foto' })
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

test('a NIF that already exists is refused under the NIF field', async ({ page, list }) => {
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
    await list.open('admin')
    const alta = await list.openCreate()
    await list.fill(alta, {
      Nombre: 'Otra',
      Apellidos: 'Persona Distinta',
      NIF: nif,
      Vivienda: { pick: 'Calle Colón 8, Alicante' },
    })
    await alta.getByRole('button', { name: 'Guardar' }).click()
    await expect(alta.getByLabel('NIF')).toHaveAccessibleDescription('Ya existe un usuario con ese NIF')
    await expect(alta).toBeVisible()
  } finally {
    await api.delete(`/usuarios/${existente.id}`)
  }
})

test('search, sort by field or home, and paging happen on the server', async ({ page, list }) => {
  await list.open('admin')
  await expect(list.showing(/^Mostrando 1–10 de \d+$/)).toBeVisible()
  await expect(list.header('Nombre')).toHaveAttribute('aria-sort', 'ascending')

  await list.sortBy('NIF', 'ascending')
  await expect(list.header('Nombre')).toHaveAttribute('aria-sort', 'none')
  // Polls until what is on screen is sorted (the expected value is read from the screen at each try).
  const sorted = async (reverse = false) => {
    const nifs = await column(page, 3)
    const wanted = [...nifs].sort()
    return nifs.join() === (reverse ? wanted.reverse() : wanted).join()
  }
  await expect.poll(() => sorted()).toBe(true)
  const primeraPagina = await column(page, 3)

  await list.turnPage('Página 2', /^Mostrando 11–/)
  const segunda = await column(page, 3)
  expect(segunda.every((nif) => primeraPagina.every((p) => p < nif))).toBe(true)

  await list.sortBy('NIF', 'descending')
  // A new sort starts again at page 1.
  await expect(list.showing(/^Mostrando 1–10 de/)).toBeVisible()
  await expect.poll(() => sorted(true)).toBe(true)

  await list.sortBy('Vivienda')
  await expect(list.firstRow()).toContainText('Avenida del Puerto 45, Valencia')
  await list.sortBy('Vivienda')
  await expect(list.firstRow()).toContainText('Plaza de la Reina 3, Valencia')

  // By surname and by NIF, case-insensitive.
  const api = await apiAs(page, 'admin')
  const [alguien] = await (await api.get('/usuarios?page=1&pageSize=1&sort=nif&order=desc')).json()
  await list.search(alguien.nif.toLowerCase())
  await expect(list.showing('Mostrando 1–1 de 1')).toBeVisible()
  await expect(list.row(alguien.nif)).toContainText(alguien.apellidos)
  await list.search(alguien.apellidos)
  await expect(list.row(alguien.nif)).toBeVisible()
  await page.getByRole('button', { name: 'Limpiar' }).click()
  await expect(list.showing(/^Mostrando 1–10 de \d+$/)).toBeVisible()
})

test('a resident without a home shows Sin vivienda', async ({ page, list }) => {
  const api = await apiAs(page, 'superadmin')
  // Other journeys add residents (a hundred in one of the calendar's): read page by page until one has no home.
  let sinCasa: { nif: string; viviendas: unknown[] } | undefined
  for (let pagina = 1; !sinCasa; pagina++) {
    const todos: Array<{ nif: string; viviendas: unknown[] }> = await (
      await api.get(`/usuarios?pageSize=100&page=${pagina}`)
    ).json()
    if (todos.length === 0) break
    sinCasa = todos.find((u) => u.viviendas.length === 0)
  }
  expect(sinCasa, 'demo data has a resident without a home').toBeTruthy()
  await list.open('superadmin')
  await list.chooseEmpresa('Todas mis empresas')
  await list.search(sinCasa?.nif ?? '')
  await expect(list.row(sinCasa?.nif ?? '')).toContainText('Sin vivienda')
})

test('the company switcher re-filters the residents', async ({ page, list }) => {
  await list.open('admin')
  await list.sortBy('Vivienda')
  await expect(list.firstRow()).toContainText('Avenida del Puerto 45, Valencia')
  await list.chooseEmpresa('Fundación Vivir Acompañados')
  await expect(list.firstRow()).toContainText('Calle Alcalá 120, Madrid')
  await expect(page.getByRole('cell', { name: 'Avenida del Puerto 45, Valencia' })).toHaveCount(0)
})

test('below 768 px the residents are cards', async ({ page, list }) => {
  await list.openCards('empleado')
  const nombre = (await list.firstCard().textContent()) ?? ''
  await list.sortCards('Nombre (Z-A)')
  await expect(list.firstCard()).not.toHaveText(nombre)
  await expect(page.getByRole('term').filter({ hasText: 'Vivienda' }).first()).toBeVisible()
  const ultima = (await list.firstCard().textContent()) ?? ''
  await list.rowMenu(ultima).click()
  await expect(page.getByRole('link', { name: 'Documentación' })).toBeVisible()
  await expectAccessible(page)
})

test('the list keeps its search, sort and page in the URL: Back, a reload and a copied link show the same list', async ({
  page,
  list,
}) => {
  await list.open('admin')
  await list.sortBy('NIF')
  await page.getByRole('button', { name: 'Página 2' }).click()
  await expect(page).toHaveURL(/sort=nif/)
  await expect(page).toHaveURL(/page=2/)
  await expect(list.showing(/^Mostrando 11–/)).toBeVisible()
  const secondPage = await column(page, 3)

  // Into a resident's documents and Back: the same page of the same sort.
  const first = ((await list.firstRow().locator('td').first().textContent()) ?? '').trim()
  const apellidos = ((await list.firstRow().locator('td').nth(1).textContent()) ?? '').trim()
  await list.rowMenu(`${first} ${apellidos}`).click()
  await page.getByRole('link', { name: 'Documentación' }).click()
  await expect(page).toHaveURL(/\/documentacion\//)
  await page.goBack()
  await expect(list.showing(/^Mostrando 11–/)).toBeVisible()
  await expect(list.header('NIF')).toHaveAttribute('aria-sort', 'ascending')
  expect(await column(page, 3)).toEqual(secondPage)

  // A reload, and the copied link in a fresh tab.
  await page.reload()
  await expect(list.showing(/^Mostrando 11–/)).toBeVisible()
  expect(await column(page, 3)).toEqual(secondPage)
  const link = page.url()
  const other = await page.context().newPage()
  await other.goto(link)
  await expect(other.getByText(/^Mostrando 11–/)).toBeVisible()
  await other.close()

  // Typing goes back to page 1 at once; choosing a page before the search fires is not undone by it.
  await list.searchbox.pressSequentially('a', { delay: 20 })
  await expect(page).not.toHaveURL(/page=/)
  await page.getByRole('button', { name: 'Página 2' }).click()
  // The debounced search arrives after the click (q appears in the URL) and leaves page 2 alone.
  await expect(page).toHaveURL(/q=a/)
  await expect(page).toHaveURL(/page=2/)
  await expect(list.searchbox).toHaveValue('a')
})
