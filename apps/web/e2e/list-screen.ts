import type { Locator, Page } from '@playwright/test'
import { type Account, apiAs, atWidth, expect, loginAs, pick, test } from './fixtures'

/**
 * The list screens (companies, homes, residents, contacts) are one block with different names: a searched,
 * sorted, paged list (cards below 768 px), a create and an edit modal, a row menu and a delete confirmation.
 * A journey says what it checks on its own screen; this file knows how each step is done.
 */

/** What differs from one list screen to another. */
export interface ListScreenSpec {
  path: string
  /** The search box's accessible name. */
  search: string
  /** The button that opens the create modal, and the two modals' titles. */
  newButton: string
  createDialog: string
  editDialog: string
  /** How the delete confirmation names a record: '¿Seguro que quieres eliminar el contacto X?' */
  thing: string
  toasts: { created: string; updated: string; deleted: string }
  /** What the list says when nothing matches. */
  empty: string
}

export const SCREENS = {
  contactos: {
    path: '/contactos',
    search: 'Buscar contacto',
    newButton: 'Nuevo contacto',
    createDialog: 'Añadir Nuevo Contacto',
    editDialog: 'Modificar Contacto',
    thing: 'el contacto',
    toasts: {
      created: 'Contacto creado correctamente',
      updated: 'Contacto modificado correctamente',
      deleted: 'Contacto eliminado correctamente',
    },
    empty: 'No hay contactos.',
  },
  viviendas: {
    path: '/viviendas',
    search: 'Buscar vivienda',
    newButton: 'Nueva vivienda',
    createDialog: 'Añadir Nueva Vivienda',
    editDialog: 'Modificar Vivienda',
    thing: 'la vivienda',
    toasts: {
      created: 'Vivienda creada correctamente',
      updated: 'Vivienda modificada correctamente',
      deleted: 'Vivienda eliminada correctamente',
    },
    empty: 'No hay viviendas.',
  },
  empresas: {
    path: '/empresas',
    search: 'Buscar empresa',
    newButton: 'Nueva empresa',
    createDialog: 'Añadir Nueva Empresa',
    editDialog: 'Modificar Empresa',
    thing: 'la empresa',
    toasts: {
      created: 'Empresa creada correctamente',
      updated: 'Empresa modificada correctamente',
      deleted: 'Empresa eliminada correctamente',
    },
    empty: 'No hay empresas.',
  },
  usuarios: {
    path: '/usuarios',
    search: 'Buscar usuario',
    newButton: 'Nuevo usuario',
    createDialog: 'Añadir Nuevo Usuario',
    editDialog: 'Modificar Usuario',
    thing: 'el usuario',
    toasts: {
      created: 'Usuario creado correctamente',
      updated: 'Usuario modificado correctamente',
      deleted: 'Usuario eliminado correctamente',
    },
    empty: 'No hay usuarios.',
  },
} as const satisfies Record<string, ListScreenSpec>

/**
 * A form field's value, by its label: typed text, an option of a select, or an option of a searchable
 * picker (`pick` types part of it and clicks it).
 */
export type FieldValue = string | { select: string } | { pick: string }

/** One list screen of a page: its locators and the steps of a journey on it. */
export function listScreen(page: Page, spec: ListScreenSpec) {
  const button = (name: string) => page.getByRole('button', { name })
  const rowMenu = (nombre: string) => page.getByRole('button', { name: `Acciones de ${nombre}`, exact: true })
  const header = (name: string) => page.getByRole('columnheader', { name, exact: true })
  const createDialog = page.getByRole('dialog', { name: spec.createDialog })
  const editDialog = page.getByRole('dialog', { name: spec.editDialog })
  const confirmDialog = page.getByRole('dialog', { name: 'Confirmar Eliminación' })

  const screen = {
    searchbox: page.getByRole('searchbox', { name: spec.search }),
    newButton: button(spec.newButton),
    createDialog,
    editDialog,
    confirmDialog,
    /** A cell whose whole text is `text`. */
    cell: (text: string) => page.getByRole('cell', { name: text, exact: true }),
    /** The rows that contain `text` anywhere. */
    row: (text: string) => page.getByRole('row').filter({ hasText: text }),
    /** The first row under the header: what a sort puts on top. */
    firstRow: () => page.getByRole('row').nth(1),
    /** The first card's title (below 768 px). */
    firstCard: () => page.getByRole('heading', { level: 2 }).first(),
    rowMenu,
    header,
    /** The pager's line, e.g. 'Mostrando 1–1 de 1'. */
    showing: (text: string | RegExp) => page.getByText(text),

    /** Logs in as `who` straight onto this screen; with `sees`, waits until a cell shows that text. */
    async open(who: Account, { sees }: { sees?: string } = {}) {
      const session = await loginAs(page, who, spec.path)
      if (sees) await expect(screen.cell(sees)).toBeVisible()
      return session
    },

    /** At phone width as `who`: the list is cards (a card is shown, no table). */
    async openCards(who: Account) {
      await atWidth(page, 375)
      await screen.open(who)
      await expect(screen.firstCard()).toBeVisible()
      await expect(page.getByRole('table')).toHaveCount(0)
    },

    /**
     * Types a search and waits until the debounced search is in the address (the list's query follows it), so the
     * next step (a company switch, a sort) starts from that search and not from the one before it.
     */
    async search(text: string) {
      await screen.searchbox.fill(text)
      await expect.poll(() => new URL(page.url()).searchParams.get('q') ?? '').toBe(text.trim())
    },

    /** Clicks a column's sort button; with `expected`, checks the header's aria-sort after it. */
    async sortBy(column: string, expected?: 'ascending' | 'descending') {
      await header(column).getByRole('button').click()
      if (expected) await expect(header(column)).toHaveAttribute('aria-sort', expected)
    },

    /**
     * Sorts by a column once per step, checking after each click the header's aria-sort and the text of the
     * first row.
     */
    async sortSteps(column: string, steps: Array<[expected: 'ascending' | 'descending', firstRow: string]>) {
      for (const [expected, text] of steps) {
        await screen.sortBy(column, expected)
        await expect(screen.firstRow()).toContainText(text)
      }
    },

    /** Clicks a pager button ('Página 2', 'Página siguiente'…) and waits for the pager's line. */
    async turnPage(button: string, showing: string | RegExp) {
      await page.getByRole('button', { name: button }).click()
      await expect(page.getByText(showing)).toBeVisible()
    },

    /** The card list's sort (the headers' stand-in below 768 px). */
    sortCards: (label: string) => page.getByLabel('Ordenar por').selectOption({ label }),

    /** The top bar's company switcher: chooses a company (or 'Todas mis empresas') and waits for it. */
    async chooseEmpresa(nombre: string) {
      await page.getByRole('button', { name: /^Empresa:/ }).click()
      await page.getByRole('button', { name: nombre, exact: true }).click()
      await expect(page.getByRole('button', { name: `Empresa: ${nombre}` })).toBeVisible()
    },

    /** Fills a modal's fields by label, in the order given. */
    async fill(dialog: Locator, fields: Record<string, FieldValue>) {
      for (const [label, value] of Object.entries(fields)) {
        if (typeof value === 'string') await dialog.getByLabel(label, { exact: true }).fill(value)
        else if ('select' in value) await dialog.getByLabel(label, { exact: true }).selectOption(value.select)
        else await pick(dialog, label, value.pick)
      }
    },

    /** Saves a modal: it closes and `toast` shows. */
    async save(dialog: Locator, toast: string) {
      await dialog.getByRole('button', { name: 'Guardar' }).click()
      await expect(dialog).toBeHidden()
      // The last one: an earlier toast with the same words may still be fading out.
      await expect(page.getByText(toast).last()).toBeVisible()
    },

    /** Opens the create modal. */
    async openCreate() {
      await screen.newButton.click()
      await expect(createDialog).toBeVisible()
      return createDialog
    },

    /** Creates a record through the create modal, its fields filled in order, and waits for the toast. */
    async create(fields: Record<string, FieldValue>) {
      const dialog = await screen.openCreate()
      await screen.fill(dialog, fields)
      await screen.save(dialog, spec.toasts.created)
    },

    /** Opens the edit modal from the record's row menu. */
    async openEdit(nombre: string) {
      await rowMenu(nombre).click()
      await button('Modificar').click()
      await expect(editDialog).toBeVisible()
      return editDialog
    },

    /** Edits a record from its row menu and waits for the toast. */
    async edit(nombre: string, fields: Record<string, FieldValue>) {
      const dialog = await screen.openEdit(nombre)
      await screen.fill(dialog, fields)
      await screen.save(dialog, spec.toasts.updated)
    },

    /** Asks to delete a record from its row menu: the confirmation names it. */
    async askDelete(nombre: string) {
      await rowMenu(nombre).click()
      await button('Eliminar').click()
      await expect(confirmDialog).toContainText(`¿Seguro que quieres eliminar ${spec.thing} ${nombre}?`)
      return confirmDialog
    },

    /** Deletes a record after confirming; then the toast shows and, the search matching it alone, the empty list. */
    async remove(nombre: string) {
      const confirm = await screen.askDelete(nombre)
      await confirm.getByRole('button', { name: 'Eliminar' }).click()
      await expect(page.getByText(spec.toasts.deleted).last()).toBeVisible()
      await expect(page.getByText(spec.empty)).toBeVisible()
    },

    /** A role that only reads: no create button and no row menu. */
    async expectReadOnly() {
      await expect(screen.newButton).toHaveCount(0)
      await expect(page.getByRole('button', { name: /^Acciones de/ })).toHaveCount(0)
    },
  }
  return screen
}

export type ListScreen = ReturnType<typeof listScreen>

/** The journeys of one list screen: Playwright's `test` with a `list` fixture for that screen. */
export function listTest(spec: ListScreenSpec) {
  return test.extend<{ list: ListScreen }>({
    list: async ({ page }, use) => {
      await use(listScreen(page, spec))
    },
  })
}

/** `${prefix} A`, `${prefix} B`, …: names whose order is known, for sorting and paging journeys. */
export const lettered = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix} ${String.fromCharCode(65 + i)}`)

/**
 * Records made through the API as `who` for one journey (each answered 201), and their removal, newest
 * first, for its `finally`.
 */
export async function createViaApi(page: Page, who: Account, resource: string, bodies: unknown[]) {
  const api = await apiAs(page, who)
  const ids: number[] = []
  for (const body of bodies) {
    const res = await api.post(resource, body)
    expect(res.status(), `POST ${resource}`).toBe(201)
    ids.push((await res.json()).id)
  }
  return {
    ids,
    async remove() {
      for (const id of [...ids].reverse()) await api.delete(`${resource}/${id}`)
    },
  }
}
