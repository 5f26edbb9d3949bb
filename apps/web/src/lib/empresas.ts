import type { Empresa } from '@vb/shared'
import { api } from './api-client'

/**
 * The companies the worker may see (the API scopes them: all for SUPERADMIN, its own otherwise), sorted by
 * name: for the top-bar switcher and the company pickers of the forms.
 */
export const fetchMisEmpresas = () => api.get<Empresa[]>('/empresas', { sort: 'nombre', order: 'asc' })

/** Query key and fetcher of the company pickers (under 'empresas', so company changes refresh them). */
export const empresaOptionsKey = ['empresas', 'options'] as const
export const fetchEmpresaOptions = async (): Promise<Array<{ value: number; label: string }>> =>
  (await fetchMisEmpresas()).map((e) => ({ value: e.id, label: e.nombre }))
