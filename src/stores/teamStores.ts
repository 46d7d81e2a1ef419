/** Registers the team screens' stores (imported by the pages that use them; see lazyStores.ts). */
import { DepartmentStore } from './DepartmentStore'
import { registerStore } from './lazyStores'
import { RoleStore } from './RoleStore'
import { TeamStore } from './TeamStore'

registerStore('team', (root) => new TeamStore(root))
registerStore('departments', (root) => new DepartmentStore(root))
registerStore('roles', (root) => new RoleStore(root))
