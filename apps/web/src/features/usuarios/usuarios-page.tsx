import type { PirBadge, Usuario, UsuarioCreate, UsuarioListItem } from '@vb/shared'
import { pirLabel } from '@vb/shared/pir-core'
import { usuarioMessages } from '@vb/shared/usuarios-core'
import { Badge } from 'react-bootstrap'
import { SelectField, TextField } from '../../components/form-fields'
import type { Column, RowAction } from '../../components/list'
import { RemoteComboboxField } from '../../components/remote-combobox-field'
import { CrudPage } from '../../components/resource/crud-page'
import { schemaFrom } from '../../lib/loaded-schema'
import { searchViviendas, viviendaPickerKey } from '../../lib/pickers'
import { recordPaths } from '../../lib/record-paths'
import { resourceClient } from '../../lib/resource'
import { useEmpresaId } from '../../lib/use-empresa'

export const usuariosResource = resourceClient<UsuarioListItem, UsuarioCreate>('usuarios')

/** The form's schema, loaded when the form first opens (the screen starts without building it). */
const formSchema = schemaFrom(() => import('@vb/shared/usuarios').then((m) => m.usuarioCreateSchema))

const fullName = (u: Usuario) => `${u.nombre} ${u.apellidos}`

const gradoOptions = [
  { value: 'PVS', label: 'PVS' },
  { value: 'PEI', label: 'PEI' },
]

/**
 * A small badge on the rows whose PIR needs attention (aviso or caducado), so nobody has to open each
 * resident to find them. The status comes from the server (the shared PIR rule, today in Madrid).
 */
function PirBadgeCell({ pir }: { pir: PirBadge }) {
  if (pir.estado !== 'aviso' && pir.estado !== 'caducado') {
    return (
      <>
        <span className="text-body-secondary" aria-hidden="true">
          —
        </span>
        <span className="visually-hidden">{pirLabel({ ...pir, caducidad: null })}</span>
      </>
    )
  }
  const caducado = pir.estado === 'caducado'
  return (
    <Badge
      bg={caducado ? 'danger-subtle' : 'warning-subtle'}
      text={caducado ? 'danger-emphasis' : 'warning-emphasis'}
      className="border text-wrap vb-pir-badge"
    >
      {pirLabel({ ...pir, caducidad: null })}
    </Badge>
  )
}

const columns: Column<UsuarioListItem>[] = [
  { id: 'nombre', header: 'Nombre', sortKey: 'nombre', cell: (u) => u.nombre, card: 'hidden' },
  { id: 'apellidos', header: 'Apellidos', sortKey: 'apellidos', cell: (u) => u.apellidos, card: 'hidden' },
  { id: 'nif', header: 'NIF', sortKey: 'nif', cell: (u) => <span className="font-monospace text-nowrap">{u.nif}</span> },
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
  { id: 'pir', header: 'PIR', cell: (u) => <PirBadgeCell pir={u.pir} /> },
]

const rowLinks = (u: UsuarioListItem): RowAction[] => [
  { label: 'Documentación', icon: 'folder2-open', to: recordPaths.documentacion(u.nif) },
  { label: 'Caja', icon: 'cash-coin', to: recordPaths.caja(u.nif) },
]

/** SPEC §2.6: residents of the company chosen in the top bar (DECISIONS D1); everyone creates, edits and deletes. */
export function UsuariosPage() {
  const empresaId = useEmpresaId()
  return (
    <CrudPage<UsuarioListItem, UsuarioCreate>
      resource="usuarios"
      client={usuariosResource}
      filters={{ empresaId }}
      tableFrom="lg"
      // The start page's links: residents whose PIR has expired or expires within 30 days (SPEC §4).
      listFilters={[
        {
          key: 'pir',
          label: 'PIR',
          type: 'select',
          placeholder: 'Todos',
          options: [
            { value: 'caducado', label: 'Caducado' },
            { value: 'aviso', label: 'Caduca en 30 días o menos' },
          ],
        },
      ]}
      columns={columns}
      rowLabel={fullName}
      extraRowActions={rowLinks}
      defaultSort={{ sort: 'nombre', order: 'asc' }}
      schema={formSchema}
      empty={{ nombre: '', apellidos: '', nif: '', viviendaId: undefined, gradoDependencia: '', fotoUrl: '' }}
      toValues={(u) => ({
        nombre: u.nombre,
        apellidos: u.apellidos,
        nif: u.nif,
        viviendaId: u.viviendas[0]?.id as number,
        gradoDependencia: u.gradoDependencia ?? '',
        fotoUrl: u.fotoUrl ?? '',
      })}
      // SPEC §6 / §8: a home of another company is refused with its own message, shown under Vivienda; a
      // duplicate NIF under NIF (DECISIONS D2).
      forbiddenField="viviendaId"
      conflictField="nif"
      texts={{
        search: 'Buscar usuario',
        searchPlaceholder: 'Nombre, apellidos o NIF',
        caption: 'Usuarios',
        empty: usuarioMessages.vacio,
        loadError: usuarioMessages.errorCarga,
        newButton: 'Nuevo usuario',
        createTitle: 'Añadir Nuevo Usuario',
        editTitle: 'Modificar Usuario',
        deleteQuestion: (u) => `¿Seguro que quieres eliminar el usuario ${fullName(u)}?`,
        created: 'Usuario creado correctamente',
        updated: 'Usuario modificado correctamente',
        deleted: 'Usuario eliminado correctamente',
      }}
      fields={(form, u) => {
        const home = u?.viviendas[0]
        return (
          <>
            <TextField form={form} name="nombre" label="Nombre" autoFocus />
            <TextField form={form} name="apellidos" label="Apellidos" />
            <TextField form={form} name="nif" label="NIF" placeholder="12345678Z" help="NIF o NIE, con su letra." />
            <RemoteComboboxField
              form={form}
              name="viviendaId"
              label="Vivienda"
              placeholder="Escribe para buscar una vivienda"
              queryKey={viviendaPickerKey(empresaId)}
              search={searchViviendas(empresaId)}
              current={home ? { value: home.id, label: home.nombre } : null}
            />
            <SelectField
              form={form}
              name="gradoDependencia"
              label="Grado de dependencia"
              placeholder="—"
              options={gradoOptions}
            />
            <TextField form={form} name="fotoUrl" label="Foto (URL)" type="url" placeholder="https://…" help="Opcional." />
          </>
        )
      }}
    />
  )
}
