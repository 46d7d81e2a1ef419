/** Registers the check-in store (imported by the check-in sheet and the sign list; see lazyStores.ts). */
import { registerStore } from './lazyStores'
import { SignStore } from './SignStore'

registerStore('sign', (root) => new SignStore(root))
