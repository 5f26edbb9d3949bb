import type { QueryKey } from '@tanstack/react-query'
import type { Key, ReactNode } from 'react'
import type { SelectOption } from '../form-fields'
import type { IconName } from '../icon'

export type SortOrder = 'asc' | 'desc'

/** What the list block asks the server for (DECISIONS A4): search, sort and paging happen there. */
export interface ListParams {
  q?: string
  /** The screen's filters (ListFilter keys) that have a value. */
  [filter: string]: string | number | undefined
  sort?: string
  order?: SortOrder
  /** From 1. */
  page: number
  pageSize: number
}

/** One column of a list: its header, its cell, and how it shows on cards below 768 px. */
export interface Column<T> {
  /** Stable id of the column. */
  id: string
  /** Visible header text (SPEC's Spanish column names). */
  header: string
  cell: (row: T) => ReactNode
  /** The server's sort key; a column without one is not sortable. */
  sortKey?: string
  /** Names of the two orders in the phone's sort select (default '(A-Z)' / '(Z-A)'; dates: oldest / newest first). */
  sortLabels?: { asc: string; desc: string }
  /** Extra classes for the table cells (e.g. 'text-end' for numbers). */
  className?: string
  /**
   * Place on the small-screen card: 'title' (the card's heading), 'media' (beside the title, e.g. a logo),
   * 'field' (a label: value line, the default) or 'hidden'.
   */
  card?: 'title' | 'media' | 'field' | 'hidden'
}

/**
 * An entry of a row's actions menu: a link inside the app (`to`), a link that opens in a new tab (`href`,
 * e.g. a document's file) or a command (`onSelect`).
 */
export interface RowAction {
  label: string
  /** Bootstrap Icons name (e.g. 'pencil', 'trash'), one of components/icon.tsx. */
  icon?: IconName
  to?: string
  href?: string
  onSelect?: () => void
  danger?: boolean
  /** Shown but not usable (SPEC §2.14: 'Descargar' without a file). */
  disabled?: boolean
}

/**
 * A filter of a list besides the search (a day, a range of days, a choice), kept in the URL like the search.
 * A choice among a few fixed values is a 'select'; a choice among records of a table that grows (homes,
 * workers) is a 'combobox', searched by the server a page at a time, so every record can be chosen.
 */
export type ListFilter = DateFilter | SelectFilter | ComboboxFilter

interface FilterBase {
  /** The query-string key, sent to the server as it is (e.g. 'fecha', 'desde', 'hasta', 'estado', 'tipo'). */
  key: string
  label: string
  /** 'Limpiar' leaves it as it is (SPEC §2.13: it clears the text, the date and the state, not the home). */
  keep?: boolean
}

/** A whole day. */
export interface DateFilter extends FilterBase {
  type: 'date'
}

export interface SelectFilter extends FilterBase {
  type: 'select'
  /** The choices (value sent to the server, label shown). */
  options: ReadonlyArray<{ value: string | number; label: string }>
  /** The first option, meaning no filter (default 'Todos'; SPEC §2.13: 'Todos los estados'). */
  placeholder?: string
}

export interface ComboboxFilter extends FilterBase {
  type: 'combobox'
  /** Up to COMBOBOX_PAGE options matching `q`, and the root of their query keys. */
  search: (q: string) => Promise<SelectOption[]>
  queryKey: QueryKey
  /**
   * The option of the value in the URL, when the screen has it (the URL holds only the id: a link or a reload
   * names the record once the screen has read it).
   */
  current?: SelectOption | null
  /** The placeholder, meaning no filter (default 'Todos'; SPEC §2.13: 'Todas las viviendas'). */
  placeholder?: string
}

export interface DataListProps<T> {
  /**
   * Query key of the list, including its filters (e.g. `['usuarios', 'list', { empresaId }]`). The block appends
   * `{ q, sort, order, page }`; a change of these filters re-queries and goes back to page 1.
   */
  queryKey: readonly unknown[]
  /** Calls the server, e.g. `(params) => api.list<T>('/usuarios', { ...params, empresaId })`. */
  fetcher: (params: ListParams) => Promise<{ items: T[]; total: number; exact: boolean; headers?: Headers }>
  columns: Column<T>[]
  rowKey: (row: T) => Key
  /** Name of a row for screen readers (the actions menu is 'Acciones de {rowLabel}'). */
  rowLabel: (row: T) => string
  /** Entries of each row's actions menu; omit (or return []) when the role has none. */
  rowActions?: (row: T) => RowAction[]
  /** Visible label of the search box, e.g. 'Buscar empresa'; the accessible name of the table without `caption`. */
  searchLabel: string
  /** False hides the search box (SPEC §2.15: the cash ledger has none). */
  searchable?: boolean
  /** Filters beside the search, with a 'Limpiar' button that clears them and the search (SPEC §2.14). */
  filters?: ListFilter[]
  /** Reads the page again this often (ms): rows that carry signed file links, which expire, stay usable. */
  refreshMs?: number
  /** Where the table starts: 768 px ('md', the default), or 992 px ('lg') for a list whose columns need more. */
  tableFrom?: 'md' | 'lg'
  /** What the list shows above its rows from the page it has (the cash ledger's opening balance). */
  summary?: (page: { items: T[]; total: number; headers?: Headers } | undefined) => ReactNode
  searchPlaceholder?: string
  /** The screen's empty state, e.g. 'No hay empresas.' */
  emptyText: string
  /** Accessible name of the table (defaults to the page's search label). */
  caption?: string
  /**
   * Buttons beside the search box (e.g. 'Nueva empresa'); as a function, it gets the list's current query
   * (search, filters and sort) for commands that act on what the list shows (the logs' 'Descargar').
   */
  toolbar?: ReactNode | ((params: ListParams) => ReactNode)
  /**
   * A page-size selector (SPEC §2.11: 'Todos', 25, 50, 75, 100), with the screen's default. Changing it goes
   * back to page 1; 'todos' shows every matching row, read MAX_PAGE_SIZE at a time as the user asks for more.
   */
  pageSizes?: { options: ReadonlyArray<number | 'todos'>; default: number }
  /**
   * What a row shows when it is opened (a log entry's description and its values before and after): each
   * row gets a toggle that reveals it below the row (a table) or inside the card.
   */
  expand?: (row: T) => ReactNode
  /** Initial sort; without it the server's default order applies. */
  defaultSort?: { sort: string; order: SortOrder }
  /** Message when loading fails for a reason other than 403 (defaults to the server's message). */
  loadErrorText?: string
}

/** A date column's orders, named by what comes first (the phone's sort select). */
export const DATE_SORT_LABELS = { asc: '(más antigua primero)', desc: '(más reciente primero)' } as const
