/**
 * Values loaded from what a caller's standing is made of (their session, their team context), kept
 * across requests while connection.ts's change counter says none of it may have changed since they
 * were loaded. Without a counter (PostgreSQL, a transaction) nothing is kept: every request loads.
 */
import { teamVersion, type Executor } from './connection'

// Bounded: the oldest key leaves first; a member who comes back loads once more.
const MAX_ENTRIES = 10_000

export class StandingCache<K, V> {
  private readonly entries = new WeakMap<Executor, Map<K, { version: number; value: V }>>()

  /** The value kept for `key` when nothing it is made of may have changed since; otherwise `load` (the counter is read before it starts, so a change during the load is seen next time). */
  async get(db: Executor, key: K, load: () => Promise<V>): Promise<V> {
    const version = teamVersion(db)
    if (version === undefined) return load()
    let map = this.entries.get(db)
    if (!map) this.entries.set(db, (map = new Map()))
    const kept = map.get(key)
    if (kept && kept.version === version) return kept.value
    const value = await load()
    map.delete(key)
    if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!)
    map.set(key, { version, value })
    return value
  }
}
