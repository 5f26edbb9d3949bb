import { zodResolver } from '@hookform/resolvers/zod'
import { type Vivienda, viviendaCreateSchema } from '@vb/shared'
import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { formValidation, RemoteSelectField, TextField } from '../../components/form-fields'
import { FormModal } from '../../components/form-modal'
import { useToast } from '../../components/toasts'
import { empresaOptionsKey, fetchEmpresaOptions } from '../../lib/empresas'
import { applyFieldErrors, errorMessage } from '../../lib/form-errors'
import { useCreateVivienda, useUpdateVivienda } from './api'

interface ViviendaFormProps {
  show: boolean
  /** The home to modify, or null for a new one. */
  vivienda: Vivienda | null
  /** Preselected company of a new home: the one chosen in the top bar. */
  empresaId: number | null
  onHide: () => void
}

/** SPEC §2.5 'Añadir Nueva Vivienda' / 'Modificar Vivienda' (§5 Home). */
export function ViviendaForm({ show, vivienda, empresaId, onHide }: ViviendaFormProps) {
  const toast = useToast()
  const create = useCreateVivienda()
  const update = useUpdateVivienda()
  const form = useForm({
    ...formValidation,
    resolver: zodResolver(viviendaCreateSchema),
    defaultValues: { nombre: '' },
  })
  const { reset } = form

  useEffect(() => {
    if (show) reset({ nombre: vivienda?.nombre ?? '', empresaId: vivienda?.empresaId ?? empresaId ?? undefined })
  }, [show, vivienda, empresaId, reset])

  const submit = form.handleSubmit(async (values) => {
    try {
      if (vivienda) {
        await update.mutateAsync({ id: vivienda.id, body: values })
        toast.success('Vivienda modificada correctamente')
      } else {
        await create.mutateAsync(values)
        toast.success('Vivienda creada correctamente')
      }
      onHide()
    } catch (err) {
      if (!applyFieldErrors(err, form.setError, ['nombre', 'empresaId'])) toast.error(errorMessage(err))
    }
  })

  return (
    <FormModal
      show={show}
      title={vivienda ? 'Modificar Vivienda' : 'Añadir Nueva Vivienda'}
      onHide={onHide}
      onSubmit={submit}
      submitting={form.formState.isSubmitting}
    >
      <TextField form={form} name="nombre" label="Dirección" autoFocus />
      <RemoteSelectField
        form={form}
        name="empresaId"
        label="Empresa"
        numeric
        placeholder="Selecciona una empresa"
        queryKey={empresaOptionsKey}
        fetcher={fetchEmpresaOptions}
        extraOptions={vivienda ? [{ value: vivienda.empresaId, label: vivienda.empresa.nombre }] : []}
      />
    </FormModal>
  )
}
