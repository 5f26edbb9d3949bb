import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AppDeps } from '../../deps'
import { actorOf } from '../../plugins/auth'

/** A comment line every 25 s keeps proxies and idle timeouts from closing a quiet stream. */
const HEARTBEAT_MS = 25_000
/** What the browser waits before reconnecting after the stream drops (the SSE `retry` field). */
const RETRY_MS = 5_000
/** setTimeout's ceiling; a token never lives that long anyway. */
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * DECISIONS D9: `GET /api/notificaciones/stream`, Server-Sent Events for the logged-in worker. The bearer
 * header authenticates it like any call (tokens stay out of URLs), so the browser reads it with `fetch`.
 * An event carries only the new notification's id: the bell then re-reads its list through the normal,
 * authorised call. The stream ends when the token expires, when the worker's tokens are revoked (a
 * password change or reset; the browser reconnects with its new token, or stops on 401), and at shutdown.
 */
export async function openNotificationStream(deps: AppDeps, request: FastifyRequest, reply: FastifyReply) {
  const actor = actorOf(request)
  const res = reply.raw
  const timers: NodeJS.Timeout[] = []
  let unsubscribe = () => {}
  let ended = false
  const end = () => {
    if (ended) return
    ended = true
    for (const timer of timers) clearTimeout(timer)
    unsubscribe()
    res.end()
  }

  // The response's 'close' fires when the browser goes away (the request's fires as soon as it is read).
  // Listened to before subscribing, so a browser that leaves while the LISTEN is being set up is noticed.
  res.on('close', end)
  const subscribed = await deps.notificationHub.subscribe(actor.id, {
    onNotificacion: (id) => res.write(`event: notificacion\ndata: ${JSON.stringify({ id })}\n\n`),
    onResync: () => res.write('event: resync\ndata: {}\n\n'),
    onEnd: end,
  })
  reply.hijack()
  if (ended) {
    // Gone before the stream started: drop the subscription at once.
    subscribed()
    return
  }
  unsubscribe = subscribed
  // Helmet's headers are already on the raw response; the API's no-store must be set here, past onSend.
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  })
  res.write(`retry: ${RETRY_MS}\n: conectado\n\n`)

  const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS)
  timers.push(heartbeat)
  // The token's own expiry (signed and checked against the real time, like every call).
  const exp = (request.user as { exp?: number }).exp
  if (exp) timers.push(setTimeout(end, Math.min(Math.max(exp * 1000 - Date.now(), 0), MAX_TIMER_MS)))
}
