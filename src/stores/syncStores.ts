/**
 * Registers the live-sync store (imported by the map and the pages that edit map data; see
 * lazyStores.ts): its code, the socket's and the conflict sheet's travel with those pages, not with /login.
 */
import { registerStores } from './lazyStores'
import { SyncStore } from './SyncStore'

export const syncStores = registerStores({
  sync: (root) => new SyncStore(root),
})
