import { type Vivienda, viviendaMessages } from '@vb/shared'
import { Button, Card } from 'react-bootstrap'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { type Column, DataList } from '../../components/list'
import { useCrudActions } from '../../components/use-crud-actions'
import { useEmpresaId } from '../../lib/use-empresa'
import { fetchViviendas, useDeleteVivienda, viviendaKeys } from './api'
import { ViviendaForm } from './vivienda-form'

const columns: Column<Vivienda>[] = [
  { id: 'nombre', header: 'Dirección', sortKey: 'nombre', cell: (v) => v.nombre, card: 'title' },
  { id: 'empresa', header: 'Empresa', sortKey: 'empresa', cell: (v) => v.empresa.nombre },
]

/**
 * SPEC §2.5: homes of the company chosen in the top bar (DECISIONS D1). SUPERADMIN creates, modifies and
 * deletes; ADMIN creates and modifies (DECISIONS P2: no delete); EMPLEADO views.
 */
export function ViviendasPage() {
  const empresaId = useEmpresaId()
  const crud = useCrudActions<Vivienda>({
    resource: 'viviendas',
    remove: useDeleteVivienda(),
    deletedMessage: 'Vivienda eliminada correctamente',
  })
  const rowActions = crud.rowActions()

  return (
    <Card className="shadow-sm">
      <Card.Body className="p-2 p-sm-3">
        <DataList
          queryKey={viviendaKeys.list(empresaId)}
          fetcher={fetchViviendas(empresaId)}
          columns={columns}
          rowKey={(v) => v.id}
          rowLabel={(v) => v.nombre}
          rowActions={rowActions}
          searchLabel="Buscar vivienda"
          caption="Viviendas"
          emptyText={viviendaMessages.vacio}
          defaultSort={{ sort: 'nombre', order: 'asc' }}
          toolbar={
            crud.canCreate && (
              <Button onClick={() => crud.form.open(null)}>
                <i className="bi bi-plus-lg me-1" aria-hidden="true" />
                Nueva vivienda
              </Button>
            )
          }
        />
      </Card.Body>
      <ViviendaForm show={crud.form.show} vivienda={crud.form.data} empresaId={empresaId} onHide={crud.form.close} />
      <ConfirmDialog
        show={crud.confirm.show}
        message={`¿Seguro que quieres eliminar la vivienda ${crud.confirm.data?.nombre ?? ''}?`}
        pending={crud.deleting}
        onConfirm={crud.confirmDelete}
        onCancel={crud.confirm.close}
      />
    </Card>
  )
}
