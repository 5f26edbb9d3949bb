import type { Page } from '@playwright/test'
import {
  accounts,
  apiAs,
  expect,
  expectAccessible,
  loginAs,
  loginWith,
  newWorker,
  pngFile,
  randomNif,
  test,
  uniqueWord,
} from './fixtures'

/** SPEC §2.10, §6, DECISIONS P3, S1: the workers screen. */

const search = (page: Page) => page.getByRole('searchbox', { name: 'Buscar trabajador' })
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text })
const rowMenu = (page: Page, nombre: string) => page.getByRole('button', { name: `Acciones de ${nombre}`, exact: true })

async function fillNew(page: Page, values: { nombre: string; apellidos: string; email: string; nif: string }) {
  const alta = page.getByRole('dialog', { name: 'Añadir Nuevo Trabajador' })
  await alta.getByLabel('Nombre', { exact: true }).fill(values.nombre)
  await alta.getByLabel('Apellidos').fill(values.apellidos)
  await alta.getByLabel('Email').fill(values.email)
  await alta.getByLabel('NIF/NIE').fill(values.nif)
  return alta
}

test('admin creates a worker, sees its one-time password once, edits, resets and deletes it', async ({ page }) => {
  await loginAs(page, 'admin', '/trabajadores')
  await expect(row(page, 'Elena Navarro Díaz')).toBeVisible()
  await expectAccessible(page)

  const apellidos = uniqueWord('Alta')
  const email = `${apellidos.replace(' ', '.').toLowerCase()}@prueba.es`
  await page.getByRole('button', { name: 'Nuevo trabajador' }).click()
  const alta = await fillNew(page, { nombre: 'Lucía', apellidos, email, nif: ' x1234567l ' })
  // DECISIONS P3: an ADMIN creates only EMPLEADO or ADMIN, only in its own companies.
  await expect(alta.getByLabel('Rol').locator('option')).toHaveText(['Administrador', 'Empleado'])
  await expect(alta.getByRole('group', { name: 'Empresas' }).getByRole('checkbox')).toHaveCount(2)
  await expect(alta.getByRole('checkbox', { name: 'Hogares Mediterráneo S.L.' })).toBeChecked()
  await expectAccessible(page)
  await alta.getByRole('button', { name: 'Guardar' }).click()

  // DECISIONS S1: the temporary password is shown once, with a copy button.
  const clave = page.getByRole('dialog', { name: 'Contraseña temporal' })
  await expect(clave).toBeVisible()
  await expect(page.getByText('Trabajador creado correctamente')).toBeVisible()
  const password = await clave.getByLabel(`Contraseña temporal de Lucía ${apellidos}`).inputValue()
  expect(password).toMatch(/^(?=.*[A-Z])(?=.*\d).{12}$/)
  await clave.getByRole('button', { name: 'Copiar' }).click()
  await expect(clave.getByRole('button', { name: 'Copiada' })).toBeVisible()
  await expectAccessible(page)
  await clave.getByRole('button', { name: 'Cerrar' }).first().click()
  await expect(clave).toBeHidden()

  // The new worker must change it at its first login.
  const first = await page.request.post('/api/auth/trabajadores/login', { data: { email, password } })
  expect((await first.json()).trabajador).toMatchObject({ passwordTemporal: true, nif: 'X1234567L', rol: 'EMPLEADO' })

  await search(page).fill(apellidos)
  await expect(page.getByText('Mostrando 1–1 de 1')).toBeVisible()
  const fila = row(page, apellidos)
  await expect(fila).toContainText('X1234567L')
  await expect(fila).toContainText('Activo')

  // Edit: a second company (through the links API) and switched off.
  await rowMenu(page, `Lucía ${apellidos}`).click()
  await page.getByRole('button', { name: 'Modificar' }).click()
  const edicion = page.getByRole('dialog', { name: 'Modificar Trabajador' })
  await expect(edicion.getByLabel('Email')).toHaveValue(email)
  await edicion.getByRole('checkbox', { name: 'Fundación Vivir Acompañados' }).check()
  await edicion.getByRole('checkbox', { name: 'Activo' }).uncheck()
  await edicion.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Trabajador modificado correctamente')).toBeVisible()
  await expect(fila).toContainText('Inactivo')
  await expect(fila).toContainText('Fundación Vivir Acompañados')
  // Inactive workers cannot log in (DECISIONS P5).
  expect((await page.request.post('/api/auth/trabajadores/login', { data: { email, password } })).status()).toBe(401)

  // An admin's reset: a new one-time password.
  await rowMenu(page, `Lucía ${apellidos}`).click()
  await page.getByRole('button', { name: 'Restablecer contraseña' }).click()
  await page.getByRole('dialog', { name: 'Restablecer contraseña' }).getByRole('button', { name: 'Restablecer' }).click()
  const nueva = page.getByRole('dialog', { name: 'Contraseña temporal' })
  await expect(nueva.getByRole('textbox')).not.toHaveValue(password)
  await nueva.getByRole('button', { name: 'Cerrar' }).first().click()

  await rowMenu(page, `Lucía ${apellidos}`).click()
  await page.getByRole('button', { name: 'Eliminar' }).click()
  const confirmacion = page.getByRole('dialog', { name: 'Confirmar Eliminación' })
  await expect(confirmacion).toContainText(`¿Seguro que quieres eliminar el trabajador Lucía ${apellidos}?`)
  await confirmacion.getByRole('button', { name: 'Eliminar' }).click()
  await expect(page.getByText('Trabajador eliminado correctamente')).toBeVisible()
  await expect(page.getByText('No hay trabajadores.')).toBeVisible()
})

test('each field shows its SPEC §5 message, a duplicate e-mail is refused, a failed photo saves without it', async ({ page }) => {
  await loginAs(page, 'superadmin', '/trabajadores')
  await page.getByRole('button', { name: 'Nuevo trabajador' }).click()
  const alta = page.getByRole('dialog', { name: 'Añadir Nuevo Trabajador' })
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta.getByLabel('Nombre', { exact: true })).toHaveAccessibleDescription('El nombre es obligatorio')
  await expect(alta.getByLabel('Apellidos')).toHaveAccessibleDescription('Los apellidos son obligatorios')
  await expect(alta.getByLabel('Email')).toHaveAccessibleDescription('El email es obligatorio')
  await expect(alta.getByLabel('NIF/NIE')).toHaveAccessibleDescription('Formato de NIF/NIE no válido (ej. 12345678Z o X1234567Z)')
  await expectAccessible(page)

  await fillNew(page, { nombre: 'Duplicado', apellidos: 'De Correo', email: accounts.empleado.toUpperCase(), nif: randomNif() })
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await expect(alta.getByLabel('Email')).toHaveAccessibleDescription('Ya existe un trabajador con ese email')

  // SPEC §2.10: the photo is uploaded first; if that fails, the worker is saved without one, and says so.
  const apellidos = uniqueWord('Sinfoto')
  await fillNew(page, { nombre: 'Pedro', apellidos, email: `${apellidos.replace(' ', '.')}@prueba.es`, nif: randomNif() })
  await alta.getByLabel('Foto').setInputFiles({ name: 'foto.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg/>') })
  await expect(alta.getByText(/Tipo de archivo no admitido.*El trabajador se guardará sin foto\./)).toBeVisible()
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await page.getByRole('dialog', { name: 'Contraseña temporal' }).getByRole('button', { name: 'Cerrar' }).first().click()
  await search(page).fill(apellidos)
  await expect(row(page, apellidos).getByRole('img', { name: 'Sin foto' })).toBeVisible()

  // With a photo: it shows in the list.
  const conFoto = uniqueWord('Confoto')
  await page.getByRole('button', { name: 'Nuevo trabajador' }).click()
  await fillNew(page, { nombre: 'Rosa', apellidos: conFoto, email: `${conFoto.replace(' ', '.')}@prueba.es`, nif: randomNif() })
  await alta.getByLabel('Foto').setInputFiles(pngFile())
  await expect(alta.getByText('foto.png')).toBeVisible()
  await alta.getByRole('button', { name: 'Guardar' }).click()
  await page.getByRole('dialog', { name: 'Contraseña temporal' }).getByRole('button', { name: 'Cerrar' }).first().click()
  await search(page).fill(conFoto)
  const foto = row(page, conFoto).getByRole('img', { name: `Foto de Rosa ${conFoto}` })
  await expect.poll(() => foto.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
})

test("admin sees only its companies' workers and is offered nothing the API would refuse", async ({ page }) => {
  await loginAs(page, 'admin', '/trabajadores')
  await expect(row(page, 'Laura Campos Ibáñez')).toBeVisible()
  // Pablo Serrano works only for the third company, which the admin does not belong to.
  await expect(row(page, 'Pablo Serrano Gil')).toHaveCount(0)
  // DECISIONS P3: a SUPERADMIN's row has no edit, reset or delete for an ADMIN: no actions at all.
  await expect(row(page, 'Sara Martín Ruiz')).toBeVisible()
  await expect(rowMenu(page, 'Sara Martín Ruiz')).toHaveCount(0)
  await expect(rowMenu(page, 'Laura Campos Ibáñez')).toBeVisible()
  // Its own row leads to its settings instead.
  await rowMenu(page, 'Alberto Gómez Sánchez').click()
  await expect(page.getByRole('link', { name: 'Configuración de usuario' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Eliminar' })).toHaveCount(0)
  await page.keyboard.press('Escape')

  // The API refuses the same (SPEC §6's message for another company).
  const api = await apiAs(page, 'admin')
  const ajena = await api.post('/trabajadores', {
    nombre: 'Fuera',
    apellidos: 'De Empresa',
    email: `${uniqueWord('fuera').replace(' ', '.')}@prueba.es`,
    nif: randomNif(),
    rol: 'EMPLEADO',
    empresaIds: [999_999],
  })
  expect(ajena.status()).toBe(403)
  expect((await ajena.json()).message).toBe('No puedes asignar trabajadores a empresas donde no perteneces.')

  // DECISIONS P1: a worker also in a company the admin does not belong to may be edited but not deleted by it
  // (deleting would take it from that company too): no 'Eliminar', and the API refuses it.
  const sa = await apiAs(page, 'superadmin')
  const empresas: Array<{ id: number; nombre: string }> = await (await sa.get('/empresas?pageSize=100')).json()
  const idDe = (nombre: string) => empresas.find((e) => e.nombre === nombre)?.id
  const compartido = uniqueWord('Compartido')
  const creado = await sa.post('/trabajadores', {
    nombre: 'Rosa',
    apellidos: compartido,
    email: `${compartido.replace(' ', '.').toLowerCase()}@prueba.es`,
    nif: randomNif(),
    rol: 'EMPLEADO',
    empresaIds: [idDe('Hogares Mediterráneo S.L.'), idDe('Residencias del Norte (Asturias)')],
  })
  expect(creado.status()).toBe(201)
  await search(page).fill(compartido)
  await rowMenu(page, `Rosa ${compartido}`).click()
  await expect(page.getByRole('button', { name: 'Modificar' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Eliminar' })).toHaveCount(0)
  await page.keyboard.press('Escape')
  const borrar = await api.delete(`/trabajadores/${(await creado.json()).trabajador.id}`)
  expect(borrar.status()).toBe(403)
  expect((await borrar.json()).message).toBe(
    'No puedes eliminar un trabajador que también pertenece a empresas donde no perteneces.',
  )
  await search(page).fill('')

  // Filters by role and state.
  await page.getByLabel('Rol').selectOption({ label: 'Administrador' })
  await expect(row(page, 'Alberto Gómez Sánchez')).toBeVisible()
  await expect(row(page, 'Laura Campos Ibáñez')).toHaveCount(0)
})

test('superadmin sees every worker, inactive ones marked', async ({ page }) => {
  await loginAs(page, 'superadmin', '/trabajadores')
  await expect(row(page, 'Pablo Serrano Gil')).toContainText('Inactivo')
  await expect(row(page, 'Laura Campos Ibáñez')).toContainText('Activo')
  await page.getByLabel('Estado').selectOption({ label: 'Inactivo' })
  await expect(page.getByText('Mostrando 1–1 de 1')).toBeVisible()
})

test('a load failure says so', async ({ page }) => {
  await page.route('**/api/trabajadores?*', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"statusCode":500,"code":"INTERNAL","message":"x"}' }),
  )
  await loginAs(page, 'admin', '/trabajadores')
  await expect(page.getByText('Error al cargar trabajadores.')).toBeVisible()
})

test('below 768 px the workers are cards', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 })
  await loginAs(page, 'superadmin', '/trabajadores')
  await expect(page.getByRole('table')).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Laura Campos Ibáñez' })).toBeVisible()
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Nuevo trabajador' }).click()
  await expect(page.getByRole('dialog', { name: 'Añadir Nuevo Trabajador' })).toBeVisible()
  await expectAccessible(page)
})

test("a deactivated worker's open session ends at once", async ({ page, browser }) => {
  const worker = await newWorker(page)
  const other = await browser.newPage()
  await loginWith(other, worker.email, 'Demo1234', '/ficha-trabajador')
  await expect(other.getByRole('heading', { name: worker.nombre })).toBeVisible()
  expect((await worker.api.patch(`/trabajadores/${worker.id}`, { activo: false })).status()).toBe(200)
  // Its next call is refused and the browser goes back to the login screen.
  await other.goto('/inicio')
  await expect(other).toHaveURL('/')
  await other.close()
  await worker.api.delete(`/trabajadores/${worker.id}`)
})

test('the list reads in the order of its Nombre column, given name first, and turns round on a click', async ({ page }) => {
  await loginAs(page, 'superadmin', '/trabajadores')
  const header = page.getByRole('columnheader', { name: /Nombre/ })
  await expect(header).toHaveAttribute('aria-sort', 'ascending')
  const names = async () => {
    await expect(page.getByText('Cargando...')).toHaveCount(0)
    return (await page.getByRole('row').allInnerTexts()).slice(1).map((r) => r.trim().split(/\s+/)[0] ?? '')
  }
  const byName = (a: string, b: string) => a.localeCompare(b, 'es', { sensitivity: 'base' })
  const ascending = await names()
  expect(ascending.length).toBeGreaterThan(3)
  expect(ascending).toEqual([...ascending].sort(byName))
  await header.getByRole('button').click()
  await expect(header).toHaveAttribute('aria-sort', 'descending')
  await expect
    .poll(async () => {
      const descending = await names()
      return descending.join() === [...descending].sort(byName).reverse().join()
    })
    .toBe(true)
})
