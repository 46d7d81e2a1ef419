/** Registers the distribution store (imported by /reg and /distribution/view; see lazyStores.ts). */
import { DistributionStore } from './DistributionStore'
import { registerStores } from './lazyStores'

export const distributionStores = registerStores({
  distribution: (root) => new DistributionStore(root),
})
