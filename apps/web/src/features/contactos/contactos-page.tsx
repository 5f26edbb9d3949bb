import type { Contacto, ContactoCreate } from '@vb/shared'
import { contactoMessages } from '@vb/shared/contactos-core'
import { EmpresaField } from '../../components/empresa-field'
import { EntityImage } from '../../components/entity-image'
import { TextField } from '../../components/form-fields'
import type { Column } from '../../components/list'
import { CrudPage } from '../../components/resource/crud-page'
import { schemaFrom } from '../../lib/loaded-schema'
import { resourceClient } from '../../lib/resource'
import { useEmpresaId } from '../../lib/use-empresa'

export const contactosResource = resourceClient<Contacto, ContactoCreate>('contactos')

/** The form's schema, loaded when the form first opens (the screen starts without building it). */
const formSchema = schemaFrom(() => import('@vb/shared/contactos').then((m) => m.contactoCreateSchema))

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
  { id: 'correo', header: 'Correo', sortKey: 'correo', cell: (c) => <a href={`mailto:${c.correo}`}>{c.correo}</a> },
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
  return (
    <CrudPage<Contacto, ContactoCreate>
      resource="contactos"
      client={contactosResource}
      filters={{ empresaId }}
      columns={columns}
      rowLabel={(c) => c.nombreComercial}
      defaultSort={{ sort: 'nombreComercial', order: 'asc' }}
      schema={formSchema}
      empty={{ nombreComercial: '', agente: '', correo: '', telefono: '', empresaId: empresaId ?? undefined }}
      toValues={(c) => ({
        nombreComercial: c.nombreComercial,
        agente: c.agente,
        correo: c.correo,
        telefono: c.telefono,
        empresaId: c.empresaId,
      })}
      texts={{
        search: 'Buscar contacto',
        caption: 'Contactos',
        empty: contactoMessages.vacio,
        newButton: 'Nuevo contacto',
        createTitle: 'Añadir Nuevo Contacto',
        editTitle: 'Modificar Contacto',
        deleteQuestion: (c) => `¿Seguro que quieres eliminar el contacto ${c.nombreComercial}?`,
        created: 'Contacto creado correctamente',
        updated: 'Contacto modificado correctamente',
        deleted: 'Contacto eliminado correctamente',
      }}
      fields={(form, c) => (
        <>
          <TextField form={form} name="nombreComercial" label="Nombre comercial" autoFocus />
          <TextField form={form} name="agente" label="Agente" />
          <TextField form={form} name="correo" label="Correo" type="email" autoComplete="off" />
          <TextField form={form} name="telefono" label="Teléfono" type="tel" />
          <EmpresaField form={form} name="empresaId" current={c?.empresa} />
        </>
      )}
    />
  )
}
