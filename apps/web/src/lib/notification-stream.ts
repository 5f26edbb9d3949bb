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
  /**
   * Notifications may have been missed before this stream's first connection (another tab's stream ended):
   * the first connection calls `onResync` too, as a reconnection does.
   */
  missedBefore?: boolean
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
  missedBefore = false,
  fetchImpl = fetch,
  sleep = abortableSleep,
}: Options): Promise<void> {
  let pause = STREAM_RETRY_MS
  let connectedBefore = missedBefore
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

/** What the tab that follows the stream tells the others. */
type StreamMessage = { type: 'notificacion'; id: number } | { type: 'resync' }

interface SharedOptions extends Omit<Options, 'missedBefore'> {
  /** One per worker: the name of the lock and of the channel the tabs of that worker share. */
  name: string
  /** The browser's lock manager and channel (a test passes its own); without locks each tab follows its own. */
  locks?: LockManager | null
  openChannel?: (name: string) => BroadcastChannel
}

/**
 * One stream per browser, not one per tab. A browser keeps six connections to a server (HTTP/1.1), and each
 * tab's stream held one for as long as the tab was open: with six tabs of the app open, a seventh waited for a
 * connection, and so did every request of the six. The tab that holds the Web Lock `name` follows the stream
 * and passes each event to the others on a BroadcastChannel of the same name; the others wait for the lock.
 * When that tab goes (closed, left, logged out), the lock passes to a waiting tab, which follows the stream
 * and has every tab re-read its list, for what was sent in between.
 */
export async function followSharedNotificationStream({
  name,
  locks = globalThis.navigator?.locks,
  openChannel = (channelName) => new BroadcastChannel(channelName),
  ...options
}: SharedOptions): Promise<void> {
  if (!locks || typeof BroadcastChannel === 'undefined') return followNotificationStream(options)
  const { signal, onNotificacion, onResync } = options
  if (signal.aborted) return
  const channel = openChannel(name)
  channel.onmessage = ({ data }: MessageEvent<StreamMessage>) => {
    if (data?.type === 'notificacion' && typeof data.id === 'number') onNotificacion(data.id)
    else if (data?.type === 'resync') onResync?.()
  }
  const lead = (missedBefore: boolean) =>
    followNotificationStream({
      ...options,
      missedBefore,
      onNotificacion: (id) => {
        onNotificacion(id)
        channel.postMessage({ type: 'notificacion', id } satisfies StreamMessage)
      },
      onResync: () => {
        onResync?.()
        channel.postMessage({ type: 'resync' } satisfies StreamMessage)
      },
    })
  try {
    // The first tab follows at once; the others wait their turn (a turn taken over may have missed events).
    let led = false
    await locks.request(name, { ifAvailable: true }, async (lock) => {
      if (!lock) return
      led = true
      await lead(false)
    })
    if (!led && !signal.aborted) await locks.request(name, { signal }, () => lead(true))
  } catch {
    /* aborted while waiting for the lock */
  } finally {
    channel.close()
  }
}
