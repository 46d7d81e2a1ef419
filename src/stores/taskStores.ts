/** Registers the task store (imported by the task pages; see lazyStores.ts). */
import { registerStores } from './lazyStores'
import { TaskStore } from './TaskStore'

export const taskStores = registerStores({
  task: (root) => new TaskStore(root),
})
