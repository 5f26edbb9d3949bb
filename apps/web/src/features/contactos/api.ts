import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Contacto, ContactoCreate } from '@vb/shared'
import type { ListParams } from '../../components/list'
import { api } from '../../lib/api-client'

export const contactoKeys = {
  all: ['contactos'] as const,
  /** SPEC §2.7: the list of the company chosen in the top bar (null: all of the worker's companies). */
  list: (empresaId: number | null) => [...contactoKeys.all, 'list', { empresaId }] as const,
}

/** Companies the worker sees, for the form's select (cached under the companies' own key). */
export const fetchContactos = (empresaId: number | null) => (params: ListParams) =>
  api.list<Contacto>('/contactos', { ...params, empresaId })

export function useCreateContacto() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: ContactoCreate) => api.post<Contacto>('/contactos', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactoKeys.all }),
  })
}

export function useUpdateContacto() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ContactoCreate }) => api.patch<Contacto>(`/contactos/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactoKeys.all }),
  })
}

export function useDeleteContacto() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => api.delete(`/contactos/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactoKeys.all }),
  })
}
