import { useQueryClient } from '@tanstack/react-query'
import type { LoginInput } from '@vb/shared'
import { LOGIN_FAILED_MESSAGE, SESION_TERMINADA_MESSAGE } from '@vb/shared/core'
import { useEffect, useState } from 'react'
import Alert from 'react-bootstrap/Alert'
import Button from 'react-bootstrap/Button'
import Form from 'react-bootstrap/Form'
import Spinner from 'react-bootstrap/Spinner'
import { type Resolver, useForm } from 'react-hook-form'
import { Link, useLocation, useNavigate } from 'react-router'
import { AuthLayout } from '../../components/auth-layout'
import { FirstIcon as Icon } from '../../components/first-icons'
import { PasswordField } from '../../components/password-field'
import { ApiError } from '../../lib/api-client'
import { drafts } from '../../lib/drafts'
import { formValidation, registerClearing } from '../../lib/form-errors'
import { session } from '../../lib/session'
import { login } from './api'
import { returnTo, sesionTerminada } from './login-state'

/**
 * The login's validation (the shared schema, SPEC §5) loads when the user starts typing, not with the page:
 * the schema library is not part of the first visit's download, and by the time anyone submits it is there
 * (a submit before that waits for it).
 */
let schemaResolver: Promise<Resolver<LoginInput>> | undefined
const loadResolver = () => {
  schemaResolver ??= Promise.all([import('@hookform/resolvers/zod'), import('@vb/shared/auth')]).then(
    ([{ zodResolver }, { loginSchema }]) => zodResolver(loginSchema) as Resolver<LoginInput>,
  )
  return schemaResolver
}
const loginResolver: Resolver<LoginInput> = async (values, context, options) => (await loadResolver())(values, context, options)

/** SPEC §2.17 Login. */
export function LoginPage() {
  const navigate = useNavigate()
  const { state } = useLocation()
  const queryClient = useQueryClient()
  const [failure, setFailure] = useState<string | null>(null)
  const form = useForm<LoginInput>({ ...formValidation, resolver: loginResolver, defaultValues: { email: '', password: '' } })
  const {
    handleSubmit,
    formState: { errors, isSubmitting },
  } = form

  // SPEC §2.2: opening the login screen clears all stored session data.
  useEffect(() => {
    session.clear()
    queryClient.clear()
  }, [queryClient])
  const onInput = () => {
    setFailure(null)
    void loadResolver()
  }

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null)
    try {
      const { token, trabajador } = await login(values)
      session.start(token, trabajador)
      sesionTerminada.clear()
      // The company chosen when the session ended, if it was this worker's (lib/drafts.ts).
      const empresa = drafts.loggedIn(trabajador.id)
      if (empresa !== undefined) session.setEmpresa(empresa)
      // SPEC §4: a temporary password must be changed first. Otherwise the screen that sent the worker here, if any.
      navigate(trabajador.passwordTemporal ? '/cambiar-password' : returnTo(state, '/inicio'), { replace: true })
    } catch (err) {
      // SPEC §8: the same message whatever failed (DECISIONS S3); only the rate limit says more.
      setFailure(err instanceof ApiError && err.code === 'RATE_LIMITED' ? err.message : LOGIN_FAILED_MESSAGE)
    }
  })

  return (
    <AuthLayout>
      <h1 className="h3 mb-1">Bienvenido</h1>
      <p className="text-body-secondary mb-4">Inicia sesión en tu cuenta</p>
      {sesionTerminada.get() && !failure && (
        <Alert variant="warning" className="d-flex gap-2 align-items-start" role="status">
          <Icon name="exclamation-triangle-fill" className="mt-1" />
          <span>{SESION_TERMINADA_MESSAGE}</span>
        </Alert>
      )}
      {failure && (
        <Alert variant="danger" className="d-flex gap-2 align-items-start" role="alert">
          <Icon name="exclamation-triangle-fill" className="mt-1" />
          <span>{failure}</span>
        </Alert>
      )}
      <Form noValidate onSubmit={onSubmit}>
        <Form.Group className="mb-3" controlId="login-email">
          <Form.Label>Correo</Form.Label>
          <Form.Control
            type="email"
            autoComplete="username"
            inputMode="email"
            autoFocus
            isInvalid={Boolean(errors.email)}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? 'login-email-error' : undefined}
            {...registerClearing(form, 'email', { onChange: onInput })}
          />
          <Form.Control.Feedback type="invalid" id="login-email-error">
            {errors.email?.message}
          </Form.Control.Feedback>
        </Form.Group>
        <PasswordField
          id="login-password"
          label="Contraseña"
          autoComplete="current-password"
          error={errors.password?.message}
          registration={registerClearing(form, 'password', { onChange: onInput })}
        />
        <Button type="submit" className="w-100 mt-2" size="lg" disabled={isSubmitting}>
          {isSubmitting ? (
            <>
              <Spinner size="sm" className="me-2" aria-hidden="true" />
              Entrando...
            </>
          ) : (
            'Entrar'
          )}
        </Button>
      </Form>
      <div className="text-center mt-4">
        <Link to="/recuperar-contraseña">¿Has olvidado tu contraseña?</Link>
      </div>
    </AuthLayout>
  )
}
