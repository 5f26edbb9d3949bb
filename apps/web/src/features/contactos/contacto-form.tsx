import { zodResolver } from '@hookform/resolvers/zod'
import { type Contacto, contactoCreateSchema } from '@vb/shared'
import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { formValidation, RemoteSelectField, TextField } from '../../components/form-fields'
import { FormModal } from '../../components/form-modal'
import { useToast } from '../../components/toasts'
import { empresaOptionsKey, fetchEmpresaOptions } from '../../lib/empresas'
import { applyFieldErrors, errorMessage } from '../../lib/form-errors'
import { useCreateContacto, useUpdateContacto } from './api'

const FIELDS = ['nombreComercial', 'agente', 'correo', 'telefono', 'empresaId'] as const

interface ContactoFormProps {
  show: boolean
  /** The contact to modify, or null for a new one. */
  contacto: Contacto | null
  /** Preselected company of a new contact: the one chosen in the top bar. */
  empresaId: number | null
  onHide: () => void
}

/** SPEC §2.7 create and edit modals (§5 Contact). The photo is the company's logo, set by the server. */
export function ContactoForm({ show, contacto, empresaId, onHide }: ContactoFormProps) {
  const toast = useToast()
  const create = useCreateContacto()
  const update = useUpdateContacto()
  const form = useForm({
    ...formValidation,
    resolver: zodResolver(contactoCreateSchema),
    defaultValues: { nombreComercial: '', agente: '', correo: '', telefono: '' },
  })
  const { reset } = form

  useEffect(() => {
    if (!show) return
    reset({
      nombreComercial: contacto?.nombreComercial ?? '',
      agente: contacto?.agente ?? '',
      correo: contacto?.correo ?? '',
      telefono: contacto?.telefono ?? '',
      empresaId: contacto?.empresaId ?? empresaId ?? undefined,
    })
  }, [show, contacto, empresaId, reset])

  const submit = form.handleSubmit(async (values) => {
    try {
      if (contacto) {
        await update.mutateAsync({ id: contacto.id, body: values })
        toast.success('Contacto modificado correctamente')
      } else {
        await create.mutateAsync(values)
        toast.success('Contacto creado correctamente')
      }
      onHide()
    } catch (err) {
      if (!applyFieldErrors(err, form.setError, FIELDS)) toast.error(errorMessage(err))
    }
  })

  return (
    <FormModal
      show={show}
      title={contacto ? 'Modificar Contacto' : 'Añadir Nuevo Contacto'}
      onHide={onHide}
      onSubmit={submit}
      submitting={form.formState.isSubmitting}
    >
      <TextField form={form} name="nombreComercial" label="Nombre comercial" autoFocus />
      <TextField form={form} name="agente" label="Agente" />
      <TextField form={form} name="correo" label="Correo" type="email" autoComplete="off" />
      <TextField form={form} name="telefono" label="Teléfono" type="tel" />
      <RemoteSelectField
        form={form}
        name="empresaId"
        label="Empresa"
        numeric
        placeholder="Selecciona una empresa"
        queryKey={empresaOptionsKey}
        fetcher={fetchEmpresaOptions}
      />
    </FormModal>
  )
}
