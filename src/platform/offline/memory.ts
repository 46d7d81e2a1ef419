/** An in-memory offline platform, for tests (and a fallback where no durable storage exists). */
import { OfflineQuotaError, type NetworkStatus, type OfflinePlatform, type OfflineStorage } from './types'

export interface MemoryOffline extends OfflinePlatform {
  storage: OfflineStorage & { dump(): Record<string, unknown> }
  network: NetworkStatus & { set(online: boolean): void }
}

/** `data` is shared when given, so that a second app start in a test sees what the first kept. */
export function memoryOffline(opts: { data?: Map<string, string>; quotaBytes?: number; online?: boolean } = {}): MemoryOffline {
  const data = opts.data ?? new Map<string, string>()
  const quotaBytes = opts.quotaBytes ?? 50 * 1024 * 1024
  let online = opts.online ?? true
  const listeners = new Set<(online: boolean) => void>()
  let fileSeq = 0
  const used = () => {
    let n = 0
    for (const v of data.values()) n += v.length
    return n
  }
  const storage: MemoryOffline['storage'] = {
    get: async <T>(key: string) => {
      const raw = data.get(key)
      return raw === undefined ? undefined : (JSON.parse(raw) as T)
    },
    set: async (key, value) => {
      const raw = JSON.stringify(value)
      if (used() - (data.get(key)?.length ?? 0) + raw.length > quotaBytes) throw new OfflineQuotaError()
      data.set(key, raw)
    },
    remove: async (key) => void data.delete(key),
    keys: async () => Array.from(data.keys()),
    usage: async () => used(),
    keepFile: async (localPath) => {
      const ref = `file:${++fileSeq}:${localPath}`
      data.set(`__file:${ref}`, JSON.stringify(localPath))
      return ref
    },
    fileUrl: async (ref) => JSON.parse(data.get(`__file:${ref}`) ?? 'null') ?? ref,
    dropFile: async (ref) => void data.delete(`__file:${ref}`),
    clear: async () => data.clear(),
    dump: () => Object.fromEntries(Array.from(data, ([k, v]) => [k, JSON.parse(v)])),
  }
  const network: MemoryOffline['network'] = {
    online: () => online,
    onChange: (fn) => {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
    set: (next) => {
      if (next === online) return
      online = next
      for (const fn of Array.from(listeners)) fn(next)
    },
  }
  return { storage, network, quotaBytes }
}
