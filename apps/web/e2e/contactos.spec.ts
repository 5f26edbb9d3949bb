import type { Page } from '@playwright/test'
import { apiAs, combobox, expect, expectAccessible, loginAs, test, unique } from './fixtures'

/** SPEC §2.7 contacts: filtered to the selected company, create/edit/delete in modals, the logo as photo. */

const search = (page: Page) => page.getByRole('searchbox', { name: 'Buscar contacto' })
const cell = (page: Page, text: string) => page.getByRole('cell', { name: text, exact: true })
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })
const rowMenu = (page: Page, nombre: string) => page.getByRole('button', { name: `Acciones de ${nombre}`, exact: true })

async function chooseEmpresa(page: Page, nombre: string) {
  await page.getByRole('button', { name: /^Empresa:/ }).click()
  await page.getByRole('button', { name: nombre, exact: true }).click()
  await expect(page.getByRole('button', { name: `Empresa: ${nombre}` })).toBeVisible()
}

test('admin creates, edits, finds and deletes a contact of the selected company', async ({ page }) => {
  await loginAs(page, 'admin', '/contactos')
  await expect(cell(page, 'Farmacia Central')).toBeVisible()
  await expectAccessible(page)

  const nombre = unique('Suministros Alta')
  await page.getByRole('button', { name: 'Nuevo contacto' }).click()
  const alta = page.getByRole('dialog', { name: 'Añadir Nuevo Contacto' })
  await expect(combobox(alta, 'Empresa')).toHaveValue('Hogares Mediterráneo S.L.')
  await alta.getByLabel('Nombre comercial').fill(nombre)
  await alta.getByLabel('Agente').fill('Marta Ruiz')
  await alta.getByLabel('Correo').fill('marta@ejemplo.es')
  await alta.getByLabel('Teléfono').fill('+34 600 111 222')
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta).toBeHidden()
  await expect(page.getByText('Contacto creado correctamente')).toBeVisible()

  await search(page).fill(nombre)
  await expect(page.getByText('Mostrando 1–1 de 1')).toBeVisible()
  await expect(row(page, nombre)).toContainText('Marta Ruiz')
  await expect(row(page, nombre).getByRole('link', { name: 'marta@ejemplo.es' })).toHaveAttribute(
    'href',
    'mailto:marta@ejemplo.es',
  )
  await expect(row(page, nombre).getByRole('link', { name: '+34 600 111 222' })).toBeVisible()
  await expect(row(page, nombre).getByRole('img', { name: 'Sin logo' })).toBeVisible()

  await rowMenu(page, nombre).click()
  await page.getByRole('button', { name: 'Modificar' }).click()
  const edicion = page.getByRole('dialog', { name: 'Modificar Contacto' })
  await expect(edicion.getByLabel('Agente')).toHaveValue('Marta Ruiz')
  await edicion.getByLabel('Agente').fill("Marta O'Neill")
  await edicion.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Contacto modificado correctamente')).toBeVisible()
  await expect(row(page, nombre)).toContainText("Marta O'Neill")

  await rowMenu(page, nombre).click()
  await page.getByRole('button', { name: 'Eliminar' }).click()
  const confirmacion = page.getByRole('dialog', { name: 'Confirmar Eliminación' })
  await expect(confirmacion).toContainText(`¿Seguro que quieres eliminar el contacto ${nombre}?`)
  await confirmacion.getByRole('button', { name: 'Eliminar' }).click()
  await expect(page.getByText('Contacto eliminado correctamente')).toBeVisible()
  await expect(page.getByText('No hay contactos.')).toBeVisible()
})

test('each field shows its own error under it', async ({ page }) => {
  await loginAs(page, 'empleado', '/contactos')
  await page.getByRole('button', { name: 'Nuevo contacto' }).click()
  const alta = page.getByRole('dialog', { name: 'Añadir Nuevo Contacto' })
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta.getByLabel('Nombre comercial')).toHaveAccessibleDescription('El nombre comercial es obligatorio')
  await expect(alta.getByLabel('Agente')).toHaveAccessibleDescription('El agente es obligatorio')
  await expect(alta.getByLabel('Correo')).toHaveAccessibleDescription('El correo es obligatorio')
  await expect(alta.getByLabel('Teléfono')).toHaveAccessibleDescription('El teléfono es obligatorio')
  await expectAccessible(page)

  await alta.getByLabel('Correo').fill('no-es-un-correo')
  await expect(alta.getByText('El correo es obligatorio')).toBeHidden()
  await alta.getByLabel('Teléfono').fill('12')
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta.getByLabel('Correo')).toHaveAccessibleDescription('El correo no es válido')
  await expect(alta.getByLabel('Teléfono')).toHaveAccessibleDescription('El teléfono debe tener entre 7 y 20 caracteres')
})

test('the list follows the company switcher', async ({ page }) => {
  await loginAs(page, 'admin', '/contactos')
  await expect(cell(page, 'Farmacia Central')).toBeVisible()
  await expect(cell(page, 'Electricidad Castilla')).toHaveCount(0)
  await chooseEmpresa(page, 'Fundación Vivir Acompañados')
  await expect(cell(page, 'Electricidad Castilla')).toBeVisible()
  await expect(cell(page, 'Farmacia Central')).toHaveCount(0)
  await chooseEmpresa(page, 'Todas mis empresas')
  await expect(cell(page, 'Farmacia Central')).toBeVisible()
  await expect(cell(page, 'Electricidad Castilla')).toBeVisible()
  // The admin's companies only: never the third company's contact.
  await expect(cell(page, 'Reformas Cantábrico')).toHaveCount(0)
})

test("photos are the company's logo; sorting and paging happen on the server", async ({ page }) => {
  const api = await apiAs(page, 'superadmin')
  const origin = new URL((await api.get('/empresas')).url()).origin
  const empresaNombre = unique('Empresa Con Logo')
  const empresa = await (await api.post('/empresas', { nombre: empresaNombre, logoUrl: `${origin}/favicon.svg` })).json()
  const prefix = unique('Proveedor')
  const ids: number[] = []
  for (let i = 0; i < 11; i++) {
    const res = await api.post('/contactos', {
      nombreComercial: `${prefix} ${String.fromCharCode(65 + i)}`,
      // Agents in the reverse order of the names, so both sorts can be told apart.
      agente: `Agente ${String.fromCharCode(75 - i)}`,
      correo: `proveedor${i}@ejemplo.es`,
      telefono: `600 000 0${String(i).padStart(2, '0')}`,
      empresaId: empresa.id,
    })
    expect(res.status()).toBe(201)
    ids.push((await res.json()).id)
  }
  try {
    await loginAs(page, 'superadmin', '/contactos')
    await chooseEmpresa(page, empresaNombre)
    await expect(page.getByText('Mostrando 1–10 de 11')).toBeVisible()
    const logo = page.getByRole('img', { name: `Logo de la empresa de ${prefix} A` })
    await expect(logo).toHaveAttribute('src', `${origin}/favicon.svg`)
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)

    const nombre = page.getByRole('columnheader', { name: 'Nombre comercial' })
    const agente = page.getByRole('columnheader', { name: 'Agente' })
    await expect(nombre).toHaveAttribute('aria-sort', 'ascending')
    await expect(page.getByRole('row').nth(1)).toContainText(`${prefix} A`)
    await agente.getByRole('button').click()
    await expect(agente).toHaveAttribute('aria-sort', 'ascending')
    await expect(page.getByRole('row').nth(1)).toContainText(`${prefix} K`)
    await agente.getByRole('button').click()
    await expect(agente).toHaveAttribute('aria-sort', 'descending')
    await expect(page.getByRole('row').nth(1)).toContainText(`${prefix} A`)

    await page.getByRole('button', { name: 'Página 2' }).click()
    await expect(page.getByText('Mostrando 11–11 de 11')).toBeVisible()
    await expect(page.getByRole('row').nth(1)).toContainText(`${prefix} K`)
    await search(page).fill('Agente C')
    await expect(page.getByText('Mostrando 1–1 de 1')).toBeVisible()
    await expect(page.getByRole('row').nth(1)).toContainText(`${prefix} I`)
  } finally {
    for (const id of ids) await api.delete(`/contactos/${id}`)
    await api.delete(`/empresas/${empresa.id}`)
  }
})

test('below 768 px the contacts are cards', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 })
  await loginAs(page, 'empleado', '/contactos')
  await expect(page.getByRole('table')).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Farmacia Central' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'pedidos@farmaciacentral.es' })).toBeVisible()
  await page.getByLabel('Ordenar por').selectOption({ label: 'Agente (Z-A)' })
  await expect(page.getByRole('heading', { level: 2 }).first()).toHaveText('Fontanería Levante S.L.')
  await rowMenu(page, 'Farmacia Central').click()
  await expect(page.getByRole('button', { name: 'Eliminar' })).toBeVisible()
  await expectAccessible(page)
})
