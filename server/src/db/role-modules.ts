/** Repository of the role_modules table: the catalogue ids (modules and group actions) a role grants. */
import type { Executor } from './connection'

export interface RoleModulesTable {
  role_id: number
  module_id: string
}

declare module './schema' {
  interface Tables {
    role_modules: RoleModulesTable
  }
}

/** Every (role, module) pair of the group's roles. */
export function roleModulesOfGroup(db: Executor, groupId: number): Promise<RoleModulesTable[]> {
  return db
    .selectFrom('role_modules')
    .innerJoin('roles', 'roles.id', 'role_modules.role_id')
    .select(['role_modules.role_id', 'role_modules.module_id'])
    .where('roles.group_id', '=', groupId)
    .orderBy('role_modules.role_id')
    .execute()
}

/** The catalogue ids the user holds through their roles in the group (duplicates removed). */
export async function moduleIdsOfUser(db: Executor, groupId: number, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('role_modules')
    .innerJoin('role_users', 'role_users.role_id', 'role_modules.role_id')
    .innerJoin('roles', 'roles.id', 'role_modules.role_id')
    .select('role_modules.module_id')
    .where('roles.group_id', '=', groupId)
    .where('role_users.user_id', '=', userId)
    .execute()
  return [...new Set(rows.map((r) => r.module_id))]
}

/** Replaces the role's catalogue ids. */
export async function replaceRoleModules(db: Executor, roleId: number, moduleIds: readonly string[]): Promise<void> {
  await db.deleteFrom('role_modules').where('role_id', '=', roleId).execute()
  if (moduleIds.length === 0) return
  await db
    .insertInto('role_modules')
    .values([...new Set(moduleIds)].map((module_id) => ({ role_id: roleId, module_id })))
    .execute()
}

export async function deleteModulesOfRoles(db: Executor, roleIds: readonly number[]): Promise<void> {
  if (roleIds.length === 0) return
  await db
    .deleteFrom('role_modules')
    .where('role_id', 'in', [...roleIds])
    .execute()
}
