/** Repository of the users table. */
import type { Executor } from './connection'
import type { UserRow } from './schema'

export function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findUserByPhone(db: Executor, phone: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('phone', '=', phone).executeTakeFirst()
}

/** Returns the user with this phone, creating it first when there is none. */
export async function findOrCreateUserByPhone(db: Executor, phone: string, source: string, now: string): Promise<UserRow> {
  const inserted = await db
    .insertInto('users')
    .values({ phone, nickname: '', avatar: '', uid: '', source, select_groupid: 0, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('phone').doNothing())
    .returning('id')
    .executeTakeFirst()
  if (inserted) {
    await db
      .updateTable('users')
      .set({ uid: publicUid(inserted.id) })
      .where('id', '=', inserted.id)
      .execute()
  }
  const user = await findUserByPhone(db, phone)
  if (!user) throw new Error(`user ${phone} vanished after insert`)
  return user
}

/** The number shown to people as the user's account number. */
function publicUid(id: number): string {
  return String(10_000_000 + id)
}

export async function updateUserProfile(db: Executor, id: number, patch: { nickname?: string; avatar?: string }, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...patch, updated_at: now })
    .where('id', '=', id)
    .execute()
}

export async function selectGroupForUser(db: Executor, userId: number, groupId: number, now: string): Promise<void> {
  await db.updateTable('users').set({ select_groupid: groupId, updated_at: now }).where('id', '=', userId).execute()
}

/** Users who had one of these groups selected fall back to having no group. */
export async function unselectGroups(db: Executor, groupIds: number[], now: string): Promise<void> {
  if (groupIds.length === 0) return
  await db.updateTable('users').set({ select_groupid: 0, updated_at: now }).where('select_groupid', 'in', groupIds).execute()
}

export async function deleteUser(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute()
}

export function findUserByUid(db: Executor, uid: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('uid', '=', uid).executeTakeFirst()
}

/** Whether the user's position goes to their selected group (settings). */
export async function setShareLocation(db: Executor, id: number, share: boolean, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ share_location: share ? 1 : 0, updated_at: now })
    .where('id', '=', id)
    .execute()
}
