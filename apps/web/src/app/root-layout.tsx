import { useEffect, useSyncExternalStore } from 'react'
import Button from 'react-bootstrap/Button'
import { isRouteErrorResponse, Outlet, useLocation, useMatches, useRouteError } from 'react-router'
import { AuthLayout } from '../components/auth-layout'
import { newVersionState } from './new-version'
import { pageTitle } from './page-title'

interface RouteHandle {
  title?: string
}

/** The title a route shows: its handle's, or SPEC §2.2's rule on the path. */
export function useRouteTitle(): string {
  const { pathname } = useLocation()
  const matches = useMatches()
  const handle = matches.at(-1)?.handle as RouteHandle | undefined
  return handle?.title ?? pageTitle(pathname)
}

/** Keeps document.title equal to the page title (SPEC §2.2) on every route. */
export function RootLayout() {
  const title = useRouteTitle()
  useEffect(() => {
    document.title = title
  }, [title])
  return <Outlet />
}

/** Shown instead of a screen that crashed while rendering, so the user is never left with a blank page. */
export function RouteError() {
  const error = useRouteError()
  // A screen's code that failed to load while a new version is being looked for, or the page reloading onto it.
  const newVersion = useSyncExternalStore(newVersionState.subscribe, newVersionState.get)
  if (newVersion !== 'idle') return <div className="min-vh-100" />
  if (error) console.error(error)
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <AuthLayout>
      <h1 className="h4 mb-3">{notFound ? 'Página no encontrada' : 'Se ha producido un error inesperado'}</h1>
      <p className="text-body-secondary">
        Recarga la página o vuelve al inicio. Si el problema continúa, avisa al administrador.
      </p>
      <div className="d-flex gap-2 justify-content-end">
        <Button variant="outline-secondary" onClick={() => window.location.reload()}>
          Recargar
        </Button>
        <Button href="/inicio">Ir al inicio</Button>
      </div>
    </AuthLayout>
  )
}
