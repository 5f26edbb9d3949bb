import { apiAs, expect, test } from './fixtures'
import { listScreen, SCREENS } from './list-screen'

/**
 * DECISIONS L1: an edit that changes nothing is not a modification. A record's form opened and saved untouched, on
 * each screen of the shared list: the form sends back what it read, and the log gains no "Modificar" entry.
 */
const RECORDS = [
  { screen: SCREENS.empresas, nombre: 'Hogares Mediterráneo S.L.' },
  { screen: SCREENS.viviendas, nombre: 'Calle Mayor 12, 2º A, Valencia' },
  { screen: SCREENS.usuarios, nombre: 'Jesús Alonso García' },
  { screen: SCREENS.contactos, nombre: 'Farmacia Central' },
] as const

test('a form saved untouched writes no log entry, on every screen of the shared list', async ({ page }) => {
  const api = await apiAs(page, 'superadmin')
  const modifications = async () => Number((await api.get('/logs?q=Modificar&pageSize=1')).headers()['x-total-count'])
  for (const { screen, nombre } of RECORDS) {
    const list = listScreen(page, screen)
    await list.open('superadmin')
    await list.chooseEmpresa('Todas mis empresas')
    await list.search(nombre)
    const before = await modifications()
    const dialog = await list.openEdit(nombre)
    await list.save(dialog, screen.toasts.updated)
    expect(await modifications(), `${screen.path}: ${nombre}`).toBe(before)
  }
})
