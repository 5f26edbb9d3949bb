// Screenshots of screens at 1440 and 375 px, for looking at them (docs/architecture.md, look and feel), on a running server:
//   node scripts/screenshots.mjs http://127.0.0.1:3000 /tmp/shots superadmin /planing /tareas /presupuestos /inicio
// The account is a demo account (password Demo1234); each path is saved as <dir>/<name>-<width>.png.
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { chromium } from '@playwright/test'

const [base = 'http://127.0.0.1:3000', dir = 'screenshots', who = 'superadmin', ...paths] = process.argv.slice(2)
mkdirSync(dir, { recursive: true })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
})
try {
  const res = await fetch(`${base}/api/auth/trabajadores/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${who}@demo.es`, password: 'Demo1234' }),
  })
  const session = await res.json()
  for (const width of [1440, 375]) {
    const context = await browser.newContext({
      viewport: { width, height: width > 800 ? 900 : 812 },
      locale: 'es-ES',
      timezoneId: 'Europe/Madrid',
    })
    const page = await context.newPage()
    await page.goto(`${base}/api/openapi.json`)
    await page.evaluate((b) => {
      localStorage.setItem('token', b.token)
      localStorage.setItem('mail', b.trabajador.email)
      localStorage.setItem('trabajador', JSON.stringify(b.trabajador))
      const first = b.trabajador.empresas[0]
      if (first) localStorage.setItem('empresa', JSON.stringify({ id: first.id, nombre: first.nombre }))
    }, session)
    for (const p of paths.length ? paths : ['/inicio']) {
      await page.goto(`${base}${p}`)
      // The notification stream keeps a request open, so 'networkidle' never comes: wait for the lists instead.
      await page.waitForSelector('main h1')
      await page
        .waitForFunction(() => !document.body.textContent?.includes('Cargando'), undefined, { timeout: 10_000 })
        .catch(() => {})
      await page.waitForTimeout(500)
      const name = `${who}-${p.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '_') || 'root'}-${width}.png`
      await page.screenshot({ path: path.join(dir, name), fullPage: true })
      console.log(path.join(dir, name))
    }
    await context.close()
  }
} finally {
  await browser.close()
}
