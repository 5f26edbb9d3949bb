import { type ReactNode, useId } from 'react'
import { Button, Modal, Spinner } from 'react-bootstrap'

interface ConfirmDialogProps {
  show: boolean
  /** Defaults to SPEC's 'Confirmar Eliminación'. */
  title?: string
  /** e.g. '¿Seguro que quieres eliminar la empresa X?' */
  message: ReactNode
  confirmLabel?: string
  pending?: boolean
  onConfirm: () => void
  onCancel: () => void
}

/** SPEC §2.4: the deletion confirmation ('Confirmar Eliminación', Cancelar / Eliminar). */
export function ConfirmDialog({
  show,
  title = 'Confirmar Eliminación',
  message,
  confirmLabel = 'Eliminar',
  pending = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const titleId = useId()
  return (
    <Modal show={show} onHide={pending ? () => undefined : onCancel} centered aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Cerrar">
        <Modal.Title id={titleId} as="h2" className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0">{message}</p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={pending}>
          Cancelar
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={pending}>
          {pending && <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />}
          {confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  )
}
