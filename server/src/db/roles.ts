/** Repository of the roles table: a group's roles (their users and modules are in role_users and role_modules). */
import type { Generated, Selectable } from 'kysely'
import type { Executor } from './connection'

export interface RolesTable {
  id: Generated<number>
  group_id: number
  name: string
  created_at: string
}

declare module './schema' {
  interface Tables {
    roles: RolesTable
  }
}

export type RoleRow = Selectable<RolesTable>

export function rolesOfGroup(db: Executor, groupId: number): Promise<RoleRow[]> {
  return db.selectFrom('roles').selectAll().where('group_id', '=', groupId).orderBy('id').execute()
}

export function findRole(db: Executor, groupId: number, id: number): Promise<RoleRow | undefined> {
  return db.selectFrom('roles').selectAll().where('id', '=', id).where('group_id', '=', groupId).executeTakeFirst()
}

export function insertRole(db: Executor, row: { group_id: number; name: string; created_at: string }): Promise<RoleRow> {
  return db.insertInto('roles').values(row).returningAll().executeTakeFirstOrThrow()
}

export async function renameRole(db: Executor, id: number, name: string): Promise<void> {
  await db.updateTable('roles').set({ name }).where('id', '=', id).execute()
}

export async function deleteRole(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('roles').where('id', '=', id).execute()
}

export async function roleIdsOfGroups(db: Executor, groupIds: readonly number[]): Promise<number[]> {
  if (groupIds.length === 0) return []
  const rows = await db
    .selectFrom('roles')
    .select('id')
    .where('group_id', 'in', [...groupIds])
    .execute()
  return rows.map((r) => r.id)
}

export async function deleteRolesOfGroups(db: Executor, groupIds: readonly number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db
    .deleteFrom('roles')
    .where('group_id', 'in', [...groupIds])
    .execute()
}
