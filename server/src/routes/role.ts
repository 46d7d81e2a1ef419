/**
 * /api/role/*: the selected group's roles, each granting catalogue ids (modules and group actions,
 * types/teams.ts ModuleItem) to its assigned users. Who may do what is services/role.ts's.
 */
import type { FastifyInstance } from 'fastify'
import { deleteRoleOf, listRoles, saveRole, saveRoleModules, saveRoleUsers } from '../services/role'
import { callDefiners, type AppDeps } from './define'
import { noFields } from '../schemas/common'
import { idFields, modulesFields, saveFields, usersFields } from '../schemas/role'

export function roleRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { sessionCall } = callDefiners(app, deps)

  sessionCall('/api/role/getlist', noFields, async (_input, caller) => listRoles(deps, caller))

  sessionCall('/api/role/save', saveFields, async (input, caller) => saveRole(deps, caller, input))

  sessionCall('/api/role/delete', idFields, async ({ id }, caller) => deleteRoleOf(deps, caller, id))

  sessionCall('/api/role/save/join', usersFields, async (input, caller) => saveRoleUsers(deps, caller, input))

  sessionCall('/api/role/save/module', modulesFields, async (input, caller) => saveRoleModules(deps, caller, input))
}
