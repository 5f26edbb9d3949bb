import { Link } from 'react-router'
import { AuthLayout } from '../components/auth-layout'
import { FirstIcon as Icon } from '../components/first-icons'
import { useToken } from '../lib/use-session'
import { paths } from './paths'

/** SPEC §2.1: any other path shows 'Página no encontrada'. */
export function NotFoundPage() {
  const token = useToken()
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
