import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Trabajador } from '@vb/shared'
import { useEffect, useState } from 'react'
import Button from 'react-bootstrap/Button'
import Container from 'react-bootstrap/Container'
import { Outlet, useLocation, useNavigate } from 'react-router'
import { Icon } from '../../components/icon'
import { SessionExpiryNotice } from '../../components/session-expiry'
import { api } from '../../lib/api-client'
import { drafts } from '../../lib/drafts'
import { session } from '../../lib/session'
import { meQueryKey } from '../../lib/use-me'
import { useTrabajador } from '../../lib/use-session'
import { paths } from '../paths'
import { useRouteTitle } from '../root-layout'
import { CompanySwitcher } from './company-switcher'
import { Later } from './later'
import { NewVersionNotice } from './new-version-notice'
import { NotificationBell } from './notification-bell'
import { SideMenu } from './side-menu'
import { UserMenu } from './user-menu'

/**
 * DECISIONS A2: refreshes the stored worker (role, companies) from /me; a bad token answers 401 and the API client's
 * handler sends the user to the login screen. A component of its own that renders nothing, so that /me's answer
 * re-renders this alone and not the shell around the screen (its side menu's links, its top bar), which reads the
 * stored worker and re-renders only if that changed.
 */
function RefreshMe() {
  const me = useQuery({ queryKey: meQueryKey, queryFn: () => api.get<Trabajador>('/trabajadores/me') })
  useEffect(() => {
    if (!me.data) return
    session.setTrabajador(me.data)
    if (me.data.passwordTemporal) {
      session.markCambioPasswordRequerido()
    }
  }, [me.data])
  return null
}

/**
 * SPEC §2.2: side menu, top bar (company switcher, bell, user menu) and the content area.
 * The shell shows the page title as the content's <h1>; pages render only their content (app/README.md).
 */
export function Shell() {
  const title = useRouteTitle()
  const trabajador = useTrabajador()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { pathname } = useLocation()
  const [menuOpen, setMenuOpen] = useState(false)
  const [bellOpen, setBellOpen] = useState(false)

  // A new screen starts with closed menus and focus-free scroll position.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only
  useEffect(() => {
    setMenuOpen(false)
    setBellOpen(false)
    window.scrollTo(0, 0)
  }, [pathname])

  const logout = () => {
    // DECISIONS L1: the logout is logged by the server. The call takes the token now, before it is cleared.
    void api.post('/auth/logout').catch(() => undefined)
    session.clear()
    drafts.clear()
    queryClient.clear()
    navigate(paths.login, { replace: true })
  }

  return (
    <>
      <RefreshMe />
      <a
        href="#contenido"
        className="visually-hidden-focusable position-absolute top-0 start-0 m-2 btn btn-primary"
        style={{ zIndex: 2000 }}
      >
        Saltar al contenido
      </a>
      <Later>
        <SideMenu show={menuOpen} onHide={() => setMenuOpen(false)} />
      </Later>
      <div className="app-main d-flex flex-column min-vh-100 bg-body-tertiary">
        <header className="app-topbar bg-body border-bottom d-flex align-items-center gap-2 px-2 px-sm-3 py-2">
          <Button
            variant="outline-secondary"
            className="d-xxl-none flex-shrink-0"
            aria-label="Abrir menú"
            onClick={() => setMenuOpen(true)}
          >
            <Icon name="list" className="fs-5" />
          </Button>
          <Later>
            <CompanySwitcher />
          </Later>
          <div className="ms-auto d-flex align-items-center flex-shrink-0 gap-1 gap-sm-2">
            <Later>
              <NotificationBell trabajadorId={trabajador?.id} show={bellOpen} onToggle={setBellOpen} />
              <UserMenu trabajador={trabajador} onNotificaciones={() => setBellOpen(true)} onLogout={logout} />
            </Later>
          </div>
        </header>
        <main id="contenido" className="flex-grow-1 py-4" tabIndex={-1}>
          <Container fluid="xxl" className="px-3 px-md-4">
            <NewVersionNotice />
            <SessionExpiryNotice />
            <h1 className="h3 mb-4">{title}</h1>
            <Outlet />
          </Container>
        </main>
      </div>
    </>
  )
}
