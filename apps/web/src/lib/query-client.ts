import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { ApiError } from './api-client'

export interface QueryClientHandlers {
  /** DECISIONS P4: any call refused with PASSWORD_CHANGE_REQUIRED sends the worker to /cambiar-password. */
  onPasswordChangeRequired: () => void
}

/** Retries a failed read once, but never a 4xx: the answer would not change. */
function retry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.statusCode < 500) return false
  return failureCount < 1
}

export function createQueryClient(handlers: QueryClientHandlers): QueryClient {
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.code === 'PASSWORD_CHANGE_REQUIRED') handlers.onPasswordChangeRequired()
  }
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: { staleTime: 30_000, gcTime: 5 * 60_000, retry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  })
}
