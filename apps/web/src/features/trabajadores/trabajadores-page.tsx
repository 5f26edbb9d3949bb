import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Empresa, Trabajador, TrabajadorCreateInput } from '@vb/shared'
import { can } from '@vb/shared/permissions'
import { roles } from '@vb/shared/roles-core'
import { rolLabels, trabajadorMessages } from '@vb/shared/trabajadores-core'
import { useState } from 'react'
import type { z } from 'zod'
import { paths } from '../../app/paths'
import { ConfirmDialog } from '../../components/confirm-dialog'
import { EntityImage } from '../../components/entity-image'
import { RemoteCheckboxGroupField, SelectField, SwitchField, TextField } from '../../components/form-fields'
import type { Column, RowAction } from '../../components/list'
import { CrudPage, crudTexts } from '../../components/resource/crud-page'
import { useToast } from '../../components/toasts'
import { EstadoBadge, fotoSrc, RolBadge } from '../../components/trabajador-badges'
import { UploadField } from '../../components/upload-field'
import { api } from '../../lib/api-client'
import { errorMessage } from '../../lib/form-errors'
import { schemaFrom } from '../../lib/loaded-schema'
import { refreshAfterChange, resourceClient } from '../../lib/resource'
import { useTrabajador } from '../../lib/use-session'
import { PasswordDialog } from './password-dialog'

type Form = TrabajadorCreateInput
/** POST /api/trabajadores and an admin's reset answer the worker and its one-time password (DECISIONS S1). */
interface TrabajadorCreado {
  trabajador: Trabajador
  passwordTemporal: string
}

const base = resourceClient<Trabajador, Form, Partial<Form>, TrabajadorCreado>('trabajadores')

/**
 * SPEC §7: a worker's companies change through POST/DELETE /trabajadores/{id}/empresas/{empresaId}, after the
 * PATCH of its other fields. Companies the form could not change (an ADMIN's view of another company's link)
 * are in its values as they were, so they are never removed here.
 */
export const trabajadoresResource: typeof base = {
  ...base,
  async update(id, body, options) {
    const { empresaIds, ...rest } = body
    let saved = await base.update(id, rest, options)
    if (empresaIds) {
      const current = saved.empresas.map((e) => e.id)
      for (const empresaId of empresaIds.filter((e) => !current.includes(e)))
        saved = await api.post<Trabajador>(`/trabajadores/${id}/empresas/${empresaId}`)
      for (const empresaId of current.filter((e) => !empresaIds.includes(e))) {
        await api.delete(`/trabajadores/${id}/empresas/${empresaId}`)
        saved = { ...saved, empresas: saved.empresas.filter((e) => e.id !== empresaId) }
      }
    }
    return saved
  },
}

/** The form's schema, loaded when the form first opens (the screen starts without building it). */
const formSchema = schemaFrom(() =>
  import('@vb/shared/trabajadores').then((m) => m.trabajadorCreateSchema as unknown as z.ZodType<unknown, Form>),
)

const fullName = (t: Pick<Trabajador, 'nombre' | 'apellidos'>) => `${t.nombre} ${t.apellidos}`

const columns: Column<Trabajador>[] = [
  {
    id: 'foto',
    header: 'Foto',
    cell: (t) => (
      <EntityImage src={fotoSrc(t)} alt={`Foto de ${fullName(t)}`} fallbackIcon="person-circle" fallbackLabel="Sin foto" />
    ),
    card: 'media',
  },
  // Shown as 'nombre apellidos', so sorted that way (then by surnames): 'Nombre (A-Z)' reads in order.
  { id: 'nombre', header: 'Nombre', sortKey: 'nombre', cell: (t) => fullName(t), card: 'title' },
  {
    id: 'email',
    header: 'Email',
    sortKey: 'email',
    // A long address breaks after its '@', never in the middle of a word.
    cell: (t) => {
      const at = t.email.indexOf('@')
      return at < 0 ? (
        t.email
      ) : (
        <>
          {t.email.slice(0, at)}
          <wbr />
          {t.email.slice(at)}
        </>
      )
    },
  },
  { id: 'nif', header: 'NIF', sortKey: 'nif', cell: (t) => <span className="font-monospace text-nowrap">{t.nif}</span> },
  { id: 'rol', header: 'Rol', sortKey: 'rol', cell: (t) => <RolBadge rol={t.rol} /> },
  {
    id: 'empresas',
    header: 'Empresas',
    cell: (t) =>
      t.empresas.length ? (
        <span className="small">{t.empresas.map((e) => e.nombre).join(', ')}</span>
      ) : (
        <span className="text-body-secondary">{trabajadorMessages.sinEmpresas}</span>
      ),
  },
  { id: 'estado', header: 'Estado', sortKey: 'activo', cell: (t) => <EstadoBadge activo={t.activo} /> },
]

/** The companies the worker may give (SUPERADMIN: all; ADMIN: its own): the server scopes /empresas. */
const empresaOptions = async () =>
  (await api.get<Empresa[]>('/empresas', { pageSize: 100, sort: 'nombre', order: 'asc' })).map((e) => ({
    value: e.id,
    label: e.nombre,
  }))

/** Signed photo links expire after 5 minutes: the list is read again before they do. */
const REFRESH_MS = 4 * 60_000

/**
 * SPEC §2.10, §6, DECISIONS P3, S1: workers. ADMIN and SUPERADMIN list, create, edit and delete the workers
 * they reach; an ADMIN creates only EMPLEADO or ADMIN, only in its own companies, and never edits or deletes
 * a SUPERADMIN. A new worker's password, and an admin's reset, is generated by the server and shown once.
 */
export function TrabajadoresPage() {
  const yo = useTrabajador()
  const toast = useToast()
  const queryClient = useQueryClient()
  const [password, setPassword] = useState<TrabajadorCreado | null>(null)
  const [resetting, setResetting] = useState<Trabajador | null>(null)
  const esSuper = yo?.rol === 'SUPERADMIN'
  const rolOptions = roles.filter((r) => esSuper || r !== 'SUPERADMIN').map((r) => ({ value: r, label: rolLabels[r] }))
  // DECISIONS P3: an ADMIN never acts on a SUPERADMIN; nobody edits, resets or deletes itself here (its own
  // data are in /configuracionUsuario).
  const mayActOn = (t: Trabajador) => t.id !== yo?.id && (esSuper || t.rol !== 'SUPERADMIN')
  // DECISIONS P1: an ADMIN deletes only a worker of its companies alone (the server refuses the rest).
  const propias = new Set((yo?.empresas ?? []).map((e) => e.id))
  const mayDo = (t: Trabajador, action: 'update' | 'delete') =>
    mayActOn(t) && (action !== 'delete' || esSuper || t.empresas.every((e) => propias.has(e.id)))

  const reset = useMutation({
    mutationFn: (t: Trabajador) => api.post<TrabajadorCreado>(`/trabajadores/${t.id}/restablecer-password`),
    onSuccess: (result) => {
      setResetting(null)
      setPassword(result)
      toast.success('Contraseña restablecida correctamente')
      void refreshAfterChange(queryClient, trabajadoresResource.name)
    },
    onError: (err) => {
      setResetting(null)
      toast.error(errorMessage(err))
    },
  })

  const rowLinks = (t: Trabajador): RowAction[] =>
    t.id === yo?.id
      ? [{ label: 'Configuración de usuario', icon: 'sliders', to: paths.configuracionUsuario }]
      : mayActOn(t) && can(yo, 'trabajadores', 'update')
        ? [{ label: 'Restablecer contraseña', icon: 'key', onSelect: () => setResetting(t) }]
        : []

  return (
    <>
      <CrudPage<Trabajador, Form, TrabajadorCreado>
        resource="trabajadores"
        client={trabajadoresResource}
        columns={columns}
        tableFrom="lg"
        rowLabel={fullName}
        extraRowActions={rowLinks}
        rowCan={mayDo}
        onCreated={setPassword}
        refreshMs={REFRESH_MS}
        defaultSort={{ sort: 'nombre', order: 'asc' }}
        listFilters={[
          { key: 'rol', label: 'Rol', type: 'select', options: roles.map((r) => ({ value: r, label: rolLabels[r] })) },
          {
            key: 'activo',
            label: 'Estado',
            type: 'select',
            options: [
              { value: 'true', label: 'Activo' },
              { value: 'false', label: 'Inactivo' },
            ],
          },
        ]}
        schema={formSchema}
        empty={{
          nombre: '',
          apellidos: '',
          email: '',
          nif: '',
          rol: 'EMPLEADO',
          activo: true,
          fotoUrl: '',
          empresaIds: yo && !esSuper ? yo.empresas.slice(0, 1).map((e) => e.id) : [],
        }}
        toValues={(t) => ({
          nombre: t.nombre,
          apellidos: t.apellidos,
          email: t.email,
          nif: t.nif,
          rol: t.rol,
          activo: t.activo,
          fotoUrl: t.fotoUrl ?? '',
          empresaIds: t.empresas.map((e) => e.id),
        })}
        // A company the ADMIN does not belong to: SPEC §6's refusal goes under Empresas; a taken e-mail under Email.
        forbiddenField="empresaIds"
        conflictField="email"
        texts={{
          ...crudTexts({ singular: 'trabajador', plural: 'Trabajadores', label: fullName }),
          searchPlaceholder: 'Nombre, apellidos, email o NIF',
          empty: trabajadorMessages.vacio,
          loadError: trabajadorMessages.errorCarga,
        }}
        fields={(form, t) => {
          const reachable = new Set(esSuper ? [] : (yo?.empresas ?? []).map((e) => e.id))
          return (
            <>
              <TextField form={form} name="nombre" label="Nombre" autoFocus />
              <TextField form={form} name="apellidos" label="Apellidos" />
              <TextField form={form} name="email" label="Email" type="email" />
              <TextField form={form} name="nif" label="NIF/NIE" placeholder="12345678Z o X1234567L" />
              <SelectField form={form} name="rol" label="Rol" options={rolOptions} />
              <RemoteCheckboxGroupField
                form={form}
                name="empresaIds"
                label="Empresas"
                queryKey={['empresas', 'opciones']}
                fetcher={empresaOptions}
                // Companies of the worker the admin does not manage: shown, kept, not changeable (DECISIONS P3).
                extraOptions={(t?.empresas ?? [])
                  .filter((e) => !esSuper && !reachable.has(e.id))
                  .map((e) => ({ value: e.id, label: e.nombre, disabled: true }))}
                emptyText="No hay empresas."
              />
              <SwitchField form={form} name="activo" label="Activo" help="Un trabajador inactivo no puede iniciar sesión." />
              <UploadField
                form={form}
                name="fotoUrl"
                label="Foto"
                current={t?.foto}
                failureNote="El trabajador se guardará sin foto."
                help="Opcional. PDF, Word (.doc, .docx), JPG o PNG, hasta 10 MB."
              />
            </>
          )
        }}
      />
      <ConfirmDialog
        show={resetting !== null}
        title="Restablecer contraseña"
        message={
          resetting
            ? `¿Restablecer la contraseña de ${fullName(resetting)}? Se cerrarán sus sesiones y tendrá que cambiarla al entrar.`
            : ''
        }
        confirmLabel="Restablecer"
        pending={reset.isPending}
        onConfirm={() => resetting && reset.mutate(resetting)}
        onCancel={() => setResetting(null)}
      />
      <PasswordDialog
        result={password && { nombre: fullName(password.trabajador), password: password.passwordTemporal }}
        onClose={() => setPassword(null)}
      />
    </>
  )
}
