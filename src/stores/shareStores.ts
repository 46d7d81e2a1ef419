/** Registers the sharing stores (imported by the pages and components that use them; see lazyStores.ts). */
import { registerStore } from './lazyStores'
import { ShareStore } from './ShareStore'

registerStore('shares', (root) => new ShareStore(root))
