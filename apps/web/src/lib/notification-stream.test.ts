// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { followNotificationStream, STREAM_RETRY_MS } from './notification-stream'

/** A streamed response whose body arrives in the given chunks (split anywhere, as the network does). */
function sse(chunks: string[], status = 200): Response {
  const encoder = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c))
      controller.close()
    },
  })
  return new Response(body, { status, headers: { 'Content-Type': 'text/event-stream' } })
}

describe('followNotificationStream (DECISIONS D9)', () => {
  it('sends the token in the header, reports each notification event, and reconnects after a drop', async () => {
    const controller = new AbortController()
    const calls: Array<{ url: string; auth: string | null }> = []
    const responses = [
      sse([
        'retry: 5000\n: conectado\n\n',
        'event: notificacion\ndata: {"id"',
        ':7}\n\n: ping\n\n',
        'event: otro\ndata: {"id":8}\n\n',
      ]),
      sse(['event: notificacion\ndata: {"id":9}\n\n', 'event: notificacion\ndata: no-json\n\n']),
    ]
    const fetchImpl = (async (url: string, init: RequestInit) => {
      calls.push({ url, auth: new Headers(init.headers).get('Authorization') })
      const next = responses.shift()
      if (!next) {
        controller.abort()
        throw new DOMException('aborted', 'AbortError')
      }
      return next
    }) as typeof fetch
    const pauses: number[] = []
    const ids: number[] = []
    await followNotificationStream({
      token: () => 'tok',
      onNotificacion: (id) => ids.push(id),
      signal: controller.signal,
      fetchImpl,
      sleep: async (ms) => void pauses.push(ms),
    })
    expect(ids).toEqual([7, 9])
    expect(calls).toEqual([
      { url: '/api/notificaciones/stream', auth: 'Bearer tok' },
      { url: '/api/notificaciones/stream', auth: 'Bearer tok' },
      { url: '/api/notificaciones/stream', auth: 'Bearer tok' },
    ])
    // The server's retry (5 s) after the first drop; the default after the second, which sent none.
    expect(pauses).toEqual([5000, STREAM_RETRY_MS])
  })

  it('backs off while the server is unreachable, and stops for good when it refuses the token', async () => {
    let attempts = 0
    const fetchImpl = (async () => {
      attempts += 1
      if (attempts <= 3) throw new TypeError('Failed to fetch')
      return new Response(JSON.stringify({ statusCode: 401 }), { status: 401 })
    }) as unknown as typeof fetch
    const pauses: number[] = []
    await followNotificationStream({
      token: () => 'tok',
      onNotificacion: () => {},
      signal: new AbortController().signal,
      fetchImpl,
      sleep: async (ms) => void pauses.push(ms),
    })
    expect(attempts).toBe(4)
    expect(pauses).toEqual([STREAM_RETRY_MS, STREAM_RETRY_MS * 2, STREAM_RETRY_MS * 4])
  })

  it('does not connect without a token', async () => {
    let called = false
    await followNotificationStream({
      token: () => null,
      onNotificacion: () => {},
      signal: new AbortController().signal,
      fetchImpl: (async () => {
        called = true
        return sse([])
      }) as unknown as typeof fetch,
    })
    expect(called).toBe(false)
  })
})
