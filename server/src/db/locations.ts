/** user_locations: the last position each user reported. */
import type { Executor } from './connection'

export async function saveLocation(db: Executor, row: { user_id: number; group_id: number; lng: number; lat: number; addr: string; at: string }): Promise<void> {
  await db
    .insertInto('user_locations')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ group_id: row.group_id, lng: row.lng, lat: row.lat, addr: row.addr, at: row.at }))
    .execute()
}

/**
 * The members of a group with a position reported for it, newest report first: only members who
 * work in the group now (their selected group) and share their position.
 */
export async function locationsOfGroup(db: Executor, groupId: number) {
  return db
    .selectFrom('joins')
    .innerJoin('user_locations', 'user_locations.user_id', 'joins.user_id')
    .innerJoin('users', 'users.id', 'joins.user_id')
    .where('joins.group_id', '=', groupId)
    .where('user_locations.group_id', '=', groupId)
    .where('users.select_groupid', '=', groupId)
    .where('users.share_location', '=', 1)
    .select(['users.id as user_id', 'users.nickname', 'users.avatar', 'user_locations.lng', 'user_locations.lat', 'user_locations.addr', 'user_locations.at'])
    .orderBy('user_locations.at', 'desc')
    .execute()
}

export async function deleteLocationOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('user_locations').where('user_id', '=', userId).execute()
}

/** The user's position, when it was reported for this group (a member leaving it takes it along). */
export async function deleteLocationInGroup(db: Executor, userId: number, groupId: number): Promise<void> {
  await db.deleteFrom('user_locations').where('user_id', '=', userId).where('group_id', '=', groupId).execute()
}
