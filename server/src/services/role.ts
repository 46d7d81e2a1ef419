/**
 * /api/role/* (routes/role.ts): the selected group's roles, each granting catalogue ids (modules
 * and group actions, types/teams.ts ModuleItem) to its assigned users.
 *
 * Who: every member reads the list; the administrator and managers change it.
 */
import { ErrCode } from '../../../types/api'
import { MAP_MSG, TEAM_MSG } from '../../../src/domain/messages'
import type { Caller } from '../auth'
import type { Clock } from '../clock'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { memberIdsAmong } from '../db/joins'
import { deleteModulesOfRoles, replaceRoleModules } from '../db/role-modules'
import { deleteUsersOfRoles, replaceRoleUsers } from '../db/role-users'
import { deleteRole, findRole, insertRole, renameRole, type RoleRow } from '../db/roles'
import { BusinessError } from '../envelope'
import { mapCaller, requireManager, type MapCaller } from './permissions'
import { describeRoles } from './teams'

/** What the role calls work with. */
export interface RoleEnv {
  db: Database
  clock: Clock
}

async function requireRole(trx: Executor, who: MapCaller, id: number): Promise<RoleRow> {
  const role = await findRole(trx, who.groupId, id)
  if (!role) throw new BusinessError(ErrCode.NOT_FOUND, TEAM_MSG.roleNotFound)
  return role
}

async function describe({ db }: RoleEnv, who: MapCaller, id: number) {
  return (await describeRoles(db.kysely, who.groupId, await requireRole(db.kysely, who, id)))[0]
}

/** The caller may change the group's roles. */
async function manager({ db }: RoleEnv, caller: Caller) {
  const who = await mapCaller(db.kysely, caller)
  requireManager(who)
  return who
}

export async function listRoles({ db }: RoleEnv, caller: Caller) {
  const who = await mapCaller(db.kysely, caller)
  return describeRoles(db.kysely, who.groupId)
}

export async function saveRole(env: RoleEnv, caller: Caller, { id, name }: { id?: number; name: string }) {
  const { db, clock } = env
  const who = await manager(env, caller)
  if (!id) return describe(env, who, (await insertRole(db.kysely, { group_id: who.groupId, name, created_at: clock.now().toISOString() })).id)
  await requireRole(db.kysely, who, id)
  await renameRole(db.kysely, id, name)
  return describe(env, who, id)
}

export async function deleteRoleOf(env: RoleEnv, caller: Caller, id: number) {
  const who = await manager(env, caller)
  await inTransaction(env.db, async (trx) => {
    await requireRole(trx, who, id)
    await deleteUsersOfRoles(trx, [id])
    await deleteModulesOfRoles(trx, [id])
    await deleteRole(trx, id)
  })
  return null
}

export async function saveRoleUsers(env: RoleEnv, caller: Caller, { role_id, user_ids }: { role_id: number; user_ids: number[] }) {
  const who = await manager(env, caller)
  await inTransaction(env.db, async (trx) => {
    await requireRole(trx, who, role_id)
    const members = await memberIdsAmong(trx, who.groupId, user_ids)
    if (user_ids.some((u) => !members.has(u))) throw new BusinessError(ErrCode.NOT_FOUND, MAP_MSG.notGroupMember)
    await replaceRoleUsers(trx, role_id, user_ids)
  })
  return describe(env, who, role_id)
}

export async function saveRoleModules(env: RoleEnv, caller: Caller, { role_id, module_ids }: { role_id: number; module_ids: string[] }) {
  const who = await manager(env, caller)
  await inTransaction(env.db, async (trx) => {
    await requireRole(trx, who, role_id)
    await replaceRoleModules(trx, role_id, module_ids)
  })
  return describe(env, who, role_id)
}
