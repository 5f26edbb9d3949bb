import type { ReactNode } from 'react'
import Card from 'react-bootstrap/Card'
import { BrandLogo } from './brand-logo'

/** The centred card of the screens outside the shell: login, password screens, not found. */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="auth-page d-flex align-items-center justify-content-center p-3">
      <div className="auth-card">
        <div className="text-center mb-4">
          <BrandLogo size="lg" />
        </div>
        <Card className="shadow-sm border-0">
          <Card.Body className="p-4 p-sm-5">{children}</Card.Body>
        </Card>
      </div>
    </main>
  )
}
