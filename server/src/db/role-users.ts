/** Repository of the role_users table: the users assigned to a role. */
import type { Executor } from './connection'

export interface RoleUsersTable {
  role_id: number
  user_id: number
}

declare module './schema' {
  interface Tables {
    role_users: RoleUsersTable
  }
}

/** Every (role, user) pair of the group's roles. */
export function roleUsersOfGroup(db: Executor, groupId: number): Promise<RoleUsersTable[]> {
  return db
    .selectFrom('role_users')
    .innerJoin('roles', 'roles.id', 'role_users.role_id')
    .select(['role_users.role_id', 'role_users.user_id'])
    .where('roles.group_id', '=', groupId)
    .orderBy('role_users.role_id')
    .orderBy('role_users.user_id')
    .execute()
}

/** Replaces the role's users. */
export async function replaceRoleUsers(db: Executor, roleId: number, userIds: readonly number[]): Promise<void> {
  await db.deleteFrom('role_users').where('role_id', '=', roleId).execute()
  if (userIds.length === 0) return
  await db
    .insertInto('role_users')
    .values([...new Set(userIds)].map((user_id) => ({ role_id: roleId, user_id })))
    .execute()
}

export async function deleteUsersOfRoles(db: Executor, roleIds: readonly number[]): Promise<void> {
  if (roleIds.length === 0) return
  await db
    .deleteFrom('role_users')
    .where('role_id', 'in', [...roleIds])
    .execute()
}

/** The user loses every role of the group (leaving or removed from it). */
export async function deleteRoleUserOfGroup(db: Executor, groupId: number, userId: number): Promise<void> {
  await db
    .deleteFrom('role_users')
    .where('user_id', '=', userId)
    .where('role_id', 'in', (eb) => eb.selectFrom('roles').select('id').where('group_id', '=', groupId))
    .execute()
}

export async function deleteRolesOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('role_users').where('user_id', '=', userId).execute()
}
