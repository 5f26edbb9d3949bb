import type { Page } from '@playwright/test'
import { apiAs, combobox, expect, expectAccessible, pick, unique } from './fixtures'
import { createViaApi, lettered, listTest, SCREENS } from './list-screen'

/** SPEC §2.5 homes: the shared list, the company switcher (DECISIONS D1) and DECISIONS P2 (delete: SUPERADMIN). */

const test = listTest(SCREENS.viviendas)

const { toasts } = SCREENS.viviendas

async function empresaId(page: Page, nombre: string): Promise<number> {
  const api = await apiAs(page, 'superadmin')
  const empresas: Array<{ id: number; nombre: string }> = await (await api.get('/empresas')).json()
  const found = empresas.find((e) => e.nombre === nombre)
  if (!found) throw new Error(`no company ${nombre}`)
  return found.id
}

test('superadmin creates, moves, finds and deletes a home', async ({ page, list }) => {
  await list.open('superadmin', { sees: 'Calle Mayor 12, 2º A, Valencia' })
  await expectAccessible(page)

  const nombre = unique('Calle Alta')
  const alta = await list.openCreate()
  // A new home belongs to the company chosen in the top bar unless another is picked.
  await expect(combobox(alta, 'Empresa')).toHaveValue('Hogares Mediterráneo S.L.')
  await list.fill(alta, { Dirección: nombre })
  await list.save(alta, toasts.created)
  await list.search(nombre)
  await expect(list.row(nombre)).toContainText('Hogares Mediterráneo S.L.')

  const movida = unique('Calle Movida')
  const edicion = await list.openEdit(nombre)
  await expect(edicion.getByLabel('Dirección')).toHaveValue(nombre)
  await list.fill(edicion, { Dirección: movida, Empresa: { pick: 'Fundación Vivir Acompañados' } })
  await list.save(edicion, toasts.updated)
  // It now belongs to another company than the one selected, so this list no longer shows it.
  await list.search(movida)
  await expect(page.getByText(SCREENS.viviendas.empty)).toBeVisible()
  await list.chooseEmpresa('Fundación Vivir Acompañados')
  await expect(list.row(movida)).toContainText('Fundación Vivir Acompañados')

  await list.remove(movida)
})

test('required fields show their messages and clear when edited', async ({ page, list }) => {
  await list.open('superadmin')
  await list.chooseEmpresa('Todas mis empresas')
  const alta = await list.openCreate()
  await expect(combobox(alta, 'Empresa')).toHaveValue('')
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta.getByText('La dirección es obligatoria')).toBeVisible()
  await expect(alta.getByText('La empresa es obligatoria')).toBeVisible()
  await expectAccessible(page)
  await pick(alta, 'Empresa', 'Residencias del Norte (Asturias)')
  await expect(alta.getByText('La empresa es obligatoria')).toBeHidden()
  await expect(alta.getByText('La dirección es obligatoria')).toBeVisible()
  // Typed changes: Cancelar asks before throwing them away.
  await alta.getByRole('button', { name: 'Cancelar' }).click()
  await expect(alta.getByText('Tienes cambios sin guardar. ¿Quieres descartarlos?')).toBeVisible()
  await alta.getByRole('button', { name: 'Descartar cambios' }).click()
  await expect(alta).toBeHidden()
})

test('the company switcher re-filters the homes', async ({ page, list }) => {
  await list.open('superadmin', { sees: 'Calle Mayor 12, 2º A, Valencia' })
  await expect(list.cell('Calle Uría 15, Oviedo')).toHaveCount(0)

  await list.chooseEmpresa('Residencias del Norte (Asturias)')
  await expect(list.cell('Calle Uría 15, Oviedo')).toBeVisible()
  await expect(list.cell('Calle Mayor 12, 2º A, Valencia')).toHaveCount(0)
  await expect(page.getByRole('cell', { name: 'Hogares Mediterráneo S.L.' })).toHaveCount(0)

  await list.chooseEmpresa('Todas mis empresas')
  for (const empresa of ['Hogares Mediterráneo S.L.', 'Fundación Vivir Acompañados', 'Residencias del Norte (Asturias)']) {
    await expect(list.cell(empresa).first()).toBeVisible()
  }
})

test('sorting by address or company and paging happen on the server', async ({ page, list }) => {
  const prefix = unique('Orden')
  const norte = await empresaId(page, 'Residencias del Norte (Asturias)')
  const homes = await createViaApi(
    page,
    'superadmin',
    '/viviendas',
    lettered(prefix, 11).map((nombre) => ({ nombre, empresaId: norte })),
  )
  try {
    await list.open('superadmin')
    await list.chooseEmpresa('Todas mis empresas')

    await expect(list.header('Dirección')).toHaveAttribute('aria-sort', 'ascending')
    await list.sortBy('Empresa', 'ascending')
    await expect(list.header('Dirección')).toHaveAttribute('aria-sort', 'none')
    await expect(list.firstRow()).toContainText('Fundación Vivir Acompañados')
    await list.sortBy('Empresa', 'descending')
    await expect(list.firstRow()).toContainText('Residencias del Norte (Asturias)')

    await list.search(prefix)
    await expect(list.showing('Mostrando 1–10 de 11')).toBeVisible()
    await list.sortSteps('Dirección', [
      ['ascending', `${prefix} A`],
      ['descending', `${prefix} K`],
    ])
    await list.turnPage('Página siguiente', 'Mostrando 11–11 de 11')
    await expect(page.getByRole('row')).toHaveCount(2)
    await expect(list.firstRow()).toContainText(`${prefix} A`)
  } finally {
    await homes.remove()
  }
})

test('admin creates and modifies homes but cannot delete them', async ({ page, list }) => {
  await list.open('admin')
  const nombre = unique('Calle Admin')
  const alta = await list.openCreate()
  // Only the admin's two companies are offered (the server scopes the search).
  await combobox(alta, 'Empresa').fill('')
  await expect(page.getByRole('option')).toHaveText(['Fundación Vivir Acompañados', 'Hogares Mediterráneo S.L.'])
  await list.fill(alta, { Empresa: { pick: 'Hogares Mediterráneo S.L.' }, Dirección: nombre })
  await list.save(alta, toasts.created)

  await list.search(nombre)
  const nuevo = unique('Calle Admin Editada')
  await list.rowMenu(nombre).click()
  await expect(page.getByRole('button', { name: 'Eliminar' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Modificar' }).click()
  await list.fill(list.editDialog, { Dirección: nuevo })
  await list.save(list.editDialog, toasts.updated)
  await list.search(nuevo)
  await expect(list.cell(nuevo)).toBeVisible()
  await expectAccessible(page)

  const api = await apiAs(page, 'superadmin')
  const [creada] = await (await api.get(`/viviendas?q=${encodeURIComponent(nuevo)}`)).json()
  await api.delete(`/viviendas/${creada.id}`)
})

test('empleado views its company homes without any action', async ({ page, list }) => {
  await list.open('empleado', { sees: 'Calle Mayor 12, 2º A, Valencia' })
  await expect(list.cell('Calle Alcalá 120, Madrid')).toHaveCount(0)
  await list.expectReadOnly()
  await expectAccessible(page)
})

test('below 768 px the homes are cards', async ({ page, list }) => {
  await list.openCards('admin')
  await expect(page.getByRole('heading', { name: 'Calle Mayor 12, 2º A, Valencia' })).toBeVisible()
  await list.sortCards('Dirección (Z-A)')
  await expect(list.firstCard()).toHaveText('Plaza de la Reina 3, Valencia')
  await list.rowMenu('Plaza de la Reina 3, Valencia').click()
  await expect(page.getByRole('button', { name: 'Modificar' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Eliminar' })).toHaveCount(0)
  await expectAccessible(page)
})

test('a name holding markup is shown as text, never run', async ({ page, list }) => {
  await list.open('superadmin', { sees: 'Calle Mayor 12, 2º A, Valencia' })
  const nombre = unique('<img src=x onerror="window.__hostil=1"> Calle')
  const created = await createViaApi(page, 'superadmin', '/viviendas', [
    { nombre, empresaId: await empresaId(page, 'Hogares Mediterráneo S.L.') },
  ])
  await list.search(nombre)
  await expect(list.row(nombre)).toContainText(nombre)
  await expect(page.locator('img[src="x"]')).toHaveCount(0)
  expect(await page.evaluate(() => (window as { __hostil?: number }).__hostil)).toBeUndefined()
  await created.remove()
})

test('a load failure says so (SPEC §8 Homes load)', async ({ page, list }) => {
  await page.route('**/api/viviendas?*', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"statusCode":500,"code":"INTERNAL","message":"x"}' }),
  )
  await list.open('admin')
  await expect(page.getByText('Error al cargar las viviendas.')).toBeVisible()
})
