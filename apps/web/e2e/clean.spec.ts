import type { Page } from '@playwright/test'
import { apiAs, expect, loginAs, test } from './fixtures'

/**
 * No screen reports a Content Security Policy violation, a console error or an uncaught
 * exception. The CSP stays strict (script-src 'self'); the app keeps within it.
 */
function watchProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()} (${message.location().url})`)
  })
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`))
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`)
  })
  return problems
}

async function watchCsp(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`)
    })
  })
}

test.describe('No CSP violation or console error', () => {
  test('login, password recovery and a page that does not exist', async ({ page }) => {
    await watchCsp(page)
    const problems = watchProblems(page)
    await page.goto('/')
    await expect(page.getByRole('heading', { name: 'Bienvenido' })).toBeVisible()
    // The form validates with the shared zod schema: that is where zod used to probe `new Function`.
    await page.getByRole('button', { name: 'Entrar' }).click()
    await expect(page.getByText('El correo es obligatorio')).toBeVisible()
    await page.goto('/recuperar-contraseña')
    await expect(page.getByRole('heading', { name: 'Recuperar contraseña' })).toBeVisible()
    await page.goto('/no-existe')
    await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible()
    expect(problems).toEqual([])
  })

  const screens: Array<{ path: string; heading: string; list?: boolean; shell?: false }> = [
    { path: '/inicio', heading: 'Inicio' },
    { path: '/empresas', heading: 'Empresas', list: true },
    { path: '/viviendas', heading: 'Viviendas', list: true },
    { path: '/usuarios', heading: 'Usuarios', list: true },
    { path: '/contactos', heading: 'Contactos', list: true },
    { path: '/informes', heading: 'Informes' },
    { path: '/configuracion', heading: 'Configuración' },
    { path: '/integraciones', heading: 'Integraciones' },
    { path: '/cambiar-password-con-actual', heading: 'Cambiar contraseña', shell: false },
  ]
  for (const { path, heading, list, shell } of screens) {
    test(`${path}`, async ({ page }) => {
      await watchCsp(page)
      await loginAs(page, 'admin')
      const problems = watchProblems(page)
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
      // Wait for the shell's calls (the bell's first poll) and the list's first page to answer.
      if (shell !== false) await expect(page.getByRole('button', { name: /^Notificaciones: \d+ sin leer$/ })).toBeVisible()
      if (list) await expect(page.getByText(/^Mostrando \d/)).toBeVisible()
      expect(problems).toEqual([])
    })
  }

  test('a resident’s documents and cash ledger, with their forms open', async ({ page }) => {
    await watchCsp(page)
    const api = await apiAs(page, 'admin')
    const [resident] = await (await api.get('/usuarios?pageSize=1')).json()
    await loginAs(page, 'admin')
    const problems = watchProblems(page)
    for (const [path, heading, button] of [
      [`/documentacion/${resident.nif}`, 'Documentación', 'Nuevo Documento'],
      [`/caja/${resident.nif}`, 'Caja', 'Nuevo Movimiento'],
    ] as const) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
      await expect(page.getByText(/^Mostrando \d|^No hay (documentos|movimientos)$/)).toBeVisible()
      await page.getByRole('button', { name: button }).click()
      // The form validates with the shared schemas (zod, jitless under the CSP).
      await page.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click()
      await expect(page.getByRole('dialog').locator('.invalid-feedback').first()).toBeVisible()
      await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click()
    }
    expect(problems).toEqual([])
  })
})
