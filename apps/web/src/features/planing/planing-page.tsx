import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query'
import type { CalendarioDia, Empresa, PlaningTarea, PlaningTareaForm, Usuario } from '@vb/shared'
import { madridDay, madridTime } from '@vb/shared/dates'
import { MAX_PAGE_SIZE } from '@vb/shared/list-core'
import { can } from '@vb/shared/permissions'
import { planingColor, planingMessages, TODOS, usuarioColor } from '@vb/shared/planing-core'
import { useId, useState } from 'react'
import { Alert, Button, Card, Form, Modal } from 'react-bootstrap'
import { type UseFormReturn, useWatch } from 'react-hook-form'
import type { z } from 'zod'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { SelectField, TextField } from '../../components/form-fields'
import { FormModal } from '../../components/form-modal'
import { Icon } from '../../components/icon'
import { ListPagination } from '../../components/list/list-pagination'
import { useMediaQuery, WIDE_QUERY } from '../../components/list/use-media-query'
import { COMBOBOX_DEBOUNCE_MS } from '../../components/remote-combobox-field'
import { useResourceForm } from '../../components/resource/use-resource-form'
import { useToast } from '../../components/toasts'
import { useModalState } from '../../components/use-modal-state'
import { useSettled } from '../../components/use-settled'
import { api } from '../../lib/api-client'
import { errorMessage } from '../../lib/form-errors'
import { formatCount } from '../../lib/format'
import { schemaFrom } from '../../lib/loaded-schema'
import { resourceClient, useResourceMutations } from '../../lib/resource'
import { NOTIFICACION_EVENT } from '../../lib/session'
import { useEmpresaId } from '../../lib/use-empresa'
import { useQueryParams } from '../../lib/use-query-params'
import { useTrabajador } from '../../lib/use-session'
import { useShownData } from '../../lib/use-shown-data'
import {
  dayTitle,
  type GridCell,
  gridRange,
  monthGrid,
  monthOf,
  monthTitle,
  parseMonth,
  shiftMonth,
  WEEKDAYS,
  WEEKDAYS_SHORT,
} from './month-grid'
import './planing.css'

/** A resident as a task names it. */
type Persona = PlaningTarea['usuarios'][number]

/** The form's schema, loaded when the form first opens (the screen starts without building it). */
const formSchema = schemaFrom(() =>
  import('@vb/shared/planing').then((m) => m.planingTareaCreateSchema as unknown as z.ZodType<unknown, PlaningTareaForm>),
)

export const planingResource = resourceClient<PlaningTarea, PlaningTareaForm>('planing-tareas')

/** Residents the form's choice shows at once: the first by surname, or those matching what is typed. */
const RESIDENTES_PAGE = 100

/**
 * The residents of the task's company (DECISIONS D4) for the form's choice, searched by the server: a company
 * of a large operator has thousands, and only a page of them is ever read.
 */
function useResidentes(empresaId: number | undefined, q: string) {
  return useQuery({
    queryKey: ['usuarios', 'planing', { empresaId, q }],
    queryFn: () =>
      api.list<Usuario>('/usuarios', {
        empresaId,
        q: q || undefined,
        pageSize: RESIDENTES_PAGE,
        sort: 'apellidos',
        order: 'asc',
      }),
    enabled: empresaId !== undefined,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  })
}

/** `items` in runs of `size`. */
const chunks = <T,>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

/** The worker's companies, when no company is chosen in the top bar and the task needs one. */
function useEmpresas(enabled: boolean) {
  return useQuery({
    queryKey: ['empresas', 'planing'],
    queryFn: () => api.get<Empresa[]>('/empresas', { pageSize: 100, sort: 'nombre', order: 'asc' }),
    enabled,
    staleTime: 60_000,
  })
}

const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`

const personas = (t: PlaningTarea) =>
  t.todos ? 'Todos los usuarios' : t.usuarios.map((u) => `${u.nombre} ${u.apellidos}`).join(', ')

/** A task in its day: its time and title on its resident's colour (black for everyone). */
function TaskChip({ tarea, onOpen, wide }: { tarea: PlaningTarea; onOpen: (t: PlaningTarea) => void; wide?: boolean }) {
  return (
    <button
      type="button"
      className={`vb-chip${wide ? ' vb-chip-wide' : ''}`}
      style={{ backgroundColor: planingColor(tarea) }}
      title={`${madridTime(tarea.fecha)} ${tarea.titulo} · ${personas(tarea)}`}
      onClick={() => onOpen(tarea)}
    >
      <span className="vb-chip-hora">{madridTime(tarea.fecha)}</span> {tarea.titulo}
      {wide && <span className="vb-chip-personas">{personas(tarea)}</span>}
    </button>
  )
}

function MoreButton({ dia, onDay }: { dia: CalendarioDia; onDay: (day: string) => void }) {
  const more = dia.total - dia.tareas.length
  if (more <= 0) return null
  return (
    <button
      type="button"
      className="btn btn-link btn-sm p-0 vb-more"
      aria-label={`+${more} más: ver las ${dia.total} tareas del ${dayTitle(dia.dia)}`}
      onClick={() => onDay(dia.dia)}
    >
      +{more} más
    </button>
  )
}

/** SPEC §2.9: the 42-cell month, Monday first, today marked, other months' days dimmed. */
function MonthTable({
  month,
  cells,
  days,
  onOpen,
  onDay,
}: {
  month: string
  cells: GridCell[]
  days: Map<string, CalendarioDia>
  onOpen: (t: PlaningTarea) => void
  onDay: (day: string) => void
}) {
  const weeks = Array.from({ length: 6 }, (_, w) => cells.slice(w * 7, w * 7 + 7))
  return (
    <table className="vb-calendar">
      <caption className="visually-hidden">{monthTitle(month)}</caption>
      <thead>
        <tr>
          {WEEKDAYS.map((d, i) => (
            <th key={d} scope="col" abbr={d}>
              <span aria-hidden="true" className="d-xl-none">
                {WEEKDAYS_SHORT[i]}
              </span>
              <span className="d-none d-xl-inline text-capitalize">{d}</span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => (
          <tr key={week[0]?.dia}>
            {week.map((c) => {
              const dia = days.get(c.dia)
              return (
                <td
                  key={c.dia}
                  className={`${c.delMes ? '' : 'vb-otro-mes'}${c.hoy ? ' vb-hoy' : ''}`}
                  aria-current={c.hoy ? 'date' : undefined}
                  data-dia={c.dia}
                >
                  <div className="vb-dia-numero">
                    <span className="visually-hidden">{dayTitle(c.dia)}</span>
                    <span aria-hidden="true">{c.numero}</span>
                  </div>
                  {dia && (
                    <ul className="list-unstyled mb-0 d-grid gap-1">
                      {dia.tareas.map((t) => (
                        <li key={t.id}>
                          <TaskChip tarea={t} onOpen={onOpen} />
                        </li>
                      ))}
                    </ul>
                  )}
                  {dia && <MoreButton dia={dia} onDay={onDay} />}
                </td>
              )
            })}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** Below 768 px the 42 cells do not fit: the days of the month that have tasks, as an agenda. */
function Agenda({
  month,
  days,
  today,
  onOpen,
  onDay,
}: {
  month: string
  days: CalendarioDia[]
  today: string
  onOpen: (t: PlaningTarea) => void
  onDay: (day: string) => void
}) {
  const own = days.filter((d) => monthOf(d.dia) === month)
  if (!own.length) return <p className="text-body-secondary my-4">No hay tareas este mes.</p>
  return (
    <ol className="list-unstyled mb-0 d-grid gap-3 vb-agenda" aria-label={`Agenda de ${monthTitle(month)}`}>
      {own.map((d) => (
        <li key={d.dia} aria-current={d.dia === today ? 'date' : undefined}>
          <h3 className={`h6 mb-2${d.dia === today ? ' vb-agenda-hoy' : ''}`}>
            {capitalized(dayTitle(d.dia))}
            {d.dia === today && <span className="badge text-bg-primary ms-2">Hoy</span>}
          </h3>
          <ul className="list-unstyled mb-0 d-grid gap-1">
            {d.tareas.map((t) => (
              <li key={t.id}>
                <TaskChip tarea={t} onOpen={onOpen} wide />
              </li>
            ))}
          </ul>
          <MoreButton dia={d} onDay={onDay} />
        </li>
      ))}
    </ol>
  )
}

/**
 * SPEC §5 Calendar task: the residents' choice, with 'Todos los usuarios' ('all', DECISIONS D4). The company's
 * residents are searched by the server (the first 100 by surname until something is typed); the ones chosen stay
 * listed, ticked, whatever the search shows.
 */
function UsuariosField({
  form,
  empresaId,
  known,
}: {
  form: UseFormReturn<PlaningTareaForm, unknown, PlaningTareaForm>
  empresaId?: number
  /** The residents the task already has (editing), so that they are named before any search finds them. */
  known: Persona[]
}) {
  const id = useId()
  const [term, setTerm] = useState('')
  const q = useSettled(term.trim(), COMBOBOX_DEBOUNCE_MS)
  const residentes = useResidentes(empresaId, q)
  const [names, setNames] = useState(() => new Map(known.map((u) => [u.id, u])))
  const value = useWatch({ control: form.control, name: 'usuarioIds' })
  const { error } = form.getFieldState('usuarioIds', form.formState)
  const todos = value === TODOS
  const chosen = Array.isArray(value) ? value : []
  const set = (next: number[] | typeof TODOS) => {
    form.setValue('usuarioIds', next, { shouldDirty: true })
    form.clearErrors('usuarioIds')
  }
  const found = residentes.data?.items ?? []
  const total = residentes.data?.total ?? 0
  const shown = new Set(found.map((u) => u.id))
  // Chosen residents that neither this list nor the task names: a form given back after a login (lib/drafts.ts)
  // with residents found by a search. They are read by their ids (a hundred a request), so that each is named by
  // its name rather than by its number.
  const unnamed = todos ? [] : chosen.filter((c) => !shown.has(c) && !names.has(c))
  const read = useQueries({
    queries: chunks(unnamed, MAX_PAGE_SIZE).map((ids) => ({
      queryKey: ['usuarios', 'planing', 'ids', ids],
      queryFn: () => api.list<Usuario>('/usuarios', { ids: ids.join(','), pageSize: ids.length }),
      staleTime: 30_000,
    })),
  })
  const readNames = new Map(read.flatMap((r) => r.data?.items.map((u) => [u.id, u] as const) ?? []))
  const apart = todos
    ? []
    : chosen
        .filter((c) => !shown.has(c))
        .map((c) => names.get(c) ?? readNames.get(c) ?? { id: c, nombre: `Usuario ${c}`, apellidos: '' })
  const option = (u: Persona) => (
    <Form.Check
      key={u.id}
      id={`${id}-${u.id}`}
      type="checkbox"
      disabled={todos}
      checked={todos || chosen.includes(u.id)}
      onChange={(e) => {
        if (e.target.checked) setNames((m) => new Map(m).set(u.id, u))
        set(e.target.checked ? [...chosen, u.id] : chosen.filter((x) => x !== u.id))
      }}
      label={
        <>
          <span className="vb-swatch" style={{ backgroundColor: usuarioColor(u.id) }} aria-hidden="true" />
          {u.nombre} {u.apellidos}
        </>
      }
    />
  )
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="form-label fs-6 mb-1">Usuarios</legend>
      {empresaId === undefined ? (
        <p className="small text-body-secondary mb-0">Elige antes la empresa.</p>
      ) : residentes.isPending ? (
        <p className="small text-body-secondary mb-0">Cargando...</p>
      ) : residentes.isError && !residentes.data ? (
        <p className="small text-danger mb-0">{errorMessage(residentes.error)}</p>
      ) : (
        <>
          {!todos && (total > 0 || term !== '') && (
            <Form.Control
              type="search"
              size="sm"
              className="mb-1"
              placeholder="Buscar usuario por nombre, apellidos o NIF"
              aria-label="Buscar usuario"
              value={term}
              onChange={(e) => setTerm(e.target.value)}
            />
          )}
          <div className="vb-usuarios border rounded px-2 py-1">
            <Form.Check
              id={`${id}-todos`}
              type="checkbox"
              label={<strong>Todos los usuarios</strong>}
              checked={todos}
              onChange={(e) => set(e.target.checked ? TODOS : [])}
            />
            {apart.map(option)}
            {found.map(option)}
            {!todos && found.length === 0 && (
              <p className="small text-body-secondary mb-1">
                {q ? 'Ningún usuario coincide con la búsqueda.' : 'La empresa no tiene usuarios.'}
              </p>
            )}
          </div>
          {!todos && total > found.length && (
            <p className="small text-body-secondary mb-0 mt-1" aria-live="polite">
              Se muestran {found.length} de{' '}
              {residentes.data?.exact === false ? `más de ${formatCount(total - 1)}` : formatCount(total)}: busca para encontrar a
              los demás.
            </p>
          )}
        </>
      )}
      {error?.message && (
        <div id={`${id}-error`} className="invalid-feedback d-block">
          {error.message}
        </div>
      )}
    </fieldset>
  )
}

/** The task modal's view mode (SPEC §2.9): description, time, users and notifiable Sí/No. */
function TaskView({
  tarea,
  onClose,
  onEdit,
  onDelete,
  canEdit,
  canDelete,
}: {
  tarea: PlaningTarea | null
  onClose: () => void
  onEdit: () => void
  onDelete: () => void
  canEdit: boolean
  canDelete: boolean
}) {
  const titleId = useId()
  return (
    <Modal show={tarea !== null} onHide={onClose} centered aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Cerrar">
        <Modal.Title id={titleId} as="h2" className="h5 d-flex align-items-center gap-2">
          {tarea && <span className="vb-swatch" style={{ backgroundColor: planingColor(tarea) }} aria-hidden="true" />}
          {tarea?.titulo}
        </Modal.Title>
      </Modal.Header>
      {tarea && (
        <Modal.Body>
          <dl className="vb-card-fields mb-0">
            <div>
              <dt className="text-body-secondary fw-normal">Descripción</dt>
              <dd className="mb-0 text-break">{tarea.descripcion}</dd>
            </div>
            <div>
              <dt className="text-body-secondary fw-normal">Fecha</dt>
              <dd className="mb-0">{capitalized(dayTitle(madridDay(tarea.fecha), true))}</dd>
            </div>
            <div>
              <dt className="text-body-secondary fw-normal">Hora</dt>
              <dd className="mb-0">{madridTime(tarea.fecha)}</dd>
            </div>
            <div>
              <dt className="text-body-secondary fw-normal">Usuarios</dt>
              <dd className="mb-0">{personas(tarea)}</dd>
            </div>
            <div>
              <dt className="text-body-secondary fw-normal">Notificable</dt>
              <dd className="mb-0">{tarea.notificable ? 'Sí' : 'No'}</dd>
            </div>
          </dl>
        </Modal.Body>
      )}
      <Modal.Footer>
        {canDelete && (
          <Button variant="outline-danger" className="me-auto" onClick={onDelete}>
            <Icon name="trash" className="me-1" />
            Eliminar
          </Button>
        )}
        <Button variant="outline-secondary" onClick={onClose}>
          Cerrar
        </Button>
        {canEdit && (
          <Button onClick={onEdit}>
            <Icon name="pencil" className="me-1" />
            Editar
          </Button>
        )}
      </Modal.Footer>
    </Modal>
  )
}

/** The tasks of one day (the '+N más' of a cell), read from the server page by page. */
function DayModal({
  day,
  empresaId,
  onClose,
  onOpen,
}: {
  day: string | null
  empresaId: number | null
  onClose: () => void
  onOpen: (t: PlaningTarea) => void
}) {
  const titleId = useId()
  const [page, setPage] = useState(1)
  const pageSize = 20
  const list = useQuery({
    queryKey: [...planingResource.key, 'dia', { day, empresaId, page }],
    queryFn: () => planingResource.list({ fecha: day, empresaId, page, pageSize, sort: 'fecha', order: 'asc' }),
    enabled: day !== null,
    placeholderData: keepPreviousData,
  })
  return (
    <Modal show={day !== null} onHide={onClose} centered scrollable aria-labelledby={titleId} onExited={() => setPage(1)}>
      <Modal.Header closeButton closeLabel="Cerrar">
        <Modal.Title id={titleId} as="h2" className="h5">
          {day ? capitalized(dayTitle(day, true)) : ''}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {list.isPending ? (
          <p role="status">Cargando...</p>
        ) : list.data?.items.length ? (
          <>
            <ul className="list-unstyled d-grid gap-1 mb-3">
              {list.data.items.map((t) => (
                <li key={t.id}>
                  <TaskChip tarea={t} onOpen={onOpen} wide />
                </li>
              ))}
            </ul>
            <ListPagination
              page={page}
              pageSize={pageSize}
              total={list.data.total}
              exact={list.data.exact}
              shown={list.data.items.length}
              onPage={setPage}
            />
          </>
        ) : (
          <p className="text-body-secondary mb-0">No hay tareas este día.</p>
        )}
      </Modal.Body>
    </Modal>
  )
}

/** SPEC §2.9 with DECISIONS D1, D4: the monthly task calendar of the selected company's residents. */
export function PlaningPage() {
  const trabajador = useTrabajador()
  const empresaId = useEmpresaId()
  const toast = useToast()
  const wide = useMediaQuery(WIDE_QUERY)
  const [search, change] = useQueryParams()
  const today = madridDay(new Date())
  const dayParam = search.get('dia')
  const month =
    parseMonth(search.get('mes')) ?? (dayParam && /^\d{4}-\d{2}-\d{2}$/.test(dayParam) ? monthOf(dayParam) : monthOf(today))
  const cells = monthGrid(month, today)
  const range = gridRange(month)
  const goTo = (m: string) => change({ mes: m === monthOf(today) ? null : m, dia: null })

  // The server sends the visible days only, each with its first tasks (never the whole table).
  const calendario = useQuery({
    queryKey: [...planingResource.key, 'calendario', { ...range, empresaId }],
    queryFn: () => api.get<CalendarioDia[]>('/planing-tareas/calendario', { ...range, empresaId }),
    placeholderData: keepPreviousData,
  })
  const { shown, catchingUp } = useShownData(calendario.data)
  const days = new Map((shown ?? []).map((d) => [d.dia, d]))

  const viendo = useModalState<PlaningTarea>()
  const editando = useModalState<PlaningTarea | null>()
  const borrando = useModalState<PlaningTarea>()
  const { create, update, remove } = useResourceMutations(planingResource)
  const record = editando.data
  const needsEmpresa = empresaId === null && !record
  const empresas = useEmpresas(editando.show && needsEmpresa)
  const { form, formError, submit, dirty, recovered } = useResourceForm<PlaningTareaForm>({
    schema: formSchema,
    empty: {
      titulo: '',
      descripcion: '',
      fecha: dayParam ?? today,
      hora: '',
      notificable: false,
      usuarioIds: [],
      empresaId: empresaId ?? trabajador?.empresas[0]?.id,
    },
    values: record
      ? {
          titulo: record.titulo,
          descripcion: record.descripcion,
          fecha: madridDay(record.fecha),
          hora: madridTime(record.fecha),
          notificable: record.notificable,
          usuarioIds: record.todos ? TODOS : record.usuarios.map((u) => u.id),
          empresaId: record.empresaId ?? undefined,
        }
      : null,
    show: editando.show,
    keep: { name: 'planing-tareas', record, reopen: (t: PlaningTarea | null) => editando.open(t) },
  })
  const formEmpresa = useWatch({ control: form.control, name: 'empresaId' })
  const save = submit(async () => {
    // What the inputs hold (the day and the time apart), not the schema's output (the instant): the API
    // checks the same rules again and needs the time as typed.
    const values = form.getValues()
    if (record) {
      const { empresaId: _e, ...body } = values
      await update.mutateAsync({ id: record.id, body, options: { ifMatch: record.updatedAt } })
      toast.success(planingMessages.modificada)
    } else {
      await create.mutateAsync(values)
      toast.success(planingMessages.creada)
    }
    // A notifiable task gave its creator a notification: the bell reads it at once.
    if (values.notificable) window.dispatchEvent(new Event(NOTIFICACION_EVENT))
    editando.close()
  })
  const confirmDelete = () => {
    const tarea = borrando.data
    if (!tarea) return
    remove.mutate(
      { id: tarea.id },
      {
        onSuccess: () => toast.success(planingMessages.eliminada),
        onError: (err) => toast.error(errorMessage(err)),
        onSettled: borrando.close,
      },
    )
  }
  const open = (t: PlaningTarea) => viendo.open(t)

  return (
    <Card className="shadow-sm border-0">
      <Card.Body className="p-2 p-sm-3 p-md-4">
        <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
          <h2 className="h4 mb-0 me-auto" aria-live="polite">
            {monthTitle(month)}
          </h2>
          <div className="d-flex gap-1">
            <Button variant="outline-secondary" aria-label="Mes anterior" onClick={() => goTo(shiftMonth(month, -1))}>
              <Icon name="chevron-left" />
            </Button>
            <Button variant="outline-secondary" onClick={() => goTo(monthOf(today))} disabled={month === monthOf(today)}>
              Hoy
            </Button>
            <Button variant="outline-secondary" aria-label="Mes siguiente" onClick={() => goTo(shiftMonth(month, 1))}>
              <Icon name="chevron-right" />
            </Button>
          </div>
          {can(trabajador, 'planing-tareas', 'create') && (
            <Button onClick={() => editando.open(null)}>
              <Icon name="plus-lg" className="me-1" />
              Nueva tarea
            </Button>
          )}
        </div>
        {calendario.isError && !calendario.data && <Alert variant="danger">{errorMessage(calendario.error)}</Alert>}
        {calendario.isPending || (catchingUp && !shown) ? (
          <p role="status" className="text-body-secondary my-4">
            Cargando...
          </p>
        ) : (
          <div
            className={calendario.isPlaceholderData || catchingUp ? 'vb-list-stale' : undefined}
            aria-busy={calendario.isFetching || catchingUp}
          >
            {wide ? (
              <MonthTable month={month} cells={cells} days={days} onOpen={open} onDay={(d) => change({ dia: d })} />
            ) : (
              <Agenda month={month} days={shown ?? []} today={today} onOpen={open} onDay={(d) => change({ dia: d })} />
            )}
          </div>
        )}
      </Card.Body>

      <DayModal
        day={dayParam && /^\d{4}-\d{2}-\d{2}$/.test(dayParam) && !viendo.show && !editando.show ? dayParam : null}
        empresaId={empresaId}
        onClose={() => change({ dia: null })}
        onOpen={open}
      />
      <TaskView
        tarea={viendo.show ? viendo.data : null}
        onClose={viendo.close}
        canEdit={can(trabajador, 'planing-tareas', 'update')}
        canDelete={can(trabajador, 'planing-tareas', 'delete')}
        onEdit={() => {
          viendo.close()
          editando.open(viendo.data)
        }}
        onDelete={() => {
          viendo.close()
          if (viendo.data) borrando.open(viendo.data)
        }}
      />
      <FormModal
        show={editando.show}
        title={record ? 'Modificar Tarea' : 'Nueva Tarea'}
        onHide={editando.close}
        onSubmit={save}
        submitting={form.formState.isSubmitting}
        submitLabel={record ? 'Guardar cambios' : 'Guardar'}
        dirty={dirty}
        error={formError}
        recovered={recovered}
      >
        <TextField form={form} name="titulo" label="Título" autoFocus />
        <TextField form={form} name="descripcion" label="Descripción" rows={2} />
        <div className="row g-3">
          <div className="col-7">
            <TextField form={form} name="fecha" label="Fecha" type="date" />
          </div>
          <div className="col-5">
            <TextField
              form={form}
              name="hora"
              label="Hora"
              placeholder="HH:MM"
              inputMode="numeric"
              help="24 horas, p. ej. 17:30"
            />
          </div>
        </div>
        {needsEmpresa && (
          <SelectField
            form={form}
            name="empresaId"
            label="Empresa"
            numeric
            placeholder="Selecciona una empresa"
            options={(empresas.data ?? []).map((e) => ({ value: e.id, label: e.nombre }))}
            key={empresas.isSuccess ? 'ready' : 'loading'}
          />
        )}
        <UsuariosField
          key={record?.id ?? 'nueva'}
          form={form}
          empresaId={record ? (record.empresaId ?? undefined) : (formEmpresa ?? undefined)}
          known={record?.usuarios ?? []}
        />
        <Form.Check
          id="planing-notificable"
          type="switch"
          label="Notificable (recibirás un aviso de la tarea)"
          {...form.register('notificable')}
        />
      </FormModal>
      <ConfirmDialog
        show={borrando.show}
        message={borrando.data ? `¿Seguro que quieres eliminar la tarea ${borrando.data.titulo}?` : ''}
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={borrando.close}
      />
    </Card>
  )
}
