import { useQueryClient } from '@tanstack/react-query'
import type { AjustesUsuario, Trabajador } from '@vb/shared'
import { BORRADOR_RECUPERADO_MESSAGE } from '@vb/shared/core'
import { trabajadorMessages } from '@vb/shared/trabajadores-core'
import { useEffect, useState } from 'react'
import { Alert, Button, Card, Form, Spinner } from 'react-bootstrap'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router'
import { paths } from '../../app/paths'
import { LockedTextField } from '../../components/form-fields'
import { Icon } from '../../components/icon'
import { useKeptDraft } from '../../components/resource/use-resource-form'
import { useToast } from '../../components/toasts'
import { ApiError, api } from '../../lib/api-client'
import { applyFieldErrors, errorMessage, formValidation } from '../../lib/form-errors'
import { loadingForm, schemaFrom, schemaResolver } from '../../lib/loaded-schema'
import { session } from '../../lib/session'
import { meQueryKey, useMe } from '../../lib/use-me'

const FIELDS = ['nombre', 'apellidos', 'email'] as const
type Field = (typeof FIELDS)[number]
const unlockLabels: Record<Field, string> = {
  nombre: 'Editar nombre',
  apellidos: 'Editar apellidos',
  email: 'Editar correo electrónico',
}

/**
 * The form's schema, loaded when the form is first typed into (the screen starts without building it); a save before
 * it has arrived waits for it.
 */
const formSchema = schemaFrom(() => import('@vb/shared/trabajadores').then((m) => m.ajustesUsuarioSchema))
const resolver = schemaResolver<AjustesUsuario>(formSchema)

/** SPEC §2.21, §5 Own settings, §9: 'Configuración guardada correctamente' lasts 3 s. */
export const GUARDADA = 'Configuración guardada correctamente'

/**
 * SPEC §2.21: the worker's own name, surnames and e-mail, each locked until its pencil is pressed; 'Guardar
 * cambios' appears once one is unlocked. Role, companies and the active flag are not here: a worker never
 * changes them for itself (DECISIONS A5, P3; the server refuses them anyway).
 */
export function ConfiguracionUsuarioPage() {
  const me = useMe()
  if (me.isPending) {
    return (
      <p role="status" className="text-body-secondary">
        {trabajadorMessages.cargando}
      </p>
    )
  }
  if (!me.data) return <Alert variant="warning">{trabajadorMessages.noEncontrado}</Alert>
  return <Ajustes trabajador={me.data} />
}

function Ajustes({ trabajador }: { trabajador: Trabajador }) {
  const toast = useToast()
  const queryClient = useQueryClient()
  const [unlocked, setUnlocked] = useState<ReadonlySet<Field>>(new Set())
  const [failure, setFailure] = useState<string | null>(null)
  const form = useForm<AjustesUsuario, unknown, AjustesUsuario>({
    ...formValidation,
    resolver,
    defaultValues: { nombre: trabajador.nombre, apellidos: trabajador.apellidos, email: trabajador.email },
  })
  const { reset } = form
  // The stored values change (another tab, a save): the locked fields show them.
  useEffect(() => {
    reset({ nombre: trabajador.nombre, apellidos: trabajador.apellidos, email: trabajador.email })
  }, [trabajador.nombre, trabajador.apellidos, trabajador.email, reset])
  // What was typed when the session ended comes back after the login (lib/drafts.ts), as in the form dialogs:
  // the fields that differ from the stored values unlocked, so it counts as typed and 'Guardar cambios' shows.
  const draft = useKeptDraft(form, true, { name: 'ajustes-usuario', record: trabajador.id, reopen: () => {} })
  // biome-ignore lint/correctness/useExhaustiveDependencies: applied once, when the draft arrives
  useEffect(() => {
    if (!draft) return
    reset(draft, { keepDefaultValues: true })
    const stored: AjustesUsuario = { nombre: trabajador.nombre, apellidos: trabajador.apellidos, email: trabajador.email }
    setUnlocked(new Set(FIELDS.filter((field) => draft[field] !== stored[field])))
  }, [draft])

  const editing = unlocked.size > 0
  const save = form.handleSubmit(async (values) => {
    setFailure(null)
    try {
      const saved = await api.patch<Trabajador>(`/trabajadores/${trabajador.id}`, values)
      queryClient.setQueryData(meQueryKey, saved)
      session.setTrabajador(saved)
      setUnlocked(new Set())
      toast.success(GUARDADA)
    } catch (err) {
      if (applyFieldErrors(err, form.setError, FIELDS)) return
      if (err instanceof ApiError && err.code === 'CONFLICT') form.setError('email', { type: 'server', message: err.message })
      else setFailure(errorMessage(err))
    }
  })

  return (
    <Card className="shadow-sm border-0" style={{ maxWidth: 720 }}>
      <Card.Body className="p-4">
        <h2 className="h4 mb-4">Configuración de Usuario</h2>
        {draft && editing && (
          <Alert variant="info" role="status">
            {BORRADOR_RECUPERADO_MESSAGE}
          </Alert>
        )}
        {failure && (
          <Alert variant="danger" role="alert">
            {failure}
          </Alert>
        )}
        <Form noValidate {...loadingForm(formSchema, save, setFailure)} className="d-grid gap-3">
          {FIELDS.map((field) => (
            <LockedTextField
              key={field}
              form={form}
              name={field}
              label={field === 'email' ? 'Correo electrónico' : field === 'nombre' ? 'Nombre' : 'Apellidos'}
              type={field === 'email' ? 'email' : 'text'}
              autoComplete={field === 'email' ? 'email' : field === 'nombre' ? 'given-name' : 'family-name'}
              unlocked={unlocked.has(field)}
              unlockLabel={unlockLabels[field]}
              onUnlock={() => setUnlocked((current) => new Set([...current, field]))}
            />
          ))}
          <div className="d-flex flex-wrap gap-2 justify-content-between mt-2">
            <Link to={paths.cambiarPasswordConActual} className="btn btn-outline-secondary">
              <Icon name="key" className="me-2" />
              Cambiar contraseña
            </Link>
            {editing && (
              <Button type="submit" disabled={form.formState.isSubmitting}>
                {form.formState.isSubmitting ? (
                  <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />
                ) : (
                  <Icon name="save" className="me-2" />
                )}
                Guardar cambios
              </Button>
            )}
          </div>
        </Form>
      </Card.Body>
    </Card>
  )
}
