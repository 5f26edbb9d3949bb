import { randomUUID } from 'node:crypto'
import type { Listen, Unlisten } from '../db/client'

/**
 * The channel the database's triggers announce changes on (drizzle/0014_change_feed.sql): `tabla:trabajadorId`
 * once per worker whose rows of `tabla` a committed statement touched, or `*` (everything may have changed: a
 * restore, a TRUNCATE, a migration).
 */
export const CAMBIOS_CHANNEL = 'cambios'

/** How long an entry lives at most, whatever the feed says (the bound if the LISTEN connection dies silently). */
export const LIVE_CACHE_TTL_MS = 10_000
const MAX_ENTRIES = 5_000
/** Payloads `sync:n` are ChangeFeed.settled's own. */
const SYNC = 'sync'

interface Entry<V> {
  value: V
  at: number
}

/**
 * Answers this process keeps per worker for as long as nothing they were read from has changed: the token's
 * worker (plugins/auth.ts) and their notifications (the poll every open screen makes). Unlike the count cache
 * (lib/count-cache.ts, a few seconds of possibly stale totals), an entry is never knowingly stale:
 *
 * - a write request this process answers drops every entry once it has committed, before its answer leaves
 *   (app.ts, onSend), so the client that made a change never reads the old value afterwards;
 * - a change made anywhere else (another API process, the daily jobs, the admin command, straight SQL) drops the
 *   worker's entries as soon as PostgreSQL delivers the trigger's NOTIFY, within milliseconds of its commit;
 * - while the LISTEN connection is down, or before it is first up, nothing is kept or served: every call reads
 *   the database, as without this cache;
 * - an entry lives LIVE_CACHE_TTL_MS at most, the bound if that connection dies without the socket saying so.
 *
 * A value is kept under the generation it was read in: a read that overlapped any drop is not kept (it may
 * have seen the rows before that change committed). Values are shared by concurrent requests: they are frozen.
 */
export class LiveCache<V> {
  private generation = 0
  private readonly entries = new Map<string, Entry<V>>()
  /** Keys per worker, to drop one worker's entries when the feed names them. */
  private readonly byWorker = new Map<number, Set<string>>()

  constructor(
    private readonly feed: ChangeFeed,
    /** Tables whose changes drop entries (those the values are read from). */
    readonly tables: readonly string[],
  ) {}

  /** The kept value of `worker`'s `key`, or what `load` reads (kept unless something changed meanwhile). */
  async get(worker: number, key: string, load: () => Promise<V>): Promise<V> {
    const full = `${worker}\u0000${key}`
    const now = performance.now()
    if (this.feed.live) {
      const hit = this.entries.get(full)
      if (hit && now - hit.at < LIVE_CACHE_TTL_MS) return hit.value
    }
    const generation = this.generation
    const value = await load()
    if (this.feed.live && generation === this.generation) this.keep(worker, full, deepFreeze(value), now)
    return value
  }

  /** A change to `worker`'s rows (or, without a worker, to anything): their entries are out of date. */
  drop(worker?: number): void {
    this.generation += 1
    if (worker === undefined) {
      this.entries.clear()
      this.byWorker.clear()
      return
    }
    const keys = this.byWorker.get(worker)
    if (!keys) return
    for (const key of keys) this.entries.delete(key)
    this.byWorker.delete(worker)
  }

  /** Entries kept now (tests, diagnostics). */
  get size(): number {
    return this.entries.size
  }

  private keep(worker: number, key: string, value: V, at: number) {
    this.entries.delete(key)
    this.entries.set(key, { value, at })
    let keys = this.byWorker.get(worker)
    if (!keys) {
      keys = new Set()
      this.byWorker.set(worker, keys)
    }
    keys.add(key)
    if (this.entries.size > MAX_ENTRIES) {
      // A Map keeps insertion order: the first is the oldest.
      const oldest = this.entries.keys().next().value as string
      this.entries.delete(oldest)
      const owner = Number(oldest.slice(0, oldest.indexOf('\u0000')))
      this.byWorker.get(owner)?.delete(oldest)
    }
  }
}

/**
 * This process's LISTEN on CAMBIOS_CHANNEL, started with the app and stopped with it. `live` is true only while
 * that connection is listening: caches serve nothing otherwise. It retries every few seconds when PostgreSQL is
 * away at start (once up, db/client.ts reconnects it by itself).
 */
export class ChangeFeed {
  private readonly caches = new Map<string, LiveCache<unknown>>()
  private listening: Unlisten | undefined
  private retry: NodeJS.Timeout | undefined
  private stopped = false
  private isLive = false
  private syncs = 0
  private readonly id = randomUUID()
  private readonly waiting = new Map<string, () => void>()
  private firstUp: Promise<void>
  private markUp: () => void = () => {}

  constructor(private readonly listen: Listen) {
    this.firstUp = new Promise((resolve) => {
      this.markUp = resolve
    })
  }

  get live(): boolean {
    return this.isLive
  }

  /** Resolves once the feed has listened (tests). */
  get ready(): Promise<void> {
    return this.firstUp
  }

  /** This process's cache `name`, dropped on changes to `tables` (made on first use). */
  cache<V>(name: string, tables: readonly string[]): LiveCache<V> {
    let cache = this.caches.get(name)
    if (!cache) {
      cache = new LiveCache<unknown>(this, tables)
      this.caches.set(name, cache)
    }
    return cache as LiveCache<V>
  }

  /** Every cache drops everything: a write of this process committed, or changes may have been missed. */
  dropAll(): void {
    for (const cache of this.caches.values()) cache.drop()
  }

  start(): void {
    if (this.stopped || this.listening || this.retry) return
    this.listen(
      CAMBIOS_CHANNEL,
      (payload) => this.dispatch(payload),
      () => this.up(),
      () => this.down(),
    ).then(
      (unlisten) => {
        if (this.stopped) {
          void unlisten()
          return
        }
        this.listening = unlisten
        this.up()
      },
      () => {
        if (this.stopped) return
        this.retry = setTimeout(() => {
          this.retry = undefined
          this.start()
        }, 2_000)
        this.retry.unref()
      },
    )
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.down()
    if (this.retry) clearTimeout(this.retry)
    const listening = this.listening
    this.listening = undefined
    await listening?.()
  }

  private up() {
    // Whatever happened while it was down was not heard: start from nothing.
    this.dropAll()
    this.isLive = !this.stopped
    this.markUp()
  }

  private down() {
    this.isLive = false
    this.dropAll()
  }

  /**
   * Resolves once every change committed before this call has been heard: a NOTIFY of its own, sent after them,
   * comes back after them (PostgreSQL delivers in commit order). For tests, which write straight in SQL and
   * then call the API at once; false if the feed is not listening (then nothing is kept anyway).
   */
  async settled(notify: (payload: string) => Promise<unknown>): Promise<boolean> {
    if (!this.isLive) return false
    // Unique to this feed: every process on the database hears every NOTIFY.
    const token = `${SYNC}:${this.id}:${++this.syncs}`
    const heard = new Promise<void>((resolve) => this.waiting.set(token, resolve))
    try {
      await notify(token)
      await Promise.race([heard, new Promise((r) => setTimeout(r, 2_000).unref())])
    } catch {
      // The database is away (a test of that): the call that follows shows it; the wait does not.
      return false
    } finally {
      this.waiting.delete(token)
    }
    return true
  }

  private dispatch(payload: string) {
    if (payload.startsWith(`${SYNC}:`)) {
      this.waiting.get(payload)?.()
      return
    }
    const colon = payload.indexOf(':')
    const worker = Number(payload.slice(colon + 1))
    if (colon < 0 || !Number.isInteger(worker)) {
      this.dropAll()
      return
    }
    const table = payload.slice(0, colon)
    for (const cache of this.caches.values()) if (cache.tables.includes(table)) cache.drop(worker)
  }
}

/** Shared by concurrent requests: a value (and what it holds) cannot be changed by one of them. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const inner of Object.values(value)) deepFreeze(inner)
  }
  return value
}
