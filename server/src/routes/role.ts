/**
 * /api/role/*: the selected group's roles, each granting catalogue ids (modules and group actions,
 * types/teams.ts ModuleItem) to its assigned users.
 *
 * Who: every member reads the list; the administrator and managers change it.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { ErrCode } from '../../../types/api'
import { MAP_MSG, TEAM_MSG } from '../../../src/domain/messages'
import { charLength } from '../../../src/domain/validate'
import { GROUP_CATALOGUE, ROLE_NAME_MAX, isCatalogueId } from '../../../src/domain/teams'
import { inTransaction, type Executor } from '../db/connection'
import { memberIdsAmong } from '../db/joins'
import { deleteModulesOfRoles, replaceRoleModules } from '../db/role-modules'
import { deleteUsersOfRoles, replaceRoleUsers } from '../db/role-users'
import { deleteRole, findRole, insertRole, renameRole, type RoleRow } from '../db/roles'
import { BusinessError } from '../envelope'
import { mapCaller, requireManager, type MapCaller } from '../services/permissions'
import { describeRoles } from '../services/teams'
import { callDefiners, type AppDeps } from './define'
import { idField, idListField, noFields } from '../schemas/common'

const roleNameField = z
  .string({ required_error: TEAM_MSG.roleNameRequired, invalid_type_error: TEAM_MSG.roleNameRequired })
  .trim()
  .min(1, TEAM_MSG.roleNameRequired)
  .refine((name) => charLength(name) <= ROLE_NAME_MAX, TEAM_MSG.roleNameTooLong(ROLE_NAME_MAX))

const roleIdField = idField(TEAM_MSG.roleNotFound)

const moduleIdsField = z
  .array(z.string(), { required_error: TEAM_MSG.moduleIdsInvalid, invalid_type_error: TEAM_MSG.moduleIdsInvalid })
  .max(GROUP_CATALOGUE.length * 2, TEAM_MSG.moduleIdsInvalid)
  .refine((ids) => ids.every(isCatalogueId), TEAM_MSG.moduleIdsInvalid)
  .transform((ids) => [...new Set(ids)])

export function roleRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)

  async function requireRole(trx: Executor, who: MapCaller, id: number): Promise<RoleRow> {
    const role = await findRole(trx, who.groupId, id)
    if (!role) throw new BusinessError(ErrCode.NOT_FOUND, TEAM_MSG.roleNotFound)
    return role
  }

  async function describe(who: MapCaller, id: number) {
    return (await describeRoles(db.kysely, who.groupId, await requireRole(db.kysely, who, id)))[0]
  }

  /** The caller may change the group's roles. */
  async function manager(caller: Parameters<typeof mapCaller>[1]) {
    const who = await mapCaller(db.kysely, caller)
    requireManager(who)
    return who
  }

  sessionCall('/api/role/getlist', noFields, async (_input, caller) => {
    const who = await mapCaller(db.kysely, caller)
    return describeRoles(db.kysely, who.groupId)
  })

  sessionCall('/api/role/save', z.object({ id: roleIdField.optional(), name: roleNameField }), async ({ id, name }, caller) => {
    const who = await manager(caller)
    if (!id) return describe(who, (await insertRole(db.kysely, { group_id: who.groupId, name, created_at: clock.now().toISOString() })).id)
    await requireRole(db.kysely, who, id)
    await renameRole(db.kysely, id, name)
    return describe(who, id)
  })

  sessionCall('/api/role/delete', z.object({ id: roleIdField }), async ({ id }, caller) => {
    const who = await manager(caller)
    await inTransaction(db, async (trx) => {
      await requireRole(trx, who, id)
      await deleteUsersOfRoles(trx, [id])
      await deleteModulesOfRoles(trx, [id])
      await deleteRole(trx, id)
    })
    return null
  })

  sessionCall('/api/role/save/join', z.object({ role_id: roleIdField, user_ids: idListField(1000) }), async ({ role_id, user_ids }, caller) => {
    const who = await manager(caller)
    await inTransaction(db, async (trx) => {
      await requireRole(trx, who, role_id)
      const members = await memberIdsAmong(trx, who.groupId, user_ids)
      if (user_ids.some((u) => !members.has(u))) throw new BusinessError(ErrCode.NOT_FOUND, MAP_MSG.notGroupMember)
      await replaceRoleUsers(trx, role_id, user_ids)
    })
    return describe(who, role_id)
  })

  sessionCall('/api/role/save/module', z.object({ role_id: roleIdField, module_ids: moduleIdsField }), async ({ role_id, module_ids }, caller) => {
    const who = await manager(caller)
    await inTransaction(db, async (trx) => {
      await requireRole(trx, who, role_id)
      await replaceRoleModules(trx, role_id, module_ids)
    })
    return describe(who, role_id)
  })
}
