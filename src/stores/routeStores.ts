/** Registers the route-planning store (imported by the route pages; see lazyStores.ts). */
import { registerStores } from './lazyStores'
import { RouteStore } from './RouteStore'

export const routeStores = registerStores({
  route: (root) => new RouteStore(root),
})
