import type { Page } from '@playwright/test'
import { type Account, apiAs, combobox, expect, expectAccessible, loginAs, pdfFile, pick, test, unique } from './fixtures'

/** SPEC §2.13, §5 Budget; DECISIONS A6, D6: budgets per home with exact prices, a real file and who decided. */

const CASA = 'Calle Mayor 12, 2º A, Valencia'
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })
const esDate = (d: Date) =>
  new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', day: '2-digit', month: '2-digit', year: 'numeric' }).format(d)
const nextYear = `${new Date().getFullYear() + 1}-03-10T10:30`

test('admin adds a budget with a file once a home is chosen, approves it, and deletes it', async ({ page }) => {
  await loginAs(page, 'admin', '/presupuestos')
  const nuevo = page.getByRole('button', { name: 'Nuevo Presupuesto' })
  await expect(nuevo).toBeDisabled()
  await expect(combobox(page, 'Vivienda')).toHaveValue('')
  await expect(combobox(page, 'Vivienda')).toHaveAttribute('placeholder', 'Todas las viviendas')
  await expect(page.getByLabel('Estado', { exact: true }).locator('option').first()).toHaveText('Todos los estados')
  await pick(page, 'Vivienda', CASA, 'mayor 12')
  await expect(nuevo).toBeEnabled()
  await expectAccessible(page)

  await nuevo.click()
  const alta = page.getByRole('dialog', { name: 'Añadir Nuevo Presupuesto' })
  await expect(combobox(alta, 'Vivienda')).toHaveValue(CASA)
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta.getByLabel('Descripción')).toHaveAccessibleDescription('La descripción es obligatoria')
  await expect(alta.getByLabel('Precio')).toHaveAccessibleDescription('El precio es obligatorio')
  await expect(alta.getByLabel('Fecha prevista')).toHaveAccessibleDescription('La fecha prevista es obligatoria')
  await expectAccessible(page)

  const descripcion = unique('Sustitución de toldos')
  await alta.getByLabel('Descripción').fill('Obra')
  for (const [precio, message] of [
    ['12,345', 'El precio solo puede tener hasta 2 decimales'],
    ['0', 'El precio debe ser mayor que 0'],
    ['-5', 'El precio debe ser mayor que 0'],
    ['1e2', 'El precio debe ser un número válido'],
    ['doce', 'El precio debe ser un número válido'],
  ]) {
    await alta.getByLabel('Precio').fill(precio as string)
    await alta.getByRole('button', { name: 'Guardar' }).click()
    await expect(alta.getByLabel('Precio')).toHaveAccessibleDescription(message as string)
  }
  await expect(alta.getByLabel('Descripción')).toHaveAccessibleDescription(
    'La descripción debe tener entre 5 y 200 caracteres y solo puede incluir letras, números y puntuación común',
  )
  await alta.getByLabel('Fecha prevista').fill('2020-01-10T10:00')
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta.getByLabel('Fecha prevista')).toHaveAccessibleDescription('La fecha no puede estar en el pasado')

  await alta.getByLabel('Descripción').fill(descripcion)
  await alta.getByLabel('Precio').fill('1250,5')
  await alta.getByLabel('Fecha prevista').fill(nextYear)
  await alta.getByLabel('Archivo (presupuesto o factura)').setInputFiles(pdfFile('toldos.pdf'))
  await expect(alta.getByText('toldos.pdf')).toBeVisible()
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Presupuesto añadido correctamente')).toBeVisible()

  const mine = row(page, descripcion)
  await expect(mine).toContainText('1.250,50 €')
  await expect(mine.getByText('1.250,50 €')).toHaveClass(/vb-money-positive/)
  await expect(mine).toContainText(`10/03/${new Date().getFullYear() + 1}, 10:30`)
  await expect(mine).toContainText('Pendiente de aprobación')
  const abrir = mine.getByRole('link', { name: `Abrir el archivo de ${descripcion}` })
  const file = await page.request.get((await abrir.getAttribute('href')) as string)
  expect(file.status()).toBe(200)
  expect(file.headers()['content-type']).toContain('application/pdf')

  // Beyond SPEC: who approved the spend, and when.
  await page.getByRole('button', { name: new RegExp(`^Acciones de ${descripcion}`) }).click()
  await page.getByRole('button', { name: 'Modificar' }).click()
  const edicion = page.getByRole('dialog', { name: 'Modificar Presupuesto' })
  await expect(edicion.getByLabel('Precio')).toHaveValue('1250,50')
  await edicion.getByLabel('Estado').selectOption({ label: 'Aprobado' })
  await edicion.getByRole('button', { name: 'Guardar Cambios' }).click()
  await expect(page.getByText('Presupuesto modificado correctamente')).toBeVisible()
  await expect(mine).toContainText(`Aprobado por Alberto Gómez Sánchez, ${esDate(new Date())}`)

  await page.getByRole('button', { name: new RegExp(`^Acciones de ${descripcion}`) }).click()
  await page.getByRole('button', { name: 'Eliminar' }).click()
  const confirm = page.getByRole('dialog', { name: 'Confirmar Eliminación' })
  await expect(confirm).toContainText(`¿Seguro que quieres eliminar el presupuesto ${descripcion}?`)
  await confirm.getByRole('button', { name: 'Eliminar' }).click()
  await expect(page.getByText('Presupuesto eliminado correctamente')).toBeVisible()
  await expect(row(page, descripcion)).toHaveCount(0)
})

test('filters, Limpiar (text, date and state, not the home) and sorting, a new column ascending first', async ({ page }) => {
  await loginAs(page, 'admin', '/presupuestos')
  await pick(page, 'Vivienda', CASA, 'mayor 12')
  await expect(row(page, 'Pintura del salón y pasillo')).toBeVisible()
  await page.getByLabel('Estado', { exact: true }).selectOption({ label: 'Aprobado' })
  await expect(row(page, 'Colchones viscoelásticos (x4)')).toBeVisible()
  await expect(row(page, 'Pintura del salón y pasillo')).toHaveCount(0)
  await page.getByRole('searchbox', { name: 'Buscar presupuesto' }).fill('colchon')
  await expect(page.getByText('Mostrando 1–1 de 1')).toBeVisible()
  await page.getByRole('button', { name: 'Limpiar' }).click()
  await expect(page.getByRole('searchbox', { name: 'Buscar presupuesto' })).toHaveValue('')
  await expect(page.getByLabel('Estado', { exact: true })).toHaveValue('')
  await expect(combobox(page, 'Vivienda')).toHaveValue(CASA)
  await expect(row(page, 'Pintura del salón y pasillo')).toBeVisible()

  const precio = page.getByRole('columnheader', { name: 'Precio' })
  await precio.getByRole('button').click()
  await expect(precio).toHaveAttribute('aria-sort', 'ascending')
  await expect(page.getByRole('row').nth(1)).toContainText('Sustitución de grifería')
  await precio.getByRole('button').click()
  await expect(precio).toHaveAttribute('aria-sort', 'descending')
  await expect(page.getByRole('row').nth(1)).toContainText('Pintura del salón y pasillo')
  await page.getByRole('columnheader', { name: 'Descripción' }).getByRole('button').click()
  await expect(page.getByRole('columnheader', { name: 'Descripción' })).toHaveAttribute('aria-sort', 'ascending')
})

test('the home filter is searched by the server: a link names its home, an emptied box lists every home', async ({ page }) => {
  await loginAs(page, 'admin', '/presupuestos')
  const api = await apiAs(page, 'admin')
  const [casa] = await (await api.get(`/viviendas?q=${encodeURIComponent('mayor 12')}&pageSize=1`)).json()
  await page.goto(`/presupuestos?viviendaId=${casa.id}`)
  await expect(combobox(page, 'Vivienda')).toHaveValue(CASA)
  await expect(row(page, 'Pintura del salón y pasillo')).toBeVisible()
  await expect(page.getByRole('columnheader', { name: 'Vivienda' })).toHaveCount(0)
  // Typing searches (accents and case aside) without changing the filter until a home is chosen.
  await combobox(page, 'Vivienda').fill('CALLE MAYOR')
  await expect(page.getByRole('option', { name: new RegExp(`^${CASA}`) })).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`viviendaId=${casa.id}`))
  await combobox(page, 'Vivienda').fill('')
  await expect(page).not.toHaveURL(/viviendaId=/)
  await expect(page.getByRole('columnheader', { name: 'Vivienda' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Nuevo Presupuesto' })).toBeDisabled()
})

test('another company’s budgets never show; superadmin sees every company’s', async ({ page }) => {
  await loginAs(page, 'admin', '/presupuestos')
  await page.getByRole('button', { name: /^Empresa:/ }).click()
  await page.getByRole('list', { name: 'Empresas disponibles' }).getByRole('button', { name: 'Todas mis empresas' }).click()
  await expect(row(page, 'Cambio de caldera')).toBeVisible()
  await expect(row(page, 'Rampa de acceso al portal')).toHaveCount(0)

  await loginAs(page, 'superadmin', '/presupuestos')
  await page.getByRole('button', { name: /^Empresa:/ }).click()
  await page.getByRole('list', { name: 'Empresas disponibles' }).getByRole('button', { name: 'Todas mis empresas' }).click()
  await page.getByRole('searchbox', { name: 'Buscar presupuesto' }).fill('rampa')
  await expect(row(page, 'Rampa de acceso al portal')).toBeVisible()
})

for (const who of ['superadmin', 'admin', 'empleado'] as Account[]) {
  test(`${who} at 375 px: cards with the price, the date and the state`, async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 })
    await loginAs(page, who, '/presupuestos?estado=APROBADO')
    await expect(page.getByLabel('Estado', { exact: true })).toHaveValue('APROBADO')
    const caldera = page.getByRole('listitem').filter({ hasText: 'Cambio de caldera' })
    await expect(caldera).toContainText('2.399,90 €')
    await expect(caldera).toContainText('Aprobado por Alberto Gómez Sánchez')
    await expect(caldera.getByRole('link', { name: 'Abrir el archivo de Cambio de caldera' })).toBeVisible()
    await expect(page.getByLabel('Ordenar por')).toBeVisible()
    await expectAccessible(page)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  })
}
