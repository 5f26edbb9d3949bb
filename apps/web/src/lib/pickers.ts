import type { Empresa, Vivienda } from '@vb/shared'
import type { SelectOption } from '../components/form-fields'
import { COMBOBOX_PAGE } from '../components/remote-combobox-field'
import { api } from './api-client'

/**
 * Searches behind the forms' pickers, shared by every screen (a feature never imports another feature).
 * Each asks the server for one page of matches: the lists can be long, and the server scopes them.
 */

/** Homes of the worker's companies (of `empresaId` when one is chosen in the top bar), with their company. */
export const viviendaPickerKey = (empresaId: number | null) => ['viviendas', 'picker', { empresaId }] as const
export const searchViviendas =
  (empresaId: number | null) =>
  async (q: string): Promise<SelectOption[]> =>
    (await api.get<Vivienda[]>('/viviendas', { q, empresaId, pageSize: COMBOBOX_PAGE, sort: 'nombre', order: 'asc' })).map(
      (v) => ({
        value: v.id,
        label: v.nombre,
        group: v.empresa.nombre,
      }),
    )

/** The companies the worker may use. */
export const empresaPickerKey = ['empresas', 'picker'] as const
export const searchEmpresas = async (q: string): Promise<SelectOption[]> =>
  (await api.get<Empresa[]>('/empresas', { q, pageSize: COMBOBOX_PAGE, sort: 'nombre', order: 'asc' })).map((e) => ({
    value: e.id,
    label: e.nombre,
  }))
