import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Usuario, UsuarioCreate, Vivienda } from '@vb/shared'
import type { SelectOption } from '../../components/form-fields'
import type { ListParams } from '../../components/list'
import { api } from '../../lib/api-client'

export const usuarioKeys = {
  all: ['usuarios'] as const,
  /** `empresaId`: the company chosen in the top bar, or null for all of the worker's companies. */
  list: (empresaId: number | null) => [...usuarioKeys.all, 'list', { empresaId }] as const,
}

/** Homes for the form's picker, cached under the homes' own key so home changes refresh it. */
export const viviendaOptionsKey = (empresaId: number | null) => ['viviendas', 'options', { empresaId }] as const

/** One page of residents of the selected company (DECISIONS A4, D1). */
export const fetchUsuarios = (empresaId: number | null) => (params: ListParams) =>
  api.list<Usuario>('/usuarios', { ...params, empresaId })

/** The homes the worker can see (of the selected company), grouped by company in the picker. */
export const fetchViviendaOptions = (empresaId: number | null) => async (): Promise<SelectOption[]> => {
  const viviendas = await api.get<Vivienda[]>('/viviendas', { empresaId, sort: 'empresa', order: 'asc', pageSize: 100 })
  return viviendas
    .map((v) => ({ value: v.id, label: v.nombre, group: v.empresa.nombre }))
    .sort((a, b) => a.group.localeCompare(b.group, 'es') || a.label.localeCompare(b.label, 'es'))
}

export function useCreateUsuario() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UsuarioCreate) => api.post<Usuario>('/usuarios', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usuarioKeys.all }),
  })
}

export function useUpdateUsuario() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UsuarioCreate }) => api.patch<Usuario>(`/usuarios/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usuarioKeys.all }),
  })
}

/** DECISIONS D2: the server deletes the resident's documents, cash and home link in one transaction. */
export function useDeleteUsuario() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => api.delete(`/usuarios/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usuarioKeys.all }),
  })
}
