import { can } from '@vb/shared/permissions'
import { useEffect, useId, useState, useSyncExternalStore } from 'react'
import Alert from 'react-bootstrap/Alert'
import Offcanvas from 'react-bootstrap/Offcanvas'
import { Link, NavLink, useLocation } from 'react-router'
import { BrandLogo } from '../../components/brand-logo'
import { Icon } from '../../components/icon'
import { useTrabajador } from '../../lib/use-session'
import { paths } from '../paths'
import { configMenu, type MenuItem, mainMenu } from './menu'

/** SPEC §2.2: the mobile menu shows static sample alerts. */
const sampleAlerts = [
  { variant: 'warning', icon: 'exclamation-triangle', text: 'Hay certificados PIR próximos a caducar.' },
  { variant: 'info', icon: 'calendar-event', text: 'Revisa el planing de tareas de hoy.' },
  { variant: 'success', icon: 'check-circle', text: 'Caja del día cuadrada en todas las viviendas.' },
] as const

interface Props {
  show: boolean
  onHide: () => void
}

/** Where the menu is fixed (bootstrap.scss's xxl). React-bootstrap's own check of `responsive` says 1400 px. */
const WIDE = '(min-width: 1399px)'
const subscribeWide = (change: () => void) => {
  const query = window.matchMedia(WIDE)
  query.addEventListener('change', change)
  return () => query.removeEventListener('change', change)
}
const isWide = () => window.matchMedia(WIDE).matches

/**
 * SPEC §2.2: fixed left menu from 1399 px; below that (the xxl breakpoint, set to 1399 px in bootstrap.scss) the
 * same menu is an offcanvas opened by the hamburger button in the top bar, closed once the window is that wide.
 */
export function SideMenu({ show, onHide }: Props) {
  const trabajador = useTrabajador()
  const { pathname } = useLocation()
  const titleId = useId()
  const submenuId = useId()
  const visibleConfig = configMenu.filter((item) => !item.resource || can(trabajador, item.resource, 'list'))
  const inConfig = pathname === paths.configuracion || configMenu.some((item) => pathname.startsWith(item.to))
  const [configOpen, setConfigOpen] = useState(inConfig)
  const wide = useSyncExternalStore(subscribeWide, isWide)
  useEffect(() => {
    if (wide && show) onHide()
  }, [wide, show, onHide])

  const link = (item: MenuItem) => (
    <li className="nav-item" key={item.to}>
      <NavLink to={item.to} className="nav-link rounded-2" onClick={onHide}>
        <Icon name={item.icon} />
        <span>{item.label}</span>
      </NavLink>
    </li>
  )

  return (
    <Offcanvas
      show={show && !wide}
      onHide={onHide}
      responsive="xxl"
      placement="start"
      className="app-sidebar"
      aria-labelledby={titleId}
    >
      <Offcanvas.Header closeButton closeLabel="Cerrar menú" className="border-bottom">
        <Offcanvas.Title id={titleId} as="div">
          <Link to={paths.inicio} className="text-decoration-none" aria-label="Gestión Viviendas: ir a inicio" onClick={onHide}>
            <BrandLogo />
          </Link>
        </Offcanvas.Title>
      </Offcanvas.Header>
      <Offcanvas.Body className="flex-column">
        <div className="d-flex flex-column w-100 p-3 gap-3">
          <Link
            to={paths.inicio}
            className="d-none d-xxl-block text-decoration-none px-2 pt-1 pb-2"
            aria-label="Gestión Viviendas: ir a inicio"
            onClick={onHide}
          >
            <BrandLogo />
          </Link>
          <nav aria-label="Menú principal">
            <ul className="nav nav-pills flex-column gap-1">
              {mainMenu.map((item) => link(item))}
              <li className="nav-item">
                <button
                  type="button"
                  className="nav-link rounded-2 w-100 text-start"
                  aria-expanded={configOpen}
                  aria-controls={submenuId}
                  onClick={() => setConfigOpen((open) => !open)}
                >
                  <Icon name="gear" />
                  <span className="flex-grow-1">Configuración</span>
                  <Icon name={configOpen ? 'chevron-up' : 'chevron-down'} className="small" />
                </button>
                {configOpen && (
                  <ul id={submenuId} className="nav flex-column gap-1 mt-1 submenu">
                    {visibleConfig.map((item) => link(item))}
                  </ul>
                )}
              </li>
            </ul>
          </nav>
          <section className="d-xxl-none" aria-label="Avisos">
            <h2 className="h6 text-body-secondary text-uppercase small mt-2">Avisos</h2>
            {sampleAlerts.map((a) => (
              <Alert key={a.text} variant={a.variant} className="py-2 px-3 small mb-2" role="note">
                <Icon name={a.icon} className="me-2" />
                {a.text}
              </Alert>
            ))}
          </section>
        </div>
      </Offcanvas.Body>
    </Offcanvas>
  )
}
