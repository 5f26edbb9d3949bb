import { BORRADOR_RECUPERADO_MESSAGE, SESION_TERMINADA_MESSAGE } from '@vb/shared/core'
import { expect, expectAccessible, fillLogin, invalidateToken, loginAs, loginWith, newWorker, test } from './fixtures'

/** SPEC §2.20 /ficha-trabajador and §2.21 /configuracionUsuario; §2.10, §2.11 for every role. */

const perfiles: Record<'superadmin' | 'admin' | 'empleado', { nombre: string; rol: string; empresas: string[] }> = {
  superadmin: {
    nombre: 'Sara Martín Ruiz',
    rol: 'Superadministrador',
    empresas: ['Hogares Mediterráneo S.L.', 'Fundación Vivir Acompañados', 'Residencias del Norte (Asturias)'],
  },
  admin: {
    nombre: 'Alberto Gómez Sánchez',
    rol: 'Administrador',
    empresas: ['Hogares Mediterráneo S.L.', 'Fundación Vivir Acompañados'],
  },
  empleado: { nombre: 'Elena Navarro Díaz', rol: 'Empleado', empresas: ['Hogares Mediterráneo S.L.'] },
}

for (const width of [1440, 375]) {
  for (const who of ['superadmin', 'admin', 'empleado'] as const) {
    test(`${who} at ${width} px: its profile, its settings, and the workers and logs screens as its role allows`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 })
      const { nombre, rol, empresas } = perfiles[who]
      await loginAs(page, who, '/ficha-trabajador')
      const main = page.getByRole('main')
      await expect(main.getByRole('heading', { level: 2, name: nombre })).toBeVisible()
      await expect(main.getByText(rol, { exact: true })).toBeVisible()
      await expect(main.getByText('Activo', { exact: true })).toBeVisible()
      for (const label of ['Email', 'NIF', 'Estado', 'Creado', 'Última actualización'])
        await expect(main.getByText(label, { exact: true })).toBeVisible()
      await expect(main.getByText(/^\d{2}\/\d{2}\/\d{4}$/).first()).toBeVisible()
      await expect(main.getByRole('heading', { name: 'Empresas asociadas' })).toBeVisible()
      await expect(main.getByRole('listitem')).toHaveText(empresas)
      await expect(main.getByRole('img', { name: 'Sin foto' })).toBeVisible()
      await expectAccessible(page)

      await page.goto('/configuracionUsuario')
      await expect(main.getByRole('heading', { name: 'Configuración de Usuario', exact: true })).toBeVisible()
      await expect(main.getByLabel('Nombre', { exact: true })).toHaveAttribute('readonly', '')
      await expect(main.getByRole('button', { name: 'Guardar cambios' })).toHaveCount(0)
      await expectAccessible(page)

      for (const [path, title] of [
        ['/trabajadores', 'Trabajadores'],
        ['/logs', 'Logs'],
      ] as const) {
        await page.goto(path)
        if (who === 'empleado') {
          // SPEC §2.10, §2.11; DECISIONS D14: sent to /inicio, still logged in.
          await expect(page).toHaveURL('/inicio')
          continue
        }
        await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
        await expect(page.getByText(/^Mostrando 1–/)).toBeVisible()
        await expectAccessible(page)
      }
    })
  }
}

test('the profile deduplicates companies, and says when there are none or the worker is not found', async ({ page }) => {
  await loginAs(page, 'empleado')
  await page.route('**/api/trabajadores/me', async (route) => {
    const res = await route.fetch()
    const me = await res.json()
    await route.fulfill({ response: res, json: { ...me, empresas: [...me.empresas, ...me.empresas] } })
  })
  await page.goto('/ficha-trabajador')
  await expect(page.getByRole('main').getByRole('listitem')).toHaveText(['Hogares Mediterráneo S.L.'])
  await page.unroute('**/api/trabajadores/me')
  await page.route('**/api/trabajadores/me', async (route) => {
    const res = await route.fetch()
    await route.fulfill({ response: res, json: { ...(await res.json()), empresas: [] } })
  })
  await page.reload()
  await expect(page.getByText('Sin empresas asociadas')).toBeVisible()
  await page.unroute('**/api/trabajadores/me')
  await page.route('**/api/trabajadores/me', (route) =>
    route.fulfill({ status: 404, contentType: 'application/json', body: '{"statusCode":404,"code":"NOT_FOUND","message":"x"}' }),
  )
  await page.goto('/ficha-trabajador')
  await expect(page.getByText('No se encontró el trabajador.')).toBeVisible()
})

test('a worker changes its own name, surnames and e-mail, each unlocked by its pencil', async ({ page }) => {
  const worker = await newWorker(page)
  await loginWith(page, worker.email, 'Demo1234', '/configuracionUsuario')
  const main = page.getByRole('main')
  const nombre = main.getByLabel('Nombre', { exact: true })
  await expect(nombre).toHaveAttribute('readonly', '')
  await main.getByRole('button', { name: 'Editar nombre' }).click()
  await expect(nombre).not.toHaveAttribute('readonly', '')
  await expect(nombre).toBeFocused()
  await expect(main.getByRole('button', { name: 'Guardar cambios' })).toBeVisible()

  // SPEC §5 Own settings.
  await nombre.fill('')
  await main.getByRole('button', { name: 'Editar correo electrónico' }).click()
  await main.getByLabel('Correo electrónico', { exact: true }).fill('no-es-un-correo')
  await main.getByRole('button', { name: 'Guardar cambios' }).click()
  await expect(nombre).toHaveAccessibleDescription('El nombre es obligatorio')
  await expect(main.getByLabel('Correo electrónico', { exact: true })).toHaveAccessibleDescription('El email debe ser válido')
  await expectAccessible(page)

  const email = worker.email.replace('@', '.nuevo@')
  await nombre.fill('Mª José')
  await main.getByLabel('Correo electrónico', { exact: true }).fill(email.toUpperCase())
  await main.getByRole('button', { name: 'Guardar cambios' }).click()
  await expect(page.getByText('Configuración guardada correctamente')).toBeVisible()
  await expect(main.getByRole('button', { name: 'Guardar cambios' })).toHaveCount(0)
  await expect(main.getByLabel('Correo electrónico', { exact: true })).toHaveValue(email)
  await expect(page.getByRole('button', { name: /^Menú de usuario: Mª José/ })).toBeVisible()
  // 3 s (SPEC §9), then gone.
  await expect(page.getByText('Configuración guardada correctamente')).toBeHidden({ timeout: 6000 })

  await main.getByRole('link', { name: 'Cambiar contraseña' }).click()
  await expect(page).toHaveURL('/cambiar-password-con-actual')
  await worker.api.delete(`/trabajadores/${worker.id}`)
})

test('what a worker typed in its own settings when the session ended is there after the login', async ({ page }) => {
  const worker = await newWorker(page)
  await loginWith(page, worker.email, 'Demo1234', '/configuracionUsuario')
  const main = page.getByRole('main')
  await main.getByRole('button', { name: 'Editar apellidos' }).click()
  await main.getByLabel('Apellidos', { exact: true }).fill('Recuperada Tras Login')
  // The token stops being valid with the change typed: saving answers 401 and the login takes over.
  await invalidateToken(page)
  await main.getByRole('button', { name: 'Guardar cambios' }).click()
  await expect(page).toHaveURL('/')
  await expect(page.getByText(SESION_TERMINADA_MESSAGE)).toBeVisible()
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }))).not.toContain('Recuperada')
  await fillLogin(page, worker.email, 'Demo1234')
  await expect(page).toHaveURL('/configuracionUsuario')
  await expect(main.getByText(BORRADOR_RECUPERADO_MESSAGE)).toBeVisible()
  const apellidos = main.getByLabel('Apellidos', { exact: true })
  await expect(apellidos).toHaveValue('Recuperada Tras Login')
  await expect(apellidos).not.toHaveAttribute('readonly', '')
  // Only what was changed is unlocked.
  await expect(main.getByLabel('Nombre', { exact: true })).toHaveAttribute('readonly', '')
  await expectAccessible(page)
  await main.getByRole('button', { name: 'Guardar cambios' }).click()
  await expect(page.getByText('Configuración guardada correctamente')).toBeVisible()
  await expect(main.getByText(BORRADOR_RECUPERADO_MESSAGE)).toHaveCount(0)
  await expect(apellidos).toHaveValue('Recuperada Tras Login')
  await expect(apellidos).toHaveAttribute('readonly', '')
  const saved = await (await worker.api.get(`/trabajadores/${worker.id}`)).json()
  expect(saved.apellidos).toBe('Recuperada Tras Login')
  await worker.api.delete(`/trabajadores/${worker.id}`)
})
