import { apiAs, combobox, expect, expectAccessible, unique } from './fixtures'
import { createViaApi, lettered, listTest, SCREENS } from './list-screen'

/** SPEC §2.7 contacts: filtered to the selected company, create/edit/delete in modals, the logo as photo. */

const test = listTest(SCREENS.contactos)

test('admin creates, edits, finds and deletes a contact of the selected company', async ({ page, list }) => {
  await list.open('admin', { sees: 'Farmacia Central' })
  await expectAccessible(page)

  const nombre = unique('Suministros Alta')
  const alta = await list.openCreate()
  await expect(combobox(alta, 'Empresa')).toHaveValue('Hogares Mediterráneo S.L.')
  await list.fill(alta, {
    'Nombre comercial': nombre,
    Agente: 'Marta Ruiz',
    Correo: 'marta@ejemplo.es',
    Teléfono: '+34 600 111 222',
  })
  await list.save(alta, SCREENS.contactos.toasts.created)

  await list.search(nombre)
  await expect(list.showing('Mostrando 1–1 de 1')).toBeVisible()
  const row = list.row(nombre)
  await expect(row).toContainText('Marta Ruiz')
  await expect(row.getByRole('link', { name: 'marta@ejemplo.es' })).toHaveAttribute('href', 'mailto:marta@ejemplo.es')
  await expect(row.getByRole('link', { name: '+34 600 111 222' })).toBeVisible()
  await expect(row.getByRole('img', { name: 'Sin logo' })).toBeVisible()

  const edicion = await list.openEdit(nombre)
  await expect(edicion.getByLabel('Agente')).toHaveValue('Marta Ruiz')
  await list.fill(edicion, { Agente: "Marta O'Neill" })
  await list.save(edicion, SCREENS.contactos.toasts.updated)
  await expect(row).toContainText("Marta O'Neill")

  await list.remove(nombre)
})

test('each field shows its own error under it', async ({ page, list }) => {
  await list.open('empleado')
  const alta = await list.openCreate()
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

test('the list follows the company switcher', async ({ list }) => {
  await list.open('admin', { sees: 'Farmacia Central' })
  await expect(list.cell('Electricidad Castilla')).toHaveCount(0)
  await list.chooseEmpresa('Fundación Vivir Acompañados')
  await expect(list.cell('Electricidad Castilla')).toBeVisible()
  await expect(list.cell('Farmacia Central')).toHaveCount(0)
  await list.chooseEmpresa('Todas mis empresas')
  await expect(list.cell('Farmacia Central')).toBeVisible()
  await expect(list.cell('Electricidad Castilla')).toBeVisible()
  // The admin's companies only: never the third company's contact.
  await expect(list.cell('Reformas Cantábrico')).toHaveCount(0)
})

test("photos are the company's logo; sorting and paging happen on the server", async ({ page, list }) => {
  const api = await apiAs(page, 'superadmin')
  const origin = new URL((await api.get('/empresas')).url()).origin
  const empresaNombre = unique('Empresa Con Logo')
  const empresa = await (await api.post('/empresas', { nombre: empresaNombre, logoUrl: `${origin}/favicon.svg` })).json()
  const prefix = unique('Proveedor')
  const contactos = await createViaApi(
    page,
    'superadmin',
    '/contactos',
    lettered(prefix, 11).map((nombreComercial, i) => ({
      nombreComercial,
      // Agents in the reverse order of the names, so both sorts can be told apart.
      agente: `Agente ${String.fromCharCode(75 - i)}`,
      correo: `proveedor${i}@ejemplo.es`,
      telefono: `600 000 0${String(i).padStart(2, '0')}`,
      empresaId: empresa.id,
    })),
  )
  try {
    await list.open('superadmin')
    await list.chooseEmpresa(empresaNombre)
    await expect(list.showing('Mostrando 1–10 de 11')).toBeVisible()
    const logo = page.getByRole('img', { name: `Logo de la empresa de ${prefix} A` })
    await expect(logo).toHaveAttribute('src', `${origin}/favicon.svg`)
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)

    await expect(list.header('Nombre comercial')).toHaveAttribute('aria-sort', 'ascending')
    await expect(list.firstRow()).toContainText(`${prefix} A`)
    await list.sortSteps('Agente', [
      ['ascending', `${prefix} K`],
      ['descending', `${prefix} A`],
    ])

    await list.turnPage('Página 2', 'Mostrando 11–11 de 11')
    await expect(list.firstRow()).toContainText(`${prefix} K`)
    await list.search('Agente C')
    await expect(list.showing('Mostrando 1–1 de 1')).toBeVisible()
    await expect(list.firstRow()).toContainText(`${prefix} I`)
  } finally {
    await contactos.remove()
    await api.delete(`/empresas/${empresa.id}`)
  }
})

test('below 768 px the contacts are cards', async ({ page, list }) => {
  await list.openCards('empleado')
  await expect(page.getByRole('heading', { name: 'Farmacia Central' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'pedidos@farmaciacentral.es' })).toBeVisible()
  await list.sortCards('Agente (Z-A)')
  await expect(list.firstCard()).toHaveText('Fontanería Levante S.L.')
  await list.rowMenu('Farmacia Central').click()
  await expect(page.getByRole('button', { name: 'Eliminar' })).toBeVisible()
  await expectAccessible(page)
})
