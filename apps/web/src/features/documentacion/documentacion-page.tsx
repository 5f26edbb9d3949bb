import type { Documento, DocumentoCreate, PirStatus, UsuarioFicha } from '@vb/shared'
import { madridDay } from '@vb/shared/dates'
import { documentoMessages } from '@vb/shared/documentos-core'
import { pirLabel } from '@vb/shared/pir-core'
import { useState } from 'react'
import { Button, Card } from 'react-bootstrap'
import type { z } from 'zod'
import { TextField } from '../../components/form-fields'
import { Icon, type IconName } from '../../components/icon'
import { type Column, DATE_SORT_LABELS } from '../../components/list'
import { type CrudCommands, CrudPage } from '../../components/resource/crud-page'
import { useToast } from '../../components/toasts'
import { UploadField } from '../../components/upload-field'
import { FichaGate } from '../../components/usuario-ficha'
import { errorMessage } from '../../lib/form-errors'
import { formatDateMedium } from '../../lib/format'
import { schemaFrom } from '../../lib/loaded-schema'
import { resourceClient } from '../../lib/resource'

export const documentosResource = resourceClient<Documento, DocumentoCreate>('documentos-usuario')

/** The form's schema, loaded when the form first opens (the screen starts without building it). */
const formSchema = schemaFrom(() =>
  import('@vb/shared/documentos').then((m) => m.documentoCreateSchema as unknown as z.ZodType<unknown, DocumentoCreate>),
)

/** SPEC §9: success toasts on documents last 2.5 s. */
const TOAST_MS = 2500
/** Signed file links last 5 minutes: the list is read again before they expire. */
const REFRESH_MS = 4 * 60_000

/** SPEC §2.14: the PIR card's border colour and icon for each state. */
const pirLook: Record<PirStatus['estado'], { variant: string; icon: IconName }> = {
  sinpir: { variant: 'secondary', icon: 'shield' },
  vigente: { variant: 'success', icon: 'shield-check' },
  aviso: { variant: 'warning', icon: 'shield-exclamation' },
  caducado: { variant: 'danger', icon: 'shield-x' },
}

const columns: Column<Documento>[] = [
  { id: 'id', header: 'ID', cell: (d) => d.id, className: 'text-body-secondary', card: 'hidden' },
  {
    id: 'titulo',
    header: 'Título',
    sortKey: 'titulo',
    cell: (d) => <span className="text-break">{d.titulo}</span>,
    card: 'title',
  },
  { id: 'fecha', header: 'Fecha', sortKey: 'fecha', sortLabels: DATE_SORT_LABELS, cell: (d) => formatDateMedium(d.fecha) },
  {
    id: 'archivo',
    header: 'Archivo',
    cell: (d) =>
      d.archivo ? (
        <a href={d.archivo.url} target="_blank" rel="noopener noreferrer" aria-label={`Abrir ${d.titulo}`}>
          Abrir
        </a>
      ) : (
        <>
          <span aria-hidden="true">—</span>
          <span className="visually-hidden">Sin archivo</span>
        </>
      ),
  },
]

function PirCard({ ficha, commands }: { ficha: UsuarioFicha; commands: CrudCommands<Documento, DocumentoCreate> }) {
  const toast = useToast()
  const [opening, setOpening] = useState(false)
  const look = pirLook[ficha.pir.estado]
  const pirId = ficha.pirDocumentoId
  // 'Editar PIR' reads the document the server named as this resident's PIR, so the form holds its current version.
  const editPir = async () => {
    if (pirId === null) return
    setOpening(true)
    try {
      commands.edit(await documentosResource.get(pirId))
    } catch (err) {
      toast.error(errorMessage(err))
    } finally {
      setOpening(false)
    }
  }
  return (
    <Card className={`mb-3 border-2 border-${look.variant} vb-pir-card`} data-estado={ficha.pir.estado}>
      <Card.Body className="d-flex flex-wrap align-items-center gap-3">
        <Icon name={look.icon} className={`fs-2 text-${look.variant}-emphasis`} />
        <div className="flex-grow-1">
          <h3 className="h6 mb-1">Certificado PIR</h3>
          <p className={`mb-0 fw-semibold text-${look.variant}-emphasis`}>{pirLabel(ficha.pir)}</p>
          {ficha.pir.caducidad && (
            <p className="mb-0 small text-body-secondary">
              {ficha.pir.estado === 'caducado' ? 'Caducó el' : 'Caduca el'} {formatDateMedium(`${ficha.pir.caducidad}T12:00:00Z`)}
            </p>
          )}
        </div>
        {pirId !== null ? (
          <Button variant="outline-primary" disabled={opening} onClick={editPir}>
            <Icon name="pencil" className="me-1" />
            Editar PIR
          </Button>
        ) : (
          <Button variant="outline-primary" onClick={() => commands.create({ titulo: 'PIR' })}>
            <Icon name="plus-lg" className="me-1" />
            Registrar PIR
          </Button>
        )}
      </Card.Body>
    </Card>
  )
}

/** SPEC §2.14 with DECISIONS D3, D8: a resident's documents, the PIR card and real files. */
export function DocumentacionPage() {
  return (
    <FichaGate loadError={documentoMessages.errorCarga} heading={(name) => `Documentación de: ${name}`}>
      {(ficha) => <Documentos ficha={ficha} />}
    </FichaGate>
  )
}

function Documentos({ ficha }: { ficha: UsuarioFicha }) {
  return (
    <CrudPage<Documento, DocumentoCreate>
      resource="documentos-usuario"
      client={documentosResource}
      filters={{ usuarioId: ficha.id }}
      listFilters={[{ key: 'fecha', label: 'Fecha', type: 'date' }]}
      columns={columns}
      rowLabel={(d) => d.titulo}
      middleRowActions={(d) => [
        d.archivo
          ? { label: 'Descargar', icon: 'download', href: d.archivo.descargaUrl }
          : { label: 'Descargar', icon: 'download', disabled: true },
      ]}
      defaultSort={{ sort: 'fecha', order: 'desc' }}
      version={(d) => d.updatedAt}
      toastMs={TOAST_MS}
      refreshMs={REFRESH_MS}
      header={(commands) => (
        <>
          <h2 className="h4 mb-3 text-break">Documentación de: {ficha.nombreCompleto}</h2>
          <PirCard ficha={ficha} commands={commands} />
        </>
      )}
      // The form keeps the date as the day the input shows (YYYY-MM-DD); the schema turns it into the instant.
      schema={formSchema}
      empty={{ titulo: '', fecha: madridDay(new Date()), archivoUrl: '', usuarioId: ficha.id }}
      toValues={(d) => ({
        titulo: d.titulo,
        fecha: madridDay(d.fecha),
        archivoUrl: d.archivoUrl ?? '',
        usuarioId: d.usuarioId,
      })}
      texts={{
        search: 'Buscar documento',
        searchPlaceholder: 'Título',
        caption: 'Documentos',
        empty: documentoMessages.vacio,
        loadError: documentoMessages.errorCarga,
        newButton: 'Nuevo Documento',
        createTitle: 'Nuevo Documento',
        editTitle: 'Editar Documento',
        deleteQuestion: (d) => `¿Seguro que quieres eliminar el documento «${d.titulo}»?`,
        created: documentoMessages.creado,
        updated: documentoMessages.actualizado,
        deleted: documentoMessages.eliminado,
        createError: documentoMessages.errorCrear,
        updateError: documentoMessages.errorActualizar,
        deleteError: documentoMessages.errorEliminar,
      }}
      fields={(form, d) => (
        <>
          <TextField form={form} name="titulo" label="Título" autoFocus />
          <TextField form={form} name="fecha" label="Fecha" type="date" />
          <UploadField form={form} name="archivoUrl" label="Archivo (URL)" allowUrl current={d?.archivo} />
        </>
      )}
    />
  )
}
