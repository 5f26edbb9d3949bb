import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Vivienda, ViviendaCreate } from '@vb/shared'
import type { ListParams } from '../../components/list'
import { api } from '../../lib/api-client'

export const viviendaKeys = {
  all: ['viviendas'] as const,
  /** `empresaId`: the company chosen in the top bar, or null for all of the worker's companies. */
  list: (empresaId: number | null) => [...viviendaKeys.all, 'list', { empresaId }] as const,
}

/** Companies the worker sees, for the form's select (cached under the companies' own key). */
/** One page of homes of the selected company (DECISIONS A4, D1). */
export const fetchViviendas = (empresaId: number | null) => (params: ListParams) =>
  api.list<Vivienda>('/viviendas', { ...params, empresaId })

/** A home's name shows in the residents list, and residents' pickers list homes. */
function useInvalidateViviendas() {
  const queryClient = useQueryClient()
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: viviendaKeys.all }),
      queryClient.invalidateQueries({ queryKey: ['usuarios'] }),
    ])
  }
}

export function useCreateVivienda() {
  const invalidate = useInvalidateViviendas()
  return useMutation({
    mutationFn: (body: ViviendaCreate) => api.post<Vivienda>('/viviendas', body),
    onSuccess: invalidate,
  })
}

export function useUpdateVivienda() {
  const invalidate = useInvalidateViviendas()
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ViviendaCreate }) => api.patch<Vivienda>(`/viviendas/${id}`, body),
    onSuccess: invalidate,
  })
}

export function useDeleteVivienda() {
  const invalidate = useInvalidateViviendas()
  return useMutation({
    mutationFn: (id: number) => api.delete(`/viviendas/${id}`),
    onSuccess: invalidate,
  })
}
