import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query'
import type { TareaTrabajador } from '@vb/shared'
import { tareaMessages } from '@vb/shared/tareas-core'
import { useToast } from '../../components/toasts'
import type { Page } from '../../lib/api-client'
import { refreshAfterChange } from '../../lib/resource'

/** The root of every worker-task query (the API path, as lib/resource.ts keys it). */
export const TAREAS_KEY = ['tareas-trabajador'] as const
type Snapshot = Array<[QueryKey, Page<TareaTrabajador> | undefined]>

const isPage = (data: unknown): data is Page<TareaTrabajador> =>
  typeof data === 'object' && data !== null && Array.isArray((data as Page<TareaTrabajador>).items)

/**
 * SPEC §4, §2.12: 'Marcar como completada', applied optimistically. The task leaves the pending lists on
 * screen at once; if the call fails, every list is put back as it was (the task pending again) and SPEC §8's
 * 'No se pudo marcar la tarea como completada.' is shown. Either way the lists are read again afterwards, so
 * the screen ends as the server has it. `complete` is the call (PATCH { completada: true }).
 */
export function useCompletarTarea(complete: (id: number) => Promise<unknown>) {
  const queryClient = useQueryClient()
  const toast = useToast()
  return useMutation<unknown, unknown, TareaTrabajador, { snapshot: Snapshot }>({
    mutationFn: (tarea) => complete(tarea.id),
    onMutate: async (tarea) => {
      // A refetch landing now would bring the task back before the call is answered.
      await queryClient.cancelQueries({ queryKey: TAREAS_KEY })
      const snapshot = queryClient.getQueriesData<Page<TareaTrabajador>>({ queryKey: TAREAS_KEY }) as Snapshot
      for (const [key, data] of snapshot) {
        if (!isPage(data) || !data.items.some((t) => t.id === tarea.id)) continue
        queryClient.setQueryData<Page<TareaTrabajador>>(key, {
          ...data,
          items: data.items.filter((t) => t.id !== tarea.id),
          total: Math.max(0, data.total - 1),
        })
      }
      return { snapshot }
    },
    onError: (_err, _tarea, context) => {
      for (const [key, data] of context?.snapshot ?? []) queryClient.setQueryData(key, data)
      toast.error(tareaMessages.errorCompletar)
    },
    onSuccess: () => toast.success(tareaMessages.completada),
    onSettled: async () => {
      await refreshAfterChange(queryClient, TAREAS_KEY[0])
    },
  })
}
