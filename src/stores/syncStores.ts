/**
 * Registers the live-sync store (imported by the map and the pages that edit map data; see
 * lazyStores.ts): its code, the socket's, the conflict sheet's and the offline cache's travel with those pages, not with /login.
 */
import { registerStores } from './lazyStores'
import { SyncStore } from './SyncStore'
import { OfflineCacheStore } from './OfflineCacheStore'

export const syncStores = registerStores({
  sync: (root) => new SyncStore(root),
  offlineCache: (root) => new OfflineCacheStore(root),
})
