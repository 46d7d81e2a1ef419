/** Registers the sharing stores (imported by the pages and components that use them; see lazyStores.ts). */
import { registerStores } from './lazyStores'
import { ShareStore } from './ShareStore'

export const shareStores = registerStores({
  shares: (root) => new ShareStore(root),
})
