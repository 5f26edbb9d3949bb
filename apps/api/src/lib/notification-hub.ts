import { sql } from 'drizzle-orm'
import type { DbOrTx, Listen, Unlisten } from '../db/client'

/**
 * The PostgreSQL channel of the workers' streams. Payloads: `trabajadorId:notificacionId` for a new
 * notification, `trabajadorId:sesion` when the worker's tokens were revoked (password changed or reset).
 */
const NOTIFICACIONES_CHANNEL = 'notificaciones'
const SESION = 'sesion'

/**
 * Announces, in the caller's transaction (so only on commit), a new notification for a worker or the end
 * of the worker's sessions.
 */
export async function announce(db: DbOrTx, trabajadorId: number, what: { notificacionId: number } | 'sesion') {
  const payload = `${trabajadorId}:${what === SESION ? SESION : what.notificacionId}`
  await db.execute(sql`select pg_notify(${NOTIFICACIONES_CHANNEL}, ${payload})`)
}

/** Announces many new notifications in one statement (in the caller's transaction: only on commit). */
export async function announceNotificaciones(
  db: DbOrTx,
  created: ReadonlyArray<{ trabajadorId: number; notificacionId: number }>,
): Promise<void> {
  if (!created.length) return
  const payloads = sql.join(
    created.map((c) => sql`${`${c.trabajadorId}:${c.notificacionId}`}`),
    sql`, `,
  )
  await db.execute(sql`select pg_notify(${NOTIFICACIONES_CHANNEL}, p) from unnest(array[${payloads}]::text[]) as p`)
}

export interface StreamSubscriber {
  /** A notification for this worker was committed (by this or any other API process). */
  onNotificacion(id: number): void
  /** The LISTEN connection was lost and is back: notifications may have been missed, re-read the list. */
  onResync(): void
  /** The worker's tokens were revoked, too many streams are open, or the server is shutting down. */
  onEnd(): void
}

/** Open streams per worker (tabs, phones); past it the oldest is closed. */
export const MAX_STREAMS_PER_WORKER = 10

/**
 * DECISIONS D9 and the scale-out row of DECISIONS R: new notifications travel through PostgreSQL
 * LISTEN/NOTIFY, so a stream open on one process hears what another process committed. One LISTEN per
 * process, started with the first stream; this hub fans it out to the streams of the addressed worker.
 */
export class NotificationHub {
  private readonly subscribers = new Map<number, Set<StreamSubscriber>>()
  private listening: Promise<Unlisten> | undefined
  private stopped = false

  constructor(private readonly listen: Listen) {}

  /** Subscribes a stream; resolves once the LISTEN is in place, so nothing committed after it is missed. */
  async subscribe(trabajadorId: number, subscriber: StreamSubscriber): Promise<() => void> {
    if (this.stopped) throw new Error('El servidor se está cerrando')
    this.listening ??= this.listen(
      NOTIFICACIONES_CHANNEL,
      (payload) => this.dispatch(payload),
      () => this.resync(),
    )
    try {
      await this.listening
    } catch (err) {
      this.listening = undefined
      throw err
    }
    let set = this.subscribers.get(trabajadorId)
    if (!set) {
      set = new Set()
      this.subscribers.set(trabajadorId, set)
    }
    set.add(subscriber)
    // A Set keeps insertion order: the first is the oldest.
    while (set.size > MAX_STREAMS_PER_WORKER) {
      const oldest = set.values().next().value as StreamSubscriber
      set.delete(oldest)
      oldest.onEnd()
    }
    return () => {
      set.delete(subscriber)
      if (!set.size && this.subscribers.get(trabajadorId) === set) this.subscribers.delete(trabajadorId)
    }
  }

  /** Open streams in this process (for tests and diagnostics). */
  get size(): number {
    let n = 0
    for (const set of this.subscribers.values()) n += set.size
    return n
  }

  /** Ends every open stream and the LISTEN: called before the server closes. */
  async stop(): Promise<void> {
    this.stopped = true
    for (const set of this.subscribers.values()) for (const subscriber of [...set]) subscriber.onEnd()
    this.subscribers.clear()
    const listening = this.listening
    this.listening = undefined
    if (listening) await (await listening.catch(() => null))?.()
  }

  private resync() {
    for (const set of this.subscribers.values()) for (const subscriber of [...set]) subscriber.onResync()
  }

  private dispatch(payload: string) {
    const [head, what] = payload.split(':')
    const subscribers = this.subscribers.get(Number(head))
    if (!subscribers) return
    if (what === SESION) {
      for (const subscriber of [...subscribers]) subscriber.onEnd()
      return
    }
    const id = Number(what)
    if (Number.isInteger(id)) for (const subscriber of subscribers) subscriber.onNotificacion(id)
  }
}
