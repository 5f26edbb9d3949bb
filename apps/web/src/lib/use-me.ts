import { useQuery } from '@tanstack/react-query'
import type { Trabajador } from '@vb/shared'
import { api } from './api-client'

/** The logged-in worker's query key: the shell refreshes the stored worker from the same query (DECISIONS A2). */
export const meQueryKey = ['trabajadores', 'me'] as const

/** GET /api/trabajadores/me: the logged-in worker as the server has it now (its photo's links are fresh). */
export function useMe() {
  return useQuery({ queryKey: meQueryKey, queryFn: () => api.get<Trabajador>('/trabajadores/me'), staleTime: 0 })
}
