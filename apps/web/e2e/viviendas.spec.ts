import type { Page } from '@playwright/test'
import { apiAs, combobox, expect, expectAccessible, loginAs, pick, test, unique } from './fixtures'

/** SPEC §2.5 homes: the shared list, the company switcher (DECISIONS D1) and DECISIONS P2 (delete: SUPERADMIN). */

const search = (page: Page) => page.getByRole('searchbox', { name: 'Buscar vivienda' })
const cell = (page: Page, text: string) => page.getByRole('cell', { name: text, exact: true })
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })
const rowMenu = (page: Page, nombre: string) => page.getByRole('button', { name: `Acciones de ${nombre}`, exact: true })

/** The top bar's company switcher (shell). */
async function chooseEmpresa(page: Page, nombre: string) {
  await page.getByRole('button', { name: /^Empresa:/ }).click()
  await page.getByRole('button', { name: nombre, exact: true }).click()
  await expect(page.getByRole('button', { name: `Empresa: ${nombre}` })).toBeVisible()
}

async function empresaId(page: Page, nombre: string): Promise<number> {
  const api = await apiAs(page, 'superadmin')
  const empresas: Array<{ id: number; nombre: string }> = await (await api.get('/empresas')).json()
  const found = empresas.find((e) => e.nombre === nombre)
  if (!found) throw new Error(`no company ${nombre}`)
  return found.id
}

test('superadmin creates, moves, finds and deletes a home', async ({ page }) => {
  await loginAs(page, 'superadmin', '/viviendas')
  await expect(cell(page, 'Calle Mayor 12, 2º A, Valencia')).toBeVisible()
  await expectAccessible(page)

  const nombre = unique('Calle Alta')
  await page.getByRole('button', { name: 'Nueva vivienda' }).click()
  const alta = page.getByRole('dialog', { name: 'Añadir Nueva Vivienda' })
  // A new home belongs to the company chosen in the top bar unless another is picked.
  await expect(combobox(alta, 'Empresa')).toHaveValue('Hogares Mediterráneo S.L.')
  await alta.getByLabel('Dirección').fill(nombre)
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Vivienda creada correctamente')).toBeVisible()
  await search(page).fill(nombre)
  await expect(row(page, nombre)).toContainText('Hogares Mediterráneo S.L.')

  const movida = unique('Calle Movida')
  await rowMenu(page, nombre).click()
  await page.getByRole('button', { name: 'Modificar' }).click()
  const edicion = page.getByRole('dialog', { name: 'Modificar Vivienda' })
  await expect(edicion.getByLabel('Dirección')).toHaveValue(nombre)
  await edicion.getByLabel('Dirección').fill(movida)
  await pick(edicion, 'Empresa', 'Fundación Vivir Acompañados')
  await edicion.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Vivienda modificada correctamente')).toBeVisible()
  // It now belongs to another company than the one selected, so this list no longer shows it.
  await search(page).fill(movida)
  await expect(page.getByText('No hay viviendas.')).toBeVisible()
  await chooseEmpresa(page, 'Fundación Vivir Acompañados')
  await expect(row(page, movida)).toContainText('Fundación Vivir Acompañados')

  await rowMenu(page, movida).click()
  await page.getByRole('button', { name: 'Eliminar' }).click()
  const confirmacion = page.getByRole('dialog', { name: 'Confirmar Eliminación' })
  await expect(confirmacion).toContainText(`¿Seguro que quieres eliminar la vivienda ${movida}?`)
  await confirmacion.getByRole('button', { name: 'Eliminar' }).click()
  await expect(page.getByText('Vivienda eliminada correctamente')).toBeVisible()
  await expect(page.getByText('No hay viviendas.')).toBeVisible()
})

test('required fields show their messages and clear when edited', async ({ page }) => {
  await loginAs(page, 'superadmin', '/viviendas')
  await chooseEmpresa(page, 'Todas mis empresas')
  await page.getByRole('button', { name: 'Nueva vivienda' }).click()
  const alta = page.getByRole('dialog', { name: 'Añadir Nueva Vivienda' })
  await expect(combobox(alta, 'Empresa')).toHaveValue('')
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta.getByText('La dirección es obligatoria')).toBeVisible()
  await expect(alta.getByText('La empresa es obligatoria')).toBeVisible()
  await expectAccessible(page)
  await pick(alta, 'Empresa', 'Residencias del Norte (Asturias)')
  await expect(alta.getByText('La empresa es obligatoria')).toBeHidden()
  await expect(alta.getByText('La dirección es obligatoria')).toBeVisible()
  // Typed changes: Cancelar asks before throwing them away (issue 8 item 8).
  await alta.getByRole('button', { name: 'Cancelar' }).click()
  await expect(alta.getByText('Tienes cambios sin guardar. ¿Quieres descartarlos?')).toBeVisible()
  await alta.getByRole('button', { name: 'Descartar cambios' }).click()
  await expect(alta).toBeHidden()
})

test('the company switcher re-filters the homes', async ({ page }) => {
  await loginAs(page, 'superadmin', '/viviendas')
  await expect(cell(page, 'Calle Mayor 12, 2º A, Valencia')).toBeVisible()
  await expect(cell(page, 'Calle Uría 15, Oviedo')).toHaveCount(0)

  await chooseEmpresa(page, 'Residencias del Norte (Asturias)')
  await expect(cell(page, 'Calle Uría 15, Oviedo')).toBeVisible()
  await expect(cell(page, 'Calle Mayor 12, 2º A, Valencia')).toHaveCount(0)
  await expect(page.getByRole('cell', { name: 'Hogares Mediterráneo S.L.' })).toHaveCount(0)

  await chooseEmpresa(page, 'Todas mis empresas')
  for (const empresa of ['Hogares Mediterráneo S.L.', 'Fundación Vivir Acompañados', 'Residencias del Norte (Asturias)']) {
    await expect(cell(page, empresa).first()).toBeVisible()
  }
})

test('sorting by address or company and paging happen on the server', async ({ page }) => {
  const prefix = unique('Orden')
  const api = await apiAs(page, 'superadmin')
  const norte = await empresaId(page, 'Residencias del Norte (Asturias)')
  const ids: number[] = []
  for (let i = 0; i < 11; i++) {
    const res = await api.post('/viviendas', { nombre: `${prefix} ${String.fromCharCode(65 + i)}`, empresaId: norte })
    expect(res.status()).toBe(201)
    ids.push((await res.json()).id)
  }
  try {
    await loginAs(page, 'superadmin', '/viviendas')
    await chooseEmpresa(page, 'Todas mis empresas')

    const empresa = page.getByRole('columnheader', { name: 'Empresa' })
    const direccion = page.getByRole('columnheader', { name: 'Dirección' })
    await expect(direccion).toHaveAttribute('aria-sort', 'ascending')
    await empresa.getByRole('button').click()
    await expect(empresa).toHaveAttribute('aria-sort', 'ascending')
    await expect(direccion).toHaveAttribute('aria-sort', 'none')
    await expect(page.getByRole('row').nth(1)).toContainText('Fundación Vivir Acompañados')
    await empresa.getByRole('button').click()
    await expect(empresa).toHaveAttribute('aria-sort', 'descending')
    await expect(page.getByRole('row').nth(1)).toContainText('Residencias del Norte (Asturias)')

    await search(page).fill(prefix)
    await expect(page.getByText('Mostrando 1–10 de 11')).toBeVisible()
    await direccion.getByRole('button').click()
    await expect(direccion).toHaveAttribute('aria-sort', 'ascending')
    await expect(page.getByRole('row').nth(1)).toContainText(`${prefix} A`)
    await direccion.getByRole('button').click()
    await expect(direccion).toHaveAttribute('aria-sort', 'descending')
    await expect(page.getByRole('row').nth(1)).toContainText(`${prefix} K`)
    await page.getByRole('button', { name: 'Página siguiente' }).click()
    await expect(page.getByText('Mostrando 11–11 de 11')).toBeVisible()
    await expect(page.getByRole('row')).toHaveCount(2)
    await expect(page.getByRole('row').nth(1)).toContainText(`${prefix} A`)
  } finally {
    for (const id of ids) await api.delete(`/viviendas/${id}`)
  }
})

test('admin creates and modifies homes but cannot delete them', async ({ page }) => {
  await loginAs(page, 'admin', '/viviendas')
  const nombre = unique('Calle Admin')
  await page.getByRole('button', { name: 'Nueva vivienda' }).click()
  const alta = page.getByRole('dialog', { name: 'Añadir Nueva Vivienda' })
  // Only the admin's two companies are offered (the server scopes the search).
  await combobox(alta, 'Empresa').fill('')
  await expect(page.getByRole('option')).toHaveText(['Fundación Vivir Acompañados', 'Hogares Mediterráneo S.L.'])
  await pick(alta, 'Empresa', 'Hogares Mediterráneo S.L.')
  await alta.getByLabel('Dirección').fill(nombre)
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Vivienda creada correctamente')).toBeVisible()

  await search(page).fill(nombre)
  const nuevo = unique('Calle Admin Editada')
  await rowMenu(page, nombre).click()
  await expect(page.getByRole('button', { name: 'Eliminar' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Modificar' }).click()
  const edicion = page.getByRole('dialog', { name: 'Modificar Vivienda' })
  await edicion.getByLabel('Dirección').fill(nuevo)
  await edicion.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Vivienda modificada correctamente')).toBeVisible()
  await search(page).fill(nuevo)
  await expect(cell(page, nuevo)).toBeVisible()
  await expectAccessible(page)

  const api = await apiAs(page, 'superadmin')
  const [creada] = await (await api.get(`/viviendas?q=${encodeURIComponent(nuevo)}`)).json()
  await api.delete(`/viviendas/${creada.id}`)
})

test('empleado views its company homes without any action', async ({ page }) => {
  await loginAs(page, 'empleado', '/viviendas')
  await expect(cell(page, 'Calle Mayor 12, 2º A, Valencia')).toBeVisible()
  await expect(cell(page, 'Calle Alcalá 120, Madrid')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Nueva vivienda' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Acciones de/ })).toHaveCount(0)
  await expectAccessible(page)
})

test('below 768 px the homes are cards', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 })
  await loginAs(page, 'admin', '/viviendas')
  await expect(page.getByRole('heading', { name: 'Calle Mayor 12, 2º A, Valencia' })).toBeVisible()
  await expect(page.getByRole('table')).toHaveCount(0)
  await page.getByLabel('Ordenar por').selectOption({ label: 'Dirección (Z-A)' })
  await expect(page.getByRole('heading', { level: 2 }).first()).toHaveText('Plaza de la Reina 3, Valencia')
  await rowMenu(page, 'Plaza de la Reina 3, Valencia').click()
  await expect(page.getByRole('button', { name: 'Modificar' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Eliminar' })).toHaveCount(0)
  await expectAccessible(page)
})
