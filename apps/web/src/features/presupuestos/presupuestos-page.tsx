import type { Presupuesto, PresupuestoEstado } from '@vb/shared'
import { madridDay, madridTime } from '@vb/shared/dates'
import { formatMoney } from '@vb/shared/money'
import {
  presupuestoEstadoLabels,
  presupuestoEstados,
  presupuestoEstadoVariants,
  presupuestoMessages,
} from '@vb/shared/presupuestos-core'
import { Badge } from 'react-bootstrap'
import { useSearchParams } from 'react-router'
import type { z } from 'zod'
import { SelectField, TextField } from '../../components/form-fields'
import { type Column, DATE_SORT_LABELS } from '../../components/list'
import { Money } from '../../components/money'
import { RemoteComboboxField } from '../../components/remote-combobox-field'
import { CrudPage } from '../../components/resource/crud-page'
import { UploadField } from '../../components/upload-field'
import { formatDate, formatDateTime } from '../../lib/format'
import { schemaFrom } from '../../lib/loaded-schema'
import { searchViviendas, useViviendaOption, viviendaPickerKey } from '../../lib/pickers'
import { resourceClient } from '../../lib/resource'
import { useEmpresaId } from '../../lib/use-empresa'

/** What the form holds: the price as typed ('1250,50'), the planned date as the date-time input shows it. */
interface PresupuestoForm {
  descripcion: string
  precio: string
  fechaPrevista: string
  estado: PresupuestoEstado
  viviendaId: number
  archivoUrl: string | null
}

export const presupuestosResource = resourceClient<Presupuesto, PresupuestoForm>('presupuestos')

/**
 * The form's schema for the budget opened (null: a new one), loaded when the form first opens (the screen starts
 * without building it): the planned date is checked against today only when it changes (DECISIONS D6).
 */
const formSchema = (p: Presupuesto | null) =>
  schemaFrom(() =>
    import('@vb/shared/presupuestos').then(
      (m) =>
        m.presupuestoFormSchema(() => new Date(), p?.fechaPrevista ?? null) as unknown as z.ZodType<unknown, PresupuestoForm>,
    ),
  )

/** Signed file links last 5 minutes: the list is read again before they expire. */
const REFRESH_MS = 4 * 60_000

const estadoOptions = presupuestoEstados.map((e) => ({ value: e, label: presupuestoEstadoLabels[e] }))

/** The state as a coloured badge, and who changed it last (beyond SPEC: who approved a spend). */
function Estado({ p }: { p: Presupuesto }) {
  return (
    <div>
      <Badge bg={presupuestoEstadoVariants[p.estado]} text={p.estado === 'PENDIENTE_APROBACION' ? 'dark' : undefined}>
        {presupuestoEstadoLabels[p.estado]}
      </Badge>
      {p.estadoCambio && (
        <div className="small text-body-secondary mt-1">
          {p.estado === 'PENDIENTE_APROBACION' ? 'Devuelto a pendiente' : presupuestoEstadoLabels[p.estado]} por{' '}
          {p.estadoCambio.trabajador}, {formatDate(p.estadoCambio.fecha)}
        </div>
      )}
    </div>
  )
}

/** SPEC §2.13: 'Sin fecha', or the day (with its time on desktop). */
function FechaPrevista({ fecha }: { fecha: string | null }) {
  if (!fecha) return <span className="text-body-secondary">{presupuestoMessages.sinFecha}</span>
  return (
    <>
      <span className="d-none d-md-inline text-nowrap">{formatDateTime(fecha)}</span>
      <span className="d-md-none">{formatDate(fecha)}</span>
    </>
  )
}

function columns(conVivienda: boolean): Column<Presupuesto>[] {
  return [
    {
      id: 'descripcion',
      header: 'Descripción',
      sortKey: 'descripcion',
      cell: (p) => <span className="text-break">{p.descripcion}</span>,
      card: 'title',
    },
    ...(conVivienda ? [{ id: 'vivienda', header: 'Vivienda', cell: (p: Presupuesto) => p.vivienda.nombre }] : []),
    {
      id: 'precio',
      header: 'Precio',
      sortKey: 'precio',
      sortLabels: { asc: '(menor primero)', desc: '(mayor primero)' },
      cell: (p) => <Money value={p.precio} />,
      className: 'text-end',
    },
    {
      id: 'fechaPrevista',
      header: 'Fecha prevista',
      sortKey: 'fechaPrevista',
      sortLabels: DATE_SORT_LABELS,
      cell: (p) => <FechaPrevista fecha={p.fechaPrevista} />,
    },
    {
      id: 'estado',
      header: 'Estado',
      sortKey: 'estado',
      sortLabels: { asc: '(pendientes primero)', desc: '(realizados primero)' },
      cell: (p) => <Estado p={p} />,
    },
    {
      id: 'archivo',
      header: 'Archivo',
      cell: (p) =>
        p.archivo ? (
          <a href={p.archivo.url} target="_blank" rel="noopener noreferrer" aria-label={`Abrir el archivo de ${p.descripcion}`}>
            Abrir
          </a>
        ) : (
          <>
            <span aria-hidden="true">—</span>
            <span className="visually-hidden">Sin archivo</span>
          </>
        ),
    },
  ]
}

/** A budget as form values: the price with a decimal comma, the planned date as a Madrid date-time. */
const toValues = (p: Presupuesto): PresupuestoForm => ({
  descripcion: p.descripcion,
  precio: p.precio.replace('.', ','),
  fechaPrevista: p.fechaPrevista ? `${madridDay(p.fechaPrevista)}T${madridTime(p.fechaPrevista)}` : '',
  estado: p.estado,
  viviendaId: p.viviendaId,
  archivoUrl: p.archivoUrl,
})

/** SPEC §2.13 with DECISIONS A6, D1, D6: budgets per home, exact prices, a real file, who decided. */
export function PresupuestosPage() {
  const empresaId = useEmpresaId()
  const [search] = useSearchParams()
  const viviendaId = Number(search.get('viviendaId')) || null
  // The homes of the selected company (or all the worker's), searched by the server for the filter and the form.
  const home = useViviendaOption(viviendaId)
  const homes = { queryKey: viviendaPickerKey(empresaId), search: searchViviendas(empresaId) }

  return (
    <CrudPage<Presupuesto, PresupuestoForm>
      resource="presupuestos"
      client={presupuestosResource}
      filters={{ empresaId }}
      tableFrom="lg"
      listFilters={[
        {
          key: 'viviendaId',
          label: 'Vivienda',
          type: 'combobox',
          ...homes,
          current: home,
          placeholder: 'Todas las viviendas',
          keep: true,
        },
        { key: 'fecha', label: 'Fecha prevista', type: 'date' },
        { key: 'estado', label: 'Estado', type: 'select', options: estadoOptions, placeholder: 'Todos los estados' },
      ]}
      columns={columns(viviendaId === null)}
      rowLabel={(p) => `${p.descripcion} (${formatMoney(p.precio)})`}
      defaultSort={{ sort: 'fechaPrevista', order: 'asc' }}
      version={(p) => p.updatedAt}
      refreshMs={REFRESH_MS}
      newDisabled={viviendaId === null && 'Elige una vivienda para añadir un presupuesto.'}
      schema={formSchema}
      empty={{
        descripcion: '',
        precio: '',
        fechaPrevista: '',
        estado: 'PENDIENTE_APROBACION',
        viviendaId: viviendaId ?? undefined,
        archivoUrl: null,
      }}
      toValues={toValues}
      texts={{
        search: 'Buscar presupuesto',
        searchPlaceholder: 'Descripción',
        caption: 'Presupuestos',
        empty: presupuestoMessages.vacio,
        newButton: 'Nuevo Presupuesto',
        createTitle: 'Añadir Nuevo Presupuesto',
        editTitle: 'Modificar Presupuesto',
        createSubmit: 'Guardar',
        editSubmit: 'Guardar Cambios',
        deleteQuestion: (p) => `¿Seguro que quieres eliminar el presupuesto ${p.descripcion}?`,
        created: presupuestoMessages.creado,
        updated: presupuestoMessages.modificado,
        deleted: presupuestoMessages.eliminado,
      }}
      conflictField="descripcion"
      forbiddenField="viviendaId"
      fields={(form, p) => (
        <>
          <TextField form={form} name="descripcion" label="Descripción" rows={2} autoFocus />
          <TextField
            form={form}
            name="precio"
            label="Precio"
            inputMode="decimal"
            placeholder="1250,50"
            suffix="€"
            help="Mayor que 0, con hasta 2 decimales (coma o punto)."
          />
          <TextField form={form} name="fechaPrevista" label="Fecha prevista" type="datetime-local" />
          <SelectField form={form} name="estado" label="Estado" options={estadoOptions} />
          <RemoteComboboxField
            form={form}
            name="viviendaId"
            label="Vivienda"
            placeholder="Escribe para buscar una vivienda"
            {...homes}
            current={p ? { value: p.viviendaId, label: p.vivienda.nombre } : home}
          />
          <UploadField
            form={form}
            name="archivoUrl"
            label="Archivo (presupuesto o factura)"
            current={p?.archivo}
            emptyValue={null}
            help="Opcional: el presupuesto o la factura en PDF, Word, JPG o PNG, hasta 10 MB."
          />
        </>
      )}
    />
  )
}
