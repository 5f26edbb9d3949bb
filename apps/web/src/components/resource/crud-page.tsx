import { useQueryClient } from '@tanstack/react-query'
import type { Resource } from '@vb/shared'
import { can } from '@vb/shared/permissions'
import { type ReactNode, useMemo, useState } from 'react'
import { Button, Card } from 'react-bootstrap'
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form'
import type { z } from 'zod'
import { ApiError } from '../../lib/api-client'
import { errorMessage } from '../../lib/form-errors'
import type { LoadedSchema } from '../../lib/loaded-schema'
import type { ListQuery, ResourceClient } from '../../lib/resource'
import { refreshAfterChange, useResourceMutations } from '../../lib/resource'
import { useTrabajador } from '../../lib/use-session'
import { ConfirmDialog } from '../confirm-dialog'
import { FormModal } from '../form-modal'
import { Icon } from '../icon'
import { type Column, DataList, type DataListProps, type ListFilter, type RowAction, type SortOrder } from '../list'
import { useToast } from '../toasts'
import { useModalState } from '../use-modal-state'
import { type FormDefaults, useResourceForm } from './use-resource-form'

/** The Spanish texts of one CRUD screen (SPEC §2.3-2.7 give most of them). */
export interface CrudTexts<T> {
  /** Label of the search box, e.g. 'Buscar empresa'. */
  search: string
  searchPlaceholder?: string
  /** Accessible name of the table, e.g. 'Empresas'. */
  caption: string
  /** e.g. 'No hay empresas.' */
  empty: string
  /** SPEC §8 load failure, when it has one. */
  loadError?: string
  /** e.g. 'Nueva empresa'. */
  newButton: string
  /** Modal titles, e.g. 'Añadir Nueva Empresa' / 'Modificar Empresa'. */
  createTitle: string
  editTitle: string
  /** e.g. `¿Seguro que quieres eliminar la empresa ${e.nombre}?` */
  deleteQuestion: (row: T) => string
  created: string
  updated: string
  deleted: string
  /** SPEC §8's failure of each write (e.g. 'No se pudo crear el documento. Revisa los datos.'), shown with the server's reason. */
  createError?: string
  updateError?: string
  deleteError?: string
  /** The row's edit command (default 'Modificar'; SPEC §2.15 says 'Editar'). */
  editAction?: string
  /** The modal's submit buttons (default 'Guardar'; SPEC §2.15: 'Guardar' / 'Guardar cambios'). */
  createSubmit?: string
  editSubmit?: string
}

/**
 * The usual texts of a CRUD screen from its noun ('proveedor', 'Proveedores'), for screens whose texts SPEC
 * does not fix; any of them can be replaced: `{ ...crudTexts(…), created: 'Proveedor añadido correctamente' }`.
 */
export function crudTexts<T>(noun: {
  /** 'proveedor' */
  singular: string
  /** 'Proveedores' (the table's name) */
  plural: string
  feminine?: boolean
  /** How a row is named in the delete question. */
  label: (row: T) => string
}): CrudTexts<T> {
  const { singular, plural, feminine, label } = noun
  const title = singular.charAt(0).toUpperCase() + singular.slice(1)
  const Title = singular.replace(/(^|\s)\p{L}/gu, (c) => c.toUpperCase())
  const end = feminine ? 'a' : 'o'
  return {
    search: `Buscar ${singular}`,
    caption: plural,
    empty: `No hay ${plural.toLowerCase()}.`,
    newButton: `${feminine ? 'Nueva' : 'Nuevo'} ${singular}`,
    createTitle: `${feminine ? 'Añadir Nueva' : 'Añadir Nuevo'} ${Title}`,
    editTitle: `Modificar ${Title}`,
    deleteQuestion: (row) => `¿Seguro que quieres eliminar ${feminine ? 'la' : 'el'} ${singular} ${label(row)}?`,
    created: `${title} cread${end} correctamente`,
    updated: `${title} modificad${end} correctamente`,
    deleted: `${title} eliminad${end} correctamente`,
  }
}

/** What a screen's header may do with the page's modals (SPEC §2.14: the PIR card's 'Registrar PIR' / 'Editar PIR'). */
export interface CrudCommands<T, I> {
  /** Opens the create modal, with some fields already filled in. */
  create: (preset?: Partial<I>) => void
  edit: (row: T) => void
}

export interface CrudPageProps<T extends { id: number }, I extends FieldValues, R = T> {
  /** The role matrix entry (SPEC §6): what the role may do decides which buttons show. */
  resource: Resource
  client: ResourceClient<T, I, Partial<I>, R>
  /**
   * Narrows, row by row, what the role matrix allows (DECISIONS P3: an ADMIN never edits or deletes a
   * SUPERADMIN; nobody deletes itself): a false hides that row's command, as the server would refuse it.
   */
  rowCan?: (row: T, action: 'update' | 'delete') => boolean
  /** After a create, with what the server answered (a new worker's one-time password to show). */
  onCreated?: (result: R) => void
  /** Filters of the list besides q/sort/page (e.g. the company chosen in the top bar). */
  filters?: ListQuery
  columns: Column<T>[]
  rowLabel: (row: T) => string
  /** Links or commands before Modificar / Eliminar in each row's menu. */
  extraRowActions?: (row: T) => RowAction[]
  /** Links or commands between Modificar and Eliminar (SPEC §2.14: Descargar). */
  middleRowActions?: (row: T) => RowAction[]
  /** Above the list: the screen's heading and cards, with the commands that open its modals. */
  header?: (commands: CrudCommands<T, I>) => ReactNode
  /** More buttons beside 'Nuevo …' (the cash statement). */
  toolbar?: ReactNode
  /** False hides the search box (SPEC §2.15). */
  searchable?: boolean
  /** Filters kept in the URL beside the search (a day, a range). */
  listFilters?: ListFilter[]
  /** What the list shows above its rows from the page it has (an opening balance). */
  summary?: DataListProps<T>['summary']
  /** Reads the list again this often (ms), for rows with signed file links (they expire after 5 minutes). */
  refreshMs?: number
  tableFrom?: DataListProps<T>['tableFrom']
  /** The record's version, sent as If-Match on update: a stale edit answers 409 instead of overwriting. */
  version?: (row: T) => string | undefined
  /** SPEC §9: success toasts last 3 s, 2.5 s on documents and cash. */
  toastMs?: number
  defaultSort?: { sort: string; order: SortOrder }
  texts: CrudTexts<T>
  /**
   * The shared create schema (the API's), loaded when the form first opens (`schemaFrom`: the screen then starts
   * without building it), or one per record being edited (null: a new one), for a rule that depends on what the
   * record held (DECISIONS D6: a planned date checked only when it changes): a function declared once, outside the
   * screen's component (as the budgets' `formSchema`), called each time the form opens on a record.
   */
  schema: z.ZodType<unknown, I> | LoadedSchema<I> | ((row: T | null) => z.ZodType<unknown, I> | LoadedSchema<I>)
  /** 'Nuevo …' shown but not usable yet, with why (SPEC §2.13: until a home is chosen). */
  newDisabled?: string | false
  /** The form of a new record (may use the filters, e.g. the selected company). */
  empty: FormDefaults<I>
  /** A record as form values (default: the fields of `empty` taken from the record, null as the empty value). */
  toValues?: (row: T) => I
  /** The form's fields (labelled inputs bound to `form`). */
  fields: (form: UseFormReturn<I, unknown, I>, row: T | null) => ReactNode
  forbiddenField?: Path<I>
  conflictField?: Path<I>
}

/**
 * The resource kit's screen (docs/adding-a-resource.md): a server-paged list with search,
 * sort and URL state (DataList), the create and edit modal on the shared schema, the delete confirmation and
 * the toasts. A screen declares its columns, its fields, its schema and its texts.
 */
export function CrudPage<T extends { id: number }, I extends FieldValues, R = T>(props: CrudPageProps<T, I, R>) {
  const { resource, client, texts } = props
  const trabajador = useTrabajador()
  const toast = useToast()
  const editing = useModalState<T | null>()
  const deleting = useModalState<T>()
  const { create, update, remove } = useResourceMutations(client)
  const queryClient = useQueryClient()
  const [preset, setPreset] = useState<Partial<I> | null>(null)
  const record = editing.data
  const toValues =
    props.toValues ??
    ((row: T) =>
      Object.fromEntries(Object.entries(props.empty).map(([k, empty]) => [k, (row as Record<string, unknown>)[k] ?? empty])) as I)
  // A schema per record is made once each time a record is opened, not on every render.
  const { schema: given } = props
  const schema = useMemo(() => (typeof given === 'function' ? given(record ?? null) : given), [given, record])
  const { form, formError, submit, dirty, recovered } = useResourceForm<I>({
    schema,
    empty: props.empty,
    values: record ? toValues(record) : preset ? ({ ...props.empty, ...preset } as I) : null,
    show: editing.show,
    // Reopened after a login with what was typed when the session ended, on the record it was editing (whose
    // version still guards the save: a record changed meanwhile answers 409).
    keep: {
      name: client.name,
      record,
      reopen: (row: T | null) => {
        setPreset(null)
        editing.open(row)
      },
    },
    forbiddenField: props.forbiddenField,
    conflictField: props.conflictField,
  })

  const canCreate = can(trabajador, resource, 'create')
  const canUpdate = can(trabajador, resource, 'update')
  const canDelete = can(trabajador, resource, 'delete')
  const openCreate = (values?: Partial<I>) => {
    setPreset(values ?? null)
    editing.open(null)
  }
  const openEdit = (row: T) => {
    setPreset(null)
    editing.open(row)
  }
  const rowActions =
    props.extraRowActions || props.middleRowActions || canUpdate || canDelete
      ? (row: T): RowAction[] => [
          ...(props.extraRowActions?.(row) ?? []),
          ...(canUpdate && (props.rowCan?.(row, 'update') ?? true)
            ? [{ label: texts.editAction ?? 'Modificar', icon: 'pencil' as const, onSelect: () => openEdit(row) }]
            : []),
          ...(props.middleRowActions?.(row) ?? []),
          ...(canDelete && (props.rowCan?.(row, 'delete') ?? true)
            ? [{ label: 'Eliminar', icon: 'trash' as const, danger: true, onSelect: () => deleting.open(row) }]
            : []),
        ]
      : undefined

  const save = submit(async (values) => {
    try {
      if (record) {
        const ifMatch = props.version?.(record)
        await update.mutateAsync({ id: record.id, body: values, options: ifMatch ? { ifMatch } : undefined })
        toast.success(texts.updated, props.toastMs)
      } else {
        const result = await create.mutateAsync(values)
        toast.success(texts.created, props.toastMs)
        props.onCreated?.(result)
      }
      editing.close()
    } catch (err) {
      // A stale edit (409) or a record gone (404): what is on screen is old, so the list is read again.
      if (err instanceof ApiError && (err.statusCode === 409 || err.statusCode === 404)) {
        void refreshAfterChange(queryClient, client.name)
      }
      throw err
    }
  })
  const failure = record ? texts.updateError : texts.createError
  const shownError = formError && failure && formError !== failure ? `${failure} ${formError}` : formError

  const confirmDelete = () => {
    const row = deleting.data
    if (!row) return
    remove.mutate(
      { id: row.id },
      {
        onSuccess: () => toast.success(texts.deleted, props.toastMs),
        onError: (err) => toast.error(texts.deleteError ? `${texts.deleteError} ${errorMessage(err)}` : errorMessage(err)),
        onSettled: deleting.close,
      },
    )
  }

  return (
    <>
      {props.header?.({ create: openCreate, edit: openEdit })}
      <Card className="shadow-sm">
        <Card.Body className="p-2 p-sm-3">
          <DataList
            queryKey={[...client.key, 'list', props.filters ?? {}]}
            fetcher={(params) => client.list({ ...params, ...props.filters })}
            columns={props.columns}
            rowKey={(row) => row.id}
            rowLabel={props.rowLabel}
            rowActions={rowActions}
            searchLabel={texts.search}
            searchPlaceholder={texts.searchPlaceholder}
            caption={texts.caption}
            emptyText={texts.empty}
            loadErrorText={texts.loadError}
            defaultSort={props.defaultSort}
            searchable={props.searchable}
            filters={props.listFilters}
            summary={props.summary}
            refreshMs={props.refreshMs}
            tableFrom={props.tableFrom}
            toolbar={
              (canCreate || props.toolbar) && (
                <>
                  {props.toolbar}
                  {canCreate && (
                    <span className="d-inline-flex flex-column align-items-end">
                      <Button
                        onClick={() => openCreate()}
                        disabled={Boolean(props.newDisabled)}
                        aria-describedby={props.newDisabled ? 'vb-nuevo-hint' : undefined}
                      >
                        <Icon name="plus-lg" className="me-1" />
                        {texts.newButton}
                      </Button>
                      {props.newDisabled && (
                        <small id="vb-nuevo-hint" className="text-body-secondary mt-1">
                          {props.newDisabled}
                        </small>
                      )}
                    </span>
                  )}
                </>
              )
            }
          />
        </Card.Body>
        <FormModal
          show={editing.show}
          title={record ? texts.editTitle : texts.createTitle}
          onHide={editing.close}
          onSubmit={save}
          submitting={form.formState.isSubmitting}
          submitLabel={(record ? texts.editSubmit : texts.createSubmit) ?? 'Guardar'}
          dirty={dirty}
          error={shownError}
          recovered={recovered}
        >
          {props.fields(form, record)}
        </FormModal>
        <ConfirmDialog
          show={deleting.show}
          message={deleting.data ? texts.deleteQuestion(deleting.data) : ''}
          pending={remove.isPending}
          onConfirm={confirmDelete}
          onCancel={deleting.close}
        />
      </Card>
    </>
  )
}
