/** Wire shape of a member's last reported position (types/entities.ts MemberLocation). */
import type { MemberLocation } from '../../../types/entities'
import type { locationsOfGroup } from '../db/locations'

export type LocationRecord = Awaited<ReturnType<typeof locationsOfGroup>>[number]

export function presentMemberLocation(r: LocationRecord): MemberLocation {
  return { user: { id: r.user_id, nickname: r.nickname, avatar: r.avatar }, time: r.at, lng: Number(r.lng), lat: Number(r.lat), addr: r.addr }
}
