import { zodResolver } from '@hookform/resolvers/zod'
import { type Empresa, empresaCreateSchema } from '@vb/shared'
import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { formValidation, TextField } from '../../components/form-fields'
import { FormModal } from '../../components/form-modal'
import { useToast } from '../../components/toasts'
import { applyFieldErrors, errorMessage } from '../../lib/form-errors'
import { useCreateEmpresa, useUpdateEmpresa } from './api'

interface EmpresaFormProps {
  show: boolean
  /** The company to modify, or null for a new one. */
  empresa: Empresa | null
  onHide: () => void
}

/** SPEC §2.4 'Añadir Nueva Empresa' / 'Modificar Empresa', validated with the schema the API uses (§5). */
export function EmpresaForm({ show, empresa, onHide }: EmpresaFormProps) {
  const toast = useToast()
  const create = useCreateEmpresa()
  const update = useUpdateEmpresa()
  const form = useForm({
    ...formValidation,
    resolver: zodResolver(empresaCreateSchema),
    defaultValues: { nombre: '', logoUrl: '' },
  })
  const { reset } = form

  useEffect(() => {
    if (show) reset({ nombre: empresa?.nombre ?? '', logoUrl: empresa?.logoUrl ?? '' })
  }, [show, empresa, reset])

  const submit = form.handleSubmit(async (values) => {
    try {
      if (empresa) {
        await update.mutateAsync({ id: empresa.id, body: values })
        toast.success('Empresa modificada correctamente')
      } else {
        await create.mutateAsync(values)
        toast.success('Empresa creada correctamente')
      }
      onHide()
    } catch (err) {
      if (!applyFieldErrors(err, form.setError, ['nombre', 'logoUrl'])) toast.error(errorMessage(err))
    }
  })

  return (
    <FormModal
      show={show}
      title={empresa ? 'Modificar Empresa' : 'Añadir Nueva Empresa'}
      onHide={onHide}
      onSubmit={submit}
      submitting={form.formState.isSubmitting}
    >
      <TextField form={form} name="nombre" label="Nombre de Empresa" autoFocus />
      <TextField
        form={form}
        name="logoUrl"
        label="URL del logo"
        type="url"
        placeholder="https://…"
        help="Opcional. Sin logo se muestra un icono."
      />
    </FormModal>
  )
}
