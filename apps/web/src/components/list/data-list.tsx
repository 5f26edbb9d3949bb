import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { deepestPage, MAX_PAGE_SIZE } from '@vb/shared/list-core'
import { permissionMessages } from '@vb/shared/permissions'
import { Fragment, type Key, lazy, type ReactNode, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react'
import { Alert, Button, Card, Form, Table } from 'react-bootstrap'
import { ApiError } from '../../lib/api-client'
import { useShownData } from '../../lib/use-shown-data'
import { Icon } from '../icon'
import { ListPagination, MAS_DE_10000 } from './list-pagination'
import { ListSearch } from './list-search'
import { RowActionsMenu } from './row-actions-menu'
import type { Column, DataListProps, ListFilter, SortOrder } from './types'
import { ALL_ROWS, useListState } from './use-list-state'
import { useMediaQuery, WIDE_QUERY, WIDER_QUERY } from './use-media-query'
import './data-list.css'

export const LOADING_TEXT = 'Cargando...'

/** The combobox filter (and its downshift) is loaded by the screens that have one. */
const ComboboxFilter = lazy(() => import('./combobox-filter').then((m) => ({ default: m.ComboboxFilter })))

/**
 * The shared list of SPEC §2.3 (companies, homes, residents, contacts, workers, budgets): a search box,
 * sortable columns, 10 rows per page, a table from 768 px (992 px for a list of many columns) and cards below.
 * Search, sort and paging run on the server (DECISIONS A4); the block only keeps `{ q, sort, order, page }`.
 */
export function DataList<T>(props: DataListProps<T>) {
  const { queryKey, fetcher, columns, rowKey, rowLabel, rowActions, searchLabel, searchPlaceholder, emptyText } = props
  const filtersKey = JSON.stringify(queryKey)
  const filterKeys = useMemo(() => (props.filters ?? []).map((f) => f.key), [props.filters])
  const keptKeys = useMemo(() => (props.filters ?? []).filter((f) => f.keep).map((f) => f.key), [props.filters])
  const list = useListState(props.defaultSort, filterKeys, props.pageSizes?.default, keptKeys)
  const wide = useMediaQuery(props.tableFrom === 'lg' ? WIDER_QUERY : WIDE_QUERY)
  const topRef = useRef<HTMLDivElement>(null)

  const paged = useQuery({
    queryKey: [...queryKey, list.params],
    // The page travels with its rows, so 'Mostrando…' and the active page match what is on screen
    // while the next page loads (the previous rows stay visible meanwhile).
    queryFn: async () => ({ ...(await fetcher(list.params)), page: list.params.page }),
    placeholderData: keepPreviousData,
    refetchInterval: props.refreshMs,
    enabled: !list.all,
  })
  // 'Todos' (SPEC §2.11): every matching row, read MAX_PAGE_SIZE at a time as the user asks for more, so a
  // list of a million rows never downloads it whole.
  const everything = useInfiniteQuery({
    queryKey: [...queryKey, ALL_ROWS, list.params],
    queryFn: ({ pageParam }) => fetcher({ ...list.params, page: pageParam, pageSize: MAX_PAGE_SIZE }),
    initialPageParam: 1,
    // Full pages go on, as deep as the server answers (D13).
    getNextPageParam: (last, pages) =>
      last.items.length === MAX_PAGE_SIZE && pages.length < deepestPage(MAX_PAGE_SIZE) ? pages.length + 1 : undefined,
    placeholderData: keepPreviousData,
    enabled: list.all,
  })
  const query = list.all ? everything : paged
  const all = everything.data
  const pages = useMemo(
    () =>
      all && {
        items: all.pages.flatMap((p) => p.items),
        total: all.pages[0]?.total ?? 0,
        exact: all.pages[0]?.exact ?? true,
        headers: all.pages[0]?.headers,
        page: 1,
      },
    [all],
  )
  const { shown: data, catchingUp } = useShownData(list.all ? pages : paged.data)

  // New filters (another company in the top bar) start from page 1; the first render keeps the URL's page.
  const { setPage, resetPage } = list
  const lastFilters = useRef(filtersKey)
  useEffect(() => {
    if (lastFilters.current === filtersKey) return
    lastFilters.current = filtersKey
    resetPage()
  }, [filtersKey, resetPage])

  // A page emptied by a deletion (or by another user) moves back to the last page that has rows.
  useEffect(() => {
    if (!list.all && data && data.items.length === 0 && data.total > 0 && data.page > 1 && !query.isPlaceholderData) {
      setPage(Math.max(1, Math.ceil(data.total / list.params.pageSize)))
    }
  }, [data, list.all, list.params.pageSize, query.isPlaceholderData, setPage])

  const goToPage = (page: number) => {
    list.setPage(page)
    const top = topRef.current
    if (top && top.getBoundingClientRect().top < 0) top.scrollIntoView({ block: 'start' })
  }

  const forbidden = query.error instanceof ApiError && query.error.statusCode === 403
  // A refused filter (400: 'La fecha final no puede ser anterior a la inicial') or the server away (503) says
  // why; any other failure shows the screen's own message (SPEC §8).
  const reason =
    query.error instanceof ApiError && [400, 503].includes(query.error.statusCode)
      ? Object.values(query.error.body.fieldErrors ?? {}).join(' ') || query.error.message
      : null
  const loadError = reason ?? props.loadErrorText ?? (query.error instanceof Error ? query.error.message : null)
  let body: ReactNode
  if (forbidden) {
    body = <Alert variant="warning">{permissionMessages.verPagina}</Alert>
  } else if (query.isPending || (catchingUp && !data)) {
    body = (
      <p role="status" className="text-body-secondary my-4">
        {LOADING_TEXT}
      </p>
    )
  } else if (!data) {
    body = <Alert variant="danger">{loadError ?? emptyText}</Alert>
  } else if (data.items.length === 0 && data.total === 0) {
    body = <p className="text-body-secondary my-4 vb-list-empty">{emptyText}</p>
  } else {
    const actionsFor = rowActions ?? (() => [])
    body = (
      <>
        {query.isError && <Alert variant="danger">{loadError}</Alert>}
        <div
          className={query.isPlaceholderData || catchingUp ? 'vb-list-stale' : undefined}
          aria-busy={query.isFetching || catchingUp}
        >
          {wide ? (
            <ListTable
              caption={props.caption ?? searchLabel}
              columns={columns}
              items={data.items}
              rowKey={rowKey}
              rowLabel={rowLabel}
              rowActions={rowActions ? actionsFor : undefined}
              sort={list.sort}
              order={list.order}
              onSort={list.toggleSort}
              expand={props.expand}
            />
          ) : (
            <ListCards
              columns={columns}
              items={data.items}
              rowKey={rowKey}
              rowLabel={rowLabel}
              rowActions={actionsFor}
              expand={props.expand}
            />
          )}
        </div>
        {list.all ? (
          <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mt-3">
            <p className="text-body-secondary small mb-0" aria-live="polite">
              Mostrando 1–{data.items.length} de {data.exact ? data.total : MAS_DE_10000.toLowerCase()}
            </p>
            {everything.hasNextPage && (
              <Button
                variant="outline-primary"
                onClick={() => void everything.fetchNextPage()}
                disabled={everything.isFetchingNextPage}
              >
                {everything.isFetchingNextPage ? LOADING_TEXT : 'Cargar más'}
              </Button>
            )}
          </div>
        ) : (
          <ListPagination
            page={data.page}
            pageSize={list.params.pageSize}
            total={data.total}
            exact={data.exact}
            shown={data.items.length}
            onPage={goToPage}
          />
        )}
      </>
    )
  }

  return (
    <div ref={topRef} className="vb-list">
      <div className="d-flex flex-wrap align-items-end gap-3 mb-3">
        {props.searchable !== false && (
          <div className="flex-grow-1 vb-list-search-wrap">
            <ListSearch
              label={searchLabel}
              placeholder={searchPlaceholder}
              value={list.q}
              onSearch={list.setQ}
              onSearchDebounced={list.setQDebounced}
              onTyping={list.typing}
              onClear={props.filters?.length ? list.clear : undefined}
            />
          </div>
        )}
        {props.filters?.map((filter) => (
          <FilterInput
            key={filter.key}
            filter={filter}
            value={list.filters[filter.key] ?? ''}
            onChange={(value) => list.setFilter(filter.key, value)}
          />
        ))}
        {props.searchable === false && props.filters?.length ? (
          <Button
            variant="outline-secondary"
            onClick={list.clear}
            disabled={Object.keys(list.filters).every((k) => keptKeys.includes(k))}
          >
            Limpiar
          </Button>
        ) : null}
        {props.pageSizes && (
          <PageSizeSelect
            options={props.pageSizes.options}
            value={list.all ? ALL_ROWS : list.pageSize}
            onChange={list.setPageSize}
          />
        )}
        {!wide && <SortSelect columns={columns} sort={list.sort} order={list.order} onChange={list.setSort} />}
        {props.toolbar && (
          <div className="d-flex gap-2 ms-auto">
            {typeof props.toolbar === 'function' ? props.toolbar(list.params) : props.toolbar}
          </div>
        )}
      </div>
      {!forbidden && data && props.summary?.(data)}
      {body}
    </div>
  )
}

/**
 * A day filter (SPEC §2.14's date filter, the cash ledger's desde / hasta), applied when a whole day is chosen,
 * a select (SPEC §2.13's state, the logs' type) or a combobox (SPEC §2.13's home, the logs' worker).
 */
function FilterInput({ filter, value, onChange }: { filter: ListFilter; value: string; onChange: (value: string) => void }) {
  const id = useId()
  if (filter.type === 'combobox') {
    return (
      <Suspense
        fallback={
          <div className="vb-list-filter vb-list-filter-select">
            <Form.Label htmlFor={id} className="fw-semibold mb-1">
              {filter.label}
            </Form.Label>
            <Form.Control id={id} placeholder={filter.placeholder ?? 'Todos'} disabled />
          </div>
        }
      >
        <ComboboxFilter filter={filter} value={value} onChange={onChange} />
      </Suspense>
    )
  }
  if (filter.type === 'select') {
    const { options } = filter
    return (
      <div className="vb-list-filter vb-list-filter-select">
        <Form.Label htmlFor={id} className="fw-semibold mb-1">
          {filter.label}
        </Form.Label>
        <Form.Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{filter.placeholder ?? 'Todos'}</option>
          {/* A value in the URL that is not among the options (yet) is kept selectable. */}
          {value && !options.some((o) => String(o.value) === value) && <option value={value}>{value}</option>}
          {options.map((o) => (
            <option key={o.value} value={String(o.value)}>
              {o.label}
            </option>
          ))}
        </Form.Select>
      </div>
    )
  }
  return (
    <div className="vb-list-filter">
      <Form.Label htmlFor={id} className="fw-semibold mb-1">
        {filter.label}
      </Form.Label>
      <Form.Control
        id={id}
        type="date"
        value={value}
        min="1900-01-01"
        max="2100-12-31"
        onChange={(e) => {
          const next = e.target.value
          // A date input gives '' while a day is half typed: only a whole day (or a cleared field) filters.
          if (next === '' || /^\d{4}-\d{2}-\d{2}$/.test(next)) onChange(next)
        }}
      />
    </div>
  )
}

/** SPEC §2.11's page-size selector: 'Todos' and the sizes the screen offers. */
function PageSizeSelect({
  options,
  value,
  onChange,
}: {
  options: ReadonlyArray<number | typeof ALL_ROWS>
  value: number | typeof ALL_ROWS
  onChange: (size: number | typeof ALL_ROWS) => void
}) {
  const id = useId()
  return (
    <div className="vb-list-filter vb-list-page-size">
      <Form.Label htmlFor={id} className="fw-semibold mb-1">
        Registros por página
      </Form.Label>
      <Form.Select
        id={id}
        value={String(value)}
        onChange={(e) => onChange(e.target.value === ALL_ROWS ? ALL_ROWS : Number(e.target.value))}
      >
        {options.map((o) => (
          <option key={o} value={String(o)}>
            {o === ALL_ROWS ? 'Todos' : o}
          </option>
        ))}
      </Form.Select>
    </div>
  )
}

/** Which rows are open (DataListProps.expand), by key. */
function useOpenRows() {
  const [open, setOpen] = useState<ReadonlySet<Key>>(() => new Set())
  const toggle = (key: Key) =>
    setOpen((current) => {
      const next = new Set(current)
      if (next.has(key)) next.delete(key)
      else next.add(key)
      return next
    })
  return { isOpen: (key: Key) => open.has(key), toggle }
}

/** The button that opens a row's detail. */
function ExpandToggle({
  open,
  controls,
  label,
  onToggle,
  text,
}: {
  open: boolean
  controls: string
  label: string
  onToggle: () => void
  text?: string
}) {
  return (
    <Button
      variant={text ? 'link' : 'outline-secondary'}
      size="sm"
      className={text ? 'px-0' : 'vb-expand-toggle'}
      aria-expanded={open}
      aria-controls={controls}
      aria-label={text ? undefined : label}
      onClick={onToggle}
    >
      <Icon name={open ? 'chevron-down' : 'chevron-right'} className={text ? 'me-1' : undefined} />
      {text}
    </Button>
  )
}

interface ListTableProps<T> {
  caption: string
  columns: Column<T>[]
  items: T[]
  rowKey: DataListProps<T>['rowKey']
  rowLabel: DataListProps<T>['rowLabel']
  rowActions?: (row: T) => ReturnType<NonNullable<DataListProps<T>['rowActions']>>
  sort?: string
  order?: SortOrder
  onSort: (sort: string) => void
  expand?: (row: T) => ReactNode
}

const ariaSort = (active: boolean, order?: SortOrder) => (active ? (order === 'desc' ? 'descending' : 'ascending') : 'none')

function ListTable<T>({ caption, columns, items, rowKey, rowLabel, rowActions, sort, order, onSort, expand }: ListTableProps<T>) {
  const rows = useOpenRows()
  const detailPrefix = useId()
  const width = columns.length + (rowActions ? 1 : 0) + (expand ? 1 : 0)
  return (
    <Table hover className="vb-list-table align-middle mb-0">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {expand && (
            <th scope="col" className="vb-col-narrow">
              <span className="visually-hidden">Detalle</span>
            </th>
          )}
          {columns.map((column) => {
            const active = column.sortKey !== undefined && column.sortKey === sort
            return (
              <th
                key={column.id}
                scope="col"
                className={column.className}
                aria-sort={column.sortKey ? ariaSort(active, order) : undefined}
              >
                {column.sortKey ? (
                  <button type="button" className="vb-sort-button" onClick={() => onSort(column.sortKey as string)}>
                    {column.header}
                    <Icon
                      name={active ? (order === 'desc' ? 'sort-alpha-up-alt' : 'sort-alpha-down') : 'arrow-down-up'}
                      className={active ? 'ms-1' : 'ms-1 vb-sort-idle'}
                    />
                  </button>
                ) : (
                  column.header
                )}
              </th>
            )
          })}
          {rowActions && (
            <th scope="col" className="text-end vb-actions-col">
              Acciones
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {items.map((row) => {
          const key = rowKey(row)
          const open = rows.isOpen(key)
          const detailId = `${detailPrefix}-${String(key)}`
          return (
            <Fragment key={key}>
              <tr className={open ? 'vb-row-open' : undefined}>
                {expand && (
                  <td>
                    <ExpandToggle
                      open={open}
                      controls={detailId}
                      label={`Ver detalle: ${rowLabel(row)}`}
                      onToggle={() => rows.toggle(key)}
                    />
                  </td>
                )}
                {columns.map((column) => (
                  <td key={column.id} className={column.className}>
                    {column.cell(row)}
                  </td>
                ))}
                {rowActions && (
                  <td className="text-end">
                    <RowActionsMenu label={rowLabel(row)} actions={rowActions(row)} />
                  </td>
                )}
              </tr>
              {expand && (
                <tr id={detailId} className="vb-row-detail" hidden={!open}>
                  <td colSpan={width}>{open && expand(row)}</td>
                </tr>
              )}
            </Fragment>
          )
        })}
      </tbody>
    </Table>
  )
}

interface ListCardsProps<T> {
  columns: Column<T>[]
  items: T[]
  rowKey: DataListProps<T>['rowKey']
  rowLabel: DataListProps<T>['rowLabel']
  rowActions: (row: T) => ReturnType<NonNullable<DataListProps<T>['rowActions']>>
  expand?: (row: T) => ReactNode
}

/** Below 768 px each row is a card: its title, its media (a logo), its other columns as label and value. */
function ListCards<T>({ columns, items, rowKey, rowLabel, rowActions, expand }: ListCardsProps<T>) {
  const rows = useOpenRows()
  const detailPrefix = useId()
  const title = columns.find((c) => c.card === 'title')
  const media = columns.filter((c) => c.card === 'media')
  const fields = columns.filter((c) => (c.card ?? 'field') === 'field')
  return (
    <ul className="list-unstyled d-grid gap-2 mb-0 vb-list-cards">
      {items.map((row) => (
        <li key={rowKey(row)}>
          <Card className="vb-list-card">
            <Card.Body className="p-3">
              <div className="d-flex align-items-start gap-2">
                {media.map((c) => (
                  <div key={c.id} className="flex-shrink-0">
                    {c.cell(row)}
                  </div>
                ))}
                <div className="flex-grow-1 min-w-0">
                  <h2 className="h6 mb-1 text-break">{title ? title.cell(row) : rowLabel(row)}</h2>
                  {fields.length > 0 && (
                    <dl className="vb-card-fields mb-0">
                      {fields.map((c) => (
                        <div key={c.id}>
                          <dt className="text-body-secondary fw-normal">{c.header}</dt>
                          <dd className="mb-0 text-break">{c.cell(row)}</dd>
                        </div>
                      ))}
                    </dl>
                  )}
                  {expand && (
                    <>
                      <ExpandToggle
                        open={rows.isOpen(rowKey(row))}
                        controls={`${detailPrefix}-${String(rowKey(row))}`}
                        label={`Ver detalle: ${rowLabel(row)}`}
                        text="Ver detalle"
                        onToggle={() => rows.toggle(rowKey(row))}
                      />
                      <div
                        id={`${detailPrefix}-${String(rowKey(row))}`}
                        className="vb-card-detail"
                        hidden={!rows.isOpen(rowKey(row))}
                      >
                        {rows.isOpen(rowKey(row)) && expand(row)}
                      </div>
                    </>
                  )}
                </div>
                <RowActionsMenu label={rowLabel(row)} actions={rowActions(row)} />
              </div>
            </Card.Body>
          </Card>
        </li>
      ))}
    </ul>
  )
}

interface SortSelectProps<T> {
  columns: Column<T>[]
  sort?: string
  order?: SortOrder
  onChange: (sort: string | undefined, order: SortOrder | undefined) => void
}

/** On cards there are no headers to click: the same sorts, in a select. */
function SortSelect<T>({ columns, sort, order, onChange }: SortSelectProps<T>) {
  const id = useId()
  const sortable = columns.filter((c) => c.sortKey)
  if (sortable.length === 0) return null
  return (
    <div className="vb-list-sort">
      <Form.Label htmlFor={id} className="fw-semibold mb-1">
        Ordenar por
      </Form.Label>
      <Form.Select
        id={id}
        value={sort ? `${sort}:${order ?? 'asc'}` : ''}
        onChange={(e) => {
          const [s, o] = e.target.value.split(':')
          onChange(s || undefined, s ? (o as SortOrder) : undefined)
        }}
      >
        <option value="">Predeterminado</option>
        {sortable.flatMap((c) => [
          <option key={`${c.id}-asc`} value={`${c.sortKey}:asc`}>
            {c.header} {c.sortLabels?.asc ?? '(A-Z)'}
          </option>,
          <option key={`${c.id}-desc`} value={`${c.sortKey}:desc`}>
            {c.header} {c.sortLabels?.desc ?? '(Z-A)'}
          </option>,
        ])}
      </Form.Select>
    </div>
  )
}
