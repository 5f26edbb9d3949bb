import type { Trabajador } from '@vb/shared'
import { trabajadorMessages } from '@vb/shared/trabajadores-core'
import { Alert, Card, Col, Row } from 'react-bootstrap'
import { Link } from 'react-router'
import { paths } from '../../app/paths'
import { EntityImage } from '../../components/entity-image'
import { Icon } from '../../components/icon'
import { EstadoBadge, fotoSrc, RolBadge } from '../../components/trabajador-badges'
import { formatDate } from '../../lib/format'
import { useMe } from '../../lib/use-me'

/** SPEC §2.20: 'Empresas asociadas', deduplicated by company id. */
function empresasDe(t: Trabajador) {
  return [...new Map(t.empresas.map((e) => [e.id, e])).values()]
}

/**
 * SPEC §2.20: the logged-in worker's own profile: photo (or a default avatar), full name, role, e-mail, NIF,
 * state, when it was created and last updated, and its companies.
 */
export function FichaTrabajadorPage() {
  const me = useMe()
  if (me.isPending) {
    return (
      <p role="status" className="text-body-secondary">
        {trabajadorMessages.cargando}
      </p>
    )
  }
  if (!me.data) return <Alert variant="warning">{trabajadorMessages.noEncontrado}</Alert>
  const t = me.data
  const nombre = `${t.nombre} ${t.apellidos}`
  const empresas = empresasDe(t)
  return (
    <Card className="shadow-sm border-0" style={{ maxWidth: 900 }}>
      <Card.Body className="p-4">
        <div className="d-flex flex-wrap align-items-center gap-3 mb-4">
          <EntityImage
            src={fotoSrc(t)}
            alt={`Foto de ${nombre}`}
            fallbackIcon="person-circle"
            fallbackLabel="Sin foto"
            size={88}
          />
          <div className="min-w-0">
            <h2 className="h4 mb-2 text-break">{nombre}</h2>
            <RolBadge rol={t.rol} />
          </div>
        </div>
        <Row as="dl" className="g-3 mb-4">
          <Col as="div" sm={6}>
            <dt className="text-body-secondary fw-normal small">Email</dt>
            <dd className="mb-0 text-break">{t.email}</dd>
          </Col>
          <Col as="div" sm={6}>
            <dt className="text-body-secondary fw-normal small">NIF</dt>
            <dd className="mb-0 font-monospace">{t.nif}</dd>
          </Col>
          <Col as="div" sm={6}>
            <dt className="text-body-secondary fw-normal small">Estado</dt>
            <dd className="mb-0">
              <EstadoBadge activo={t.activo} />
            </dd>
          </Col>
          <Col as="div" sm={3} xs={6}>
            <dt className="text-body-secondary fw-normal small">Creado</dt>
            <dd className="mb-0">{formatDate(t.createdAt)}</dd>
          </Col>
          <Col as="div" sm={3} xs={6}>
            <dt className="text-body-secondary fw-normal small">Última actualización</dt>
            <dd className="mb-0">{formatDate(t.updatedAt)}</dd>
          </Col>
        </Row>
        <h3 className="h6">Empresas asociadas</h3>
        {empresas.length ? (
          <ul className="mb-4">
            {empresas.map((e) => (
              <li key={e.id}>{e.nombre}</li>
            ))}
          </ul>
        ) : (
          <p className="text-body-secondary mb-4">{trabajadorMessages.sinEmpresas}</p>
        )}
        <div className="d-flex flex-wrap gap-2">
          <Link to={paths.configuracionUsuario} className="btn btn-outline-primary">
            <Icon name="pencil" className="me-2" />
            Editar mis datos
          </Link>
          <Link to={paths.cambiarPasswordConActual} className="btn btn-outline-secondary">
            <Icon name="key" className="me-2" />
            Cambiar contraseña
          </Link>
        </div>
      </Card.Body>
    </Card>
  )
}
