/** Registers the team screens' stores (imported by the pages that use them; see lazyStores.ts). */
import { DepartmentStore } from './DepartmentStore'
import { registerStores } from './lazyStores'
import { RoleStore } from './RoleStore'
import { TeamStore } from './TeamStore'

export const teamStores = registerStores({
  team: (root) => new TeamStore(root),
  departments: (root) => new DepartmentStore(root),
  roles: (root) => new RoleStore(root),
})
