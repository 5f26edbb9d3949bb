import type { Vivienda, ViviendaCreate } from '@vb/shared'
import { viviendaMessages } from '@vb/shared/viviendas-core'
import { EmpresaField } from '../../components/empresa-field'
import { TextField } from '../../components/form-fields'
import type { Column } from '../../components/list'
import { CrudPage } from '../../components/resource/crud-page'
import { schemaFrom } from '../../lib/loaded-schema'
import { resourceClient } from '../../lib/resource'
import { useEmpresaId } from '../../lib/use-empresa'

export const viviendasResource = resourceClient<Vivienda, ViviendaCreate>('viviendas')

/** The form's schema, loaded when the form first opens (the screen starts without building it). */
const formSchema = schemaFrom(() => import('@vb/shared/viviendas').then((m) => m.viviendaCreateSchema))

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
  return (
    <CrudPage<Vivienda, ViviendaCreate>
      resource="viviendas"
      client={viviendasResource}
      filters={{ empresaId }}
      columns={columns}
      rowLabel={(v) => v.nombre}
      defaultSort={{ sort: 'nombre', order: 'asc' }}
      schema={formSchema}
      empty={{ nombre: '', empresaId: empresaId ?? undefined }}
      toValues={(v) => ({ nombre: v.nombre, empresaId: v.empresaId })}
      texts={{
        search: 'Buscar vivienda',
        caption: 'Viviendas',
        empty: viviendaMessages.vacio,
        loadError: viviendaMessages.errorCarga,
        newButton: 'Nueva vivienda',
        createTitle: 'Añadir Nueva Vivienda',
        editTitle: 'Modificar Vivienda',
        deleteQuestion: (v) => `¿Seguro que quieres eliminar la vivienda ${v.nombre}?`,
        created: 'Vivienda creada correctamente',
        updated: 'Vivienda modificada correctamente',
        deleted: 'Vivienda eliminada correctamente',
      }}
      fields={(form, v) => (
        <>
          <TextField form={form} name="nombre" label="Dirección" autoFocus />
          <EmpresaField form={form} name="empresaId" current={v?.empresa} />
        </>
      )}
    />
  )
}
