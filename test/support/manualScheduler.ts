/**
 * A hand-driven clock for stores that schedule (live sync's polling and reconnects, the outbox's
 * backoff): `advance` runs each timer due on the way, in time order. `intervals: false` leaves
 * repeating timers alone, for tests that watch one-shot retries only.
 */
import type { Scheduler } from '../../src/stores/GroupRefreshStore'

export function manualScheduler(options: { intervals?: boolean } = {}) {
  const runIntervals = options.intervals ?? true
  let now = 0
  let nextId = 1
  const timers = new Map<number, { at: number; fn: () => void; every?: number }>()
  const scheduler: Scheduler = {
    setInterval: (fn, ms) => {
      const id = nextId++
      timers.set(id, { at: now + ms, fn, every: ms })
      return id
    },
    clearInterval: (h) => void timers.delete(h as number),
    setTimeout: (fn, ms) => {
      const id = nextId++
      timers.set(id, { at: now + ms, fn })
      return id
    },
    clearTimeout: (h) => void timers.delete(h as number),
  }
  return {
    scheduler,
    /** Moves the clock, running each timer due on the way. */
    advance(ms: number) {
      const end = now + ms
      for (;;) {
        const due = Array.from(timers.entries())
          .filter(([, t]) => t.at <= end && (runIntervals || !t.every))
          .sort((a, b) => a[1].at - b[1].at)[0]
        if (!due) break
        const [id, t] = due
        now = t.at
        if (t.every) t.at += t.every
        else timers.delete(id)
        t.fn()
      }
      now = end
    },
    /** The delays of the pending one-shot timers. */
    timeouts: () =>
      Array.from(timers.values())
        .filter((t) => !t.every)
        .map((t) => t.at - now),
  }
}
