import Card from 'react-bootstrap/Card'
import Col from 'react-bootstrap/Col'
import Row from 'react-bootstrap/Row'
import { Link } from 'react-router'
import { Icon } from '../../components/icon'
import { useTrabajador } from '../../lib/use-session'

/** Issue 8 item 8: shortcuts only to screens that exist (the calendar, tasks and budgets join when they land). */
const atajos = [
  { to: '/usuarios', label: 'Usuarios', icon: 'people', text: 'Residentes, su documentación y su caja.' },
  { to: '/viviendas', label: 'Viviendas', icon: 'house-door', text: 'Las viviendas de tus empresas.' },
  { to: '/contactos', label: 'Contactos', icon: 'person-lines-fill', text: 'Proveedores y agentes de cada empresa.' },
  { to: '/empresas', label: 'Empresas', icon: 'building', text: 'Las empresas con las que trabajas.' },
] as const

/** SPEC §2.1 /inicio: a welcome text asking the user to pick a section. */
export function InicioPage() {
  const trabajador = useTrabajador()
  return (
    <>
      <Card className="shadow-sm border-0 mb-4">
        <Card.Body className="p-4 d-flex align-items-center gap-3">
          <span className="icon-circle bg-primary-subtle text-primary" aria-hidden="true">
            <Icon name="house-heart" />
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
                <Icon name={a.icon} className="fs-3 text-primary" />
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
