/** Registers the check-in store (imported by the check-in sheet and the sign list; see lazyStores.ts). */
import { registerStores } from './lazyStores'
import { SignStore } from './SignStore'

export const signStores = registerStores({
  sign: (root) => new SignStore(root),
})
