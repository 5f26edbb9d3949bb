import type { Listen, Unlisten } from '../db/client'

/** The PostgreSQL channel on which every new notification is announced as `trabajadorId:notificacionId`. */
export const NOTIFICACIONES_CHANNEL = 'notificaciones'

export interface StreamSubscriber {
  /** A notification for this worker was committed (by this or any other API process). */
  onNotificacion(id: number): void
  /** The server is shutting down: end the stream. */
  onShutdown(): void
}

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
    this.listening ??= this.listen(NOTIFICACIONES_CHANNEL, (payload) => this.dispatch(payload))
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
    for (const set of this.subscribers.values()) for (const subscriber of [...set]) subscriber.onShutdown()
    this.subscribers.clear()
    const listening = this.listening
    this.listening = undefined
    if (listening) await (await listening.catch(() => null))?.()
  }

  private dispatch(payload: string) {
    const [trabajador, notificacion] = payload.split(':').map(Number)
    if (!Number.isInteger(trabajador) || !Number.isInteger(notificacion)) return
    for (const subscriber of this.subscribers.get(trabajador as number) ?? []) subscriber.onNotificacion(notificacion as number)
  }
}
