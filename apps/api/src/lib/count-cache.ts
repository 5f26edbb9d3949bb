import type { DbOrTx } from '../db/client'

/**
 * The totals of lists (and the start page's counts), kept for a few seconds per exact statement (the SQL and
 * its parameters, so the worker's scope is part of the key and nothing crosses companies). Paging or sorting a
 * list, or several people opening the same one, then counts it once instead of on every page: with 100,000
 * residents that count (up to 10,001 rows, or every trigram match of a search) is much of a page's cost.
 *
 * Freshness: every write request this process answers (POST, PATCH, PUT, DELETE) drops every entry of its
 * database once it has committed, before its answer leaves (app.ts, onSend), and an entry is read under the
 * generation it was counted in, so a count that raced a write is never kept. A write made by another process,
 * by the daily jobs or straight in SQL shows in a cached total after at most COUNT_CACHE_MS; the rows themselves
 * are always read fresh.
 */
export const COUNT_CACHE_MS = 5_000
const MAX_ENTRIES = 1_000

type Total = { total: number; exact: boolean }

interface Entry {
  value: unknown
  at: number
  generation: number
}

interface Cache {
  generation: number
  entries: Map<string, Entry>
}

const caches = new WeakMap<object, Cache>()
let ttlMs = COUNT_CACHE_MS

function cacheOf(db: DbOrTx): Cache {
  let cache = caches.get(db)
  if (!cache) {
    cache = { generation: 0, entries: new Map() }
    caches.set(db, cache)
  }
  return cache
}

/**
 * One key's place in the cache: `cached` is its value if one is fresh, and `keep` stores a value counted
 * from now on, unless a write happened since this slot was taken (a count that raced a write is never kept).
 * For a caller that counts as part of a larger statement (the residents' search: one scan gives the page and
 * the total) instead of through cachedCount.
 */
export function countSlot<T = Total>(db: DbOrTx, key: string): { cached: T | undefined; keep(value: T): void } {
  const cache = cacheOf(db)
  const now = performance.now()
  const hit = cache.entries.get(key)
  const cached = hit && hit.generation === cache.generation && now - hit.at < ttlMs ? (hit.value as T) : undefined
  const generation = cache.generation
  return {
    cached,
    keep(value) {
      if (generation !== cache.generation || ttlMs <= 0) return
      cache.entries.delete(key)
      cache.entries.set(key, { value, at: now, generation })
      if (cache.entries.size > MAX_ENTRIES) cache.entries.delete(cache.entries.keys().next().value as string)
    },
  }
}

/** The cached value for `key`, or the one `count` gives (kept if no write happened meanwhile). */
export async function cachedCount<T = Total>(db: DbOrTx, key: string, count: () => Promise<T>): Promise<T> {
  const slot = countSlot<T>(db, key)
  if (slot.cached !== undefined) return slot.cached
  const value = await count()
  slot.keep(value)
  return value
}

/** A write committed on this database: every cached total of it is out of date. */
export function invalidateCounts(db: DbOrTx): void {
  const cache = caches.get(db)
  if (!cache) return
  cache.generation += 1
  cache.entries.clear()
}

/** Tests: how long an entry lives (0 turns the cache off). */
export function setCountCacheTtl(ms: number): void {
  ttlMs = ms
}
