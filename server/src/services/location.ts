/** A user's reported position; the members of the caller's map see each other's last positions. */
import type { MemberLocation } from '../../../types/entities'
import type { Caller } from '../auth'
import type { Executor } from '../db/connection'
import { locationsOfGroup, saveLocation } from '../db/locations'
import { presentMemberLocation } from '../presenters/location'
import { mapCaller } from './permissions'

export async function reportLocation(db: Executor, caller: Caller, { lng, lat, addr }: { lng: number; lat: number; addr?: string }, now: Date): Promise<void> {
  await saveLocation(db, { user_id: caller.userId, lng, lat, addr: addr ?? '', at: now.toISOString() })
}

/** Only members of the same group are listed. */
export async function locationsOfCallersGroup(db: Executor, caller: Caller): Promise<MemberLocation[]> {
  const who = await mapCaller(db, caller)
  const rows = await locationsOfGroup(db, who.groupId)
  return rows.map(presentMemberLocation)
}
