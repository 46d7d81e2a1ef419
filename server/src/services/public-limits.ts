/**
 * Limits on the public calls that cost money or tell something about people: sending a
 * verification code (SMS is paid for and can be pumped), asking whether a phone is registered, and
 * reading an invite code's team. Each counts per client address (hashed) and, where there is one,
 * per target, in rate_hits (services/rate-limit.ts), beside the per-phone rules of codes.ts.
 */
import { hashedClient, hashedTarget, type RateRule, type RateSlot } from './rate-limit'

const HOUR_MS = 3600_000
const TEN_MINUTES_MS = 10 * 60_000

/** Hourly caps on /api/system/send/code (env SMS_HOURLY_CAP_PER_ADDRESS, SMS_HOURLY_CAP). */
export interface CodeCaps {
  /** Codes one client address may ask for in an hour. A mobile carrier's NAT puts many phones behind one address: not too low. */
  perAddressPerHour: number
  /** Codes the whole server sends in an hour: the ceiling on what a pump can cost. */
  allPerHour: number
}

export const DEFAULT_CODE_CAPS: CodeCaps = { perAddressPerHour: 30, allPerHour: 1000 }

export function codeSendSlots(ip: string, caps: CodeCaps): RateSlot[] {
  return [
    { bucket: `send-code-ip:${hashedClient(ip)}`, rule: { max: caps.perAddressPerHour, windowMs: HOUR_MS } },
    { bucket: 'send-code-all', rule: { max: caps.allPerHour, windowMs: HOUR_MS } },
  ]
}

/** /api/user/exist/phone per client address. */
export const PHONE_LOOKUP_PER_ADDRESS: RateRule = { max: 20, windowMs: TEN_MINUTES_MS }
/** /api/user/exist/phone per phone asked about, from anywhere: many addresses cannot sweep one number either. */
export const PHONE_LOOKUP_PER_PHONE: RateRule = { max: 10, windowMs: TEN_MINUTES_MS }

export function phoneLookupSlots(ip: string, phone: string): RateSlot[] {
  return [
    { bucket: `exist-phone-ip:${hashedClient(ip)}`, rule: PHONE_LOOKUP_PER_ADDRESS },
    { bucket: `exist-phone:${hashedTarget(phone)}`, rule: PHONE_LOOKUP_PER_PHONE },
  ]
}

/** /api/group/invite/info per client address: 8 characters of 31 cannot be walked at this pace. */
export const INVITE_INFO_PER_ADDRESS: RateRule = { max: 20, windowMs: TEN_MINUTES_MS }

export function inviteInfoSlots(ip: string): RateSlot[] {
  return [{ bucket: `invite-info-ip:${hashedClient(ip)}`, rule: INVITE_INFO_PER_ADDRESS }]
}

/** Joining by code (signed in) per user: guessing codes through the join call is as slow. */
export const INVITE_JOIN_PER_USER: RateRule = { max: 20, windowMs: TEN_MINUTES_MS }
