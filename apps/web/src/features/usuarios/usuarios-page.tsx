import { type Usuario, usuarioMessages } from '@vb/shared'
import { Badge, Button, Card } from 'react-bootstrap'
import { paths } from '../../app/paths'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { type Column, DataList, type RowAction } from '../../components/list'
import { useCrudActions } from '../../components/use-crud-actions'
import { useEmpresaId } from '../../lib/use-empresa'
import { fetchUsuarios, useDeleteUsuario, usuarioKeys } from './api'
import { UsuarioForm } from './usuario-form'

const fullName = (u: Usuario) => `${u.nombre} ${u.apellidos}`

const columns: Column<Usuario>[] = [
  { id: 'nombre', header: 'Nombre', sortKey: 'nombre', cell: (u) => u.nombre, card: 'hidden' },
  { id: 'apellidos', header: 'Apellidos', sortKey: 'apellidos', cell: (u) => u.apellidos, card: 'hidden' },
  { id: 'nif', header: 'NIF', sortKey: 'nif', cell: (u) => <span className="font-monospace">{u.nif}</span> },
  {
    id: 'vivienda',
    header: 'Vivienda',
    sortKey: 'vivienda',
    // SPEC §2.6: the first linked home, or 'Sin vivienda'.
    cell: (u) => u.viviendas[0]?.nombre ?? <span className="text-body-secondary">{usuarioMessages.sinVivienda}</span>,
  },
  {
    id: 'grado',
    header: 'Grado de dependencia',
    sortKey: 'gradoDependencia',
    cell: (u) =>
      u.gradoDependencia ? (
        <Badge bg="secondary-subtle" text="secondary-emphasis" className="border">
          {u.gradoDependencia}
        </Badge>
      ) : (
        '—'
      ),
  },
]

/** SPEC §2.6: residents of the company chosen in the top bar (DECISIONS D1); everyone creates, edits and deletes. */
export function UsuariosPage() {
  const empresaId = useEmpresaId()
  const crud = useCrudActions<Usuario>({
    resource: 'usuarios',
    remove: useDeleteUsuario(),
    deletedMessage: 'Usuario eliminado correctamente',
  })
  const rowActions = crud.rowActions((usuario: Usuario): RowAction[] => [
    { label: 'Documentación', icon: 'folder2-open', to: paths.documentacion(usuario.nif) },
    { label: 'Caja', icon: 'cash-coin', to: paths.caja(usuario.nif) },
  ])

  return (
    <Card className="shadow-sm">
      <Card.Body className="p-2 p-sm-3">
        <DataList
          queryKey={usuarioKeys.list(empresaId)}
          fetcher={fetchUsuarios(empresaId)}
          columns={columns}
          rowKey={(u) => u.id}
          rowLabel={fullName}
          rowActions={rowActions}
          searchLabel="Buscar usuario"
          searchPlaceholder="Nombre, apellidos o NIF"
          caption="Usuarios"
          emptyText={usuarioMessages.vacio}
          loadErrorText={usuarioMessages.errorCarga}
          defaultSort={{ sort: 'nombre', order: 'asc' }}
          toolbar={
            crud.canCreate && (
              <Button onClick={() => crud.form.open(null)}>
                <i className="bi bi-plus-lg me-1" aria-hidden="true" />
                Nuevo usuario
              </Button>
            )
          }
        />
      </Card.Body>
      <UsuarioForm show={crud.form.show} usuario={crud.form.data} empresaId={empresaId} onHide={crud.form.close} />
      <ConfirmDialog
        show={crud.confirm.show}
        message={`¿Seguro que quieres eliminar el usuario ${crud.confirm.data ? fullName(crud.confirm.data) : ''}?`}
        pending={crud.deleting}
        onConfirm={crud.confirmDelete}
        onCancel={crud.confirm.close}
      />
    </Card>
  )
}
