/** Registers the membership store (imported by the pages and dialogs that use it; see lazyStores.ts). */
import { registerStore } from './lazyStores'
import { VipStore } from './VipStore'

registerStore('vip', (root) => new VipStore(root))
