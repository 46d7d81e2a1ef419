/** Registers the task store (imported by the task pages; see lazyStores.ts). */
import { registerStore } from './lazyStores'
import { TaskStore } from './TaskStore'

registerStore('task', (root) => new TaskStore(root))
