import type { UseMutationResult } from '@tanstack/react-query'
import { can, type Resource } from '@vb/shared'
import { errorMessage } from '../lib/form-errors'
import { useTrabajador } from '../lib/use-session'
import type { RowAction } from './list'
import { useToast } from './toasts'
import { useModalState } from './use-modal-state'

/**
 * The CRUD wiring every list screen shares: what the role may do (the shared `can`, the rule the API
 * enforces), the form and delete-confirmation modals, the 'Modificar' / 'Eliminar' row actions and the
 * delete itself with its toast (server messages, such as a 409, shown as they come).
 */
export function useCrudActions<T extends { id: number }>(options: {
  resource: Resource
  remove: UseMutationResult<unknown, Error, number>
  deletedMessage: string
}) {
  const trabajador = useTrabajador()
  const toast = useToast()
  const form = useModalState<T | null>()
  const confirm = useModalState<T>()
  const canCreate = can(trabajador, options.resource, 'create')
  const canUpdate = can(trabajador, options.resource, 'update')
  const canDelete = can(trabajador, options.resource, 'delete')

  /** Row actions: `extra` first (links), then the ones the role may use; undefined when there are none. */
  const rowActions = (extra?: (row: T) => RowAction[]) => {
    if (!extra && !canUpdate && !canDelete) return undefined
    return (row: T): RowAction[] => [
      ...(extra ? extra(row) : []),
      ...(canUpdate ? [{ label: 'Modificar', icon: 'pencil', onSelect: () => form.open(row) }] : []),
      ...(canDelete ? [{ label: 'Eliminar', icon: 'trash', danger: true, onSelect: () => confirm.open(row) }] : []),
    ]
  }

  const confirmDelete = () => {
    const row = confirm.data
    if (!row) return
    options.remove.mutate(row.id, {
      onSuccess: () => toast.success(options.deletedMessage),
      onError: (err) => toast.error(errorMessage(err)),
      onSettled: confirm.close,
    })
  }

  return { canCreate, form, confirm, rowActions, confirmDelete, deleting: options.remove.isPending }
}
