/** Registers the operation-log store (imported by /oplog; see lazyStores.ts). */
import { registerStores } from './lazyStores'
import { OpLogStore } from './OpLogStore'

export const oplogStores = registerStores({
  oplog: (root) => new OpLogStore(root),
})
