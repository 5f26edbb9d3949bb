import type { Empresa, EmpresaCreate } from '@vb/shared'
import { empresaMessages } from '@vb/shared/empresas-core'
import { EntityImage } from '../../components/entity-image'
import { TextField } from '../../components/form-fields'
import type { Column } from '../../components/list'
import { CrudPage } from '../../components/resource/crud-page'
import { schemaFrom } from '../../lib/loaded-schema'
import { resourceClient } from '../../lib/resource'

export const empresasResource = resourceClient<Empresa, EmpresaCreate>('empresas')

/** The form's schema, loaded when the form first opens (the screen starts without building it). */
const formSchema = schemaFrom(() => import('@vb/shared/empresas').then((m) => m.empresaCreateSchema))

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
  return (
    <CrudPage<Empresa, EmpresaCreate>
      resource="empresas"
      client={empresasResource}
      columns={columns}
      rowLabel={(e) => e.nombre}
      defaultSort={{ sort: 'nombre', order: 'asc' }}
      schema={formSchema}
      empty={{ nombre: '', logoUrl: '' }}
      toValues={(e) => ({ nombre: e.nombre, logoUrl: e.logoUrl ?? '' })}
      texts={{
        search: 'Buscar empresa',
        caption: 'Empresas',
        empty: empresaMessages.vacio,
        newButton: 'Nueva empresa',
        createTitle: 'Añadir Nueva Empresa',
        editTitle: 'Modificar Empresa',
        deleteQuestion: (e) => `¿Seguro que quieres eliminar la empresa ${e.nombre}?`,
        created: 'Empresa creada correctamente',
        updated: 'Empresa modificada correctamente',
        deleted: 'Empresa eliminada correctamente',
      }}
      fields={(form) => (
        <>
          <TextField form={form} name="nombre" label="Nombre de Empresa" autoFocus />
          <TextField
            form={form}
            name="logoUrl"
            label="URL del logo"
            type="url"
            placeholder="https://…"
            help="Opcional. Sin logo se muestra un icono."
          />
        </>
      )}
    />
  )
}
