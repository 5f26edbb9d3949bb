import { AppError, type ErrorBody } from '@vb/shared/core'
import { session } from './session'

/** Error thrown by every API call: the server's A3 body (code, Spanish message, fieldErrors). */
export class ApiError extends AppError {
  readonly body: ErrorBody
  constructor(body: ErrorBody) {
    super(body.code, body.message, body.fieldErrors)
    this.body = body
  }
}

/** Called on any 401 from an authenticated call: the shell clears storage and goes to '/' (DECISIONS A3). */
let onUnauthenticated: () => void = () => {
  session.clear()
  if (window.location.pathname !== '/') window.location.assign('/')
}
export function setUnauthenticatedHandler(handler: () => void) {
  onUnauthenticated = handler
}

type Query = Record<string, string | number | boolean | null | undefined>

function withQuery(path: string, query?: Query): string {
  if (!query) return path
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v))
  const s = params.toString()
  return s ? `${path}?${s}` : path
}

/** What a write may say besides its body: the version of the record it read (stale → 409). */
export interface WriteOptions {
  ifMatch?: string
}

async function request(
  method: string,
  path: string,
  body?: unknown,
  query?: Query,
  options: WriteOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (options.ifMatch) headers['If-Match'] = options.ifMatch
  const token = session.token()
  if (token) headers.Authorization = `Bearer ${token}`
  const multipart = body instanceof FormData
  if (body !== undefined && !multipart) headers['Content-Type'] = 'application/json'
  let res: Response
  try {
    res = await fetch(`/api${withQuery(path, query)}`, {
      method,
      headers,
      body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
    })
  } catch {
    throw new ApiError({
      statusCode: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'No se puede conectar con el servidor. Revisa tu conexión.',
    })
  }
  if (res.ok) return res
  let parsed: ErrorBody
  try {
    // The schema library loads with the first screen that needs it, not with the login page.
    const { errorBodySchema } = await import('@vb/shared/errors')
    parsed = errorBodySchema.parse(await res.json())
  } catch {
    parsed = { statusCode: res.status, code: 'INTERNAL', message: 'Se ha producido un error inesperado. Inténtalo más tarde.' }
  }
  if (res.status === 401 && token) onUnauthenticated()
  throw new ApiError(parsed)
}

async function json<T>(res: Response): Promise<T> {
  if (res.status === 204) return undefined as T
  const text = await res.text()
  return (text ? JSON.parse(text) : undefined) as T
}

/**
 * A page of a list call: the items, `X-Total-Count` (DECISIONS A4), and whether that total is exact (D13:
 * past 10,000 the server stops counting and the pager says 'Más de 10.000').
 */
export interface Page<T> {
  items: T[]
  total: number
  exact: boolean
  /** The response's headers, for what a list says besides its rows (the cash ledger's X-Saldo). */
  headers?: Headers
}

/** A file the server generated (the cash statement PDF), with the name its Content-Disposition gives. */
export interface DownloadedFile {
  blob: Blob
  filename: string | null
}

function filenameOf(disposition: string | null): string | null {
  if (!disposition) return null
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition)
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1])
    } catch {
      // fall through to the plain name
    }
  }
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null
}

export const api = {
  get: async <T>(path: string, query?: Query) => json<T>(await request('GET', path, undefined, query)),
  /** List call with paging: `query` carries q, sort, order, page, pageSize and filters. */
  list: async <T>(path: string, query: Query): Promise<Page<T>> => {
    const res = await request('GET', path, undefined, query)
    const items = await json<T[]>(res)
    return {
      items,
      total: Number(res.headers.get('X-Total-Count') ?? items.length),
      exact: res.headers.get('X-Total-Count-Exact') !== 'false',
      headers: res.headers,
    }
  },
  /** A file the API generates, fetched with the token (a plain link cannot carry it). */
  download: async (path: string, query?: Query): Promise<DownloadedFile> => {
    const res = await request('GET', path, undefined, query)
    return { blob: await res.blob(), filename: filenameOf(res.headers.get('Content-Disposition')) }
  },
  /** POST /api/uploads (multipart field `file`): the stored file's reference and links (DECISIONS S5, D8). */
  upload: async <T>(file: File): Promise<T> => {
    const body = new FormData()
    body.append('file', file, file.name)
    return json<T>(await request('POST', '/uploads', body))
  },
  post: async <T>(path: string, body?: unknown) => json<T>(await request('POST', path, body ?? {})),
  patch: async <T>(path: string, body: unknown, options?: WriteOptions) =>
    json<T>(await request('PATCH', path, body, undefined, options)),
  delete: async (path: string, options?: WriteOptions) => {
    await request('DELETE', path, undefined, undefined, options)
  },
}
