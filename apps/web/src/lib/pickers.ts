import { useQuery } from '@tanstack/react-query'
import type { Empresa, Trabajador, Vivienda } from '@vb/shared'
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
      viviendaOption,
    )
const viviendaOption = (v: Vivienda): SelectOption => ({ value: v.id, label: v.nombre, group: v.empresa.nombre })

/** The workers the worker sees (the server scopes them, DECISIONS P1), by surname. */
export const trabajadorPickerKey = ['trabajadores', 'picker'] as const
export const searchTrabajadores = async (q: string): Promise<SelectOption[]> =>
  (await api.get<Trabajador[]>('/trabajadores', { q, pageSize: COMBOBOX_PAGE, sort: 'apellidos', order: 'asc' })).map(
    trabajadorOption,
  )
const trabajadorOption = (t: Trabajador): SelectOption => ({ value: t.id, label: `${t.nombre} ${t.apellidos}` })

/**
 * A record named by its id, read once: a list's filter holds only the id in the URL (a link, a reload), and
 * shows the record's name once it is read; null while it is read, or when there is no id or no such record.
 */
function useOption<T>(resource: string, id: number | null, toOption: (row: T) => SelectOption): SelectOption | null {
  const read = useQuery({
    queryKey: [resource, 'option', id],
    queryFn: async () => toOption(await api.get<T>(`/${resource}/${id}`)),
    enabled: id !== null,
    staleTime: 60_000,
    retry: false,
  })
  return id === null ? null : (read.data ?? null)
}
export const useViviendaOption = (id: number | null) => useOption('viviendas', id, viviendaOption)
export const useTrabajadorOption = (id: number | null) => useOption('trabajadores', id, trabajadorOption)

/** The companies the worker may use. */
export const empresaPickerKey = ['empresas', 'picker'] as const
export const searchEmpresas = async (q: string): Promise<SelectOption[]> =>
  (await api.get<Empresa[]>('/empresas', { q, pageSize: COMBOBOX_PAGE, sort: 'nombre', order: 'asc' })).map((e) => ({
    value: e.id,
    label: e.nombre,
  }))
