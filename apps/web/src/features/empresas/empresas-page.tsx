import { type Empresa, empresaMessages } from '@vb/shared'
import { Button, Card } from 'react-bootstrap'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { EntityImage } from '../../components/entity-image'
import { type Column, DataList } from '../../components/list'
import { useCrudActions } from '../../components/use-crud-actions'
import { empresaKeys, fetchEmpresas, useDeleteEmpresa } from './api'
import { EmpresaForm } from './empresa-form'

const columns: Column<Empresa>[] = [
  {
    id: 'logo',
    header: 'Logo',
    cell: (e) => <EntityImage src={e.logoUrl} alt={`Logo de ${e.nombre}`} />,
    card: 'media',
    className: 'vb-col-narrow',
  },
  { id: 'nombre', header: 'Nombre de Empresa', sortKey: 'nombre', cell: (e) => e.nombre, card: 'title' },
]

/** SPEC §2.4: companies. SUPERADMIN creates, modifies and deletes; ADMIN only modifies; EMPLEADO views. */
export function EmpresasPage() {
  const crud = useCrudActions<Empresa>({
    resource: 'empresas',
    remove: useDeleteEmpresa(),
    deletedMessage: 'Empresa eliminada correctamente',
  })
  const rowActions = crud.rowActions()

  return (
    <Card className="shadow-sm">
      <Card.Body className="p-2 p-sm-3">
        <DataList
          queryKey={empresaKeys.list()}
          fetcher={fetchEmpresas}
          columns={columns}
          rowKey={(e) => e.id}
          rowLabel={(e) => e.nombre}
          rowActions={rowActions}
          searchLabel="Buscar empresa"
          caption="Empresas"
          emptyText={empresaMessages.vacio}
          defaultSort={{ sort: 'nombre', order: 'asc' }}
          toolbar={
            crud.canCreate && (
              <Button onClick={() => crud.form.open(null)}>
                <i className="bi bi-plus-lg me-1" aria-hidden="true" />
                Nueva empresa
              </Button>
            )
          }
        />
      </Card.Body>
      <EmpresaForm show={crud.form.show} empresa={crud.form.data} onHide={crud.form.close} />
      <ConfirmDialog
        show={crud.confirm.show}
        message={`¿Seguro que quieres eliminar la empresa ${crud.confirm.data?.nombre ?? ''}?`}
        pending={crud.deleting}
        onConfirm={crud.confirmDelete}
        onCancel={crud.confirm.close}
      />
    </Card>
  )
}
