import { useEffect, useState } from 'react'
import Alert from 'react-bootstrap/Alert'
import Button from 'react-bootstrap/Button'
import { Icon } from '../../components/icon'
import { NUEVA_VERSION_MESSAGE, watchForNewVersion } from '../new-version'

/**
 * Above the screen once a new version of the app is on the server (app/new-version.ts): a page left open for days
 * keeps running the old one until it reloads. It never reloads by itself here, so nothing typed is lost.
 */
export function NewVersionNotice() {
  const [deployed, setDeployed] = useState(false)
  useEffect(() => watchForNewVersion(() => setDeployed(true)), [])
  if (!deployed) return null
  return (
    <Alert variant="info" className="d-flex flex-wrap gap-2 align-items-center" role="status">
      <span className="me-auto d-flex gap-2 align-items-start">
        <Icon name="arrow-clockwise" className="mt-1" />
        <span>{NUEVA_VERSION_MESSAGE}</span>
      </span>
      <Button size="sm" variant="outline-primary" onClick={() => window.location.reload()}>
        Recargar
      </Button>
    </Alert>
  )
}
