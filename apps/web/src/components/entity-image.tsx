import { useState } from 'react'
import './entity-image.css'
import { Icon, type IconName } from './icon'

interface EntityImageProps {
  src: string | null | undefined
  /** Text alternative of the image, e.g. 'Logo de Hogares Mediterráneo S.L.' */
  alt: string
  /** Bootstrap Icons name shown when there is no image or it fails to load (SPEC §2.4: a default icon). */
  fallbackIcon?: IconName
  /** Accessible text of the default icon. */
  fallbackLabel?: string
  size?: number
}

/** A logo or photo, or a default icon when it is missing or broken. */
export function EntityImage({ src, alt, fallbackIcon = 'building', fallbackLabel = 'Sin logo', size = 40 }: EntityImageProps) {
  const [failed, setFailed] = useState<string | null>(null)
  // The default icon grows with the box (a profile's photo is bigger than a table's).
  const style = { width: size, height: size, ...(size > 40 ? { fontSize: size / 2 } : {}) }
  if (!src || failed === src) {
    return (
      <span className="vb-entity-image" style={style} role="img" aria-label={fallbackLabel}>
        <Icon name={fallbackIcon} />
      </span>
    )
  }
  return <img className="vb-entity-image" style={style} src={src} alt={alt} loading="lazy" onError={() => setFailed(src)} />
}
