import type { Page } from '@playwright/test'
import { type Account, apiAs, combobox, expect, expectAccessible, loginAs, pick, test, unique } from './fixtures'

/** SPEC §2.12, §4, §6, DECISIONS D5: worker tasks, the worker selector, optimistic completion. */

const card = (page: Page, titulo: string) => page.getByRole('article', { name: titulo })
const selector = (page: Page) => page.getByLabel('Trabajador', { exact: true })
const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10)

/** A task for `whom` (an id), created through the API by `who`, in the first home of the first company. */
async function newTask(page: Page, who: Account, trabajadorId?: number) {
  const api = await apiAs(page, who)
  const [casa] = await (await api.get('/viviendas?pageSize=1&sort=nombre&order=asc&empresaId=1')).json()
  const titulo = unique('Tarea prueba')
  const res = await api.post('/tareas-trabajador', {
    titulo,
    descripcion: 'Creada por la prueba',
    viviendaId: casa.id,
    fecha: inAWeek(),
    prioridad: 'BAJA',
    ...(trabajadorId ? { trabajadorId } : {}),
  })
  expect(res.status(), await res.text()).toBe(201)
  return { ...(await res.json()), api }
}

async function bellCount(page: Page): Promise<number> {
  const name = (await page.getByRole('button', { name: /^Notificaciones(: \d+ sin leer)?$/ }).getAttribute('aria-label')) ?? ''
  return Number(/(\d+)/.exec(name)?.[1] ?? 0)
}

test('empleado: its own tasks, no selector; completes one (moved to the completed tab) and deletes it', async ({ page }) => {
  const tarea = await newTask(page, 'empleado')
  await loginAs(page, 'empleado', '/tareas')
  await expect(selector(page)).toHaveCount(0)
  await expect(page.getByRole('tab', { name: 'Tareas pendientes' })).toHaveAttribute('aria-selected', 'true')
  const mine = card(page, tarea.titulo)
  await expect(mine).toContainText('Creada por la prueba')
  await expect(mine).toContainText(tarea.vivienda.nombre)
  await expect(mine.getByText('BAJA')).toBeVisible()
  await expect(card(page, 'Llamar al fontanero').getByText('ALTA')).toHaveClass(/bg-danger/)
  await expectAccessible(page)

  await mine.getByRole('button', { name: 'Marcar como completada' }).click()
  await expect(page.getByText('Tarea marcada como completada')).toBeVisible()
  await expect(card(page, tarea.titulo)).toHaveCount(0)
  await page.getByRole('tab', { name: 'Tareas completadas' }).click()
  const done = card(page, tarea.titulo)
  await expect(done).toBeVisible()
  await expect(done.getByRole('button', { name: 'Marcar como completada' })).toHaveCount(0)
  await done.getByRole('button', { name: `Eliminar la tarea ${tarea.titulo}` }).click()
  const confirm = page.getByRole('dialog', { name: 'Confirmar Eliminación' })
  await expect(confirm).toContainText(`¿Seguro que quieres eliminar la tarea ${tarea.titulo}?`)
  await confirm.getByRole('button', { name: 'Eliminar' }).click()
  await expect(page.getByText('Tarea eliminada correctamente')).toBeVisible()
  await expect(card(page, tarea.titulo)).toHaveCount(0)
})

test('a completion the server refuses is undone on screen, with SPEC’s message; the task stays pending', async ({ page }) => {
  const tarea = await newTask(page, 'empleado')
  await loginAs(page, 'empleado', '/tareas')
  await expect(card(page, tarea.titulo)).toBeVisible()
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(`**/api/tareas-trabajador/${tarea.id}`, async (route) => {
    if (route.request().method() !== 'PATCH') return route.continue()
    await held
    await route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({
        statusCode: 500,
        code: 'INTERNAL',
        message: 'Se ha producido un error interno. Inténtalo más tarde.',
      }),
    })
  })
  await card(page, tarea.titulo).getByRole('button', { name: 'Marcar como completada' }).click()
  // Applied at once, before the server answers…
  await expect(card(page, tarea.titulo)).toHaveCount(0)
  release()
  // …and put back when it fails.
  await expect(page.getByRole('alert').filter({ hasText: 'No se pudo marcar la tarea como completada.' })).toBeVisible()
  await expect(card(page, tarea.titulo)).toBeVisible()
  const stored = await (await tarea.api.get(`/tareas-trabajador/${tarea.id}`)).json()
  expect(stored.completada).toBe(false)
})

test('admin: the selector lists its companies’ workers without SUPERADMIN; a task it assigns reaches the worker’s open bell at once', async ({
  page,
  browser,
}) => {
  // The worker's own browser, open on its start page.
  const other = await browser.newPage()
  await loginAs(other, 'empleado', '/inicio')
  await expect(other.getByRole('button', { name: /^Notificaciones: \d+ sin leer$/ })).toBeVisible()
  const before = await bellCount(other)

  await loginAs(page, 'admin', '/tareas')
  const options = selector(page).getByRole('option')
  await expect(options.first()).toHaveText('Selecciona trabajador')
  await expect(selector(page)).toContainText('Elena Navarro Díaz EMPLEADO')
  await expect(selector(page)).toContainText('Alberto Gómez Sánchez ADMIN')
  await expect(selector(page)).not.toContainText('SUPERADMIN')
  await selector(page).selectOption({ label: 'Elena Navarro Díaz EMPLEADO' })
  await expect(page).toHaveURL(/trabajador=\d+/)
  await expect(card(page, 'Llamar al fontanero')).toBeVisible()
  await expectAccessible(page)

  await page.getByRole('button', { name: 'Nueva tarea' }).click()
  const form = page.getByRole('dialog', { name: 'Nueva Tarea' })
  await expect(form.getByLabel('Prioridad')).toHaveValue('MEDIA')
  // SPEC §2.12: Vivienda (select, 'Selecciona una vivienda').
  await expect(combobox(form, 'Vivienda')).toHaveAttribute('placeholder', 'Selecciona una vivienda')
  await form.getByRole('button', { name: 'Guardar' }).click()
  await expect(form.getByLabel('Título')).toHaveAccessibleDescription('El título es obligatorio')
  await expect(form.getByLabel('Descripción')).toHaveAccessibleDescription('La descripción es obligatoria')
  await expect(combobox(form, 'Vivienda')).toHaveAccessibleDescription('La vivienda es obligatoria')
  await expectAccessible(page)
  const titulo = unique('Cambiar bombillas')
  await form.getByLabel('Título').fill(titulo)
  await form.getByLabel('Descripción').fill('Pasillo y cocina')
  // One click opens the list (the focus opens it, and the click must not toggle it shut again); Escape closes it.
  await combobox(form, 'Vivienda').click()
  await expect(combobox(form, 'Vivienda')).toHaveAttribute('aria-expanded', 'true')
  await expect(form.getByRole('option').first()).toBeVisible()
  await combobox(form, 'Vivienda').click()
  await expect(combobox(form, 'Vivienda')).toHaveAttribute('aria-expanded', 'true')
  await combobox(form, 'Vivienda').press('Escape')
  await expect(combobox(form, 'Vivienda')).toHaveAttribute('aria-expanded', 'false')
  // The homes are searched by the server (an operator has thousands).
  await pick(form, 'Vivienda', 'Calle Mayor 12, 2º A, Valencia', 'mayor 12')
  await form.getByLabel('Fecha').fill(inAWeek())
  await form.getByLabel('Prioridad').selectOption('ALTA')
  const startedAt = Date.now()
  await form.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Tarea creada correctamente')).toBeVisible()
  await expect(card(page, titulo)).toContainText('ALTA')

  // DECISIONS D5, D9: the assignee's open page hears of it through the stream, well before its 15 s poll.
  await expect.poll(() => bellCount(other), { timeout: 6000 }).toBe(before + 1)
  expect(Date.now() - startedAt).toBeLessThan(10_000)
  await other.getByRole('button', { name: /^Notificaciones/ }).click()
  await expect(other.getByRole('list', { name: 'Notificaciones' })).toContainText(titulo)
  await other.close()
})

test('superadmin: the selector lists every worker, SUPERADMIN too, and the inactive last, whose tasks stay but get no new one', async ({
  page,
}) => {
  await loginAs(page, 'superadmin', '/tareas')
  await expect(selector(page)).toContainText('Sara Martín Ruiz SUPERADMIN')
  await expect(selector(page)).toContainText('Elena Navarro Díaz EMPLEADO')
  await expect(selector(page).getByRole('option').last()).toHaveText('Pablo Serrano Gil EMPLEADO (Inactivo)')
  await selector(page).selectOption({ label: 'Pablo Serrano Gil EMPLEADO (Inactivo)' })
  await expect(page).toHaveURL(/trabajador=\d+/)
  await expect(page.getByText('Este trabajador está inactivo: no se le pueden asignar tareas nuevas')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Nueva tarea' })).toBeDisabled()
  await expectAccessible(page)
  await selector(page).selectOption({ label: 'Elena Navarro Díaz EMPLEADO' })
  await expect(page.getByRole('button', { name: 'Nueva tarea' })).toBeEnabled()
  await page.getByRole('tab', { name: 'Tareas completadas' }).click()
  await expect(page.getByRole('tab', { name: 'Tareas completadas' })).toHaveAttribute('aria-selected', 'true')
  await expectAccessible(page)
})

for (const who of ['superadmin', 'admin', 'empleado'] as Account[]) {
  test(`${who} at 375 px: short tab labels, cards in one column`, async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 })
    await loginAs(page, who, '/tareas')
    await expect(page.getByRole('tab', { name: 'Pendientes', exact: true })).toBeVisible()
    await expect(page.getByRole('tab', { name: 'Completadas', exact: true })).toBeVisible()
    await expect(page.getByText('Cargando tareas...')).toHaveCount(0)
    await expectAccessible(page)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  })
}
