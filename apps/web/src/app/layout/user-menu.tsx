import type { Trabajador } from '@vb/shared'
import { useRef, useState } from 'react'
import Dropdown from 'react-bootstrap/Dropdown'
import { Link } from 'react-router'
import { Icon } from '../../components/icon'
import { paths } from '../paths'
import { LogoutModal } from './logout-modal'

const rolLabel = { SUPERADMIN: 'Superadministrador', ADMIN: 'Administrador', EMPLEADO: 'Empleado' } as const

interface Props {
  trabajador: Trabajador | null
  onNotificaciones: () => void
  onLogout: () => void
}

/** SPEC §2.2: Ficha del trabajador, Configuración de usuario, Notificaciones, Cerrar sesión. */
export function UserMenu({ trabajador, onNotificaciones, onLogout }: Props) {
  const [confirming, setConfirming] = useState(false)
  const toggleRef = useRef<HTMLButtonElement>(null)
  const nombre = trabajador ? `${trabajador.nombre} ${trabajador.apellidos}` : ''

  return (
    <>
      <Dropdown align="end">
        <Dropdown.Toggle
          ref={toggleRef}
          variant="light"
          className="d-flex align-items-center gap-2"
          aria-label={nombre ? `Menú de usuario: ${nombre}` : 'Menú de usuario'}
        >
          <Icon name="person-circle" className="fs-5" />
          <span className="d-none d-md-inline text-truncate" style={{ maxWidth: '12rem' }}>
            {nombre}
          </span>
        </Dropdown.Toggle>
        <Dropdown.Menu className="shadow-sm">
          {trabajador && (
            <div className="dropdown-header">
              <span className="d-block fw-semibold text-body">{nombre}</span>
              <span className="d-block small">{trabajador.email}</span>
              <span className="badge text-bg-secondary mt-1">{rolLabel[trabajador.rol]}</span>
            </div>
          )}
          <Dropdown.Divider />
          <Dropdown.Item as={Link} to={paths.fichaTrabajador}>
            <Icon name="person-vcard" className="me-2" />
            Ficha del trabajador
          </Dropdown.Item>
          <Dropdown.Item as={Link} to={paths.configuracionUsuario}>
            <Icon name="sliders" className="me-2" />
            Configuración de usuario
          </Dropdown.Item>
          <Dropdown.Item as="button" onClick={onNotificaciones}>
            <Icon name="bell" className="me-2" />
            Notificaciones
          </Dropdown.Item>
          <Dropdown.Divider />
          <Dropdown.Item as="button" className="text-danger" onClick={() => setConfirming(true)}>
            <Icon name="box-arrow-right" className="me-2" />
            Cerrar sesión
          </Dropdown.Item>
        </Dropdown.Menu>
      </Dropdown>
      <LogoutModal
        show={confirming}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false)
          onLogout()
        }}
        onExited={() => toggleRef.current?.focus()}
      />
    </>
  )
}
