import Button from 'react-bootstrap/Button'
import Modal from 'react-bootstrap/Modal'

interface Props {
  show: boolean
  onCancel: () => void
  onConfirm: () => void
  onExited?: () => void
}

/** SPEC §2.2: logout confirmation. */
export function LogoutModal({ show, onCancel, onConfirm, onExited }: Props) {
  return (
    <Modal show={show} onHide={onCancel} onExited={onExited} centered restoreFocus={false} aria-labelledby="logout-title">
      <Modal.Header closeButton closeLabel="Cerrar">
        <Modal.Title id="logout-title" as="h2" className="h5">
          ¿Estás seguro de cerrar sesión?
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>Se cerrará tu sesión y tendrás que volver a iniciar sesión para continuar.</Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel}>
          Cancelar
        </Button>
        <Button variant="danger" onClick={onConfirm}>
          Cerrar sesión
        </Button>
      </Modal.Footer>
    </Modal>
  )
}
