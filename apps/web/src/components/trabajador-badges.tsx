import type { Rol, Trabajador } from '@vb/shared'
import { rolLabels } from '@vb/shared/trabajadores-core'
import { Badge } from 'react-bootstrap'

/** What the workers screen and the worker's own profile show of a worker (SPEC §2.10, §2.20). */

/** The photo shown in a list or a profile: an image (not a PDF or Word file, which SPEC's types allow). */
export const fotoSrc = (t: Trabajador) =>
  t.foto && (t.foto.origen === 'enlace' || t.foto.mime?.startsWith('image/')) ? t.foto.url : null

const rolVariant: Record<Rol, { bg: string; text: string }> = {
  SUPERADMIN: { bg: 'danger-subtle', text: 'danger-emphasis' },
  ADMIN: { bg: 'primary-subtle', text: 'primary-emphasis' },
  EMPLEADO: { bg: 'secondary-subtle', text: 'secondary-emphasis' },
}

export function RolBadge({ rol }: { rol: Rol }) {
  return (
    <Badge bg={rolVariant[rol].bg} text={rolVariant[rol].text} className="border">
      {rolLabels[rol]}
    </Badge>
  )
}

/** SPEC §2.10: 'Activo' or 'Inactivo'. */
export function EstadoBadge({ activo }: { activo: boolean }) {
  return activo ? (
    <Badge bg="success-subtle" text="success-emphasis" className="border">
      Activo
    </Badge>
  ) : (
    <Badge bg="secondary-subtle" text="secondary-emphasis" className="border">
      Inactivo
    </Badge>
  )
}
