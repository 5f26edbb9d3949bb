import type { NewPasswordForm } from '@vb/shared'
import { passwordMessages } from '@vb/shared/auth-core'
import { useState } from 'react'
import Alert from 'react-bootstrap/Alert'
import Form from 'react-bootstrap/Form'
import { useForm } from 'react-hook-form'
import { Link, Navigate } from 'react-router'
import { AuthLayout } from '../../components/auth-layout'
import { Icon } from '../../components/icon'
import { formValidation, registerClearing } from '../../lib/form-errors'
import { loadingForm, schemaFrom, schemaResolver } from '../../lib/loaded-schema'
import { session } from '../../lib/session'
import { cambiarPassword } from './api'
import { NewPasswordFields } from './new-password-fields'
import { useCompletePasswordChange } from './password-result'

/** The form's schema, loaded when the form is first typed into (a submit before that waits for it). */
const formSchema = schemaFrom(() => import('@vb/shared/auth').then((m) => m.newPasswordFormSchema))
const resolver = schemaResolver<NewPasswordForm>(formSchema)

/** SPEC §2.18: forced change of the temporary password. */
export function CambiarPasswordPage() {
  const [done, setDone] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  // A worker without a temporary password changes it with the current one (SPEC §2.19); decided once on
  // arrival, so storing the new session after success does not redirect mid-message.
  const [needsCurrent] = useState(() => {
    const t = session.trabajador()
    return Boolean(t) && !t?.passwordTemporal && !session.requiereCambioPassword()
  })
  const completeChange = useCompletePasswordChange()
  const form = useForm<NewPasswordForm>({
    ...formValidation,
    resolver,
    defaultValues: { passwordNueva: '', confirmar: '' },
  })
  const {
    handleSubmit,
    formState: { errors, isSubmitting },
  } = form

  if (needsCurrent) return <Navigate to="/cambiar-password-con-actual" replace />

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null)
    const trabajador = session.trabajador()
    if (!trabajador) {
      setFailure(passwordMessages.sinUsuario)
      return
    }
    try {
      const result = await cambiarPassword(trabajador.id, { passwordNueva: values.passwordNueva })
      setDone(true)
      completeChange(result)
    } catch {
      setFailure(passwordMessages.fallo)
    }
  })

  return (
    <AuthLayout>
      <Link to="/" className="btn btn-link px-0 mb-2 text-decoration-none" aria-label="Volver al inicio de sesión">
        <Icon name="arrow-left" className="fs-5" />
      </Link>
      <h1 className="h3 mb-1">Cambiar Contraseña</h1>
      <p className="text-body-secondary mb-4">Por seguridad, actualiza tu contraseña temporal</p>
      {done && (
        <Alert variant="success" role="status">
          <Icon name="check-circle-fill" className="me-2" />
          {passwordMessages.exito}
        </Alert>
      )}
      {failure && (
        <Alert variant="danger" role="alert">
          {failure}
        </Alert>
      )}
      <Form noValidate {...loadingForm(formSchema, onSubmit, setFailure)}>
        <NewPasswordFields
          idPrefix="cp"
          nueva={registerClearing(form, 'passwordNueva')}
          confirmar={registerClearing(form, 'confirmar')}
          errors={{ passwordNueva: errors.passwordNueva?.message, confirmar: errors.confirmar?.message }}
          autoFocus
          busy={isSubmitting}
          disabled={done}
        />
      </Form>
    </AuthLayout>
  )
}
