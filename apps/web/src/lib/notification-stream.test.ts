// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { followNotificationStream, followSharedNotificationStream, STREAM_RETRY_MS } from './notification-stream'

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

/** A stream that stays open until its request is aborted; `push` sends more of it. */
function openStream(signal: AbortSignal) {
  const encoder = new TextEncoder()
  let push!: (text: string) => void
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      push = (text) => controller.enqueue(encoder.encode(text))
      signal.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')), { once: true })
    },
  })
  return {
    response: new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
    push: (t: string) => push(t),
  }
}

/** Web Locks as the browser grants them: one holder per name, the others wait (or give up with ifAvailable). */
function fakeLocks(): LockManager {
  const held = new Set<string>()
  const waiting = new Map<string, Array<() => void>>()
  const request = async (name: string, options: LockOptions, callback: LockGrantedCallback<unknown>) => {
    if (held.has(name)) {
      if (options.ifAvailable) return callback(null)
      await new Promise<void>((resolve, reject) => {
        const queue = waiting.get(name) ?? []
        waiting.set(name, queue)
        queue.push(resolve)
        options.signal?.addEventListener('abort', () => {
          queue.splice(queue.indexOf(resolve), 1)
          reject(new DOMException('aborted', 'AbortError'))
        })
      })
    }
    held.add(name)
    try {
      return await callback({ name, mode: 'exclusive' } as Lock)
    } finally {
      held.delete(name)
      waiting.get(name)?.shift()?.()
    }
  }
  return { request, query: async () => ({}) } as unknown as LockManager
}

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5))
  expect(check()).toBe(true)
}

describe('followSharedNotificationStream: one stream for all the tabs of a worker', () => {
  it('one tab follows the stream and tells the others; when it goes, a waiting tab takes over and re-reads', async () => {
    const name = `vb-notificaciones-test-${Math.random()}`
    const locks = fakeLocks()
    const tab = () => {
      const t = {
        controller: new AbortController(),
        ids: [] as number[],
        resyncs: 0,
        streams: [] as Array<ReturnType<typeof openStream>>,
        run: Promise.resolve(),
      }
      t.run = followSharedNotificationStream({
        name,
        locks,
        token: () => 'tok',
        onNotificacion: (id) => t.ids.push(id),
        onResync: () => {
          t.resyncs += 1
        },
        signal: t.controller.signal,
        fetchImpl: (async (_url: string, init: RequestInit) => {
          const stream = openStream(init.signal as AbortSignal)
          t.streams.push(stream)
          return stream.response
        }) as typeof fetch,
        sleep: async () => {},
      })
      return t
    }
    const a = tab()
    await until(() => a.streams.length === 1)
    const b = tab()
    const c = tab()
    await new Promise((r) => setTimeout(r, 20))
    // Only the first tab holds a connection to the server.
    expect(b.streams).toHaveLength(0)
    expect(c.streams).toHaveLength(0)

    a.streams[0]?.push('event: notificacion\ndata: {"id":7}\n\n')
    await until(() => b.ids.length === 1 && c.ids.length === 1)
    expect([a.ids, b.ids, c.ids]).toEqual([[7], [7], [7]])

    // The first tab goes: the next one follows the stream, and every tab re-reads for what it may have missed.
    a.controller.abort()
    await a.run
    await until(() => b.streams.length === 1)
    await until(() => b.resyncs === 1 && c.resyncs === 1)
    expect(c.streams).toHaveLength(0)
    b.streams[0]?.push('event: notificacion\ndata: {"id":8}\n\n')
    await until(() => c.ids.length === 2)
    expect([a.ids, b.ids, c.ids]).toEqual([[7], [7, 8], [7, 8]])

    // A tab that leaves while waiting its turn never connects.
    c.controller.abort()
    await c.run
    b.controller.abort()
    await b.run
    expect(c.streams).toHaveLength(0)
  })

  it('without Web Locks each tab follows its own stream', async () => {
    const controller = new AbortController()
    let calls = 0
    await followSharedNotificationStream({
      name: 'x',
      locks: null,
      token: () => 'tok',
      onNotificacion: () => {},
      signal: controller.signal,
      fetchImpl: (async () => {
        calls += 1
        controller.abort()
        throw new DOMException('aborted', 'AbortError')
      }) as typeof fetch,
    })
    expect(calls).toBe(1)
  })
})
