/**
 * Membership tiers and limits (SPEC 1, 4, 9): levels, the limits of each tier and those in force
 * (the free plan's once a membership has expired), custom members, expiry and its reminder, what a
 * purchase, the questionnaire and a reset to free do to a group. Pure; the server uses the same.
 */
import type { GroupVip, Level } from '../../types/entities'
import {
  DATA_KEEP_MONTHS_AFTER_EXPIRY,
  DEFAULT_GROUP_VIP,
  FREE_LIMITS,
  RESET_REMARK_MAX,
  STORAGE_G_THRESHOLD_KB,
  TRIAL_DAYS,
  TRIAL_LIMITS,
  TRIAL_QUESTIONNAIRE_DAYS,
  VIP_PRICES_FEN,
  VIP_PRODUCT_MONTHS,
  VIP_TIER_LIMITS,
} from './constants'
import { VIP_MSG } from './vipMessages'
import { charLength } from './validate'

import { LEVEL, isVipExpired, vipDaysLeft } from './vipPrompt'

export { LEVEL, isVipExpired, vipDaysLeft, shanghaiDay, shouldRemindExpiry, trialWelcomeDue, vipPrompt, type VipPrompt } from './vipPrompt'

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
 * A VIP 3 group whose limits differ from the defaults (5000 markers, 50 collaborators, 2097152 file
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

/** "试用版 · 剩余7天", "免费版", "VIP 2 · 已过期" for the map and home headers. */
export function membershipLabel(vip: GroupVip | null | undefined, now: Date): string {
  if (!vip) return LEVEL_NAMES[0]
  const name = levelName(vip.level, vip)
  if (vip.level === LEVEL.FREE) return name
  if (isVipExpired(vip.level, vip.group_vip_exp, now)) return `${name} · 已过期`
  return `${name} · 剩余${vipDaysLeft(vip.group_vip_exp, now)}天`
}

const DAY_MS = 24 * 3600_000
// Asia/Shanghai is UTC+8 all year (no daylight saving).
const SHANGHAI_OFFSET_MS = 8 * 3600_000

/** The three limits of a group (file_size_limit in KB, SPEC 3 file_rep_size; join_limit counts collaborators, collaborators.ts). */
export interface Limits {
  marker_limit: number
  join_limit: number
  file_size_limit: number
}

/** What a group's membership is made of (the groups row, GroupInfo and VipInfo all carry it). */
export interface Membership extends Limits {
  level: number
  /** ISO 8601 or null (free). */
  vip_exp: string | null
}

/** The default limits of a level: free, trial (300 markers, 5 collaborators, 300 M), VIP 1-3 (VIP 3: SPEC 9 defaults). */
export function limitsOfLevel(level: number): Limits {
  if (level === LEVEL.TRIAL) return { ...TRIAL_LIMITS }
  if (level === LEVEL.VIP1 || level === LEVEL.VIP2 || level === LEVEL.VIP3) return { ...VIP_TIER_LIMITS[level] }
  return { ...FREE_LIMITS }
}

/**
 * The limits in force now: the group's own while its membership runs (or it is free), the free
 * plan's once it has expired. Nothing is deleted by expiry: a group above them keeps its data and
 * may only not add more (SPEC 4, 9).
 */
export function effectiveLimits(group: Membership, now: Date): Limits & { expired: boolean } {
  if (isVipExpired(group.level as Level, group.vip_exp, now)) return { ...FREE_LIMITS, expired: true }
  return { marker_limit: group.marker_limit, join_limit: group.join_limit, file_size_limit: group.file_size_limit, expired: false }
}

/** Calendar months added on the Asia/Shanghai calendar; a day the month lacks becomes its last (31 Jan + 1 = 28/29 Feb). */
export function addMonthsShanghai(at: Date | string, months: number): Date {
  const local = new Date(new Date(at).getTime() + SHANGHAI_OFFSET_MS)
  const y = local.getUTCFullYear()
  const m = local.getUTCMonth() + months
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
  const day = Math.min(local.getUTCDate(), lastDay)
  const shifted = Date.UTC(y, m, day, local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds(), local.getUTCMilliseconds())
  return new Date(shifted - SHANGHAI_OFFSET_MS)
}

/** SPEC 5: a reset to free needs a remark. The first problem, or null. */
export function checkResetRemark(remarks: string | null | undefined): string | null {
  const text = (remarks ?? '').trim()
  if (!text) return VIP_MSG.resetRemarkRequired
  if (charLength(text) > RESET_REMARK_MAX) return VIP_MSG.fieldTooLong('备注', RESET_REMARK_MAX)
  return null
}

/**
 * A reset to free (SPEC 4) may be asked for by the administrator of a group whose membership has
 * expired: the message why not, or null. (An active membership is not thrown away; free is free.)
 */
export function resetProblem(group: Pick<Membership, 'level' | 'vip_exp'>, isAdmin: boolean, now: Date): string | null {
  if (!isAdmin) return VIP_MSG.adminOnly
  if (group.level === LEVEL.FREE) return VIP_MSG.alreadyFree
  if (!isVipExpired(group.level as Level, group.vip_exp, now)) return VIP_MSG.notExpired
  return null
}

/** What the group becomes on a reset to free: level 0, no expiry, the free plan's limits. */
export function freePlan(): Membership {
  return { level: LEVEL.FREE, vip_exp: null, ...FREE_LIMITS }
}

/** Of the group's live marker ids, those a reset hides: all but the latest FREE_KEEP_RECORDS (latest by id: ids grow with creation). */
export function markersToHide(ids: readonly number[], keep: number = FREE_LIMITS.marker_limit): number[] {
  return [...ids].sort((a, b) => b - a).slice(keep)
}

/** SPEC 9: data is kept 3 months after expiry; hidden markers come back on a renewal up to this time. */
export function restoreUntil(expiredAt: Date | string): Date {
  return addMonthsShanghai(expiredAt, DATA_KEEP_MONTHS_AFTER_EXPIRY)
}

export function canRestoreHidden(expiredAt: Date | string, now: Date): boolean {
  return now.getTime() <= restoreUntil(expiredAt).getTime()
}

/**
 * The questionnaire's 30 more trial days (SPEC 1, 9), given once by the caller (who records it):
 * only to a group on the trial level, counted from its expiry or from now when that has passed.
 * Null when the group gets nothing.
 */
export function questionnaireBonus(group: Pick<Membership, 'level' | 'vip_exp'>, now: Date): { vip_exp: Date; days: number } | null {
  if (group.level !== LEVEL.TRIAL) return null
  const from = Math.max(group.vip_exp ? new Date(group.vip_exp).getTime() : 0, now.getTime())
  return { vip_exp: new Date(from + TRIAL_QUESTIONNAIRE_DAYS * DAY_MS), days: TRIAL_QUESTIONNAIRE_DAYS }
}

/** A paid level (VIP 1-3) whose membership runs now. */
function activePaidLevel(group: Pick<Membership, 'level' | 'vip_exp'>, now: Date): 2 | 3 | 4 | null {
  if (group.level < LEVEL.VIP1 || group.level > LEVEL.VIP3) return null
  return isVipExpired(group.level as Level, group.vip_exp, now) ? null : (group.level as 2 | 3 | 4)
}

/** Buying this level is refused while a higher paid level runs (its time would be worth less); null when allowed. */
export function purchaseProblem(group: Pick<Membership, 'level' | 'vip_exp'>, level: 2 | 3 | 4, now: Date): string | null {
  const active = activePaidLevel(group, now)
  return active !== null && active > level ? VIP_MSG.lowerTier : null
}

/**
 * What a paid purchase of `level` for `months` does to the group (applied once, when the payment
 * arrives):
 * - the same level running: the months are added to its expiry;
 * - a lower paid level running (upgrade): the new level runs from now for the months, plus the
 *   lower level's remaining time converted at the price ratio (its value is kept, not lost);
 * - a higher paid level running (two orders crossed): that level stays and gains the bought time
 *   converted at the price ratio (paid money is never lost);
 * - otherwise (free, trial, expired): the level runs from now for the months (trial days are a gift
 *   and are not carried over).
 * Limits become the level's; a custom member (SPEC 1) buying VIP 3 again, even after expiry, keeps its own limits.
 */
export function applyPurchase(group: Membership, level: 2 | 3 | 4, now: Date, months: number = VIP_PRODUCT_MONTHS): Membership {
  const active = activePaidLevel(group, now)
  const expMs = group.vip_exp ? new Date(group.vip_exp).getTime() : now.getTime()
  const boughtMs = addMonthsShanghai(now, months).getTime() - now.getTime()
  if (active !== null && active > level) {
    const converted = Math.floor((boughtMs * VIP_PRICES_FEN[level]) / VIP_PRICES_FEN[active])
    return { ...group, vip_exp: new Date(expMs + converted).toISOString() }
  }
  const keepCustom = level === LEVEL.VIP3 && isCustomMember({ level: group.level as Level, marker_limit: group.marker_limit, join_limit: group.join_limit, file_size_limit: group.file_size_limit })
  const limits = keepCustom ? { marker_limit: group.marker_limit, join_limit: group.join_limit, file_size_limit: group.file_size_limit } : limitsOfLevel(level)
  if (active === level) return { level, vip_exp: addMonthsShanghai(new Date(expMs), months).toISOString(), ...limits }
  const carried = active !== null ? Math.floor(((expMs - now.getTime()) * VIP_PRICES_FEN[active]) / VIP_PRICES_FEN[level]) : 0
  return { level, vip_exp: new Date(addMonthsShanghai(now, months).getTime() + carried).toISOString(), ...limits }
}
