import { useQuery } from '@tanstack/react-query'
import type { Cuenta, Pendientes } from '@vb/shared'
import Card from 'react-bootstrap/Card'
import Col from 'react-bootstrap/Col'
import Row from 'react-bootstrap/Row'
import { Link } from 'react-router'
import { Icon, type IconName } from '../../components/icon'
import { api } from '../../lib/api-client'
import { formatCount } from '../../lib/format'
import { useEmpresa } from '../../lib/use-empresa'
import { useTrabajador } from '../../lib/use-session'

/** Shortcuts to the screens, below what is pending. */
const atajos = [
  { to: '/usuarios', label: 'Usuarios', icon: 'people', text: 'Residentes, su documentación y su caja.' },
  { to: '/planing', label: 'Planing', icon: 'calendar3', text: 'El calendario de tareas del mes.' },
  { to: '/tareas', label: 'Tareas', icon: 'list-check', text: 'Tus tareas pendientes y completadas.' },
  { to: '/presupuestos', label: 'Presupuestos', icon: 'cash-coin', text: 'Presupuestos de cada vivienda.' },
  { to: '/viviendas', label: 'Viviendas', icon: 'house-door', text: 'Las viviendas de tus empresas.' },
  { to: '/contactos', label: 'Contactos', icon: 'person-lines-fill', text: 'Proveedores y agentes de cada empresa.' },
  { to: '/empresas', label: 'Empresas', icon: 'building', text: 'Las empresas con las que trabajas.' },
] as const

const numero = (c: Cuenta) => `${c.exacto ? '' : 'Más de '}${formatCount(c.total)}`

interface Pendiente {
  id: string
  to: string
  icon: IconName
  cuenta: Cuenta
  /** What the number counts, singular and plural. */
  texto: [string, string]
  detalle?: string
  /** Shown in red/amber when there is something (a count of 0 is calm). */
  tono: 'danger' | 'warning' | 'primary'
}

const tonoClass = { danger: 'text-danger-emphasis', warning: 'text-warning-emphasis', primary: 'text-primary' } as const

function pendientesDe(p: Pendientes): Pendiente[] {
  return [
    {
      id: 'pir-caducados',
      to: '/usuarios?pir=caducado',
      icon: 'shield-x',
      cuenta: p.pirCaducados,
      texto: ['PIR caducado', 'PIR caducados'],
      tono: 'danger',
    },
    {
      id: 'pir-por-caducar',
      to: '/usuarios?pir=aviso',
      icon: 'shield-exclamation',
      cuenta: p.pirPorCaducar,
      texto: ['PIR caduca en 30 días o menos', 'PIR caducan en 30 días o menos'],
      tono: 'warning',
    },
    {
      id: 'planing-hoy',
      to: `/planing?dia=${p.hoy}`,
      icon: 'calendar-check',
      cuenta: p.planingHoy,
      texto: ['tarea del planing hoy', 'tareas del planing hoy'],
      tono: 'primary',
    },
    {
      id: 'tareas',
      to: '/tareas',
      icon: 'list-check',
      cuenta: p.tareasPendientes,
      texto: ['tarea tuya pendiente', 'tareas tuyas pendientes'],
      detalle:
        p.tareasVencidas.total > 0 ? `${numero(p.tareasVencidas)} vencida${p.tareasVencidas.total === 1 ? '' : 's'}` : undefined,
      tono: p.tareasVencidas.total > 0 ? 'danger' : 'primary',
    },
    {
      id: 'presupuestos',
      to: '/presupuestos?estado=PENDIENTE_APROBACION',
      icon: 'cash-coin',
      cuenta: p.presupuestosPendientes,
      texto: ['presupuesto por aprobar', 'presupuestos por aprobar'],
      tono: 'warning',
    },
  ]
}

const CERO: Cuenta = { total: 0, exacto: true }
/** The cards' shape while the counts load. */
const CARGANDO: Pendientes = {
  pirCaducados: CERO,
  pirPorCaducar: CERO,
  planingHoy: CERO,
  tareasPendientes: CERO,
  tareasVencidas: CERO,
  presupuestosPendientes: CERO,
  hoy: '',
}

function PendienteCard({ p, cargando }: { p: Pendiente; cargando: boolean }) {
  const hay = !cargando && p.cuenta.total > 0
  return (
    <Card className="shadow-sm border-0 h-100 vb-pendiente" data-pendiente={cargando ? undefined : p.id}>
      <Card.Body className="d-flex align-items-center gap-3 p-3">
        <Icon name={p.icon} className={`fs-2 ${hay ? tonoClass[p.tono] : 'text-body-secondary'}`} />
        <div className="min-w-0">
          {cargando ? (
            <>
              <span className="d-block fs-3 fw-semibold lh-1">
                <span className="placeholder col-4" />
              </span>
              <span className="d-block small text-body-secondary">{p.texto[1]}</span>
            </>
          ) : (
            <Link to={p.to} className="stretched-link text-body text-decoration-none">
              <span className={`d-block fs-3 fw-semibold lh-1 ${hay ? tonoClass[p.tono] : ''}`}>{numero(p.cuenta)}</span>
              <span className="d-block small">{p.cuenta.total === 1 ? p.texto[0] : p.texto[1]}</span>
            </Link>
          )}
          {p.detalle && <span className="d-block small text-danger-emphasis fw-semibold">{p.detalle}</span>}
        </div>
      </Card.Body>
    </Card>
  )
}

/** Beyond SPEC: what needs the worker today, for the company chosen in the top bar, each a link to its list. */
function PendienteHoy() {
  const empresa = useEmpresa()
  const empresaId = empresa?.id ?? null
  const query = useQuery({
    queryKey: ['inicio', 'pendientes', { empresaId }],
    queryFn: () => api.get<Pendientes>('/inicio/pendientes', { empresaId }),
    refetchInterval: 60_000,
  })
  return (
    <section aria-labelledby="pendiente-hoy" className="mb-4">
      <h2 id="pendiente-hoy" className="h6 text-body-secondary text-uppercase mb-3">
        Pendiente hoy{empresa ? ` · ${empresa.nombre}` : ''}
      </h2>
      {query.isError ? (
        <p className="text-danger">No se pudo cargar lo pendiente.</p>
      ) : (
        <>
          {query.isPending && (
            <p role="status" className="visually-hidden">
              Cargando...
            </p>
          )}
          {/* While loading, the same cards hold their place (no layout shift), their numbers as placeholders. */}
          <Row
            xs={1}
            md={2}
            xl={5}
            className={`g-3 ps-0${query.isPending ? ' placeholder-glow' : ''}`}
            as="ul"
            aria-label="Pendiente hoy"
            aria-hidden={query.isPending || undefined}
          >
            {pendientesDe(query.data ?? CARGANDO).map((p) => (
              <Col as="li" key={p.id} className="list-unstyled">
                <PendienteCard p={p} cargando={query.isPending} />
              </Col>
            ))}
          </Row>
        </>
      )}
    </section>
  )
}

/** SPEC §2.1 /inicio: a welcome text asking the user to pick a section, and what is pending today. */
export function InicioPage() {
  const trabajador = useTrabajador()
  return (
    <>
      <Card className="shadow-sm border-0 mb-4">
        <Card.Body className="p-4 d-flex align-items-center gap-3">
          <span className="icon-circle bg-primary-subtle text-primary" aria-hidden="true">
            <Icon name="house-heart" />
          </span>
          <div>
            <h2 className="h4 mb-1">Bienvenido{trabajador ? `, ${trabajador.nombre}` : ''}</h2>
            <p className="mb-0 text-body-secondary">Selecciona una sección en el menú para empezar a trabajar.</p>
          </div>
        </Card.Body>
      </Card>
      <PendienteHoy />
      <h2 className="h6 text-body-secondary text-uppercase mb-3">Accesos rápidos</h2>
      <Row xs={1} sm={2} xl={4} className="g-3">
        {atajos.map((a) => (
          <Col key={a.to}>
            <Card className="shadow-sm border-0 h-100">
              <Card.Body className="p-4">
                <Icon name={a.icon} className="fs-3 text-primary" />
                <h3 className="h6 mt-2 mb-1">
                  <Link to={a.to} className="stretched-link text-body text-decoration-none">
                    {a.label}
                  </Link>
                </h3>
                <p className="small text-body-secondary mb-0">{a.text}</p>
              </Card.Body>
            </Card>
          </Col>
        ))}
      </Row>
    </>
  )
}
