/**
 * A user's reported position. It goes only to the team the user works in now (their selected
 * group), only while they are a member of it, and only while they share it (settings): a position
 * is stored with the group it was reported for, and each team is served only its own members'
 * positions reported for it, of members who still have it selected.
 */
import type { MemberLocation } from '../../../types/entities'
import type { Caller } from '../auth'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { findJoin } from '../db/joins'
import { deleteLocationOfUser, locationsOfGroup, saveLocation } from '../db/locations'
import { findUserById, setShareLocation } from '../db/users'
import { UnauthorizedError } from '../envelope'
import { presentMemberLocation } from '../presenters/location'
import { mapCaller } from './permissions'

/** Stores the position for the caller's selected group; nothing is stored when they do not share it or are in no team. */
export async function reportLocation(db: Executor, caller: Caller, { lng, lat, addr }: { lng: number; lat: number; addr?: string }, now: Date): Promise<{ shared: boolean }> {
  const user = await findUserById(db, caller.userId)
  if (!user) throw new UnauthorizedError()
  if (user.share_location !== 1 || !user.select_groupid || !(await findJoin(db, user.select_groupid, user.id))) return { shared: false }
  await saveLocation(db, { user_id: user.id, group_id: user.select_groupid, lng, lat, addr: addr ?? '', at: now.toISOString() })
  return { shared: true }
}

/** Only members of the same group are listed. */
export async function locationsOfCallersGroup(db: Executor, caller: Caller): Promise<MemberLocation[]> {
  const who = await mapCaller(db, caller)
  const rows = await locationsOfGroup(db, who.groupId)
  return rows.map(presentMemberLocation)
}

export async function locationSetting(db: Executor, caller: Caller): Promise<{ share: boolean }> {
  const user = await findUserById(db, caller.userId)
  if (!user) throw new UnauthorizedError()
  return { share: user.share_location === 1 }
}

/** Turning sharing off takes the last position back at once: no team is served it any more. */
export async function saveLocationSetting(db: Database, caller: Caller, share: boolean, now: Date): Promise<{ share: boolean }> {
  await inTransaction(db, async (trx) => {
    await setShareLocation(trx, caller.userId, share, now.toISOString())
    if (!share) await deleteLocationOfUser(trx, caller.userId)
  })
  return { share }
}
