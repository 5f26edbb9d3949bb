import { type Contacto, contactoMessages } from '@vb/shared'
import { Button, Card } from 'react-bootstrap'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { EntityImage } from '../../components/entity-image'
import { type Column, DataList } from '../../components/list'
import { useCrudActions } from '../../components/use-crud-actions'
import { useEmpresaId } from '../../lib/use-empresa'
import { contactoKeys, fetchContactos, useDeleteContacto } from './api'
import { ContactoForm } from './contacto-form'

/** SPEC §2.7: columns derived from the contact's fields; the photo is always the company's logo. */
const columns: Column<Contacto>[] = [
  {
    id: 'foto',
    header: 'Foto',
    cell: (c) => <EntityImage src={c.fotoUrl} alt={`Logo de la empresa de ${c.nombreComercial}`} />,
    card: 'media',
  },
  {
    id: 'nombreComercial',
    header: 'Nombre comercial',
    sortKey: 'nombreComercial',
    cell: (c) => c.nombreComercial,
    card: 'title',
  },
  { id: 'agente', header: 'Agente', sortKey: 'agente', cell: (c) => c.agente },
  {
    id: 'correo',
    header: 'Correo',
    sortKey: 'correo',
    cell: (c) => <a href={`mailto:${c.correo}`}>{c.correo}</a>,
  },
  {
    id: 'telefono',
    header: 'Teléfono',
    sortKey: 'telefono',
    cell: (c) => (
      <a href={`tel:${c.telefono.replace(/[\s-]/g, '')}`} className="text-nowrap">
        {c.telefono}
      </a>
    ),
  },
]

/** SPEC §2.7: contacts of the company chosen in the top bar, re-queried when it changes (DECISIONS D1). */
export function ContactosPage() {
  const empresaId = useEmpresaId()
  const crud = useCrudActions<Contacto>({
    resource: 'contactos',
    remove: useDeleteContacto(),
    deletedMessage: 'Contacto eliminado correctamente',
  })
  const rowActions = crud.rowActions()

  return (
    <Card className="shadow-sm">
      <Card.Body className="p-2 p-sm-3">
        <DataList
          queryKey={contactoKeys.list(empresaId)}
          fetcher={fetchContactos(empresaId)}
          columns={columns}
          rowKey={(c) => c.id}
          rowLabel={(c) => c.nombreComercial}
          rowActions={rowActions}
          searchLabel="Buscar contacto"
          caption="Contactos"
          emptyText={contactoMessages.vacio}
          defaultSort={{ sort: 'nombreComercial', order: 'asc' }}
          toolbar={
            crud.canCreate && (
              <Button onClick={() => crud.form.open(null)}>
                <i className="bi bi-plus-lg me-1" aria-hidden="true" />
                Nuevo contacto
              </Button>
            )
          }
        />
      </Card.Body>
      <ContactoForm show={crud.form.show} contacto={crud.form.data} empresaId={empresaId} onHide={crud.form.close} />
      <ConfirmDialog
        show={crud.confirm.show}
        message={`¿Seguro que quieres eliminar el contacto ${crud.confirm.data?.nombreComercial ?? ''}?`}
        pending={crud.deleting}
        onConfirm={crud.confirmDelete}
        onCancel={crud.confirm.close}
      />
    </Card>
  )
}
