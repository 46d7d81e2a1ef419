/** An in-memory implementation of the storage contract, for tests. */
import type { KeyValueStorage } from './types'

export type { KeyValueStorage } from './types'

/** In-memory storage for tests and for environments without storage. */
export function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { dump(): Record<string, string> } {
  const data = new Map(Object.entries(initial))
  return {
    get: (k) => data.get(k) ?? null,
    set: (k, v) => void data.set(k, v),
    remove: (k) => void data.delete(k),
    dump: () => Object.fromEntries(data),
  }
}
