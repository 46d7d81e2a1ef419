/** Time source, injected so that tests can move time. */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

const DAY_MS = 24 * 3600_000
// Asia/Shanghai is UTC+8 all year (no daylight saving), so fixed arithmetic is exact.
const SHANGHAI_OFFSET_MS = 8 * 3600_000

/** The instant the Asia/Shanghai calendar day containing `at` began (DESIGN 9: day boundaries). */
export function shanghaiDayStart(at: Date): Date {
  const local = at.getTime() + SHANGHAI_OFFSET_MS
  return new Date(local - (((local % DAY_MS) + DAY_MS) % DAY_MS) - SHANGHAI_OFFSET_MS)
}
