import type { NewPasswordForm } from '@vb/shared'
import { passwordMessages, RECUPERAR_MESSAGE } from '@vb/shared/auth-core'
import { useEffect, useState } from 'react'
import Alert from 'react-bootstrap/Alert'
import Button from 'react-bootstrap/Button'
import Form from 'react-bootstrap/Form'
import Spinner from 'react-bootstrap/Spinner'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router'
import { AuthLayout } from '../../components/auth-layout'
import { Icon } from '../../components/icon'
import { ApiError } from '../../lib/api-client'
import { formValidation, registerClearing } from '../../lib/form-errors'
import { loadingForm, schemaFrom, schemaResolver } from '../../lib/loaded-schema'
import { recuperarPassword, restablecerPassword } from './api'
import { NewPasswordFields } from './new-password-fields'

/** The forms' schemas, loaded when a form is first typed into (a submit before that waits for it). */
const emailSchema = schemaFrom(() => import('@vb/shared/auth').then((m) => m.recuperarPasswordSchema))
const emailResolver = schemaResolver<{ email: string }>(emailSchema)
const newPasswordSchema = schemaFrom(() => import('@vb/shared/auth').then((m) => m.newPasswordFormSchema))
const newPasswordResolver = schemaResolver<NewPasswordForm>(newPasswordSchema)

/** The reset link's `#token=…` (the fragment never reaches a server log). */
function readResetToken(): string | null {
  return new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token')
}

/** DECISIONS S4: ask for a reset link by e-mail, or, opened from that link, choose a new password. */
export function RecuperarPasswordPage() {
  const [token, setToken] = useState(readResetToken)
  useEffect(() => {
    // Keep the one-time token out of the address bar and the history once read.
    const strip = () => {
      if (window.location.hash)
        window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search)
    }
    // A link opened while this screen is already showing only changes the fragment.
    const onHashChange = () => {
      const next = readResetToken()
      if (next) setToken(next)
      strip()
    }
    strip()
    window.addEventListener('hashchange', onHashChange)
    return () => window.removeEventListener('hashchange', onHashChange)
  }, [])
  return (
    <AuthLayout>
      <Link to="/" className="btn btn-link px-0 mb-2 text-decoration-none" aria-label="Volver al inicio de sesión">
        <Icon name="arrow-left" className="fs-5" />
      </Link>
      {token ? <RestablecerForm key={token} token={token} /> : <PedirEnlaceForm />}
    </AuthLayout>
  )
}

function PedirEnlaceForm() {
  const [sent, setSent] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const form = useForm<{ email: string }>({
    ...formValidation,
    resolver: emailResolver,
    defaultValues: { email: '' },
  })
  const {
    handleSubmit,
    formState: { errors, isSubmitting },
  } = form

  const onSubmit = handleSubmit(async ({ email }) => {
    setFailure(null)
    try {
      const { message } = await recuperarPassword(email)
      setSent(message || RECUPERAR_MESSAGE)
    } catch (err) {
      setFailure(err instanceof ApiError ? err.message : passwordMessages.fallo)
    }
  })

  return (
    <>
      <h1 className="h3 mb-1">Recuperar contraseña</h1>
      <p className="text-body-secondary mb-4">Escribe tu correo y te enviaremos un enlace para elegir una contraseña nueva.</p>
      {sent ? (
        <>
          <Alert variant="success" role="status">
            <Icon name="envelope-check" className="me-2" />
            {sent}
          </Alert>
          <Link to="/" className="btn btn-outline-primary w-100">
            Volver a iniciar sesión
          </Link>
        </>
      ) : (
        <>
          {failure && (
            <Alert variant="danger" role="alert">
              {failure}
            </Alert>
          )}
          <Form noValidate {...loadingForm(emailSchema, onSubmit, setFailure)}>
            <Form.Group className="mb-3" controlId="recuperar-email">
              <Form.Label>Correo</Form.Label>
              <Form.Control
                type="email"
                autoComplete="username"
                inputMode="email"
                autoFocus
                isInvalid={Boolean(errors.email)}
                aria-invalid={errors.email ? true : undefined}
                aria-describedby={errors.email ? 'recuperar-email-error' : undefined}
                {...registerClearing(form, 'email')}
              />
              <Form.Control.Feedback type="invalid" id="recuperar-email-error">
                {errors.email?.message}
              </Form.Control.Feedback>
            </Form.Group>
            <Button type="submit" className="w-100 mt-2" size="lg" disabled={isSubmitting}>
              {isSubmitting && <Spinner size="sm" className="me-2" aria-hidden="true" />}
              Enviar enlace
            </Button>
          </Form>
        </>
      )}
    </>
  )
}

function RestablecerForm({ token }: { token: string }) {
  const [done, setDone] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const form = useForm<NewPasswordForm>({
    ...formValidation,
    resolver: newPasswordResolver,
    defaultValues: { passwordNueva: '', confirmar: '' },
  })
  const {
    handleSubmit,
    formState: { errors, isSubmitting },
  } = form

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null)
    try {
      await restablecerPassword(token, values.passwordNueva)
      setDone(true)
    } catch (err) {
      // 400: the link is invalid, used or expired ('El enlace no es válido o ha caducado.').
      setFailure(err instanceof ApiError ? err.message : passwordMessages.fallo)
    }
  })

  if (done) {
    return (
      <>
        <h1 className="h3 mb-3">Restablecer contraseña</h1>
        <Alert variant="success" role="status">
          <Icon name="check-circle-fill" className="me-2" />
          {passwordMessages.exito}
        </Alert>
        <Link to="/" className="btn btn-primary w-100">
          Iniciar sesión
        </Link>
      </>
    )
  }

  return (
    <>
      <h1 className="h3 mb-1">Restablecer contraseña</h1>
      <p className="text-body-secondary mb-4">Elige una contraseña nueva para tu cuenta.</p>
      {failure && (
        <Alert variant="danger" role="alert">
          {failure}
        </Alert>
      )}
      <Form noValidate {...loadingForm(newPasswordSchema, onSubmit, setFailure)}>
        <NewPasswordFields
          idPrefix="rp"
          nueva={registerClearing(form, 'passwordNueva')}
          confirmar={registerClearing(form, 'confirmar')}
          errors={{ passwordNueva: errors.passwordNueva?.message, confirmar: errors.confirmar?.message }}
          autoFocus
          busy={isSubmitting}
        />
      </Form>
    </>
  )
}
