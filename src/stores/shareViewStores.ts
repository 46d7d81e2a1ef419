/** Registers the public share view's store (imported by /share/view; see lazyStores.ts). */
import { registerStore } from './lazyStores'
import { ShareViewStore } from './ShareViewStore'

registerStore('shareView', (root) => new ShareViewStore(root))
