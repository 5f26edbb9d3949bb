import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { NOTIFICATION_POLL_MS, type Notificacion, notificacionVariant } from '@vb/shared'
import { useEffect } from 'react'
import Badge from 'react-bootstrap/Badge'
import CloseButton from 'react-bootstrap/CloseButton'
import Dropdown from 'react-bootstrap/Dropdown'
import { Icon, type IconName } from '../../components/icon'
import { useToast } from '../../components/toasts'
import { api } from '../../lib/api-client'
import { errorMessage } from '../../lib/form-errors'
import { formatDateTime } from '../../lib/format'
import { followNotificationStream } from '../../lib/notification-stream'
import { NOTIFICACION_EVENT, session } from '../../lib/session'

const icons = {
  info: 'info-circle',
  warning: 'exclamation-triangle',
  danger: 'x-octagon',
  success: 'check-circle',
} as const satisfies Record<string, IconName>

// Keeps the 350 px panel inside a phone's screen.
const panelPopper = { modifiers: [{ name: 'preventOverflow', options: { padding: 8, altAxis: true } }] }

interface Props {
  trabajadorId: number | undefined
  show: boolean
  onToggle: (show: boolean) => void
}

/**
 * SPEC §2.2, §4: the bell with a count badge and a 350 px panel. Polls every 15 s and at once on
 * 'nueva-notificacion'; each notification can be dismissed (DELETE /api/notificaciones/{id}).
 * DECISIONS D9: while the page is open, the server's notification stream announces new ones at once.
 */
export function NotificationBell({ trabajadorId, show, onToggle }: Props) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const queryKey = ['notificaciones', trabajadorId]
  const notificaciones = useQuery({
    queryKey,
    queryFn: () => api.get<Notificacion[]>(`/trabajadores/${trabajadorId}/notificaciones`),
    enabled: trabajadorId !== undefined,
    refetchInterval: NOTIFICATION_POLL_MS,
    staleTime: 0,
  })
  const { refetch } = notificaciones

  useEffect(() => {
    const onNueva = () => void refetch()
    window.addEventListener(NOTIFICACION_EVENT, onNueva)
    return () => window.removeEventListener(NOTIFICACION_EVENT, onNueva)
  }, [refetch])

  useEffect(() => {
    if (trabajadorId === undefined) return
    const controller = new AbortController()
    void followNotificationStream({
      token: session.token,
      onNotificacion: () => window.dispatchEvent(new Event(NOTIFICACION_EVENT)),
      onResync: () => void refetch(),
      signal: controller.signal,
    })
    return () => controller.abort()
  }, [trabajadorId, refetch])

  const dismiss = useMutation({
    mutationFn: (id: number) => api.delete(`/notificaciones/${id}`),
    onSuccess: (_void, id) => {
      queryClient.setQueryData<Notificacion[]>(queryKey, (list) => list?.filter((n) => n.id !== id))
    },
    onError: (err) => toast.error(errorMessage(err)),
  })

  const items = notificaciones.data ?? []
  const count = items.length
  const badge = count > 99 ? '99+' : String(count)

  return (
    <Dropdown show={show} onToggle={(next) => onToggle(next)} autoClose="outside" align="end">
      <Dropdown.Toggle
        variant="light"
        className="position-relative no-caret rounded-circle px-2"
        // The name holds the number the badge shows (WCAG 2.5.3, label in name).
        aria-label={count ? `Notificaciones: ${badge} sin leer` : 'Notificaciones'}
      >
        <Icon name="bell" className="fs-5" />
        {count > 0 && (
          <Badge bg="danger" pill className="position-absolute top-0 start-100 translate-middle" aria-hidden="true">
            {badge}
          </Badge>
        )}
      </Dropdown.Toggle>
      <Dropdown.Menu className="notification-panel p-0 shadow" popperConfig={panelPopper}>
        <div className="d-flex align-items-center justify-content-between px-3 py-2 border-bottom">
          <h2 className="h6 mb-0">Notificaciones</h2>
          <span className="small text-body-secondary">{count}</span>
        </div>
        {notificaciones.isPending && <p className="px-3 py-3 mb-0 text-body-secondary">Cargando...</p>}
        {notificaciones.isError && <p className="px-3 py-3 mb-0 text-danger">No se pudieron cargar las notificaciones.</p>}
        {notificaciones.isSuccess && count === 0 && (
          <p className="px-3 py-3 mb-0 text-body-secondary">No tienes notificaciones.</p>
        )}
        {count > 0 && (
          <ul className="list-unstyled mb-0 notification-list" aria-label="Notificaciones">
            {items.map((n) => {
              const variant = notificacionVariant(n.tipo)
              return (
                <li
                  key={n.id}
                  className="d-flex gap-2 px-3 py-2 border-bottom"
                  style={{ borderLeft: `4px solid var(--bs-${variant})` }}
                >
                  <Icon name={icons[variant]} className={`text-${variant}-emphasis mt-1`} />
                  <div className="flex-grow-1 small">
                    <p className="fw-semibold mb-0">{n.titulo}</p>
                    <p className="mb-1 text-body-secondary">{n.descripcion}</p>
                    <time className="text-body-secondary" dateTime={n.fechaNotificacion} style={{ fontSize: '0.75rem' }}>
                      {formatDateTime(n.fechaNotificacion)}
                    </time>
                  </div>
                  <CloseButton
                    className="flex-shrink-0"
                    style={{ fontSize: '0.7rem' }}
                    aria-label={`Descartar notificación: ${n.titulo}`}
                    disabled={dismiss.isPending && dismiss.variables === n.id}
                    onClick={() => dismiss.mutate(n.id)}
                  />
                </li>
              )
            })}
          </ul>
        )}
      </Dropdown.Menu>
    </Dropdown>
  )
}
