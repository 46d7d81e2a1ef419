/** Registers the distribution store (imported by /reg and /distribution/view; see lazyStores.ts). */
import { DistributionStore } from './DistributionStore'
import { registerStore } from './lazyStores'

registerStore('distribution', (root) => new DistributionStore(root))
