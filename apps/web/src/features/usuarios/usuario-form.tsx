import { zodResolver } from '@hookform/resolvers/zod'
import { permissionMessages, type Usuario, usuarioCreateSchema } from '@vb/shared'
import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { formValidation, RemoteSelectField, SelectField, TextField } from '../../components/form-fields'
import { FormModal } from '../../components/form-modal'
import { useToast } from '../../components/toasts'
import { ApiError } from '../../lib/api-client'
import { applyFieldErrors, errorMessage } from '../../lib/form-errors'
import { fetchViviendaOptions, useCreateUsuario, useUpdateUsuario, viviendaOptionsKey } from './api'

const FIELDS = ['nombre', 'apellidos', 'nif', 'viviendaId', 'gradoDependencia', 'fotoUrl'] as const

const gradoOptions = [
  { value: 'PVS', label: 'PVS' },
  { value: 'PEI', label: 'PEI' },
]

interface UsuarioFormProps {
  show: boolean
  /** The resident to modify, or null for a new one. */
  usuario: Usuario | null
  /** The company chosen in the top bar: the picker offers its homes. */
  empresaId: number | null
  onHide: () => void
}

/** SPEC §2.6 create and edit forms with per-field errors (§5 Resident); a new home moves the resident. */
export function UsuarioForm({ show, usuario, empresaId, onHide }: UsuarioFormProps) {
  const toast = useToast()
  const create = useCreateUsuario()
  const update = useUpdateUsuario()
  const form = useForm({
    ...formValidation,
    resolver: zodResolver(usuarioCreateSchema),
    defaultValues: { nombre: '', apellidos: '', nif: '', gradoDependencia: '', fotoUrl: '' },
  })
  const { reset } = form

  useEffect(() => {
    if (!show) return
    reset({
      nombre: usuario?.nombre ?? '',
      apellidos: usuario?.apellidos ?? '',
      nif: usuario?.nif ?? '',
      viviendaId: usuario?.viviendas[0]?.id,
      gradoDependencia: usuario?.gradoDependencia ?? '',
      fotoUrl: usuario?.fotoUrl ?? '',
    })
  }, [show, usuario, reset])

  const submit = form.handleSubmit(async (values) => {
    try {
      if (usuario) {
        await update.mutateAsync({ id: usuario.id, body: values })
        toast.success('Usuario modificado correctamente')
      } else {
        await create.mutateAsync(values)
        toast.success('Usuario creado correctamente')
      }
      onHide()
    } catch (err) {
      if (applyFieldErrors(err, form.setError, FIELDS)) return
      if (err instanceof ApiError && err.code === 'CONFLICT') {
        // DECISIONS D2: the NIF is unique ('Ya existe un usuario con ese NIF').
        form.setError('nif', { type: 'server', message: err.message })
      } else if (
        err instanceof ApiError &&
        (err.message === permissionMessages.crearUsuarioEnVivienda || err.message === permissionMessages.moverUsuarioAVivienda)
      ) {
        form.setError('viviendaId', { type: 'server', message: err.message })
      } else {
        toast.error(errorMessage(err))
      }
    }
  })

  const current = usuario?.viviendas[0]
  return (
    <FormModal
      show={show}
      title={usuario ? 'Modificar Usuario' : 'Añadir Nuevo Usuario'}
      onHide={onHide}
      onSubmit={submit}
      submitting={form.formState.isSubmitting}
    >
      <TextField form={form} name="nombre" label="Nombre" autoFocus autoComplete="off" />
      <TextField form={form} name="apellidos" label="Apellidos" />
      <TextField form={form} name="nif" label="NIF" placeholder="12345678Z" help="NIF o NIE, con su letra." />
      <RemoteSelectField
        form={form}
        name="viviendaId"
        label="Vivienda"
        numeric
        placeholder="Selecciona una vivienda"
        queryKey={viviendaOptionsKey(empresaId)}
        fetcher={fetchViviendaOptions(empresaId)}
        extraOptions={current ? [{ value: current.id, label: current.nombre }] : []}
      />
      <SelectField form={form} name="gradoDependencia" label="Grado de dependencia" placeholder="—" options={gradoOptions} />
      <TextField form={form} name="fotoUrl" label="Foto (URL)" type="url" placeholder="https://…" help="Opcional." />
    </FormModal>
  )
}
