/**
 * Which membership dialog is due (SPEC 4): expiry, the reminder window and the trial welcome. Kept
 * apart from tiers.ts (which re-exports it) because every page runs it: it must stay small.
 */
import type { Level } from '../../types/entities'
import { EXPIRY_REMINDER_DAYS, TRIAL_DAYS } from './constants'

export const LEVEL = { FREE: 0, TRIAL: 1, VIP1: 2, VIP2: 3, VIP3: 4 } as const

// Asia/Shanghai is UTC+8 all year (no daylight saving).
const SHANGHAI_OFFSET_MS = 8 * 3600_000

/** A level and its expiry (ISO 8601 or null). */
export interface MembershipDates {
  level: number
  vip_exp: string | null
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

/** The date in Asia/Shanghai as 'YYYY-MM-DD' (once-a-day prompts, discount dates). */
export function shanghaiDay(at: Date): string {
  return new Date(at.getTime() + SHANGHAI_OFFSET_MS).toISOString().slice(0, 10)
}

/**
 * SPEC 4: the expiry reminder shows when the group's level is above 0 and 1-7 days remain (whole
 * days, rounded up), at most once a day (`lastShownDay`: the Asia/Shanghai day it last showed, from
 * shanghaiDay), and not for a trial with exactly 7 days left (a new trial would greet with it).
 */
export function shouldRemindExpiry(vip: MembershipDates, now: Date, lastShownDay: string | null | undefined): boolean {
  if (vip.level <= LEVEL.FREE || !vip.vip_exp) return false
  if (isVipExpired(vip.level as Level, vip.vip_exp, now)) return false
  const days = vipDaysLeft(vip.vip_exp, now)
  if (days < 1 || days > EXPIRY_REMINDER_DAYS) return false
  if (vip.level === LEVEL.TRIAL && days === TRIAL_DAYS) return false
  return lastShownDay !== shanghaiDay(now)
}

/** Which membership dialog a signed-in user sees now (SPEC 4): the expired one by role, the reminder, or none. */
export type VipPrompt = { kind: 'expired_admin' } | { kind: 'expired_member' } | { kind: 'reminder'; days: number } | null

export function vipPrompt(vip: MembershipDates | null | undefined, isAdmin: boolean, now: Date, lastReminderDay: string | null | undefined): VipPrompt {
  if (!vip) return null
  if (isVipExpired(vip.level as Level, vip.vip_exp, now)) return { kind: isAdmin ? 'expired_admin' : 'expired_member' }
  if (shouldRemindExpiry(vip, now, lastReminderDay)) return { kind: 'reminder', days: vipDaysLeft(vip.vip_exp, now) }
  return null
}

/**
 * The trial welcome (SPEC 2) greets the administrator of a trial map who has not filled in the
 * questionnaire, once per user on this device (`shownBefore`), and only when no membership dialog
 * is due (they come first).
 */
export function trialWelcomeDue(vip: { level: number; vip_exp: string | null } | null | undefined, isAdmin: boolean, verifyed: boolean, shownBefore: boolean, now: Date): boolean {
  if (!vip || !isAdmin || verifyed || shownBefore) return false
  return vip.level === LEVEL.TRIAL && !isVipExpired(LEVEL.TRIAL, vip.vip_exp, now)
}
