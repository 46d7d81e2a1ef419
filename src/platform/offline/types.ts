/**
 * What the phone keeps for working without signal: the last synced map data (layers, markers,
 * custom fields, notes) and the outbox of saves not sent yet. Values are large (a 5,000-marker layer
 * is about a megabyte of JSON) and must survive a restart of the app, so this is not the key-value
 * storage of settings: IndexedDB on H5, the user file system (USER_DATA_PATH) in the mini-program,
 * whose setStorage holds only 10 MB in all and 1 MB a key.
 */
export interface OfflineStorage {
  /** The value stored under `key` (parsed), or undefined. */
  get<T>(key: string): Promise<T | undefined>
  /** Stores a JSON-able value; rejects with OfflineQuotaError when there is no room left. */
  set(key: string, value: unknown): Promise<void>
  remove(key: string): Promise<void>
  /** Every key held, in no particular order. */
  keys(): Promise<string[]>
  /** Bytes the stored values take (JSON length; kept files included). */
  usage(): Promise<number>
  /** Keeps a picked photo (a temp path on weapp, a blob URL on H5) until it is uploaded; resolves to a ref that survives a restart. */
  keepFile(localPath: string): Promise<string>
  /** A path the uploader and <Image> can use for a kept file (a fresh blob URL on H5 after a restart; the saved path on weapp). */
  fileUrl(ref: string): Promise<string>
  dropFile(ref: string): Promise<void>
  /** Forgets everything (logout, SPEC 4). */
  clear(): Promise<void>
}

/** Whether the device has a network, and its changes (navigator.onLine and its events on H5, wx.onNetworkStatusChange on weapp). */
export interface NetworkStatus {
  online(): boolean
  /** Calls `fn` on every change; returns the unsubscribe. */
  onChange(fn: (online: boolean) => void): () => void
}

export interface OfflinePlatform {
  storage: OfflineStorage
  network: NetworkStatus
  /** Most bytes the storage should hold (the mini-program's budget; H5's IndexedDB quota as the browser estimates it). */
  quotaBytes: number
}

/** The storage is full: the caller drops what it can (the oldest layers not pinned) and says so. */
export class OfflineQuotaError extends Error {
  constructor(message = 'offline storage full') {
    super(message)
    this.name = 'OfflineQuotaError'
  }
}
