/** Repository of the joins table (group memberships). */
import type { Executor } from './connection'
import type { JoinRow } from './schema'

export function findJoin(db: Executor, groupId: number, userId: number): Promise<JoinRow | undefined> {
  return db.selectFrom('joins').selectAll().where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst()
}

/** Adds the member unless they already are one. */
export async function addJoin(db: Executor, join: { group_id: number; user_id: number; is_manager: boolean; created_at: string }): Promise<void> {
  await db
    .insertInto('joins')
    .values({ group_id: join.group_id, user_id: join.user_id, department_id: 0, is_manager: join.is_manager ? 1 : 0, created_at: join.created_at })
    .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
    .execute()
}

export async function countMembers(db: Executor, groupId: number): Promise<number> {
  const row = await db.selectFrom('joins').select((eb) => eb.fn.countAll().as('n')).where('group_id', '=', groupId).executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function deleteJoinsOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('joins').where('user_id', '=', userId).execute()
}

export async function deleteJoinsOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db.deleteFrom('joins').where('group_id', 'in', groupIds).execute()
}
