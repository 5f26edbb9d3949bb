import { atWidth, expect, expectAccessible, loginAs, test } from './fixtures'

/** /inicio beyond SPEC §2.1: what is pending today for the selected company, each count a link to its list. */

const CARDS = ['pir-caducados', 'pir-por-caducar', 'planing-hoy', 'tareas', 'presupuestos']

test('the start page counts what is pending and each count opens its filtered list', async ({ page }) => {
  await loginAs(page, 'admin')
  const pendiente = page.getByRole('list', { name: 'Pendiente hoy' })
  await expect(pendiente.locator('[data-pendiente]')).toHaveCount(CARDS.length)
  for (const id of CARDS) await expect(pendiente.locator(`[data-pendiente="${id}"]`)).toBeVisible()
  // The demo company has budgets awaiting a decision.
  const presupuestos = pendiente.locator('[data-pendiente="presupuestos"]')
  await expect(presupuestos).toContainText(/\d+\s*presupuestos? por aprobar/)
  expect(Number((await presupuestos.locator('.fs-3').textContent())?.trim())).toBeGreaterThan(0)
  await expectAccessible(page)
  await presupuestos.getByRole('link').click()
  await expect(page).toHaveURL(/\/presupuestos\?estado=PENDIENTE_APROBACION/)
})

test('at 375 px the counts are one column', async ({ page }) => {
  await atWidth(page, 375)
  await loginAs(page, 'empleado')
  const cards = page.getByRole('list', { name: 'Pendiente hoy' }).locator('[data-pendiente]')
  await expect(cards).toHaveCount(CARDS.length)
  const boxes = await cards.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().left))
  expect(new Set(boxes.map(Math.round)).size).toBe(1)
  await expectAccessible(page)
})
