import type { Page } from '@playwright/test'
import {
  type Account,
  accounts,
  apiAs,
  DEMO_PASSWORD,
  expect,
  expectAccessible,
  fillLogin,
  invalidateToken,
  loginAs,
  randomNif,
  test,
  unique,
  uniqueWord,
} from './fixtures'

/** SPEC §2.9, DECISIONS D1, D4: the monthly task calendar (a 42-cell grid, an agenda below 768 px). */

const madrid = (d = new Date()) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid' }).format(d)
const today = madrid()
const monthTitle = (day: string) => {
  const name = new Intl.DateTimeFormat('es-ES', { month: 'long', timeZone: 'UTC' }).format(new Date(`${day}T12:00:00Z`))
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} de ${day.slice(0, 4)}`
}
const nextMonthDay = (n: number) => {
  const [y, m] = today.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(y, m, n)).toISOString().slice(0, 10)
}
const todayCell = (page: Page) => page.locator('table.vb-calendar td[aria-current="date"]')
const chip = (page: Page, text: string) => page.getByRole('button', { name: new RegExp(text) })

/** The bell's count (0 when it says just 'Notificaciones'). */
async function bellCount(page: Page): Promise<number> {
  const bell = page.getByRole('button', { name: /^Notificaciones(: \d+ sin leer)?$/ })
  const name = (await bell.getAttribute('aria-label')) ?? ''
  return Number(/(\d+)/.exec(name)?.[1] ?? 0)
}

for (const who of ['superadmin', 'admin', 'empleado'] as Account[]) {
  test(`${who} sees the month at 1440 px and the agenda at 375 px, accessibly`, async ({ page }) => {
    await loginAs(page, who, '/planing')
    await expect(page.getByRole('heading', { level: 2, name: monthTitle(today) })).toBeVisible()
    await expect(page.locator('table.vb-calendar tbody td')).toHaveCount(42)
    await expect(page.locator('table.vb-calendar thead th').first()).toHaveAttribute('abbr', 'lunes')
    // Today marked; its demo tasks in it (the company chosen in the top bar is the first one).
    await expect(todayCell(page)).toHaveCount(1)
    await expect(todayCell(page)).toContainText('Cita médica')
    await expect(todayCell(page).getByRole('button', { name: /Taller de cocina/ })).toHaveCSS('background-color', 'rgb(0, 0, 0)')
    await expectAccessible(page)
    // WCAG 2.5.8 (Lighthouse's target-size): each task of the grid is a target at least 24 px high.
    const heights = await todayCell(page)
      .locator('button.vb-chip')
      .evaluateAll((chips) => chips.map((c) => c.getBoundingClientRect().height))
    expect(heights.length).toBeGreaterThan(1)
    for (const height of heights) expect(height).toBeGreaterThanOrEqual(24)

    await page.setViewportSize({ width: 375, height: 812 })
    await expect(page.locator('table.vb-calendar')).toHaveCount(0)
    const agenda = page.getByRole('list', { name: `Agenda de ${monthTitle(today)}` })
    await expect(agenda).toBeVisible()
    await expect(agenda.locator('li[aria-current="date"]')).toContainText('Hoy')
    await agenda.getByRole('button', { name: /Cita médica/ }).click()
    const view = page.getByRole('dialog', { name: 'Cita médica' })
    await expect(view).toContainText('Revisión en el centro de salud')
    await expect(view).toContainText('10:00')
    await expect(view).toContainText('Sí')
    await expectAccessible(page)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  })
}

test('admin creates, reads, edits and deletes a task; a notifiable one reaches its bell', async ({ page }) => {
  await loginAs(page, 'admin', '/planing')
  await expect(todayCell(page)).toContainText('Cita médica')
  await expect(page.getByRole('button', { name: /^Notificaciones: \d+ sin leer$/ })).toBeVisible()
  const before = await bellCount(page)

  await page.getByRole('button', { name: 'Nueva tarea' }).click()
  const form = page.getByRole('dialog', { name: 'Nueva Tarea' })
  await form.getByRole('button', { name: 'Guardar' }).click()
  await expect(form.getByLabel('Título')).toHaveAccessibleDescription('El título es obligatorio')
  await expect(form.getByLabel('Descripción')).toHaveAccessibleDescription('La descripción es obligatoria')
  await expect(form.getByLabel('Hora')).toHaveAccessibleDescription('La hora es obligatoria')
  await expect(form.getByText('Selecciona al menos un usuario')).toBeVisible()
  await expectAccessible(page)

  const titulo = unique('Podología')
  await form.getByLabel('Título').fill(titulo)
  await form.getByLabel('Descripción').fill('Cita en la clínica del barrio')
  for (const bad of ['24:00', '7:5', 'ab']) {
    await form.getByLabel('Hora').fill(bad)
    await form.getByRole('button', { name: 'Guardar' }).click()
    await expect(form.getByLabel('Hora')).toHaveAccessibleDescription(/formato HH:MM/)
  }
  await form.getByLabel('Hora').fill('08:05')
  await form.getByRole('group', { name: 'Usuarios' }).getByRole('checkbox').nth(1).check()
  await form.getByLabel(/Notificable/).check()
  await form.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Tarea creada correctamente')).toBeVisible()
  await expect(todayCell(page).getByRole('button', { name: new RegExp(`08:05 ${titulo}`) })).toBeVisible()
  // DECISIONS D4: the creator's TAREA notification, in the bell without a reload.
  await expect.poll(() => bellCount(page), { timeout: 5000 }).toBe(before + 1)

  await chip(page, titulo).click()
  const view = page.getByRole('dialog', { name: titulo })
  await expect(view).toContainText('08:05')
  await expect(view).toContainText('Sí')
  await view.getByRole('button', { name: 'Editar' }).click()
  const edit = page.getByRole('dialog', { name: 'Modificar Tarea' })
  await expect(edit.getByLabel('Hora')).toHaveValue('08:05')
  await edit.getByLabel('Hora').fill('07:30')
  await edit.getByRole('button', { name: 'Guardar cambios' }).click()
  await expect(page.getByText('Tarea modificada correctamente')).toBeVisible()
  await expect(todayCell(page).getByRole('button', { name: new RegExp(`07:30 ${titulo}`) })).toBeVisible()

  await chip(page, titulo).click()
  await page.getByRole('dialog', { name: titulo }).getByRole('button', { name: 'Eliminar' }).click()
  const confirm = page.getByRole('dialog', { name: 'Confirmar Eliminación' })
  await expect(confirm).toContainText(`¿Seguro que quieres eliminar la tarea ${titulo}?`)
  await confirm.getByRole('button', { name: 'Eliminar' }).click()
  await expect(page.getByText('Tarea eliminada correctamente')).toBeVisible()
  await expect(chip(page, titulo)).toHaveCount(0)
})

test('the residents of a task are searched by the server, and one chosen stays ticked whatever the search shows', async ({
  page,
}) => {
  // A company of a large operator has thousands of residents: the form reads a page of them, searched.
  const api = await apiAs(page, 'admin')
  const { trabajador } = (await loginAs(page, 'admin', '/planing')) as unknown as {
    trabajador: { empresas: { id: number }[] }
  }
  const empresaId = trabajador.empresas[0]?.id
  const [vivienda] = await (await api.get(`/viviendas?empresaId=${empresaId}&pageSize=1`)).json()
  const apellidos = uniqueWord('Buscado')
  const created = await api.post('/usuarios', { nombre: 'Nieves', apellidos, nif: randomNif(), viviendaId: vivienda.id })
  expect(created.status()).toBe(201)

  await page.getByRole('button', { name: 'Nueva tarea' }).click()
  const form = page.getByRole('dialog', { name: 'Nueva Tarea' })
  const group = form.getByRole('group', { name: 'Usuarios' })
  const search = group.getByRole('searchbox', { name: 'Buscar usuario' })
  const searched = page.waitForRequest(
    (r) => /\/api\/usuarios\?/.test(r.url()) && new URL(r.url()).searchParams.get('q') === apellidos,
  )
  await search.fill(apellidos)
  await searched
  const nieves = group.getByRole('checkbox', { name: `Nieves ${apellidos}` })
  await expect(group.getByRole('checkbox')).toHaveCount(2)
  await nieves.check()
  await search.fill('Qwxyzq')
  await expect(group.getByText('Ningún usuario coincide con la búsqueda.')).toBeVisible()
  await expect(nieves).toBeChecked()
  await expectAccessible(page)

  const titulo = unique('Buscada')
  await form.getByLabel('Título').fill(titulo)
  await form.getByLabel('Descripción').fill('Paseo por el parque')
  await form.getByLabel('Hora').fill('06:30')
  await form.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Tarea creada correctamente')).toBeVisible()
  await chip(page, titulo).click()
  await expect(page.getByRole('dialog', { name: titulo })).toContainText(`Nieves ${apellidos}`)
  // Editing it names her before any search finds her.
  await page.getByRole('dialog', { name: titulo }).getByRole('button', { name: 'Editar' }).click()
  await expect(
    page.getByRole('dialog', { name: 'Modificar Tarea' }).getByRole('checkbox', { name: `Nieves ${apellidos}` }),
  ).toBeChecked()
})

test('superadmin gives a task to everyone (black), moves between months and opens a full day', async ({ page }) => {
  const api = await apiAs(page, 'superadmin')
  // The company the top bar starts with (the worker's first).
  const [empresa] = (await (await api.get('/trabajadores/me')).json()).empresas
  const [usuario] = await (await api.get(`/usuarios?empresaId=${empresa.id}&pageSize=1`)).json()
  const day = nextMonthDay(15)
  const prefix = unique('Turno')
  for (const hora of ['08:00', '09:00', '10:00', '11:00', '12:00']) {
    const res = await api.post('/planing-tareas', {
      titulo: `${prefix} ${hora}`,
      descripcion: 'Turno de acompañamiento',
      fecha: day,
      hora,
      usuarioIds: [usuario.id],
      empresaId: empresa.id,
    })
    expect(res.status()).toBe(201)
  }
  await loginAs(page, 'superadmin', '/planing')
  await page.getByRole('button', { name: 'Mes siguiente' }).click()
  await expect(page.getByRole('heading', { level: 2, name: monthTitle(day) })).toBeVisible()
  const cell = page.locator(`td[data-dia="${day}"]`)
  await expect(cell.getByRole('listitem')).toHaveCount(3)
  await cell.getByRole('button', { name: /^\+2 más/ }).click()
  const dayModal = page.getByRole('dialog', { name: /15 de/ })
  await expect(dayModal.getByRole('listitem')).toHaveCount(5)
  await expectAccessible(page)
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Hoy' }).click()
  await expect(page.getByRole('heading', { level: 2, name: monthTitle(today) })).toBeVisible()

  const titulo = unique('Fiesta')
  await page.getByRole('button', { name: 'Nueva tarea' }).click()
  const form = page.getByRole('dialog', { name: 'Nueva Tarea' })
  await form.getByLabel('Título').fill(titulo)
  await form.getByLabel('Descripción').fill('Merienda para todos')
  await form.getByLabel('Hora').fill('06:00')
  await form.getByLabel('Todos los usuarios').check()
  await form.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Tarea creada correctamente')).toBeVisible()
  const black = todayCell(page).getByRole('button', { name: new RegExp(titulo) })
  await expect(black).toHaveCSS('background-color', 'rgb(0, 0, 0)')
  await black.click()
  const view = page.getByRole('dialog', { name: titulo })
  await expect(view).toContainText('Todos los usuarios')
  // The calendar sends a task for everyone without its residents (every resident of the company): its edit
  // form still offers it for everyone, and saving keeps it so.
  await view.getByRole('button', { name: 'Editar' }).click()
  const edit = page.getByRole('dialog', { name: 'Modificar Tarea' })
  await expect(edit.getByLabel('Todos los usuarios')).toBeChecked()
  await edit.getByLabel('Descripción').fill('Merienda y música para todos')
  await edit.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Tarea modificada correctamente')).toBeVisible()
  await expect(black).toHaveCSS('background-color', 'rgb(0, 0, 0)')
})

test('a task of another company is not reachable: the API answers 404 and the grid never shows it', async ({ page }) => {
  const superApi = await apiAs(page, 'superadmin')
  const empresas = await (await superApi.get('/empresas?pageSize=10&sort=nombre&order=asc')).json()
  const ajena = empresas.find((e: { nombre: string }) => e.nombre.startsWith('Residencias del Norte'))
  const [usuario] = await (await superApi.get(`/usuarios?empresaId=${ajena.id}&pageSize=1`)).json()
  const titulo = unique('Ajena')
  const created = await superApi.post('/planing-tareas', {
    titulo,
    descripcion: 'De otra empresa',
    fecha: today,
    hora: '07:00',
    usuarioIds: [usuario.id],
    empresaId: ajena.id,
  })
  const { id } = await created.json()
  const empleado = await apiAs(page, 'empleado')
  expect((await empleado.get(`/planing-tareas/${id}`)).status()).toBe(404)
  await loginAs(page, 'empleado', '/planing')
  await expect(todayCell(page)).toContainText('Cita médica')
  await expect(chip(page, titulo)).toHaveCount(0)
})

test('a new task being written when the session ends opens again after the login, and saves', async ({ page }) => {
  await loginAs(page, 'admin', '/planing')
  await expect(todayCell(page)).toContainText('Cita médica')
  await page.getByRole('button', { name: 'Nueva tarea' }).click()
  const form = page.getByRole('dialog', { name: 'Nueva Tarea' })
  const titulo = unique('Dentista')
  await form.getByLabel('Título').fill(titulo)
  await form.getByLabel('Descripción').fill('Revisión anual')
  await form.getByLabel('Hora').fill('09:40')
  const residente = form.getByRole('group', { name: 'Usuarios' }).getByRole('checkbox').nth(2)
  await residente.check()
  const nombre = (await residente.evaluate((e) => (e as HTMLInputElement).labels?.[0]?.textContent ?? '')).trim()
  expect(nombre).not.toBe('')
  await invalidateToken(page)
  await form.getByRole('button', { name: 'Guardar' }).click()
  await expect(page).toHaveURL('/')
  await fillLogin(page, accounts.admin, DEMO_PASSWORD)
  await expect(page).toHaveURL('/planing')
  await expect(form.getByText('Se ha recuperado lo que estabas escribiendo cuando se cerró la sesión.')).toBeVisible()
  await expect(form.getByLabel('Título')).toHaveValue(titulo)
  await expect(form.getByLabel('Descripción')).toHaveValue('Revisión anual')
  await expect(form.getByLabel('Hora')).toHaveValue('09:40')
  await expect(form.getByRole('checkbox', { name: nombre, exact: true })).toBeChecked()
  await form.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText('Tarea creada correctamente')).toBeVisible()
  await expect(todayCell(page).getByRole('button', { name: new RegExp(`09:40 ${titulo}`) })).toBeVisible()
})

test('a recovered task names the residents it had, also one found by a search beyond the first hundred', async ({ page }) => {
  const api = await apiAs(page, 'superadmin')
  const empresa = await (await api.post('/empresas', { nombre: `Muchos ${Date.now().toString(36)}` })).json()
  const vivienda = await (await api.post('/viviendas', { nombre: unique('Calle Larga'), empresaId: empresa.id })).json()
  // A hundred residents come first in the form's list (sorted by surname); the one chosen is the 101st.
  for (let i = 0; i < 100; i++) {
    const res = await api.post('/usuarios', {
      nombre: 'Ana',
      apellidos: uniqueWord('Abad'),
      nif: randomNif(),
      viviendaId: vivienda.id,
    })
    expect(res.status()).toBe(201)
  }
  const apellidos = uniqueWord('Zurita')
  const rosa = await api.post('/usuarios', { nombre: 'Rosa', apellidos, nif: randomNif(), viviendaId: vivienda.id })
  expect(rosa.status()).toBe(201)
  const rosaId: number = (await rosa.json()).id

  await loginAs(page, 'superadmin', '/planing')
  await page.getByRole('button', { name: /^Empresa:/ }).click()
  await page.getByRole('list', { name: 'Empresas disponibles' }).getByRole('button', { name: empresa.nombre }).click()
  await expect(page.getByRole('button', { name: `Empresa: ${empresa.nombre}` })).toBeVisible()
  await page.getByRole('button', { name: 'Nueva tarea' }).click()
  const form = page.getByRole('dialog', { name: 'Nueva Tarea' })
  await form.getByLabel('Título').fill(unique('Paseo'))
  await form.getByLabel('Descripción').fill('Por el parque')
  await form.getByLabel('Hora').fill('11:15')
  const usuarios = form.getByRole('group', { name: 'Usuarios' })
  await expect(usuarios.getByRole('checkbox', { name: `Rosa ${apellidos}` })).toHaveCount(0)
  await usuarios.getByLabel('Buscar usuario').fill('Zurita')
  await usuarios.getByRole('checkbox', { name: `Rosa ${apellidos}` }).check()
  await invalidateToken(page)
  await form.getByRole('button', { name: 'Guardar' }).click()
  await expect(page).toHaveURL('/')
  const asked: string[] = []
  page.on('request', (r) => {
    const url = new URL(r.url())
    if (url.pathname.startsWith('/api/usuarios')) asked.push(`${url.pathname}${url.search}`)
  })
  await fillLogin(page, accounts.superadmin, DEMO_PASSWORD)
  await expect(form.getByText('Se ha recuperado lo que estabas escribiendo cuando se cerró la sesión.')).toBeVisible()
  // Back with the search empty: the resident is not among the first hundred, and is named, not numbered.
  await expect(usuarios.getByRole('checkbox', { name: `Rosa ${apellidos}` })).toBeChecked()
  await expect(usuarios.getByText(/^Usuario \d+$/)).toHaveCount(0)
  // Read with the list's filter by ids, in one request.
  expect(asked.filter((u) => u.includes(`ids=${rosaId}`))).toHaveLength(1)
  expect(asked).not.toContain(`/api/usuarios/${rosaId}`)
  await expectAccessible(page)
})
