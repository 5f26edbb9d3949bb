import Card from 'react-bootstrap/Card'
import Col from 'react-bootstrap/Col'
import Row from 'react-bootstrap/Row'
import { Link } from 'react-router'
import { useTrabajador } from '../../lib/use-session'

const atajos = [
  { to: '/usuarios', label: 'Usuarios', icon: 'bi-people', text: 'Residentes, su documentación y su caja.' },
  { to: '/planing', label: 'Planing', icon: 'bi-calendar3', text: 'Calendario mensual de tareas.' },
  { to: '/tareas', label: 'Tareas', icon: 'bi-list-check', text: 'Tareas pendientes y completadas.' },
  { to: '/presupuestos', label: 'Presupuestos', icon: 'bi-cash-coin', text: 'Presupuestos por vivienda.' },
] as const

/** SPEC §2.1 /inicio: a welcome text asking the user to pick a section. */
export function InicioPage() {
  const trabajador = useTrabajador()
  return (
    <>
      <Card className="shadow-sm border-0 mb-4">
        <Card.Body className="p-4 d-flex align-items-center gap-3">
          <span className="icon-circle bg-primary-subtle text-primary" aria-hidden="true">
            <i className="bi bi-house-heart" />
          </span>
          <div>
            <h2 className="h4 mb-1">Bienvenido{trabajador ? `, ${trabajador.nombre}` : ''}</h2>
            <p className="mb-0 text-body-secondary">Selecciona una sección en el menú para empezar a trabajar.</p>
          </div>
        </Card.Body>
      </Card>
      <h2 className="h6 text-body-secondary text-uppercase mb-3">Accesos rápidos</h2>
      <Row xs={1} sm={2} xl={4} className="g-3">
        {atajos.map((a) => (
          <Col key={a.to}>
            <Card className="shadow-sm border-0 h-100">
              <Card.Body className="p-4">
                <i className={`bi ${a.icon} fs-3 text-primary`} aria-hidden="true" />
                <h3 className="h6 mt-2 mb-1">
                  <Link to={a.to} className="stretched-link text-body text-decoration-none">
                    {a.label}
                  </Link>
                </h3>
                <p className="small text-body-secondary mb-0">{a.text}</p>
              </Card.Body>
            </Card>
          </Col>
        ))}
      </Row>
    </>
  )
}
