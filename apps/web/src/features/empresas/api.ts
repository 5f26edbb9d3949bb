import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Empresa, EmpresaCreate } from '@vb/shared'
import type { ListParams } from '../../components/list'
import { api } from '../../lib/api-client'

export const empresaKeys = {
  all: ['empresas'] as const,
  list: () => [...empresaKeys.all, 'list'] as const,
}

/** One page of companies (DECISIONS A4: searched, sorted and paged by the server). */
export const fetchEmpresas = (params: ListParams) => api.list<Empresa>('/empresas', { ...params })

/** A company's name and logo also show in the homes and contacts lists. */
function useInvalidateEmpresas() {
  const queryClient = useQueryClient()
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: empresaKeys.all }),
      queryClient.invalidateQueries({ queryKey: ['viviendas'] }),
      queryClient.invalidateQueries({ queryKey: ['contactos'] }),
    ])
  }
}

export function useCreateEmpresa() {
  const invalidate = useInvalidateEmpresas()
  return useMutation({
    mutationFn: (body: EmpresaCreate) => api.post<Empresa>('/empresas', body),
    onSuccess: invalidate,
  })
}

export function useUpdateEmpresa() {
  const invalidate = useInvalidateEmpresas()
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: EmpresaCreate }) => api.patch<Empresa>(`/empresas/${id}`, body),
    onSuccess: invalidate,
  })
}

export function useDeleteEmpresa() {
  const invalidate = useInvalidateEmpresas()
  return useMutation({
    mutationFn: (id: number) => api.delete(`/empresas/${id}`),
    onSuccess: invalidate,
  })
}
