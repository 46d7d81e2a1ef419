/**
 * Registers the live-sync store, the offline copy of the map data and the outbox of saves made without network (imported by the map and the pages that edit
 * map data; see lazyStores.ts): their code, the socket's and the conflict sheet's travel with those pages, not with /login.
 */
import { registerStores } from './lazyStores'
import { OutboxStore } from './OutboxStore'
import { SyncStore } from './SyncStore'
import { OfflineCacheStore } from './OfflineCacheStore'

export const syncStores = registerStores({
  sync: (root) => new SyncStore(root),
  offlineCache: (root) => new OfflineCacheStore(root),
  outbox: (root) => new OutboxStore(root),
})
