import { type QueryClient, type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, type Page, type WriteOptions } from './api-client'

/** Query-string values a list call takes: q, sort, order, page, pageSize and the screen's filters. */
export type ListQuery = Record<string, string | number | boolean | null | undefined>

/**
 * One typed client per resource (react-admin's dataProvider contract): the five calls of SPEC §7's
 * uniform CRUD, under `/api/<path>`, and the query key every cache entry of the resource lives under.
 * `R` is what a create answers when it is more than the record (a new worker's one-time password).
 */
export interface ResourceClient<T extends { id: number }, C, U = Partial<C>, R = T> {
  /** e.g. 'viviendas': the API path and the root of its query keys. */
  name: string
  key: readonly [string]
  list(query: ListQuery): Promise<Page<T>>
  get(id: number): Promise<T>
  create(body: C): Promise<R>
  update(id: number, body: U, options?: WriteOptions): Promise<T>
  remove(id: number, options?: WriteOptions): Promise<void>
}

export function resourceClient<T extends { id: number }, C, U = Partial<C>, R = T>(name: string): ResourceClient<T, C, U, R> {
  const path = `/${name}`
  return {
    name,
    key: [name] as const,
    list: (query) => api.list<T>(path, query),
    get: (id) => api.get<T>(`${path}/${id}`),
    create: (body) => api.post<R>(path, body),
    update: (id, body, options) => api.patch<T>(`${path}/${id}`, body, options),
    remove: (id, options) => api.delete(`${path}/${id}`, options),
  }
}

/** Resource → the resources whose screens show its records (a home's name in the residents list). */
const shownIn = new Map<string, Set<string>>()

/**
 * Declares that the lists of `resource` show records of `shows` (app/screens.ts does it for every screen),
 * so a change to one of those refreshes them.
 */
export function registerShownIn(resource: string, shows: readonly string[]): void {
  for (const shown of shows) shownIn.set(shown, new Set([...(shownIn.get(shown) ?? []), resource]))
}

/** The query keys a change to `resource` makes stale: its own and those of the screens that show it. */
export function staleAfterChange(resource: string): QueryKey[] {
  return [[resource], ...[...(shownIn.get(resource) ?? [])].map((name) => [name])]
}

/**
 * Reads again, after a change to `resource`, every query the change makes stale. A read already under way
 * began before the change: TanStack Query joins it instead of reading again when its query has no data yet (a
 * search's first page, whose rows on screen are the previous search's), and that answer would show what was
 * just deleted or changed. Such reads are dropped first, so each query reads after the change.
 */
export async function refreshAfterChange(queryClient: QueryClient, resource: string): Promise<void> {
  const keys = staleAfterChange(resource)
  await Promise.all(keys.map((queryKey) => queryClient.cancelQueries({ queryKey })))
  await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })))
}

/**
 * Create, update and remove of a resource as TanStack mutations. On success they refresh the resource's
 * own queries and those of the resources that show it (a company's logo in the contacts list).
 */
export function useResourceMutations<T extends { id: number }, C, U, R = T>(client: ResourceClient<T, C, U, R>) {
  const queryClient = useQueryClient()
  const refresh = () => refreshAfterChange(queryClient, client.name)
  const create = useMutation({ mutationFn: (body: C) => client.create(body), onSuccess: refresh })
  const update = useMutation({
    mutationFn: ({ id, body, options }: { id: number; body: U; options?: WriteOptions }) => client.update(id, body, options),
    onSuccess: refresh,
  })
  const remove = useMutation({
    mutationFn: ({ id, options }: { id: number; options?: WriteOptions }) => client.remove(id, options),
    onSuccess: refresh,
  })
  return { create, update, remove }
}
