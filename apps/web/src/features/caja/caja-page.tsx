import { useQuery } from '@tanstack/react-query'
import type { MovimientoCajaCreate, MovimientoCajaListItem, UsuarioFicha } from '@vb/shared'
import { CAJA_HEADERS, cajaMessages } from '@vb/shared/caja-core'
import { lastFullMonth, madridDay } from '@vb/shared/dates'
import { formatMoney } from '@vb/shared/money'
import { useState } from 'react'
import { Button, Spinner } from 'react-bootstrap'
import { useSearchParams } from 'react-router'
import type { z } from 'zod'
import { TextField } from '../../components/form-fields'
import { Icon } from '../../components/icon'
import { type Column, DATE_SORT_LABELS } from '../../components/list'
import { Money } from '../../components/money'
import { CrudPage } from '../../components/resource/crud-page'
import { useToast } from '../../components/toasts'
import { UploadField } from '../../components/upload-field'
import { FichaGate } from '../../components/usuario-ficha'
import { api } from '../../lib/api-client'
import { errorMessage } from '../../lib/form-errors'
import { formatDate, formatDateMedium } from '../../lib/format'
import { schemaFrom } from '../../lib/loaded-schema'
import { resourceClient } from '../../lib/resource'

export const cajaResource = resourceClient<MovimientoCajaListItem, MovimientoCajaCreate>('caja-usuario')

/** The form's schema, loaded when the form first opens (the screen starts without building it). */
const formSchema = schemaFrom(() =>
  import('@vb/shared/caja').then((m) => m.movimientoCajaCreateSchema as unknown as z.ZodType<unknown, MovimientoCajaCreate>),
)

/** SPEC §9: success toasts on cash last 2.5 s. */
const TOAST_MS = 2500
/** Receipts' signed links last 5 minutes: the list is read again before they expire. */
const REFRESH_MS = 4 * 60_000

/** An amount in euros, green at or above 0 and red below (SPEC §2.15), with its sign. */
const Amount = Money

const columns: Column<MovimientoCajaListItem>[] = [
  {
    id: 'fecha',
    header: 'Fecha',
    sortKey: 'fecha',
    sortLabels: DATE_SORT_LABELS,
    cell: (m) => formatDateMedium(m.fecha),
    className: 'text-nowrap',
  },
  { id: 'concepto', header: 'Concepto', cell: (m) => <span className="text-break">{m.concepto}</span>, card: 'title' },
  { id: 'cantidad', header: 'Cantidad', cell: (m) => <Amount value={m.cantidad} signed />, className: 'text-end' },
  { id: 'saldo', header: 'Saldo', cell: (m) => <Amount value={m.saldo} />, className: 'text-end' },
  {
    id: 'justificante',
    header: 'Justificante',
    cell: (m) =>
      m.justificante ? (
        <a href={m.justificante.url} target="_blank" rel="noopener noreferrer" aria-label={`Justificante de ${m.concepto}`}>
          <Icon name="paperclip" />
          <span className="ms-1 d-md-none">Ver</span>
        </a>
      ) : (
        <>
          <span className="text-body-secondary" aria-hidden="true">
            —
          </span>
          <span className="visually-hidden">Sin justificante</span>
        </>
      ),
    className: 'text-center',
  },
]

/** The resident's whole balance ('Saldo: {sum} €'): the X-Saldo of the ledger, summed by the database. */
function useSaldo(usuarioId: number) {
  return useQuery({
    queryKey: [...cajaResource.key, 'saldo', usuarioId],
    queryFn: async () => (await cajaResource.list({ usuarioId, pageSize: 1 })).headers?.get(CAJA_HEADERS.saldo) ?? '0.00',
  })
}

function CajaHeader({ ficha }: { ficha: UsuarioFicha }) {
  const saldo = useSaldo(ficha.id)
  return (
    <div className="d-flex flex-wrap align-items-baseline gap-2 gap-md-4 mb-3">
      <h2 className="h4 mb-0 text-break">Caja de: {ficha.nombreCompleto}</h2>
      <p className="h5 mb-0" aria-live="polite" data-testid="saldo">
        Saldo: {saldo.data !== undefined ? <Money value={saldo.data} /> : <span className="text-body-secondary">…</span>}
      </p>
    </div>
  )
}

/** With desde / hasta: the balance before the range and at its end (DECISIONS D7). */
function RangeSummary({ headers }: { headers?: Headers }) {
  const [search] = useSearchParams()
  const desde = search.get('desde')
  const hasta = search.get('hasta')
  const inicial = headers?.get(CAJA_HEADERS.saldoInicial)
  const final = headers?.get(CAJA_HEADERS.saldoFinal)
  if ((!desde && !hasta) || !inicial || !final) return null
  return (
    <dl className="d-flex flex-wrap gap-3 gap-md-5 border rounded bg-body-tertiary px-3 py-2 mb-3 vb-caja-rango">
      <div>
        <dt className="fw-normal text-body-secondary small">
          Saldo inicial{desde ? ` (antes del ${formatDate(`${desde}T12:00:00Z`)})` : ''}
        </dt>
        <dd className="mb-0">
          <Amount value={inicial} />
        </dd>
      </div>
      <div>
        <dt className="fw-normal text-body-secondary small">
          Saldo final{hasta ? ` (al ${formatDate(`${hasta}T12:00:00Z`)})` : ''}
        </dt>
        <dd className="mb-0">
          <Amount value={final} />
        </dd>
      </div>
    </dl>
  )
}

/** 'Descargar extracto': the PDF statement of the chosen range, or of the last full month. */
function ExtractoButton({ ficha }: { ficha: UsuarioFicha }) {
  const [search] = useSearchParams()
  const [busy, setBusy] = useState(false)
  const toast = useToast()
  const desde = search.get('desde') ?? undefined
  const hasta = search.get('hasta') ?? undefined
  const month = lastFullMonth(new Date())
  const range = desde || hasta ? { desde, hasta } : month
  const description =
    desde || hasta
      ? `Extracto ${desde ? `desde el ${formatDate(`${desde}T12:00:00Z`)}` : ''} ${hasta ? `hasta el ${formatDate(`${hasta}T12:00:00Z`)}` : ''}`.trim()
      : `Extracto del último mes completo (${formatDate(`${month.desde}T12:00:00Z`)} – ${formatDate(`${month.hasta}T12:00:00Z`)})`
  const download = async () => {
    setBusy(true)
    try {
      const file = await api.download('/caja-usuario/extracto', { usuarioId: ficha.id, ...range })
      const url = URL.createObjectURL(file.blob)
      const link = document.createElement('a')
      link.href = url
      link.download = file.filename ?? `extracto-${ficha.nif}.pdf`
      document.body.append(link)
      link.click()
      link.remove()
      window.setTimeout(() => URL.revokeObjectURL(url), 10_000)
    } catch (err) {
      toast.error(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button variant="outline-secondary" onClick={download} disabled={busy} title={description}>
      {busy ? (
        <Spinner animation="border" size="sm" className="me-1" aria-hidden="true" />
      ) : (
        <Icon name="file-earmark-pdf" className="me-1" />
      )}
      Descargar extracto
    </Button>
  )
}

/** SPEC §2.15 with DECISIONS A6, D7, L3: a resident's cash ledger, exact to the cent. */
export function CajaPage() {
  return (
    <FichaGate loadError={cajaMessages.errorCarga} heading={(name) => `Caja de: ${name}`}>
      {(ficha) => <Caja ficha={ficha} />}
    </FichaGate>
  )
}

function Caja({ ficha }: { ficha: UsuarioFicha }) {
  return (
    <CrudPage<MovimientoCajaListItem, MovimientoCajaCreate>
      resource="caja-usuario"
      client={cajaResource}
      filters={{ usuarioId: ficha.id }}
      searchable={false}
      listFilters={[
        { key: 'desde', label: 'Desde', type: 'date' },
        { key: 'hasta', label: 'Hasta', type: 'date' },
      ]}
      summary={(page) => <RangeSummary headers={page?.headers} />}
      columns={columns}
      rowLabel={(m) => `${m.concepto} (${formatMoney(m.cantidad)})`}
      defaultSort={{ sort: 'fecha', order: 'desc' }}
      version={(m) => m.updatedAt}
      toastMs={TOAST_MS}
      refreshMs={REFRESH_MS}
      header={() => <CajaHeader ficha={ficha} />}
      toolbar={<ExtractoButton ficha={ficha} />}
      // The form keeps the date as the day the input shows (YYYY-MM-DD); the schema turns it into the instant.
      schema={formSchema}
      empty={{ concepto: '', cantidad: '', fecha: madridDay(new Date()), usuarioId: ficha.id, justificanteUrl: null }}
      toValues={(m) => ({
        concepto: m.concepto,
        // es-ES: a decimal comma (the schema takes comma or dot).
        cantidad: m.cantidad.replace('.', ','),
        fecha: madridDay(m.fecha),
        usuarioId: m.usuarioId,
        justificanteUrl: m.justificanteUrl,
      })}
      texts={{
        search: 'Movimientos',
        caption: 'Movimientos de caja',
        empty: cajaMessages.vacio,
        loadError: cajaMessages.errorCarga,
        newButton: 'Nuevo Movimiento',
        createTitle: 'Nuevo Movimiento',
        editTitle: 'Editar Movimiento',
        // SPEC's client deleted without asking; this is money, so it asks.
        deleteQuestion: (m) => `¿Seguro que quieres eliminar el movimiento «${m.concepto}» de ${formatMoney(m.cantidad)}?`,
        created: cajaMessages.creado,
        updated: cajaMessages.actualizado,
        deleted: cajaMessages.eliminado,
        createError: cajaMessages.errorCrear,
        updateError: cajaMessages.errorActualizar,
        deleteError: cajaMessages.errorEliminar,
        editAction: 'Editar',
        createSubmit: 'Guardar',
        editSubmit: 'Guardar cambios',
      }}
      fields={(form, m) => (
        <>
          <TextField form={form} name="concepto" label="Concepto" autoFocus />
          <TextField
            form={form}
            name="cantidad"
            label="Cantidad (€)"
            inputMode="decimal"
            placeholder="-12,50"
            help="Positiva para un ingreso, negativa para un gasto. Hasta 2 decimales."
          />
          <TextField form={form} name="fecha" label="Fecha" type="date" />
          <UploadField
            form={form}
            name="justificanteUrl"
            label="Justificante"
            current={m?.justificante}
            emptyValue={null}
            help="Opcional: una foto o un PDF del recibo (JPG, PNG o PDF, hasta 10 MB)."
          />
        </>
      )}
    />
  )
}
