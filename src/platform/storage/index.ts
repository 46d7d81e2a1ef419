/** Key-value storage: Taro storage (wx storage on weapp, localStorage on H5). */
import Taro from '@tarojs/taro'

export interface KeyValueStorage {
  get(key: string): string | null
  set(key: string, value: string): void
  remove(key: string): void
}

export const taroStorage: KeyValueStorage = {
  get(key) {
    try {
      const v = Taro.getStorageSync(key)
      return typeof v === 'string' && v !== '' ? v : null
    } catch {
      return null
    }
  },
  set(key, value) {
    Taro.setStorageSync(key, value)
  },
  remove(key) {
    try {
      Taro.removeStorageSync(key)
    } catch {
      // already gone
    }
  },
}

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
