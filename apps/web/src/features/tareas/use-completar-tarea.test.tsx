import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, renderHook, screen, waitFor } from '@testing-library/react'
import type { TareaTrabajador } from '@vb/shared'
import { tareaMessages } from '@vb/shared/tareas-core'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { ToastProvider } from '../../components/toasts'
import type { Page } from '../../lib/api-client'
import { useCompletarTarea } from './use-completar-tarea'

const tarea = (id: number, titulo: string): TareaTrabajador => ({
  id,
  titulo,
  descripcion: 'd',
  fecha: '2026-11-25T09:00:00.000Z',
  prioridad: 'MEDIA',
  completada: false,
  viviendaId: 1,
  trabajadorId: 7,
  vivienda: { nombre: 'Casa' },
})
afterEach(cleanup)

const pendingKey = ['tareas-trabajador', 'list', { trabajadorId: 7, completada: false }]

function setup() {
  // The lists are never fetched in these tests: the refresh after the call must not replace what we check.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } })
  client.setQueryData<Page<TareaTrabajador>>(pendingKey, {
    items: [tarea(1, 'Revisar botiquín'), tarea(2, 'Compra semanal')],
    total: 2,
    exact: true,
  })
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  )
  const titles = () => client.getQueryData<Page<TareaTrabajador>>(pendingKey)?.items.map((t) => t.titulo)
  return { client, wrapper, titles }
}

/** A call the test answers when it chooses. */
function deferred() {
  let resolve!: (v: unknown) => void
  let reject!: (e: unknown) => void
  const promise = new Promise((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

describe('useCompletarTarea: optimistic completion (SPEC §4)', () => {
  it('takes the task off the pending list at once and puts it back, with SPEC’s message, when the call fails', async () => {
    const { wrapper, titles, client } = setup()
    const call = deferred()
    const { result } = renderHook(() => useCompletarTarea(() => call.promise), { wrapper })
    act(() => result.current.mutate(tarea(1, 'Revisar botiquín')))
    await waitFor(() => expect(titles()).toEqual(['Compra semanal']))
    expect(client.getQueryData<Page<TareaTrabajador>>(pendingKey)?.total).toBe(1)

    await act(async () => call.reject(new Error('500')))
    await waitFor(() => expect(titles()).toEqual(['Revisar botiquín', 'Compra semanal']))
    expect(client.getQueryData<Page<TareaTrabajador>>(pendingKey)?.total).toBe(2)
    expect(await screen.findByText(tareaMessages.errorCompletar)).toBeTruthy()
    expect(screen.queryByText(tareaMessages.completada)).toBeNull()
  })

  it('keeps it off and says so when the call succeeds', async () => {
    const { wrapper, titles } = setup()
    const call = deferred()
    const { result } = renderHook(() => useCompletarTarea(() => call.promise), { wrapper })
    act(() => result.current.mutate(tarea(2, 'Compra semanal')))
    await waitFor(() => expect(titles()).toEqual(['Revisar botiquín']))
    await act(async () => call.resolve({ ...tarea(2, 'Compra semanal'), completada: true }))
    expect(await screen.findByText(tareaMessages.completada)).toBeTruthy()
    expect(titles()).toEqual(['Revisar botiquín'])
    expect(screen.queryByText(tareaMessages.errorCompletar)).toBeNull()
  })
})
