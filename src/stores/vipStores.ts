/** Registers the membership store (imported by the pages and dialogs that use it; see lazyStores.ts). */
import { registerStores } from './lazyStores'
import { VipStore } from './VipStore'

export const vipStores = registerStores({
  vip: (root) => new VipStore(root),
})
