import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Notificacion, NotificacionTipo } from '@vb/shared'
import { NOTIFICATION_POLL_MS, notificacionLooks, notificacionMessages, notificacionTipoDe } from '@vb/shared/notificacion-tipos'
import { useCallback, useEffect, useState } from 'react'
import Badge from 'react-bootstrap/Badge'
import Button from 'react-bootstrap/Button'
import CloseButton from 'react-bootstrap/CloseButton'
import Dropdown from 'react-bootstrap/Dropdown'
import { Icon, type IconName } from '../../components/icon'
import { useToast } from '../../components/toasts'
import { api, type Page } from '../../lib/api-client'
import { errorMessage } from '../../lib/form-errors'
import { formatDateTime } from '../../lib/format'
import { followSharedNotificationStream } from '../../lib/notification-stream'
import { NOTIFICACION_EVENT, session } from '../../lib/session'

/** SPEC §3: a style per type (info, warning, error, success, TAREA, PIR); an unknown one is shown as info. */
const icons: Record<NotificacionTipo, IconName> = {
  info: 'info-circle',
  warning: 'exclamation-triangle',
  error: 'x-octagon',
  success: 'check-circle',
  TAREA: 'list-check',
  PIR: 'shield-exclamation',
}
/** The text colour of each type's icon (full class names: the build keeps only classes written out). */
const iconClass: Record<NotificacionTipo, string> = {
  info: 'text-info-emphasis',
  warning: 'text-warning-emphasis',
  error: 'text-danger-emphasis',
  success: 'text-success-emphasis',
  TAREA: 'text-primary',
  PIR: 'text-warning-emphasis',
}

/** Each type's coloured edge (styles.css). */
const edgeClass: Record<NotificacionTipo, string> = {
  info: 'vb-notificacion',
  warning: 'vb-notificacion vb-notificacion-warning',
  error: 'vb-notificacion vb-notificacion-danger',
  success: 'vb-notificacion vb-notificacion-success',
  TAREA: 'vb-notificacion vb-notificacion-primary',
  PIR: 'vb-notificacion vb-notificacion-warning',
}

/** Notifications read per page of the panel; 'Ver más' reads the next ones. */
const PAGE = 20

// Keeps the 350 px panel inside a phone's screen.
const panelPopper = { modifiers: [{ name: 'preventOverflow', options: { padding: 8, altAxis: true } }] }

interface Props {
  trabajadorId: number | undefined
  show: boolean
  onToggle: (show: boolean) => void
}

/**
 * SPEC §2.2, §4, §7: the bell with a count badge and a 350 px panel: the worker's own notifications, newest
 * first, read from GET /api/notificaciones page by page (the badge counts them all, X-Total-Count). Polled
 * every 15 s and at once on 'nueva-notificacion'; DECISIONS D9: the server's stream announces new ones while
 * the page is open. One can be dismissed, or all ('Marcar todas como leídas').
 */
export function NotificationBell({ trabajadorId, show, onToggle }: Props) {
  const queryClient = useQueryClient()
  const toast = useToast()
  const [pageSize, setPageSize] = useState(PAGE)
  const root = ['notificaciones', trabajadorId]
  const queryKey = [...root, pageSize]
  const notificaciones = useQuery({
    queryKey,
    queryFn: () => api.list<Notificacion>('/notificaciones', { pageSize }),
    enabled: trabajadorId !== undefined,
    refetchInterval: NOTIFICATION_POLL_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  })
  const { refetch } = notificaciones
  // A read already under way may have been answered before the new notification was committed, and a plain
  // refetch joins it while the list has no data yet (TanStack Query cancels it only once there is data):
  // the read under way is dropped first, so a new one always starts and sees what was announced.
  const reread = useCallback(() => {
    void queryClient.cancelQueries({ queryKey: ['notificaciones', trabajadorId] }).then(() => refetch())
  }, [queryClient, trabajadorId, refetch])

  useEffect(() => {
    window.addEventListener(NOTIFICACION_EVENT, reread)
    return () => window.removeEventListener(NOTIFICACION_EVENT, reread)
  }, [reread])

  useEffect(() => {
    if (trabajadorId === undefined) return
    let controller: AbortController | undefined
    const follow = () => {
      controller?.abort()
      controller = new AbortController()
      // One stream for all the tabs of this worker (lib/notification-stream.ts).
      void followSharedNotificationStream({
        name: `vb-notificaciones-${trabajadorId}`,
        token: session.token,
        onNotificacion: () => window.dispatchEvent(new Event(NOTIFICACION_EVENT)),
        onResync: reread,
        signal: controller.signal,
      })
    }
    // A page being left (a reload, an address typed, the back-forward cache) ends its stream at once. Left
    // open, it kept one of the browser's six connections to this server for up to a minute, so the sixth full
    // page load in a row waited that long for one (docs/performance.md). Back from the cache, it follows again.
    const leave = () => controller?.abort()
    const back = (event: PageTransitionEvent) => {
      if (!event.persisted) return
      follow()
      reread()
    }
    follow()
    window.addEventListener('pagehide', leave)
    window.addEventListener('pageshow', back)
    return () => {
      window.removeEventListener('pagehide', leave)
      window.removeEventListener('pageshow', back)
      controller?.abort()
    }
  }, [trabajadorId, reread])

  const dismiss = useMutation({
    mutationFn: (id: number) => api.delete(`/notificaciones/${id}`),
    onSuccess: (_void, id) => {
      queryClient.setQueryData<Page<Notificacion>>(queryKey, (page) =>
        page ? { ...page, items: page.items.filter((n) => n.id !== id), total: Math.max(0, page.total - 1) } : page,
      )
      void queryClient.invalidateQueries({ queryKey: root })
    },
    onError: (err) => toast.error(errorMessage(err)),
  })
  const dismissAll = useMutation({
    mutationFn: () => api.delete('/notificaciones'),
    onSuccess: () => {
      queryClient.setQueryData<Page<Notificacion>>(queryKey, (page) => (page ? { ...page, items: [], total: 0 } : page))
      setPageSize(PAGE)
      void queryClient.invalidateQueries({ queryKey: root })
    },
    onError: (err) => toast.error(errorMessage(err)),
  })

  const items = notificaciones.data?.items ?? []
  const count = notificaciones.data?.total ?? 0
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
        <div className="d-flex align-items-center gap-2 px-3 py-2 border-bottom">
          <h2 className="h6 mb-0 me-auto">Notificaciones</h2>
          {count > 0 && (
            <Button
              variant="link"
              size="sm"
              className="p-0 text-decoration-none"
              disabled={dismissAll.isPending}
              onClick={() => dismissAll.mutate()}
            >
              {notificacionMessages.marcarTodas}
            </Button>
          )}
        </div>
        {notificaciones.isPending && <p className="px-3 py-3 mb-0 text-body-secondary">Cargando...</p>}
        {notificaciones.isError && !notificaciones.data && (
          <p className="px-3 py-3 mb-0 text-danger">{notificacionMessages.errorCarga}</p>
        )}
        {notificaciones.isSuccess && count === 0 && (
          <p className="px-3 py-3 mb-0 text-body-secondary">{notificacionMessages.vacio}</p>
        )}
        {items.length > 0 && (
          <ul className="list-unstyled mb-0 notification-list" aria-label="Notificaciones">
            {items.map((n) => (
              <NotificationItem
                key={n.id}
                notificacion={n}
                dismissing={dismiss.isPending && dismiss.variables === n.id}
                onDismiss={() => dismiss.mutate(n.id)}
              />
            ))}
          </ul>
        )}
        {items.length > 0 && items.length < count && pageSize < 100 && (
          <div className="px-3 py-2 text-center">
            <Button variant="link" size="sm" onClick={() => setPageSize((s) => Math.min(100, s + PAGE))}>
              Ver más ({count - items.length})
            </Button>
          </div>
        )}
      </Dropdown.Menu>
    </Dropdown>
  )
}

/**
 * One notification of the panel. A component of its own, so its text and date are worked out only once the panel is
 * opened (the closed menu renders none of its content), not on every read of the list while the page starts.
 */
function NotificationItem({
  notificacion: n,
  dismissing,
  onDismiss,
}: {
  notificacion: Notificacion
  dismissing: boolean
  onDismiss: () => void
}) {
  const tipo = notificacionTipoDe(n.tipo)
  const look = notificacionLooks[tipo]
  return (
    <li className={`d-flex gap-2 px-3 py-2 border-bottom ${edgeClass[tipo]}`} data-tipo={tipo}>
      <Icon name={icons[tipo]} className={`${iconClass[tipo]} mt-1`} />
      <div className="flex-grow-1 small">
        <p className="fw-semibold mb-0">
          <span className="visually-hidden">{look.label}: </span>
          {n.titulo}
        </p>
        <p className="mb-1 text-body-secondary">{n.descripcion}</p>
        <time className="text-body-secondary vb-notificacion-fecha" dateTime={n.fechaNotificacion}>
          {formatDateTime(n.fechaNotificacion)}
        </time>
      </div>
      <CloseButton
        className="flex-shrink-0"
        style={{ fontSize: '0.7rem' }}
        aria-label={`Descartar notificación: ${n.titulo}`}
        disabled={dismissing}
        onClick={onDismiss}
      />
    </li>
  )
}
