import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { Prioridad, TareaTrabajador, TrabajadorAsignable } from '@vb/shared'
import { can } from '@vb/shared/permissions'
import { prioridades, prioridadVariants, tareaMessages } from '@vb/shared/tareas-core'
import { type ReactNode, useId } from 'react'
import { Alert, Badge, Button, Card, CloseButton, Col, Form, Nav, Row } from 'react-bootstrap'
import type { z } from 'zod'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { SelectField, TextField } from '../../components/form-fields'
import { FormModal } from '../../components/form-modal'
import { Icon } from '../../components/icon'
import { ListPagination } from '../../components/list/list-pagination'
import { RemoteComboboxField } from '../../components/remote-combobox-field'
import { useResourceForm } from '../../components/resource/use-resource-form'
import { useToast } from '../../components/toasts'
import { useModalState } from '../../components/use-modal-state'
import { api } from '../../lib/api-client'
import { formatDate, madridDay } from '../../lib/format'
import { schemaFrom } from '../../lib/loaded-schema'
import { searchViviendas, viviendaPickerKey } from '../../lib/pickers'
import { resourceClient, useResourceMutations } from '../../lib/resource'
import { useEmpresaId } from '../../lib/use-empresa'
import { useQueryParams } from '../../lib/use-query-params'
import { useTrabajador } from '../../lib/use-session'
import { useShownData } from '../../lib/use-shown-data'
import { useCompletarTarea } from './use-completar-tarea'

interface TareaForm {
  titulo: string
  descripcion: string
  viviendaId: number
  fecha: string
  prioridad: Prioridad
}
/** DECISIONS D5: the task is for the worker chosen in the selector (EMPLEADO: itself). */
type TareaBody = TareaForm & { trabajadorId: number }

/** The form's schema, loaded when the form first opens (the screen starts without building it). */
const formSchema = schemaFrom(() =>
  import('@vb/shared/tareas').then((m) => m.tareaTrabajadorCreateSchema as unknown as z.ZodType<unknown, TareaForm>),
)

export const tareasResource = resourceClient<TareaTrabajador, TareaBody, { completada: true }>('tareas-trabajador')

const PAGE_SIZE = 12
const rolLabel = { SUPERADMIN: 'SUPERADMIN', ADMIN: 'ADMIN', EMPLEADO: 'EMPLEADO' } as const

/** SPEC §2.12, §6: the workers of the selector (the server applies the role's rule). */
function useTrabajadores(enabled: boolean) {
  return useQuery({
    queryKey: ['tareas-trabajador', 'trabajadores'],
    queryFn: () => api.get<TrabajadorAsignable[]>('/tareas-trabajador/trabajadores'),
    enabled,
    staleTime: 60_000,
  })
}

function TareaCard({
  tarea,
  onComplete,
  onDelete,
  completing,
}: {
  tarea: TareaTrabajador
  onComplete?: () => void
  onDelete: () => void
  completing: boolean
}) {
  const titleId = useId()
  return (
    <Card as="article" className="h-100 shadow-sm border-0 vb-tarea" aria-labelledby={titleId}>
      <Card.Body className="d-flex flex-column gap-2">
        <div className="d-flex align-items-start gap-2">
          <h3 id={titleId} className="h6 mb-0 flex-grow-1 text-break">
            {tarea.titulo}
          </h3>
          <Badge
            bg={prioridadVariants[tarea.prioridad]}
            text={tarea.prioridad === 'MEDIA' ? 'dark' : undefined}
            className="flex-shrink-0"
          >
            {tarea.prioridad}
          </Badge>
          <CloseButton aria-label={`Eliminar la tarea ${tarea.titulo}`} onClick={onDelete} className="flex-shrink-0" />
        </div>
        <p className="mb-0 text-break">{tarea.descripcion}</p>
        <dl className="vb-card-fields mb-0 small">
          <div>
            <dt className="text-body-secondary fw-normal">Vivienda</dt>
            <dd className="mb-0">{tarea.vivienda?.nombre ?? tareaMessages.sinVivienda}</dd>
          </div>
          <div>
            <dt className="text-body-secondary fw-normal">Fecha</dt>
            <dd className="mb-0">
              <time dateTime={tarea.fecha}>{formatDate(tarea.fecha)}</time>
            </dd>
          </div>
        </dl>
        {onComplete && (
          <div className="mt-auto pt-1">
            <Button variant="outline-success" size="sm" onClick={onComplete} disabled={completing}>
              <Icon name="check2-circle" className="me-1" />
              Marcar como completada
            </Button>
          </div>
        )}
      </Card.Body>
    </Card>
  )
}

/** SPEC §2.12 with DECISIONS D1, D5: a worker's tasks, pending and completed, listed by the server. */
export function TareasPage() {
  const trabajador = useTrabajador()
  const empresaId = useEmpresaId()
  const toast = useToast()
  const [search, set] = useQueryParams()
  const selectorId = useId()
  const conSelector = trabajador !== null && trabajador.rol !== 'EMPLEADO'
  const trabajadores = useTrabajadores(conSelector)
  const elegido = Number(search.get('trabajador')) || null
  const trabajadorId = conSelector ? (elegido ?? trabajador?.id ?? null) : (trabajador?.id ?? null)
  // A worker who left keeps its tasks here, to be seen and deleted; the server gives it no new one.
  const inactivo = trabajadores.data?.find((w) => w.id === trabajadorId)?.activo === false
  const completadas = search.get('estado') === 'completadas'
  const page = Math.max(1, Number(search.get('page')) || 1)

  const filters = { trabajadorId, completada: completadas, empresaId }
  const tareas = useQuery({
    queryKey: [...tareasResource.key, 'list', filters, page],
    queryFn: () =>
      tareasResource.list({
        ...filters,
        page,
        pageSize: PAGE_SIZE,
        sort: 'fecha',
        // Pending: the oldest (overdue) first; completed: the latest first.
        order: completadas ? 'desc' : 'asc',
      }),
    enabled: trabajadorId !== null,
    placeholderData: keepPreviousData,
  })

  const { create, remove } = useResourceMutations(tareasResource)
  const completar = useCompletarTarea((id) => tareasResource.update(id, { completada: true }))
  const nueva = useModalState<null>()
  const borrando = useModalState<TareaTrabajador>()
  const hoy = madridDay(new Date())
  const { form, formError, submit, dirty, recovered } = useResourceForm<TareaForm>({
    schema: formSchema,
    empty: { titulo: '', descripcion: '', viviendaId: undefined, fecha: hoy, prioridad: 'MEDIA' },
    values: null,
    show: nueva.show,
    keep: { name: 'tareas', record: null, reopen: () => nueva.open(null) },
  })
  const save = submit(async (values) => {
    if (trabajadorId === null) throw new Error(tareaMessages.trabajadorIndeterminado)
    await create.mutateAsync({ ...values, trabajadorId })
    toast.success(tareaMessages.creada)
    nueva.close()
  })
  const confirmDelete = () => {
    const tarea = borrando.data
    if (!tarea) return
    remove.mutate(
      { id: tarea.id },
      {
        onSuccess: () => toast.success(tareaMessages.eliminada),
        onError: () => toast.error(tareaMessages.errorEliminar),
        onSettled: borrando.close,
      },
    )
  }

  const { shown: data, catchingUp } = useShownData(tareas.data)
  let body: ReactNode
  if (trabajador === null) {
    body = <Alert variant="danger">{tareaMessages.trabajadorIndeterminado}</Alert>
  } else if (trabajadorId === null) {
    body = null
  } else if (tareas.isPending || (catchingUp && !data)) {
    body = (
      <p role="status" className="text-body-secondary my-4">
        {tareaMessages.cargando}
      </p>
    )
  } else if (tareas.isError && !data) {
    body = <Alert variant="danger">{tareaMessages.errorCarga}</Alert>
  } else if (data && data.total === 0) {
    body = (
      <p className="text-body-secondary my-4">{completadas ? tareaMessages.vacioCompletadas : tareaMessages.vacioPendientes}</p>
    )
  } else if (data) {
    body = (
      <>
        <Row
          xs={1}
          md={2}
          xl={3}
          className="g-3 mb-3 ps-0"
          as="ul"
          aria-label={completadas ? 'Tareas completadas' : 'Tareas pendientes'}
        >
          {data.items.map((t) => (
            <Col as="li" key={t.id} className="list-unstyled">
              <TareaCard
                tarea={t}
                completing={completar.isPending && completar.variables?.id === t.id}
                onComplete={t.completada ? undefined : () => completar.mutate(t)}
                onDelete={() => borrando.open(t)}
              />
            </Col>
          ))}
        </Row>
        <ListPagination
          page={page}
          pageSize={PAGE_SIZE}
          total={data.total}
          exact={data.exact}
          shown={data.items.length}
          onPage={(p) => set({ page: p > 1 ? String(p) : null })}
        />
      </>
    )
  }

  return (
    <Card className="shadow-sm border-0">
      <Card.Body className="p-3 p-md-4">
        <div className="d-flex flex-wrap align-items-end gap-3 mb-3">
          {conSelector && (
            <div className="vb-selector-trabajador">
              <Form.Label htmlFor={selectorId} className="fw-semibold mb-1">
                Trabajador
              </Form.Label>
              <Form.Select
                id={selectorId}
                value={trabajadorId ?? ''}
                disabled={trabajadores.isPending}
                onChange={(e) => set({ trabajador: e.target.value || null, page: null })}
              >
                {trabajadores.isPending ? (
                  <option value={trabajadorId ?? ''}>{tareaMessages.cargandoTrabajadores}</option>
                ) : (
                  <>
                    <option value="">Selecciona trabajador</option>
                    {(trabajadores.data ?? []).map((w) => (
                      <option key={w.id} value={w.id}>
                        {w.nombre} {w.apellidos} {rolLabel[w.rol]}
                        {w.activo ? '' : ' (Inactivo)'}
                      </option>
                    ))}
                  </>
                )}
              </Form.Select>
              {trabajadores.isError && <div className="small text-danger mt-1">{tareaMessages.errorTrabajadores}</div>}
              {inactivo && <div className="small text-body-secondary mt-1">{tareaMessages.trabajadorInactivo}</div>}
            </div>
          )}
          {can(trabajador, 'tareas-trabajador', 'create') && (
            <Button className="ms-auto" onClick={() => nueva.open(null)} disabled={trabajadorId === null || inactivo}>
              <Icon name="plus-lg" className="me-1" />
              Nueva tarea
            </Button>
          )}
        </div>

        <Nav variant="tabs" className="mb-3" role="tablist">
          {[false, true].map((done) => (
            <Nav.Item key={String(done)} role="presentation">
              <Nav.Link
                as="button"
                role="tab"
                aria-selected={completadas === done}
                active={completadas === done}
                onClick={() => set({ estado: done ? 'completadas' : null, page: null })}
              >
                <span className="d-none d-sm-inline">{done ? 'Tareas completadas' : 'Tareas pendientes'}</span>
                <span className="d-sm-none">{done ? 'Completadas' : 'Pendientes'}</span>
              </Nav.Link>
            </Nav.Item>
          ))}
        </Nav>
        <div role="tabpanel" aria-busy={tareas.isFetching || catchingUp}>
          {body}
        </div>
      </Card.Body>

      <FormModal
        show={nueva.show}
        title="Nueva Tarea"
        onHide={nueva.close}
        onSubmit={save}
        submitting={form.formState.isSubmitting}
        submitLabel="Guardar"
        dirty={dirty}
        recovered={recovered}
        error={formError && formError !== tareaMessages.errorCrear ? `${tareaMessages.errorCrear} ${formError}` : formError}
      >
        <TextField form={form} name="titulo" label="Título" autoFocus />
        <TextField form={form} name="descripcion" label="Descripción" rows={3} />
        {/* SPEC §6: SUPERADMIN any home, ADMIN and EMPLEADO those of their companies (the server scopes the
            search), narrowed to the company chosen in the top bar (DECISIONS D1). */}
        <RemoteComboboxField
          form={form}
          name="viviendaId"
          label="Vivienda"
          placeholder="Selecciona una vivienda"
          queryKey={viviendaPickerKey(empresaId)}
          search={searchViviendas(empresaId)}
          errorText={tareaMessages.errorViviendas}
        />
        <TextField form={form} name="fecha" label="Fecha" type="date" />
        <SelectField form={form} name="prioridad" label="Prioridad" options={prioridades.map((p) => ({ value: p, label: p }))} />
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
