/** Registers the public share view's store (imported by /share/view; see lazyStores.ts). */
import { registerStores } from './lazyStores'
import { ShareViewStore } from './ShareViewStore'

export const shareViewStores = registerStores({
  shareView: (root) => new ShareViewStore(root),
})
