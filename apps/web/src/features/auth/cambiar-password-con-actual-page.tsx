import type { ChangePasswordForm } from '@vb/shared'
import { passwordMessages } from '@vb/shared/auth-core'
import { useState } from 'react'
import Alert from 'react-bootstrap/Alert'
import Form from 'react-bootstrap/Form'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router'
import { AuthLayout } from '../../components/auth-layout'
import { Icon } from '../../components/icon'
import { PasswordField } from '../../components/password-field'
import { ApiError } from '../../lib/api-client'
import { applyFieldErrors, formValidation, registerClearing } from '../../lib/form-errors'
import { loadingForm, schemaFrom, schemaResolver } from '../../lib/loaded-schema'
import { session } from '../../lib/session'
import { cambiarPassword } from './api'
import { NewPasswordFields } from './new-password-fields'
import { useCompletePasswordChange } from './password-result'

/** The form's schema, loaded when the form is first typed into (a submit before that waits for it). */
const formSchema = schemaFrom(() => import('@vb/shared/auth').then((m) => m.changePasswordFormSchema))
const resolver = schemaResolver<ChangePasswordForm>(formSchema)

/** SPEC §2.19: change the password giving the current one; otherwise the same flow as §2.18. */
export function CambiarPasswordConActualPage() {
  const [done, setDone] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const completeChange = useCompletePasswordChange()
  const form = useForm<ChangePasswordForm>({
    ...formValidation,
    resolver,
    defaultValues: { passwordActual: '', passwordNueva: '', confirmar: '' },
  })
  const {
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = form

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null)
    const trabajador = session.trabajador()
    if (!trabajador) {
      setFailure(passwordMessages.sinUsuario)
      return
    }
    try {
      const result = await cambiarPassword(trabajador.id, {
        passwordActual: values.passwordActual,
        passwordNueva: values.passwordNueva,
      })
      setDone(true)
      completeChange(result)
    } catch (err) {
      // SPEC §8: this variant shows the server's message when there is one (e.g. a wrong current password).
      if (applyFieldErrors(err, setError, ['passwordActual', 'passwordNueva'])) return
      setFailure(err instanceof ApiError && err.message ? err.message : passwordMessages.fallo)
    }
  })

  return (
    <AuthLayout>
      <Link
        to="/configuracionUsuario"
        className="btn btn-link px-0 mb-2 text-decoration-none"
        aria-label="Volver a la configuración de usuario"
      >
        <Icon name="arrow-left" className="fs-5" />
      </Link>
      <h1 className="h3 mb-1">Cambiar Contraseña</h1>
      <p className="text-body-secondary mb-4">Escribe tu contraseña actual y elige una nueva.</p>
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
        <PasswordField
          id="cpa-actual"
          label="Contraseña actual"
          autoComplete="current-password"
          autoFocus
          error={errors.passwordActual?.message}
          registration={registerClearing(form, 'passwordActual')}
        />
        <NewPasswordFields
          idPrefix="cpa"
          nueva={registerClearing(form, 'passwordNueva')}
          confirmar={registerClearing(form, 'confirmar')}
          errors={{ passwordNueva: errors.passwordNueva?.message, confirmar: errors.confirmar?.message }}
          confirmLabel="Confirmar nueva contraseña"
          busy={isSubmitting}
          disabled={done}
        />
      </Form>
    </AuthLayout>
  )
}
