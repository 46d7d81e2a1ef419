/** Registers the route-planning store (imported by the route pages; see lazyStores.ts). */
import { registerStore } from './lazyStores'
import { RouteStore } from './RouteStore'

registerStore('route', (root) => new RouteStore(root))
