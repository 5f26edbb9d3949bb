import { useId, useRef, useState } from 'react'
import { Alert, Button, Form, InputGroup, Modal } from 'react-bootstrap'
import { Icon } from '../../components/icon'

interface PasswordDialogProps {
  /** The worker's name and its one-time password; null closes the dialog. */
  result: { nombre: string; password: string } | null
  onClose: () => void
}

/**
 * DECISIONS S1: a new worker's temporary password (or an admin's reset) is shown once, here, with a copy
 * button; the worker must change it when it first logs in.
 */
export function PasswordDialog({ result, onClose }: PasswordDialogProps) {
  const titleId = useId()
  const inputId = useId()
  const input = useRef<HTMLInputElement>(null)
  const [copied, setCopied] = useState(false)

  const copy = async () => {
    if (!result) return
    try {
      await navigator.clipboard.writeText(result.password)
    } catch {
      // Without the clipboard API (an insecure origin) the selected text is copied the old way.
      input.current?.select()
      document.execCommand('copy')
    }
    setCopied(true)
  }

  return (
    <Modal show={result !== null} onHide={onClose} onExited={() => setCopied(false)} centered aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Cerrar">
        <Modal.Title id={titleId} as="h2" className="h5">
          Contraseña temporal
        </Modal.Title>
      </Modal.Header>
      <Modal.Body className="d-grid gap-3">
        <Form.Group controlId={inputId}>
          <Form.Label>Contraseña temporal de {result?.nombre}</Form.Label>
          <InputGroup>
            <Form.Control
              ref={input}
              readOnly
              value={result?.password ?? ''}
              className="font-monospace"
              onFocus={(e) => e.currentTarget.select()}
            />
            <Button variant={copied ? 'success' : 'outline-primary'} onClick={copy}>
              <Icon name={copied ? 'clipboard-check' : 'clipboard'} className="me-1" />
              {copied ? 'Copiada' : 'Copiar'}
            </Button>
          </InputGroup>
        </Form.Group>
        <Alert variant="warning" className="mb-0">
          Solo se muestra esta vez. Comunícasela por un medio seguro: tendrá que cambiarla al iniciar sesión.
        </Alert>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={onClose}>
          Cerrar
        </Button>
      </Modal.Footer>
    </Modal>
  )
}
