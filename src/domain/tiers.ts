/** Membership tiers and limits (SPEC 1, 4, 9). */
import type { GroupVip, Level } from '../../types/entities'
import { DEFAULT_GROUP_VIP, STORAGE_G_THRESHOLD_KB, TRIAL_DAYS, TRIAL_LIMITS } from './constants'

export const LEVEL = { FREE: 0, TRIAL: 1, VIP1: 2, VIP2: 3, VIP3: 4 } as const

export const LEVEL_NAMES: Record<Level, string> = {
  0: '免费版',
  1: '试用版',
  2: 'VIP 1',
  3: 'VIP 2',
  4: 'VIP 3',
}

export function levelName(level: Level, vip?: Pick<GroupVip, 'level' | 'marker_limit' | 'join_limit' | 'file_size_limit'> | null): string {
  if (vip && isCustomMember(vip)) return '定制会员'
  return LEVEL_NAMES[level] ?? LEVEL_NAMES[0]
}

/**
 * A VIP 3 group whose limits differ from the defaults (5000 markers, 50 joins, 2097152 file
 * size), unless all three are zero, is a custom member.
 */
export function isCustomMember(vip: Pick<GroupVip, 'level' | 'marker_limit' | 'join_limit' | 'file_size_limit'>): boolean {
  if (vip.level !== LEVEL.VIP3) return false
  const { marker_limit: m, join_limit: j, file_size_limit: f } = vip
  if (m === 0 && j === 0 && f === 0) return false
  return m !== DEFAULT_GROUP_VIP.marker_limit || j !== DEFAULT_GROUP_VIP.join_limit || f !== DEFAULT_GROUP_VIP.file_size_limit
}

/** What a new user's own group starts with: a 7-day trial with the trial limits. */
export function newTrial(now: Date): { level: Level; vip_exp: Date; marker_limit: number; join_limit: number; file_size_limit: number } {
  return {
    level: LEVEL.TRIAL,
    vip_exp: new Date(now.getTime() + TRIAL_DAYS * 24 * 3600 * 1000),
    ...TRIAL_LIMITS,
  }
}

/** Storage display: 1048576 KB or more in G to 1 decimal, otherwise in M. */
export function formatStorage(kb: number): string {
  if (kb >= STORAGE_G_THRESHOLD_KB) return `${(kb / STORAGE_G_THRESHOLD_KB).toFixed(1)}G`
  const m = kb / 1024
  return `${Number.isInteger(m) ? m : m.toFixed(1)}M`
}

/** Whether a VIP expiry date has passed. Free level never expires. */
export function isVipExpired(level: Level, vipExp: string | Date | null | undefined, now: Date): boolean {
  if (level === LEVEL.FREE || !vipExp) return false
  return new Date(vipExp).getTime() <= now.getTime()
}

/** Whole days left until a VIP expiry (rounded up; 0 when expired or unknown). */
export function vipDaysLeft(vipExp: string | Date | null | undefined, now: Date): number {
  if (!vipExp) return 0
  const ms = new Date(vipExp).getTime() - now.getTime()
  return ms > 0 ? Math.ceil(ms / (24 * 3600 * 1000)) : 0
}

/** "试用版 · 剩余7天", "免费版", "VIP 2 · 已过期" for the map and home headers. */
export function membershipLabel(vip: GroupVip | null | undefined, now: Date): string {
  if (!vip) return LEVEL_NAMES[0]
  const name = levelName(vip.level, vip)
  if (vip.level === LEVEL.FREE) return name
  if (isVipExpired(vip.level, vip.group_vip_exp, now)) return `${name} · 已过期`
  return `${name} · 剩余${vipDaysLeft(vip.group_vip_exp, now)}天`
}
