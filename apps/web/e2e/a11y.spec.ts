import { expect, expectAccessible, loginAs, test } from './fixtures'

// DECISIONS D11: no serious or critical axe violation on the screens of the foundation.
test.describe('Accessibility', () => {
  test('login and password recovery', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('heading', { name: 'Bienvenido' })).toBeVisible()
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Entrar' }).click()
    await expect(page.getByText('El correo es obligatorio')).toBeVisible()
    await expectAccessible(page)
    await page.goto('/recuperar-contraseña')
    await expect(page.getByRole('heading', { name: 'Recuperar contraseña' })).toBeVisible()
    await expectAccessible(page)
  })

  for (const [path, title] of [
    ['/inicio', 'Inicio'],
    ['/informes', 'Informes'],
    ['/integraciones', 'Integraciones'],
    ['/configuracion', 'Configuración'],
  ] as const) {
    test(`${path}`, async ({ page }) => {
      await loginAs(page, 'admin', path)
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
      await expectAccessible(page)
    })
  }

  test('open bell, company switcher and user menu; change password screen', async ({ page }) => {
    await loginAs(page, 'admin')
    await page.getByRole('button', { name: /^Notificaciones/ }).click()
    await expect(page.getByRole('heading', { name: 'Notificaciones' })).toBeVisible()
    await expectAccessible(page)
    await page.getByRole('button', { name: /^Empresa:/ }).click()
    await expect(page.getByRole('list', { name: 'Empresas disponibles' })).toBeVisible()
    await expectAccessible(page)
    await page.getByRole('button', { name: /^Menú de usuario/ }).click()
    await expect(page.getByRole('link', { name: 'Ficha del trabajador' })).toBeVisible()
    await expectAccessible(page)
    await page.goto('/cambiar-password-con-actual')
    await page.getByRole('button', { name: 'Guardar contraseña' }).click()
    await expect(page.getByText('Debes ingresar tu contraseña actual.')).toBeVisible()
    await expectAccessible(page)
  })

  test('mobile menu at 375 px', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 })
    await loginAs(page, 'empleado')
    await page.getByRole('button', { name: 'Abrir menú' }).click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await expectAccessible(page)
  })
})
