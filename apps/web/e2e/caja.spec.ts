import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { BORRADOR_RECUPERADO_MESSAGE } from '@vb/shared/core'
import {
  accounts,
  atWidth,
  DEMO_PASSWORD,
  expect,
  expectAccessible,
  expectFitsAndAccessible,
  fillLogin,
  invalidateToken,
  loginAs,
  newResident,
  ROLES_AND_WIDTHS,
  residentOn,
  test,
} from './fixtures'

/** SPEC §2.15 with DECISIONS A6, D7, L3: a resident's cash ledger, exact to the cent, with receipts and statements. */

const saldo = (page: Page) => page.getByTestId('saldo')
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })
const rowMenu = (page: Page, concepto: string) => page.getByRole('button', { name: new RegExp(`^Acciones de ${concepto} \\(`) })
/** Opens the edit dialog of the movement `concepto` from its row's menu. */
async function openEdit(page: Page, concepto: string) {
  await rowMenu(page, concepto).click()
  await page.getByRole('button', { name: 'Editar' }).click()
  const edicion = page.getByRole('dialog', { name: 'Editar Movimiento' })
  await expect(edicion).toBeVisible()
  return edicion
}
/** The one resident with one movement, 'Paga semanal' of 20 €, on its cash screen as an EMPLEADO. */
const conPagaSemanal = (page: Page) =>
  residentOn(page, 'empleado', 'caja', [{ concepto: 'Paga semanal', cantidad: '20.00', fecha: '2026-11-02' }])
/** A 1×1 PNG: its magic bytes are what the server checks. */
const png = {
  name: 'ticket.png',
  mimeType: 'image/png',
  buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
}

async function addMovement(page: Page, concepto: string, cantidad: string, fecha: string) {
  await page.getByRole('button', { name: 'Nuevo Movimiento' }).click()
  const alta = page.getByRole('dialog', { name: 'Nuevo Movimiento' })
  await alta.getByLabel('Concepto').fill(concepto)
  await alta.getByLabel('Cantidad (€)').fill(cantidad)
  await alta.getByLabel('Fecha').fill(fecha)
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta).toBeHidden()
  await expect(page.getByText('Movimiento creado correctamente').last()).toBeVisible()
  await expect(row(page, concepto).first()).toBeVisible()
}

test('an admin keeps a resident’s cash exact to the cent, with a receipt, a range and a statement', async ({ page }) => {
  const resident = await newResident(page, 'admin')
  await loginAs(page, 'admin', `/caja/${resident.nif.toLowerCase()}`)
  await expect(page.getByRole('heading', { name: `Caja de: ${resident.nombreCompleto}` })).toBeVisible()
  await expect(saldo(page)).toHaveText('Saldo: 0,00 €')
  await expect(page.getByText('No hay movimientos')).toBeVisible()
  // SPEC §2.15: no search box.
  await expect(page.getByRole('searchbox')).toHaveCount(0)
  await expectAccessible(page)

  // SPEC §5 and DECISIONS D7 messages under the fields; nothing is saved.
  await page.getByRole('button', { name: 'Nuevo Movimiento' }).click()
  const alta = page.getByRole('dialog', { name: 'Nuevo Movimiento' })
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta.getByText('El concepto es obligatorio')).toBeVisible()
  await expect(alta.getByText('La cantidad es obligatoria')).toBeVisible()
  await alta.getByLabel('Concepto').fill('Prueba')
  await alta.getByLabel('Cantidad (€)').fill('12,345')
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta.getByText('La cantidad solo puede tener hasta 2 decimales')).toBeVisible()
  await alta.getByLabel('Cantidad (€)').fill('0')
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta.getByText('La cantidad no puede ser 0')).toBeVisible()
  await alta.getByLabel('Cantidad (€)').fill('abc')
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta.getByText('La cantidad debe ser un número')).toBeVisible()
  await alta.getByRole('button', { name: 'Cancelar' }).click()
  await page.getByRole('button', { name: 'Descartar cambios' }).click()

  // Sums a float gets wrong: 0.10 + 0.20 three times is 0,90, exactly.
  for (const [i, fecha] of ['2026-10-03', '2026-10-10', '2026-10-17'].entries()) {
    await addMovement(page, `Ingreso ${i + 1}`, '0,10', fecha)
    await addMovement(page, `Ingreso ${i + 1}b`, '0.20', fecha)
  }
  await expect(saldo(page)).toHaveText('Saldo: 0,90 €')

  // A receipt on an outgoing: the balance goes red, the row carries the paperclip.
  await page.getByRole('button', { name: 'Nuevo Movimiento' }).click()
  await alta.getByLabel('Concepto').fill('Farmacia')
  await alta.getByLabel('Cantidad (€)').fill('-5,90')
  await alta.getByLabel('Fecha').fill('2026-11-02')
  await alta.getByLabel('Justificante').setInputFiles(png)
  await expect(alta.getByText('ticket.png')).toBeVisible()
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Movimiento creado correctamente').last()).toBeVisible()
  await expect(saldo(page)).toHaveText('Saldo: -5,00 €')
  await expect(saldo(page).locator('span')).toHaveClass(/vb-money-negative/)
  // The red reads at 4.5:1 or more (defined once in styles.css).
  await expect(saldo(page).locator('span')).toHaveCSS('color', 'rgb(176, 42, 55)')
  // Newest first, with the running balance after each movement.
  await expect(page.getByRole('row').nth(1)).toContainText('Farmacia')
  await expect(row(page, 'Farmacia')).toContainText('-5,90 €')
  await expect(row(page, 'Farmacia')).toContainText('-5,00 €')
  const clip = row(page, 'Farmacia').getByRole('link', { name: 'Justificante de Farmacia' })
  const receipt = await page.request.get((await clip.getAttribute('href')) as string)
  expect(receipt.status()).toBe(200)
  expect(receipt.headers()['content-type']).toContain('image/png')

  // Editar → 'Guardar cambios'; the amount is shown with a decimal comma.
  await rowMenu(page, 'Farmacia').click()
  await page.getByRole('button', { name: 'Editar' }).click()
  const edicion = page.getByRole('dialog', { name: 'Editar Movimiento' })
  await expect(edicion.getByLabel('Cantidad (€)')).toHaveValue('-5,90')
  await edicion.getByLabel('Cantidad (€)').fill('-5,95')
  await edicion.getByRole('button', { name: 'Guardar cambios' }).click()
  await expect(page.getByText('Movimiento actualizado correctamente')).toBeVisible()
  await expect(saldo(page)).toHaveText('Saldo: -5,05 €')

  // A range: the opening balance before it, the closing balance at its end, only its movements.
  await page.getByLabel('Desde').fill('2026-10-10')
  await page.getByLabel('Hasta').fill('2026-10-31')
  await expect(page).toHaveURL(/desde=2026-10-10&hasta=2026-10-31|hasta=2026-10-31.*desde=2026-10-10/)
  await expect(page.getByText('Mostrando 1–4 de 4')).toBeVisible()
  await expect(page.locator('.vb-caja-rango')).toContainText('0,30 €')
  await expect(page.locator('.vb-caja-rango')).toContainText('0,90 €')

  // The statement of that range, as a PDF download.
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Descargar extracto' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/\.pdf$/)
  expect(
    readFileSync(await file.path())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-')

  // A range that ends before it starts is refused with its reason.
  await page.getByLabel('Hasta').fill('2026-10-01')
  await expect(page.getByText('La fecha final no puede ser anterior a la inicial')).toBeVisible()
  await page.getByRole('button', { name: 'Limpiar' }).click()
  await expect(page.getByText('Mostrando 1–7 de 7')).toBeVisible()

  // Deleting money asks first (SPEC's client did not).
  await rowMenu(page, 'Farmacia').click()
  await page.getByRole('button', { name: 'Eliminar' }).click()
  const confirm = page.getByRole('dialog')
  await expect(confirm).toContainText('¿Seguro que quieres eliminar el movimiento «Farmacia» de -5,95 €?')
  await confirm.getByRole('button', { name: 'Eliminar' }).click()
  await expect(page.getByText('Movimiento eliminado correctamente')).toBeVisible()
  await expect(saldo(page)).toHaveText('Saldo: 0,90 €')
})

test('the second of two people editing one movement gets a clear 409 instead of overwriting', async ({ page }) => {
  const resident = await conPagaSemanal(page)
  const movimiento = resident.created[0]!
  const edicion = await openEdit(page, 'Paga semanal')
  await expect(edicion.getByLabel('Cantidad (€)')).toHaveValue('20,00')
  expect((await resident.api.patch(`/caja-usuario/${movimiento.id}`, { cantidad: '25' })).status()).toBe(200)
  await edicion.getByLabel('Cantidad (€)').fill('30')
  await edicion.getByRole('button', { name: 'Guardar cambios' }).click()
  await expect(edicion.getByRole('alert')).toContainText('El movimiento ha cambiado desde que lo abriste. Vuelve a cargarlo.')
  await edicion.getByRole('button', { name: 'Cancelar' }).click()
  await page.getByRole('button', { name: 'Descartar cambios' }).click()
  // What the other person saved is what is shown, and what the balance says.
  await expect(row(page, 'Paga semanal')).toContainText('+25,00 €')
  await expect(saldo(page)).toHaveText('Saldo: 25,00 €')
})

test('an edit open when the session ends opens again after the login, and its version still guards the save', async ({
  page,
}) => {
  const resident = await conPagaSemanal(page)
  const movimiento = resident.created[0]!
  const edicion = await openEdit(page, 'Paga semanal')
  await edicion.getByLabel('Cantidad (€)').fill('30')
  await edicion.getByLabel('Concepto').fill('Paga semanal de noviembre')
  // The token stops being valid; the next call (the bell's poll, or a save) answers 401.
  await invalidateToken(page)
  await edicion.getByRole('button', { name: 'Guardar cambios' }).click()
  await expect(page).toHaveURL('/')
  await fillLogin(page, accounts.empleado, DEMO_PASSWORD)
  await expect(page).toHaveURL(`/caja/${resident.nif}`)
  const otraVez = page.getByRole('dialog', { name: 'Editar Movimiento' })
  await expect(otraVez.getByText(BORRADOR_RECUPERADO_MESSAGE)).toBeVisible()
  await expect(otraVez.getByLabel('Concepto')).toHaveValue('Paga semanal de noviembre')
  await expect(otraVez.getByLabel('Cantidad (€)')).toHaveValue('30')
  // Meanwhile someone else changed the movement: the recovered edit does not overwrite it.
  expect((await resident.api.patch(`/caja-usuario/${movimiento.id}`, { cantidad: '25' })).status()).toBe(200)
  await otraVez.getByRole('button', { name: 'Guardar cambios' }).click()
  await expect(otraVez.getByRole('alert')).toContainText('El movimiento ha cambiado desde que lo abriste. Vuelve a cargarlo.')
  await otraVez.getByRole('button', { name: 'Cancelar' }).click()
  await page.getByRole('button', { name: 'Descartar cambios' }).click()
  await expect(row(page, 'Paga semanal')).toContainText('+25,00 €')
  // Opened again from the list, the form holds the record as it is now and says nothing about a recovery.
  await openEdit(page, 'Paga semanal')
  await expect(edicion.getByLabel('Cantidad (€)')).toHaveValue('25,00')
  await expect(edicion.getByText(BORRADOR_RECUPERADO_MESSAGE)).toHaveCount(0)
})

for (const [who, width] of ROLES_AND_WIDTHS) {
  test(`${who} sees the ledger at ${width} px (cards on a phone), accessible`, async ({ page }) => {
    await atWidth(page, width)
    await residentOn(page, who, 'caja', [
      { concepto: 'Ingreso pensión', cantidad: '450', fecha: '2026-11-01' },
      { concepto: 'Peluquería', cantidad: '-12,5', fecha: '2026-11-05' },
    ])
    await expect(saldo(page)).toHaveText('Saldo: 437,50 €')
    // Newest first.
    const first = width > 800 ? page.getByRole('row').nth(1) : page.locator('.vb-list-cards li').first()
    await expect(first).toContainText('Peluquería')
    await expect(page.getByRole('button', { name: 'Nuevo Movimiento' })).toBeVisible()
    await expectFitsAndAccessible(page, width)
  })
}
