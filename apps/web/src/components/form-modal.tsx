import { type FormEventHandler, type ReactNode, useId } from 'react'
import { Button, Form, Modal, Spinner } from 'react-bootstrap'

interface FormModalProps {
  show: boolean
  /** SPEC's modal title, e.g. 'Añadir Nueva Empresa'. */
  title: string
  onHide: () => void
  /** The form's submit handler (react-hook-form's `handleSubmit(...)`). */
  onSubmit: FormEventHandler<HTMLFormElement>
  submitting?: boolean
  submitLabel?: string
  children: ReactNode
}

/**
 * A create/edit form in a modal (GUIDE: title, labelled fields, errors under the field, primary action on
 * the right, Escape closes, focus returns to what opened it).
 */
export function FormModal({
  show,
  title,
  onHide,
  onSubmit,
  submitting = false,
  submitLabel = 'Guardar',
  children,
}: FormModalProps) {
  const titleId = useId()
  return (
    <Modal show={show} onHide={submitting ? () => undefined : onHide} centered aria-labelledby={titleId}>
      <Form noValidate onSubmit={onSubmit}>
        <Modal.Header closeButton closeLabel="Cerrar">
          <Modal.Title id={titleId} as="h2" className="h5">
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body className="d-grid gap-3">{children}</Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" type="button" onClick={onHide} disabled={submitting}>
            Cancelar
          </Button>
          <Button variant="primary" type="submit" disabled={submitting}>
            {submitting && <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />}
            {submitLabel}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  )
}
