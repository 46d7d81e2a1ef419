/** user_locations: the last position each user reported. */
import type { Executor } from './connection'

export async function saveLocation(db: Executor, row: { user_id: number; lng: number; lat: number; addr: string; at: string }): Promise<void> {
  await db
    .insertInto('user_locations')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ lng: row.lng, lat: row.lat, addr: row.addr, at: row.at }))
    .execute()
}

/** The members of a group with a reported position, newest report first. */
export async function locationsOfGroup(db: Executor, groupId: number) {
  return db
    .selectFrom('joins')
    .innerJoin('user_locations', 'user_locations.user_id', 'joins.user_id')
    .innerJoin('users', 'users.id', 'joins.user_id')
    .where('joins.group_id', '=', groupId)
    .select(['users.id as user_id', 'users.nickname', 'users.avatar', 'user_locations.lng', 'user_locations.lat', 'user_locations.addr', 'user_locations.at'])
    .orderBy('user_locations.at', 'desc')
    .execute()
}

export async function deleteLocationOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('user_locations').where('user_id', '=', userId).execute()
}
