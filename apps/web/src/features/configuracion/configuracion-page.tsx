import { can } from '@vb/shared/permissions'
import Card from 'react-bootstrap/Card'
import Col from 'react-bootstrap/Col'
import Row from 'react-bootstrap/Row'
import { Link } from 'react-router'
import { Icon, type IconName } from '../../components/icon'
import { useTrabajador } from '../../lib/use-session'

interface Opcion {
  to: string
  label: string
  icon: IconName
  text: string
  visible: boolean
}

/** SPEC §2.1 /configuracion: buttons to /trabajadores and /logs (hidden from EMPLEADO, SPEC §6). */
export function ConfiguracionPage() {
  const trabajador = useTrabajador()
  const opciones: Opcion[] = [
    {
      to: '/trabajadores',
      label: 'Trabajadores',
      icon: 'person-badge',
      text: 'Cuentas del personal, roles y empresas.',
      visible: can(trabajador, 'trabajadores', 'list'),
    },
    {
      to: '/logs',
      label: 'Logs',
      icon: 'journal-text',
      text: 'Registro de accesos y actividad.',
      visible: can(trabajador, 'logs', 'list'),
    },
    {
      to: '/integraciones',
      label: 'Integraciones',
      icon: 'plug',
      text: 'Conexión con el software de contabilidad.',
      visible: true,
    },
    {
      to: '/configuracionUsuario',
      label: 'Configuración de usuario',
      icon: 'sliders',
      text: 'Tus datos y tu contraseña.',
      visible: true,
    },
  ]
  return (
    <Row xs={1} lg={2} className="g-3" style={{ maxWidth: 1100 }}>
      {opciones
        .filter((o) => o.visible)
        .map((o) => (
          <Col key={o.to}>
            <Card className="shadow-sm border-0 h-100 position-relative">
              <Card.Body className="p-4 d-flex align-items-center gap-3">
                <span className="icon-circle bg-primary-subtle text-primary" aria-hidden="true">
                  <Icon name={o.icon} />
                </span>
                <div className="flex-grow-1">
                  <h2 className="h6 mb-1">
                    <Link to={o.to} className="stretched-link text-body text-decoration-none">
                      {o.label}
                    </Link>
                  </h2>
                  <p className="small text-body-secondary mb-0">{o.text}</p>
                </div>
                <Icon name="chevron-right" className="text-body-secondary" />
              </Card.Body>
            </Card>
          </Col>
        ))}
    </Row>
  )
}
