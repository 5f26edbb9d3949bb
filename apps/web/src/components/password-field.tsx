import { useState } from 'react'
import Button from 'react-bootstrap/Button'
import Form from 'react-bootstrap/Form'
import InputGroup from 'react-bootstrap/InputGroup'
import type { UseFormRegisterReturn } from 'react-hook-form'
import { FirstIcon as Icon } from './first-icons'

interface Props {
  id: string
  label: string
  registration: UseFormRegisterReturn
  error?: string
  hint?: string
  autoComplete: 'current-password' | 'new-password'
  autoFocus?: boolean
}

/** A labelled password input with a show/hide button and its error under the field (SPEC §5). */
export function PasswordField({ id, label, registration, error, hint, autoComplete, autoFocus }: Props) {
  const [visible, setVisible] = useState(false)
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <InputGroup hasValidation>
        <Form.Control
          type={visible ? 'text' : 'password'}
          autoComplete={autoComplete}
          autoFocus={autoFocus}
          isInvalid={Boolean(error)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...registration}
        />
        <Button
          variant="outline-secondary"
          aria-label={visible ? `Ocultar ${label.toLowerCase()}` : `Mostrar ${label.toLowerCase()}`}
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        >
          <Icon name={visible ? 'eye-slash' : 'eye'} />
        </Button>
        <Form.Control.Feedback type="invalid" id={errorId}>
          {error}
        </Form.Control.Feedback>
      </InputGroup>
      {hint && (
        <Form.Text id={hintId} className="d-block mt-1">
          {hint}
        </Form.Text>
      )}
    </Form.Group>
  )
}
