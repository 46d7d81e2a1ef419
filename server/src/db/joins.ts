/** Repository of the joins table (group memberships). */
import type { Executor } from './connection'
import type { JoinRow } from './schema'

export function findJoin(db: Executor, groupId: number, userId: number): Promise<JoinRow | undefined> {
  return db.selectFrom('joins').selectAll().where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst()
}

/** Adds the member unless they already are one. */
export async function addJoin(db: Executor, join: { group_id: number; user_id: number; is_manager: boolean; created_at: string; department_id?: number }): Promise<void> {
  await db
    .insertInto('joins')
    .values({ group_id: join.group_id, user_id: join.user_id, department_id: join.department_id ?? 0, is_manager: join.is_manager ? 1 : 0, created_at: join.created_at })
    .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
    .execute()
}

export async function countMembers(db: Executor, groupId: number): Promise<number> {
  const row = await db
    .selectFrom('joins')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('group_id', '=', groupId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function deleteJoinsOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('joins').where('user_id', '=', userId).execute()
}

export async function deleteJoinsOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db.deleteFrom('joins').where('group_id', 'in', groupIds).execute()
}

export function findJoinById(db: Executor, groupId: number, id: number): Promise<JoinRow | undefined> {
  return db.selectFrom('joins').selectAll().where('id', '=', id).where('group_id', '=', groupId).executeTakeFirst()
}

/** The group's memberships with their users, oldest first. */
export function joinsOfGroup(db: Executor, groupId: number) {
  return db
    .selectFrom('joins')
    .innerJoin('users', 'users.id', 'joins.user_id')
    .selectAll('joins')
    .select(['users.nickname', 'users.avatar', 'users.phone'])
    .where('joins.group_id', '=', groupId)
    .orderBy('joins.id')
    .execute()
}

/** Which of these users are members of the group. */
export async function memberIdsAmong(db: Executor, groupId: number, userIds: readonly number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set()
  const rows = await db
    .selectFrom('joins')
    .select('user_id')
    .where('group_id', '=', groupId)
    .where('user_id', 'in', [...userIds])
    .execute()
  return new Set(rows.map((r) => r.user_id))
}

export async function updateJoin(db: Executor, id: number, patch: Partial<Pick<JoinRow, 'is_manager' | 'department_id'>>): Promise<void> {
  await db.updateTable('joins').set(patch).where('id', '=', id).execute()
}

export async function deleteJoin(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('joins').where('id', '=', id).execute()
}

/** Members of deleted departments become department-less. */
export async function clearDepartments(db: Executor, groupId: number, departmentIds: readonly number[]): Promise<void> {
  if (departmentIds.length === 0) return
  await db
    .updateTable('joins')
    .set({ department_id: 0 })
    .where('group_id', '=', groupId)
    .where('department_id', 'in', [...departmentIds])
    .execute()
}

/** Users per query: well under SQLite's and PostgreSQL's bound on parameters, whatever the number of sockets. */
const USERS_PER_QUERY = 500

/** Which of these (group, user) pairs are memberships, as 'group:user' keys: a few queries for every socket a server holds. */
export async function membershipsAmong(db: Executor, pairs: readonly { groupId: number; userId: number }[]): Promise<Set<string>> {
  const found = new Set<string>()
  const users = [...new Set(pairs.map((p) => p.userId))]
  for (let i = 0; i < users.length; i += USERS_PER_QUERY) {
    const rows = await db
      .selectFrom('joins')
      .select(['group_id', 'user_id'])
      .where('user_id', 'in', users.slice(i, i + USERS_PER_QUERY))
      .execute()
    for (const r of rows) found.add(`${r.group_id}:${r.user_id}`)
  }
  return found
}
