import { BORRADOR_RECUPERADO_MESSAGE } from '@vb/shared/core'
import { type FormEventHandler, type ReactNode, useEffect, useId, useState } from 'react'
import { Alert, Button, Form, Modal, Spinner } from 'react-bootstrap'
import { SessionExpiryNotice } from './session-expiry'

export const DESCARTAR_PREGUNTA = 'Tienes cambios sin guardar. ¿Quieres descartarlos?'

interface FormModalProps {
  show: boolean
  /** SPEC's modal title, e.g. 'Añadir Nueva Empresa'. */
  title: string
  onHide: () => void
  /** The form's submit handler (react-hook-form's `handleSubmit(...)`). */
  onSubmit: FormEventHandler<HTMLFormElement>
  submitting?: boolean
  submitLabel?: string
  /** Typed changes not saved yet: Escape, the close button and Cancelar ask before throwing them away. */
  dirty?: boolean
  /** A refusal that belongs to no field (a 403, a stale edit, the server away), shown at the top of the form. */
  error?: string | null
  /** Opened again after a login with what was typed when the session ended (lib/drafts.ts): said at the top. */
  recovered?: boolean
  children: ReactNode
}

/**
 * A create/edit form in a modal (docs/architecture.md, look and feel: title, labelled fields, errors under the
 * field, primary action on the right, Escape closes, focus returns to what opened it). With typed changes,
 * closing first asks: the question replaces the footer, so it is read where the buttons were.
 */
export function FormModal({
  show,
  title,
  onHide,
  onSubmit,
  submitting = false,
  submitLabel = 'Guardar',
  dirty = false,
  error,
  recovered = false,
  children,
}: FormModalProps) {
  const titleId = useId()
  const [asking, setAsking] = useState(false)
  useEffect(() => {
    if (!show) setAsking(false)
  }, [show])
  const requestClose = () => {
    if (submitting) return
    if (dirty) setAsking(true)
    else onHide()
  }
  return (
    <Modal show={show} onHide={requestClose} centered aria-labelledby={titleId}>
      <Form noValidate onSubmit={onSubmit}>
        <Modal.Header closeButton closeLabel="Cerrar">
          <Modal.Title id={titleId} as="h2" className="h5">
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body className="d-grid gap-3">
          <SessionExpiryNotice className="mb-0" />
          {recovered && (
            <Alert variant="info" className="mb-0" role="status">
              {BORRADOR_RECUPERADO_MESSAGE}
            </Alert>
          )}
          {error && (
            <Alert variant="danger" className="mb-0" role="alert">
              {error}
            </Alert>
          )}
          {children}
        </Modal.Body>
        <Modal.Footer>
          {asking ? (
            <div className="d-flex flex-wrap align-items-center gap-2 w-100" role="alertdialog" aria-live="assertive">
              <span className="me-auto">{DESCARTAR_PREGUNTA}</span>
              <Button variant="outline-secondary" type="button" autoFocus onClick={() => setAsking(false)}>
                Seguir editando
              </Button>
              <Button variant="danger" type="button" onClick={onHide}>
                Descartar cambios
              </Button>
            </div>
          ) : (
            <>
              <Button variant="outline-secondary" type="button" onClick={requestClose} disabled={submitting}>
                Cancelar
              </Button>
              <Button variant="primary" type="submit" disabled={submitting}>
                {submitting && <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />}
                {submitLabel}
              </Button>
            </>
          )}
        </Modal.Footer>
      </Form>
    </Modal>
  )
}
