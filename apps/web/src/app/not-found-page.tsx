import { Link, Navigate, useLocation } from 'react-router'
import { AuthLayout } from '../components/auth-layout'
import { FirstIcon as Icon } from '../components/first-icons'
import { useToken } from '../lib/use-session'
import { paths } from './paths'

/**
 * SPEC §2.1: any other path shows 'Página no encontrada'. A path with a doubled leading slash is the same screen's
 * (SPEC's client registered /cambiar-password-con-actual so, and links to it may carry it): it goes there.
 */
export function NotFoundPage() {
  const token = useToken()
  const { pathname, search, hash } = useLocation()
  if (/^\/{2,}/.test(pathname)) return <Navigate to={`${pathname.replace(/^\/+/, '/')}${search}${hash}`} replace />
  return (
    <AuthLayout>
      <div className="text-center">
        <Icon name="signpost-split" className="display-5 text-primary" />
        <h1 className="h4 mt-3">Página no encontrada</h1>
        <p className="text-body-secondary">La dirección que has abierto no existe o ha cambiado.</p>
        <Link className="btn btn-primary" to={token ? paths.inicio : paths.login}>
          {token ? 'Volver al inicio' : 'Ir a iniciar sesión'}
        </Link>
      </div>
    </AuthLayout>
  )
}
