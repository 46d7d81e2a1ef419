/**
 * Registers the live-sync store and the outbox of saves made without network (imported by the map and the pages that edit map data; see
 * lazyStores.ts): its code, the socket's and the conflict sheet's travel with those pages, not with /login.
 */
import { registerStores } from './lazyStores'
import { OutboxStore } from './OutboxStore'
import { SyncStore } from './SyncStore'

export const syncStores = registerStores({
  sync: (root) => new SyncStore(root),
  outbox: (root) => new OutboxStore(root),
})
