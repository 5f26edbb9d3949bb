import { useQuery } from '@tanstack/react-query'
import type { UsuarioFicha } from '@vb/shared'
import { documentoMessages } from '@vb/shared/documentos-core'
import type { ReactNode } from 'react'
import { Alert } from 'react-bootstrap'
import { useParams } from 'react-router'
import { ApiError, api } from '../lib/api-client'
import { useShownData } from '../lib/use-shown-data'
import { LOADING_TEXT } from './list'

/** The resident of /documentacion/{nif} and /caja/{nif}: GET /api/usuarios/nif/{nif} (any case), with the PIR. */
export const usuarioFichaKey = (nif: string) => ['usuarios', 'nif', nif.toUpperCase()] as const

export function useUsuarioFicha(nif: string) {
  return useQuery({
    queryKey: usuarioFichaKey(nif),
    queryFn: () => api.get<UsuarioFicha>(`/usuarios/nif/${encodeURIComponent(nif)}`),
    retry: (count, err) => !(err instanceof ApiError && err.statusCode < 500) && count < 2,
  })
}

interface FichaGateProps {
  /** SPEC §8's load failure of the screen ('No se pudo cargar la documentación del usuario.'). */
  loadError: string
  /** The heading while the resident loads or is unknown (SPEC §2.14: 'NIF {nif}' as the name). */
  heading: (name: string) => string
  children: (ficha: UsuarioFicha) => ReactNode
}

/**
 * The resident screens' entry (SPEC §2.14, §2.15, §8): the NIF comes from the path; without one the screen
 * says 'Ruta inválida: falta el NIF.'; a NIF no resident of the worker's companies has says SPEC's
 * 'No se encontró ningún usuario con NIF {nif}' (the server decides: another company's resident is 404).
 */
export function FichaGate({ loadError, heading, children }: FichaGateProps) {
  const { nif = '' } = useParams()
  const trimmed = nif.trim()
  const ficha = useUsuarioFicha(trimmed)
  // The screen under the record (a whole list and its form) renders in a transition, not in the task that delivers it.
  const { shown } = useShownData(ficha.data)
  if (!trimmed) {
    return (
      <Alert variant="warning" className="mt-2">
        {documentoMessages.faltaNif}
      </Alert>
    )
  }
  if (shown) return children(shown)
  return (
    <>
      <h2 className="h4 mb-3 text-break">{heading(`NIF ${trimmed.toUpperCase()}`)}</h2>
      {ficha.isPending || ficha.data ? (
        <p role="status" className="text-body-secondary">
          {LOADING_TEXT}
        </p>
      ) : (
        <Alert variant={ficha.error instanceof ApiError && ficha.error.statusCode === 404 ? 'warning' : 'danger'}>
          {ficha.error instanceof ApiError && (ficha.error.statusCode === 404 || ficha.error.statusCode === 503)
            ? ficha.error.message
            : loadError}
        </Alert>
      )}
    </>
  )
}
