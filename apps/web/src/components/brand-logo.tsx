import { FirstIcon as Icon } from './first-icons'

/** The product mark: a house in the brand colour beside the product name. */
export function BrandLogo({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const box = size === 'lg' ? '3rem' : '2.25rem'
  return (
    <span className="d-inline-flex align-items-center gap-2 text-body">
      <span
        className="d-inline-flex align-items-center justify-content-center rounded-3 bg-primary text-white"
        style={{ width: box, height: box, fontSize: size === 'lg' ? '1.5rem' : '1.15rem' }}
        aria-hidden="true"
      >
        <Icon name="house-heart-fill" />
      </span>
      <span className={`fw-semibold lh-sm text-start ${size === 'lg' ? 'fs-5' : ''}`}>
        Gestión
        <br />
        Viviendas
      </span>
    </span>
  )
}
