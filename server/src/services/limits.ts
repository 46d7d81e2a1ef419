/**
 * The tier limits the server enforces (SPEC 1, 4, 9): the group's own while its membership
 * runs, the free plan's once it has expired (src/domain/tiers effectiveLimits). An expired group
 * above them keeps everything and may only not add more; the messages say why.
 */
import { MAP_MSG, TEAM_MSG } from '../../../src/domain/messages'
import { VIP_MSG } from '../../../src/domain/vipMessages'
import { effectiveLimits, type Limits } from '../../../src/domain/tiers'
import type { GroupRow } from '../db/schema'

export type LimitsInForce = Limits & { expired: boolean }

export function limitsInForce(group: Pick<GroupRow, 'level' | 'vip_exp' | 'marker_limit' | 'join_limit' | 'file_size_limit'>, now: Date | string): LimitsInForce {
  return effectiveLimits(group, new Date(now))
}

export function markerLimitMessage(limits: LimitsInForce): string {
  return limits.expired ? VIP_MSG.expiredMarkerLimit(limits.marker_limit) : MAP_MSG.markerLimit(limits.marker_limit)
}

export function joinLimitMessage(limits: LimitsInForce): string {
  return limits.expired ? VIP_MSG.expiredJoinLimit : TEAM_MSG.joinLimit(limits.join_limit)
}

export function storageLimitMessage(limits: LimitsInForce): string {
  return limits.expired ? VIP_MSG.expiredStorage : MAP_MSG.storageFull
}
