import { createParser } from 'eventsource-parser'

/** First wait before reconnecting a dropped stream; it doubles up to the ceiling while the server is away. */
export const STREAM_RETRY_MS = 2_000
const STREAM_RETRY_MAX_MS = 60_000

interface Options {
  /** The bearer token, read at each (re)connection: a password change replaces it. */
  token: () => string | null
  /** A new notification for this worker (its id). */
  onNotificacion: (id: number) => void
  /**
   * Notifications may have been missed: the stream came back after dropping, or the server's own
   * connection to the database did. The bell re-reads its list.
   */
  onResync?: () => void
  /** Aborting ends the stream for good (logout, unmount). */
  signal: AbortSignal
  fetchImpl?: typeof fetch
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        resolve()
      },
      { once: true },
    )
  })

/**
 * DECISIONS D9: reads `GET /api/notificaciones/stream` with fetch, so the token travels in the
 * Authorization header and never in a URL (the browser's EventSource cannot send headers). Reconnects
 * with a growing pause when the stream drops; stops for good on abort or when the server refuses the
 * token (the bell's 15 s poll then meets the 401 and the shell logs out as usual).
 */
export async function followNotificationStream({
  token,
  onNotificacion,
  onResync,
  signal,
  fetchImpl = fetch,
  sleep = abortableSleep,
}: Options): Promise<void> {
  let pause = STREAM_RETRY_MS
  let connectedBefore = false
  while (!signal.aborted) {
    const bearer = token()
    if (!bearer) return
    try {
      const res = await fetchImpl('/api/notificaciones/stream', {
        headers: { Accept: 'text/event-stream', Authorization: `Bearer ${bearer}` },
        signal,
        cache: 'no-store',
        // A long-lived extra: on a slow phone connection it must not compete with what the screen needs.
        priority: 'low',
      })
      if (res.status === 401 || res.status === 403) return
      if (res.ok && res.body) {
        pause = STREAM_RETRY_MS
        if (connectedBefore) onResync?.()
        connectedBefore = true
        const parser = createParser({
          onEvent: (event) => {
            if (event.event === 'resync') {
              onResync?.()
              return
            }
            if (event.event !== 'notificacion') return
            try {
              const { id } = JSON.parse(event.data) as { id: unknown }
              if (typeof id === 'number') onNotificacion(id)
            } catch {
              /* a malformed event is ignored; the poll still catches up */
            }
          },
          onRetry: (ms) => {
            pause = ms
          },
        })
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          parser.feed(value)
        }
      }
    } catch {
      if (signal.aborted) return
    }
    await sleep(pause, signal)
    pause = Math.min(pause * 2, STREAM_RETRY_MAX_MS)
  }
}
