import Alert from 'react-bootstrap/Alert'
import Button from 'react-bootstrap/Button'
import Card from 'react-bootstrap/Card'
import Col from 'react-bootstrap/Col'
import Form from 'react-bootstrap/Form'
import Row from 'react-bootstrap/Row'
import { Icon } from '../../components/icon'

/** SPEC §2.16: a static form for the accounting-software integration. It makes no calls and does nothing. */
export function IntegracionesPage() {
  return (
    <Card className="shadow-sm border-0" style={{ maxWidth: 760 }}>
      <Card.Body className="p-4">
        <h2 className="h5 mb-1">Software de contabilidad</h2>
        <p className="text-body-secondary small mb-4">Datos de conexión que facilita el proveedor del programa contable.</p>
        <Alert variant="info" className="small">
          <Icon name="info-circle" className="me-2" />
          La integración aún no está activa: estos datos no se envían ni se guardan.
        </Alert>
        <Form onSubmit={(e) => e.preventDefault()} autoComplete="off">
          <Row className="g-3">
            <Col md={6}>
              <Form.Group controlId="int-fabricante">
                <Form.Label>Código de Fabricante</Form.Label>
                <Form.Control type="text" />
              </Form.Group>
            </Col>
            <Col md={6}>
              <Form.Group controlId="int-cliente">
                <Form.Label>Código de Cliente</Form.Label>
                <Form.Control type="text" />
              </Form.Group>
            </Col>
            <Col md={6}>
              <Form.Group controlId="int-bd">
                <Form.Label>Base de Datos del Cliente</Form.Label>
                <Form.Control type="text" />
              </Form.Group>
            </Col>
            <Col md={6}>
              <Form.Group controlId="int-password">
                <Form.Label>Contraseña</Form.Label>
                <Form.Control type="password" autoComplete="new-password" />
              </Form.Group>
            </Col>
          </Row>
          <div className="d-flex justify-content-end mt-4">
            <Button type="submit">
              <Icon name="save" className="me-2" />
              Guardar Integración
            </Button>
          </div>
        </Form>
      </Card.Body>
    </Card>
  )
}
