import { useQuery } from '@tanstack/react-query'
import type { Log, LogListItem, LogTipo } from '@vb/shared'
import { logMessages, logTipoLabels, logTipos, logTrabajadorNombre } from '@vb/shared/logs-core'
import { useState } from 'react'
import { Badge, Button, Card, Spinner, Table } from 'react-bootstrap'
import { useSearchParams } from 'react-router'
import { Icon } from '../../components/icon'
import { type Column, DATE_SORT_LABELS, DataList, type ListFilter, type ListParams } from '../../components/list'
import { useToast } from '../../components/toasts'
import { api } from '../../lib/api-client'
import { downloadFile } from '../../lib/download'
import { errorMessage } from '../../lib/form-errors'
import { formatDateTimeSeconds } from '../../lib/format'
import { searchTrabajadores, trabajadorPickerKey, useTrabajadorOption } from '../../lib/pickers'

/** SPEC §2.11: 'Todos', 25 (the default), 50, 75, 100. */
const PAGE_SIZES = { options: ['todos', 25, 50, 75, 100] as const, default: 25 }

const tipoVariant: Record<LogTipo, string> = { success: 'success', warning: 'warning', error: 'danger', info: 'info' }

function TipoBadge({ tipo }: { tipo: LogTipo }) {
  return (
    <Badge bg={`${tipoVariant[tipo]}-subtle`} text={`${tipoVariant[tipo]}-emphasis`} className="border">
      {logTipoLabels[tipo]}
    </Badge>
  )
}

const sinDato = (
  <>
    <span aria-hidden="true">—</span>
    <span className="visually-hidden">Ninguno</span>
  </>
)

/** SPEC §2.11's columns: Fecha, Trabajador (its name), Accion, URL, Vivienda (its name). */
const columns: Column<LogListItem>[] = [
  {
    id: 'fecha',
    header: 'Fecha',
    sortKey: 'fecha',
    sortLabels: DATE_SORT_LABELS,
    cell: (l) => <span className="text-nowrap">{formatDateTimeSeconds(l.fecha)}</span>,
  },
  { id: 'trabajador', header: 'Trabajador', cell: (l) => (l.trabajador ? logTrabajadorNombre(l.trabajador) : sinDato) },
  { id: 'accion', header: 'Accion', cell: (l) => l.accion, card: 'title' },
  { id: 'url', header: 'URL', cell: (l) => <span className="text-break font-monospace small">{l.url || '—'}</span> },
  { id: 'vivienda', header: 'Vivienda', cell: (l) => l.vivienda?.nombre ?? sinDato },
]

/** A value of a record before or after a change, as text. */
function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—'
  if (typeof value === 'boolean') return value ? 'Sí' : 'No'
  if (typeof value === 'string' || typeof value === 'number') return String(value)
  const text = JSON.stringify(value)
  return text.length > 400 ? `${text.slice(0, 400)}…` : text
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** DECISIONS L3: what a change did, field by field, with the changed ones marked. */
function Cambios({ antes, despues }: { antes: unknown; despues: unknown }) {
  const fields = [...new Set([...Object.keys(isRecord(antes) ? antes : {}), ...Object.keys(isRecord(despues) ? despues : {})])]
  const hasAntes = antes !== null && antes !== undefined
  const hasDespues = despues !== null && despues !== undefined
  if (!fields.length) {
    return <pre className="small mb-0 text-wrap">{shown(hasDespues ? despues : antes)}</pre>
  }
  return (
    <Table size="sm" bordered className="mb-0 small bg-body vb-log-cambios">
      <caption className="visually-hidden">Valores antes y después</caption>
      <thead>
        <tr>
          <th scope="col" className="text-nowrap">
            Campo
          </th>
          {hasAntes && <th scope="col">Antes</th>}
          {hasDespues && <th scope="col">Después</th>}
        </tr>
      </thead>
      <tbody>
        {fields.map((field) => {
          const before = isRecord(antes) ? antes[field] : undefined
          const after = isRecord(despues) ? despues[field] : undefined
          const changed = hasAntes && hasDespues && JSON.stringify(before) !== JSON.stringify(after)
          return (
            <tr key={field} className={changed ? 'table-warning' : undefined}>
              <th scope="row" className="fw-semibold text-nowrap">
                {field}
                {changed && <span className="visually-hidden"> (cambiado)</span>}
              </th>
              {hasAntes && <td className="text-break">{shown(before)}</td>}
              {hasDespues && <td className="text-break">{shown(after)}</td>}
            </tr>
          )
        })}
      </tbody>
    </Table>
  )
}

/**
 * The values before and after of an opened entry, read then (GET /api/logs/:id): a page lists only whether an entry
 * has them. An entry never changes (DECISIONS L2), so once read it is not asked for again.
 */
function CambiosDe({ id }: { id: number }) {
  const detalle = useQuery({
    queryKey: ['logs', 'detail', id],
    queryFn: () => api.get<Log>(`/logs/${id}`),
    staleTime: Number.POSITIVE_INFINITY,
  })
  if (detalle.isPending) {
    return (
      <p className="small text-body-secondary mb-0" role="status">
        <Spinner animation="border" size="sm" className="me-1" aria-hidden="true" />
        {logMessages.cargandoCambios}
      </p>
    )
  }
  if (detalle.isError) {
    return (
      <p className="small text-danger mb-0" role="alert">
        {logMessages.errorCambios}
      </p>
    )
  }
  const { antes, despues } = detalle.data
  return antes === null && despues === null ? null : <Cambios antes={antes} despues={despues} />
}

/** An entry opened: its type, description, worker's e-mail and the values before and after. */
function Detalle({ log }: { log: LogListItem }) {
  return (
    <div className="d-grid gap-2 py-1">
      <div className="d-flex flex-wrap gap-2 align-items-center">
        <TipoBadge tipo={log.tipo} />
        {log.trabajador?.email && <span className="small text-body-secondary">{log.trabajador.email}</span>}
      </div>
      <p className="mb-0">
        <span className="fw-semibold">Descripción: </span>
        {log.descripcion || '—'}
      </p>
      {log.cambios && <CambiosDe id={log.id} />}
    </div>
  )
}

/** The filters the CSV takes: those of the list, without its page and sort. */
function csvQuery({ page: _page, pageSize: _size, sort: _sort, order: _order, ...filters }: ListParams) {
  return filters
}

/** SPEC §2.11 'Descargar': logs.csv with every entry that matches the current filters, built by the server. */
function Descargar({ params }: { params: ListParams }) {
  const toast = useToast()
  const [busy, setBusy] = useState(false)
  const download = async () => {
    setBusy(true)
    try {
      await downloadFile('/logs/csv', csvQuery(params), 'logs.csv')
    } catch (err) {
      toast.error(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button variant="outline-primary" onClick={download} disabled={busy}>
      {busy ? (
        <Spinner animation="border" size="sm" className="me-1" aria-hidden="true" />
      ) : (
        <Icon name="download" className="me-1" />
      )}
      Descargar
    </Button>
  )
}

/**
 * SPEC §2.11 with DECISIONS L1-L3 and P1: the access log, newest first, filtered and paged by the server. Beyond
 * SPEC, for an operator investigating an incident: filters by worker, type and free text, and each entry opens
 * to its description and its values before and after.
 */
export function LogsPage() {
  const [search] = useSearchParams()
  // The workers the worker sees (the server scopes them, DECISIONS P1), searched by the server.
  const worker = useTrabajadorOption(Number(search.get('trabajadorId')) || null)
  const filters: ListFilter[] = [
    { key: 'desde', label: 'Desde', type: 'date' },
    { key: 'hasta', label: 'Hasta', type: 'date' },
    {
      key: 'trabajadorId',
      label: 'Trabajador',
      type: 'combobox',
      queryKey: trabajadorPickerKey,
      search: searchTrabajadores,
      current: worker,
    },
    { key: 'tipo', label: 'Tipo', type: 'select', options: logTipos.map((t) => ({ value: t, label: logTipoLabels[t] })) },
  ]
  return (
    <Card className="shadow-sm">
      <Card.Body className="p-2 p-sm-3">
        <DataList<LogListItem>
          queryKey={['logs', 'list']}
          fetcher={(params) => api.list<LogListItem>('/logs', params)}
          columns={columns}
          rowKey={(l) => l.id}
          rowLabel={(l) => `${l.accion}, ${formatDateTimeSeconds(l.fecha)}`}
          searchLabel="Buscar en acción y descripción"
          searchPlaceholder="Texto de la acción o la descripción"
          caption="Logs"
          emptyText={logMessages.vacio}
          loadErrorText={logMessages.errorCarga}
          defaultSort={{ sort: 'fecha', order: 'desc' }}
          filters={filters}
          pageSizes={PAGE_SIZES}
          expand={(l) => <Detalle log={l} />}
          toolbar={(params) => <Descargar params={params} />}
        />
      </Card.Body>
    </Card>
  )
}
