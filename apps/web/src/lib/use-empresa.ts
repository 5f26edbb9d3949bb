import type { Empresa } from '@vb/shared'
import { useSyncExternalStore } from 'react'
import { EMPRESA_EVENT, SESION_EVENT } from './session'

type EmpresaSeleccionada = Pick<Empresa, 'id' | 'nombre'>

function subscribe(onChange: () => void) {
  window.addEventListener(EMPRESA_EVENT, onChange)
  window.addEventListener(SESION_EVENT, onChange)
  window.addEventListener('storage', onChange)
  return () => {
    window.removeEventListener(EMPRESA_EVENT, onChange)
    window.removeEventListener(SESION_EVENT, onChange)
    window.removeEventListener('storage', onChange)
  }
}

// The raw string is the snapshot (a stable primitive); the parsed value is cached per string.
const rawEmpresa = () => localStorage.getItem('empresa')
const cache = { raw: null as string | null, value: null as EmpresaSeleccionada | null }
function parse(raw: string | null): EmpresaSeleccionada | null {
  if (raw === cache.raw) return cache.value
  cache.raw = raw
  cache.value = null
  if (raw) {
    try {
      const v = JSON.parse(raw) as Partial<EmpresaSeleccionada>
      if (typeof v.id === 'number') cache.value = { id: v.id, nombre: String(v.nombre ?? '') }
    } catch {
      // A corrupt value counts as no selection.
    }
  }
  return cache.value
}

/** The company selected in the top bar ({ id, nombre }), or null for 'Todas mis empresas'. */
export function useEmpresa(): EmpresaSeleccionada | null {
  return parse(useSyncExternalStore(subscribe, rawEmpresa))
}

/**
 * The id of the company selected in the top bar (SPEC §2.2, DECISIONS D1), or null for
 * 'Todas mis empresas'. Re-renders on 'empresa-cambiada'; put it in the query key and send it as
 * `empresaId`, so the list re-queries when the selection changes.
 */
export function useEmpresaId(): number | null {
  return useEmpresa()?.id ?? null
}
