/** Registers the print sheet's store (imported by the print page; see lazyStores.ts). */
import { registerStores } from './lazyStores'
import { PrintStore } from './PrintStore'

export const printStores = registerStores({
  print: (root) => new PrintStore(root),
})
