/**
 * The offline storage on H5: IndexedDB (one database; an object store of values as JSON text, one of
 * kept files as Blobs), a small wrapper with no dependency. The room is what the browser estimates
 * for this origin (navigator.storage.estimate), else a safe figure; the network's state is
 * navigator.onLine and its online/offline events.
 */
export type { NetworkStatus, OfflinePlatform, OfflineStorage } from './types'
import { OfflineQuotaError, type NetworkStatus, type OfflinePlatform, type OfflineStorage } from './types'

const DB_NAME = 'teammap-offline'
const VALUES = 'values'
const FILES = 'files'

/** Where the browser gives no estimate: little enough for any browser's per-origin quota. */
export const H5_OFFLINE_FALLBACK_QUOTA_BYTES = 50 * 1024 * 1024

function isQuota(e: unknown): boolean {
  const name = (e as DOMException | null)?.name
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED'
}

function done<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
}

function finished(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve()
    tx.onerror = () => reject(tx.error)
    tx.onabort = () => reject(tx.error)
  })
}

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1)
    req.onupgradeneeded = () => {
      const db = req.result
      if (!db.objectStoreNames.contains(VALUES)) db.createObjectStore(VALUES)
      if (!db.objectStoreNames.contains(FILES)) db.createObjectStore(FILES)
    }
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
}

export function idbOfflineStorage(quota: () => number): OfflineStorage {
  let db: Promise<IDBDatabase> | null = null
  const database = () => (db ??= openDb())
  /**
   * Bytes each value and file takes, read once with a cursor over both stores: one record per task, so
   * a saved copy of 100,000 markers (a hundred chunks) is not cloned into the page in one long task.
   */
  let sizes: Promise<Map<string, number>> | null = null
  const index = () =>
    (sizes ??= database().then(async (d) => {
      const map = new Map<string, number>()
      const tx = d.transaction([VALUES, FILES], 'readonly')
      const walk = (store: string, prefix: string, size: (v: unknown) => number) =>
        new Promise<void>((resolve, reject) => {
          const req = tx.objectStore(store).openCursor()
          req.onsuccess = () => {
            const cursor = req.result
            if (!cursor) return resolve()
            map.set(`${prefix}${String(cursor.key)}`, size(cursor.value))
            cursor.continue()
          }
          req.onerror = () => reject(req.error)
        })
      await Promise.all([walk(VALUES, 'v:', (v) => String(v ?? '').length), walk(FILES, 'f:', (v) => (v as Blob | undefined)?.size ?? 0)])
      return map
    }))
  const used = (map: Map<string, number>) => {
    let n = 0
    for (const v of map.values()) n += v
    return n
  }
  const put = async (store: string, key: string, value: unknown) => {
    const d = await database()
    const tx = d.transaction(store, 'readwrite')
    tx.objectStore(store).put(value, key)
    try {
      await finished(tx)
    } catch (e) {
      if (isQuota(e)) throw new OfflineQuotaError()
      throw e
    }
  }
  const del = async (store: string, key: string) => {
    const d = await database()
    const tx = d.transaction(store, 'readwrite')
    tx.objectStore(store).delete(key)
    await finished(tx)
  }
  let fileSeq = Date.now()

  return {
    get: async <T>(key: string) => {
      const d = await database()
      const raw = await done(d.transaction(VALUES, 'readonly').objectStore(VALUES).get(key))
      if (typeof raw !== 'string') return undefined
      try {
        return JSON.parse(raw) as T
      } catch {
        return undefined
      }
    },
    set: async (key, value) => {
      const raw = JSON.stringify(value)
      const map = await index()
      if (used(map) - (map.get(`v:${key}`) ?? 0) + raw.length > quota()) throw new OfflineQuotaError()
      await put(VALUES, key, raw)
      map.set(`v:${key}`, raw.length)
    },
    remove: async (key) => {
      await del(VALUES, key)
      ;(await index()).delete(`v:${key}`)
    },
    keys: async () => {
      const d = await database()
      return (await done(d.transaction(VALUES, 'readonly').objectStore(VALUES).getAllKeys())).map(String)
    },
    usage: async () => used(await index()),
    keepFile: async (blobUrl) => {
      const blob = await (await fetch(blobUrl)).blob()
      const map = await index()
      if (used(map) + blob.size > quota()) throw new OfflineQuotaError()
      const ref = `idb-file:${++fileSeq}`
      await put(FILES, ref, blob)
      map.set(`f:${ref}`, blob.size)
      return ref
    },
    fileUrl: async (ref) => {
      const d = await database()
      const blob = await done(d.transaction(FILES, 'readonly').objectStore(FILES).get(ref))
      // A fresh object URL each start: the ones made before a reload are gone with the page.
      return blob instanceof Blob ? URL.createObjectURL(blob) : ref
    },
    dropFile: async (ref) => {
      await del(FILES, ref)
      ;(await index()).delete(`f:${ref}`)
    },
    clear: async () => {
      const d = await database()
      const tx = d.transaction([VALUES, FILES], 'readwrite')
      tx.objectStore(VALUES).clear()
      tx.objectStore(FILES).clear()
      await finished(tx)
      ;(await index()).clear()
    },
  }
}

function browserNetwork(): NetworkStatus {
  const listeners = new Set<(online: boolean) => void>()
  const emit = () => {
    for (const fn of Array.from(listeners)) fn(navigator.onLine)
  }
  window.addEventListener('online', emit)
  window.addEventListener('offline', emit)
  return {
    online: () => navigator.onLine,
    onChange: (fn) => {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
  }
}

let made: OfflinePlatform | null = null

/** The one offline platform of the page, made on first use. */
export function deviceOffline(): OfflinePlatform {
  if (made) return made
  const platform: OfflinePlatform = {
    storage: idbOfflineStorage(() => platform.quotaBytes),
    network: browserNetwork(),
    quotaBytes: H5_OFFLINE_FALLBACK_QUOTA_BYTES,
  }
  // The browser's estimate, when it gives one: what is left for this origin, with what we hold already.
  void navigator.storage
    ?.estimate?.()
    .then((e) => {
      // Half of the origin's quota: the service worker's caches and other storage share it.
      if (e.quota) platform.quotaBytes = Math.floor(e.quota * 0.5)
    })
    .catch(() => undefined)
  made = platform
  return made
}
