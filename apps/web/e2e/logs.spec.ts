import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { apiAs, combobox, expect, expectAccessible, loginAs, pick, test } from './fixtures'

/** SPEC §2.11 with DECISIONS L1-L3, P1: the access log. */

const rows = (page: Page) => page.getByRole('table').locator('tbody > tr:not(.vb-row-detail)')
const shownText = (page: Page) => page.getByText(/^Mostrando \d+–\d+ de /)

test('superadmin reads the log: SPEC columns, page sizes, filters and an entry opened to its values', async ({ page }) => {
  // A change with values before and after, the newest entry of its kind.
  const api = await apiAs(page, 'superadmin')
  const [vivienda] = await (await api.get('/viviendas?pageSize=1&sort=nombre&order=asc')).json()
  const renamed = `${vivienda.nombre} (prueba)`
  expect((await api.patch(`/viviendas/${vivienda.id}`, { nombre: renamed })).status()).toBe(200)
  await api.patch(`/viviendas/${vivienda.id}`, { nombre: vivienda.nombre })

  await loginAs(page, 'superadmin', '/logs')
  await expect(page.getByRole('columnheader')).toHaveText(['Detalle', 'Fecha', 'Trabajador', 'Accion', 'URL', 'Vivienda'])
  // SPEC §2.11: 25 per page by default.
  await expect(page.getByLabel('Registros por página')).toHaveValue('25')
  await expect(rows(page)).toHaveCount(25)
  await expect(shownText(page)).toHaveText(/^Mostrando 1–25 de \d+$/)
  await expectAccessible(page)

  // Page 2, then a new size goes back to page 1.
  await page.getByRole('button', { name: 'Página 2' }).click()
  await expect(shownText(page)).toHaveText(/^Mostrando 26–/)
  await page.getByLabel('Registros por página').selectOption('50')
  await expect(shownText(page)).toHaveText(/^Mostrando 1–(50|\d+) de/)
  await expect(page).not.toHaveURL(/page=2/)

  // Free text and type: the home's modification; opened, it shows the values before and after.
  await page.getByRole('searchbox', { name: 'Buscar en acción y descripción' }).fill('(prueba)')
  await page.getByLabel('Tipo').selectOption({ label: 'Modificación / aviso' })
  const fila = rows(page).filter({ hasText: 'Modificar vivienda' }).last()
  await expect(fila).toContainText('Sara Martín Ruiz')
  await expect(fila).toContainText('/viviendas')
  await expect(fila).toContainText(vivienda.nombre)
  await fila.getByRole('button', { name: /^Ver detalle/ }).click()
  const cambios = page.getByRole('table', { name: 'Valores antes y después' })
  await expect(cambios.getByRole('row', { name: /^nombre/ })).toContainText(vivienda.nombre)
  await expect(cambios.getByRole('row', { name: /^nombre/ })).toContainText(renamed)
  await expect(page.getByText(`Descripción: Vivienda modificada: ${renamed}`)).toBeVisible()
  await expectAccessible(page)

  // A date with nothing on it.
  await page.getByRole('button', { name: 'Limpiar' }).click()
  await page.getByLabel('Desde').fill('2000-01-01')
  await page.getByLabel('Hasta').fill('2000-01-02')
  await expect(page.getByText('No hay registros')).toBeVisible()
})

test("'Todos' shows every matching entry, read a hundred at a time", async ({ page }) => {
  await loginAs(page, 'superadmin', '/logs')
  await page.getByLabel('Registros por página').selectOption({ label: 'Todos' })
  await expect(page).toHaveURL(/pageSize=todos/)
  const text = await shownText(page).textContent()
  const total = Number(/de (\d+)/.exec(text ?? '')?.[1])
  await expect(rows(page)).toHaveCount(Math.min(total, 100))
  if (total > 100) {
    await page.getByRole('button', { name: 'Cargar más' }).click()
    await expect(rows(page)).toHaveCount(Math.min(total, 200))
  }
  await expect(page.getByRole('navigation', { name: 'Paginación' })).toHaveCount(0)
})

test('Descargar gives logs.csv in SPEC format with the current filters, and the download is logged', async ({ page }) => {
  await loginAs(page, 'superadmin', '/logs')
  // The workers are searched by the server; the URL keeps the id and a reload names the worker again.
  await pick(page, 'Trabajador', 'Elena Navarro Díaz', 'navarro')
  await expect(rows(page).first()).toContainText('Elena Navarro Díaz')
  await expect(page).toHaveURL(/trabajadorId=\d+/)
  await page.reload()
  await expect(combobox(page, 'Trabajador')).toHaveValue('Elena Navarro Díaz')
  await expect(rows(page).first()).toContainText('Elena Navarro Díaz')
  const total = Number(/de (\d+)/.exec((await shownText(page).textContent()) ?? '')?.[1])
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar' }).click()])
  expect(download.suggestedFilename()).toBe('logs.csv')
  const csv = readFileSync((await download.path()) as string, 'utf8')
  expect(csv.startsWith('\uFEFF"Fecha";"Trabajador";"Accion";"URL";"Vivienda"\r\n')).toBe(true)
  const lines = csv.trimEnd().split('\r\n').slice(1)
  expect(lines).toHaveLength(total)
  for (const line of lines)
    expect(line).toMatch(/^"\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}";"Elena Navarro Díaz";"[^"]*";"[^"]*";"[^"]*"$/)

  await pick(page, 'Trabajador', 'Sara Martín Ruiz')
  await expect(rows(page).first()).toContainText('Descargar logs')
})

test("admin reads only the entries of its companies' workers", async ({ page }) => {
  await loginAs(page, 'admin', '/logs')
  await expect(rows(page).first()).toBeVisible()
  // Pablo Serrano works only for the third company.
  await combobox(page, 'Trabajador').fill('Pablo Serrano')
  await expect(page.getByRole('listbox')).toContainText('Sin resultados')
  await expect(page.getByRole('option', { name: /Pablo Serrano/ })).toHaveCount(0)
  await combobox(page, 'Trabajador').fill('')
  await page.keyboard.press('Escape')
  await page.getByRole('searchbox', { name: 'Buscar en acción y descripción' }).fill('Reformas Antiguas')
  await expect(page.getByText('No hay registros')).toBeVisible()
  const api = await apiAs(page, 'superadmin')
  expect(await (await api.get('/logs?q=Reformas%20Antiguas')).json()).toHaveLength(1)
})

test('a load failure says so', async ({ page }) => {
  await page.route('**/api/logs?*', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"statusCode":500,"code":"INTERNAL","message":"x"}' }),
  )
  await loginAs(page, 'admin', '/logs')
  await expect(page.getByText('No se pudieron cargar los logs.')).toBeVisible()
})

test('below 768 px the entries are cards that open to their detail', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 })
  await loginAs(page, 'admin', '/logs')
  await expect(page.getByRole('table')).toHaveCount(0)
  const first = page.getByRole('button', { name: 'Ver detalle' }).first()
  await first.click()
  await expect(first).toHaveAttribute('aria-expanded', 'true')
  await expect(page.getByText(/^Descripción:/).first()).toBeVisible()
  await expectAccessible(page)
})

test("an entry's values before and after are read when it is opened, and a failure to read them says so", async ({ page }) => {
  const api = await apiAs(page, 'superadmin')
  const [vivienda] = await (await api.get('/viviendas?pageSize=1&sort=nombre&order=asc')).json()
  expect((await api.patch(`/viviendas/${vivienda.id}`, { nombre: vivienda.nombre })).status()).toBe(200)
  const opened: string[] = []
  await page.route(/\/api\/logs\/\d+$/, (route) => {
    opened.push(route.request().url())
    return route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: '{"statusCode":500,"code":"INTERNAL","message":"x"}',
    })
  })
  await loginAs(page, 'superadmin', '/logs?tipo=warning')
  const fila = rows(page).filter({ hasText: 'Modificar vivienda' }).first()
  await expect(fila).toBeVisible()
  // The page itself carries no values (only whether an entry has them): nothing is read before an entry opens.
  expect(opened).toHaveLength(0)
  await fila.getByRole('button', { name: /^Ver detalle/ }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'No se pudieron cargar los valores antes y después.' })).toBeVisible()
  // Only that entry was asked for (the app's client tries a failed read once more before saying so).
  expect(new Set(opened).size).toBe(1)
  await expect(page.getByText(/^Descripción: Vivienda modificada/)).toBeVisible()
})
