import Button from 'react-bootstrap/Button'
import Card from 'react-bootstrap/Card'
import Col from 'react-bootstrap/Col'
import Form from 'react-bootstrap/Form'
import InputGroup from 'react-bootstrap/InputGroup'
import Row from 'react-bootstrap/Row'
import { Icon, type IconName } from '../../components/icon'
import { formatDate } from '../../lib/format'

type TipoInforme = 'PDF' | 'Excel' | 'HTML'

/** SPEC §3 Static report sample. */
interface InformeMuestra {
  id: number
  titulo: string
  descripcion: string
  fecha: string
  tipo: TipoInforme
}

const muestras: InformeMuestra[] = [
  {
    id: 1,
    titulo: 'Ocupación de viviendas',
    descripcion: 'Plazas ocupadas y libres por vivienda y empresa.',
    fecha: '2025-01-31',
    tipo: 'PDF',
  },
  {
    id: 2,
    titulo: 'Movimientos de caja',
    descripcion: 'Entradas y salidas de la caja de cada usuario.',
    fecha: '2025-01-31',
    tipo: 'Excel',
  },
  {
    id: 3,
    titulo: 'Certificados PIR',
    descripcion: 'Estado de los PIR: vigentes, por caducar y caducados.',
    fecha: '2025-02-03',
    tipo: 'HTML',
  },
  {
    id: 4,
    titulo: 'Tareas completadas',
    descripcion: 'Tareas de trabajadores cerradas en el mes.',
    fecha: '2025-02-28',
    tipo: 'PDF',
  },
  {
    id: 5,
    titulo: 'Presupuestos aprobados',
    descripcion: 'Importes aprobados y realizados por vivienda.',
    fecha: '2025-02-28',
    tipo: 'Excel',
  },
  {
    id: 6,
    titulo: 'Accesos al sistema',
    descripcion: 'Resumen de la actividad de los trabajadores.',
    fecha: '2025-03-01',
    tipo: 'HTML',
  },
]

const estilo: Record<TipoInforme, { icon: IconName; color: string }> = {
  PDF: { icon: 'file-earmark-pdf', color: 'danger' },
  Excel: { icon: 'file-earmark-spreadsheet', color: 'success' },
  HTML: { icon: 'filetype-html', color: 'primary' },
}

/** SPEC §2.8: static cards with a Filter button and a search box that do nothing (a placeholder page). */
export function InformesPage() {
  return (
    <>
      <Card className="shadow-sm border-0 mb-4">
        <Card.Body className="p-3 p-md-4">
          <Form className="d-flex flex-column flex-sm-row gap-2" role="search" onSubmit={(e) => e.preventDefault()}>
            <InputGroup className="flex-grow-1">
              <InputGroup.Text aria-hidden="true">
                <Icon name="search" />
              </InputGroup.Text>
              <Form.Control type="search" placeholder="Buscar informe" aria-label="Buscar informe" />
            </InputGroup>
            <Button type="button" variant="outline-primary" className="text-nowrap">
              <Icon name="funnel" className="me-2" />
              Filtrar
            </Button>
          </Form>
        </Card.Body>
      </Card>
      <Row xs={1} md={2} xl={3} className="g-3">
        {muestras.map((informe) => {
          const { icon, color } = estilo[informe.tipo]
          return (
            <Col key={informe.id}>
              <Card className="shadow-sm border-0 h-100">
                <Card.Body className="p-4 d-flex gap-3">
                  <span className={`icon-circle bg-${color}-subtle text-${color}-emphasis`} aria-hidden="true">
                    <Icon name={icon} />
                  </span>
                  <div className="flex-grow-1">
                    <div className="d-flex justify-content-between align-items-start gap-2">
                      <h2 className="h6 mb-1">{informe.titulo}</h2>
                      <span className={`badge bg-${color}-subtle text-${color}-emphasis border`}>{informe.tipo}</span>
                    </div>
                    <p className="small text-body-secondary mb-2">{informe.descripcion}</p>
                    <p className="small mb-0">
                      <Icon name="calendar3" className="me-1" />
                      {formatDate(`${informe.fecha}T12:00:00Z`)}
                    </p>
                  </div>
                </Card.Body>
              </Card>
            </Col>
          )
        })}
      </Row>
    </>
  )
}
