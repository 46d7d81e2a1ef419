/**
 * Rate limits kept in the database (rate_hits), so that several server processes count together.
 * The same scheme as share passwords (services/shares.ts): a hit is written first and then counted
 * with the others, outside any transaction, so two concurrent calls see each other and cannot pass
 * the limit together; a call refused by the limit removes its hit again, so waiting out the window
 * is enough to be let in.
 */
import { createHash } from 'node:crypto'
import { ErrCode } from '../../../types/api'
import type { Executor } from '../db/connection'
import { BusinessError } from '../envelope'
import { countHits, deleteHit, deleteHitsBefore, insertHit } from '../db/rate-hits'

export interface RateRule {
  /** How many calls the window holds. */
  max: number
  windowMs: number
}

/** Longer than any rule's window: older hits count nowhere and are dropped on the way. */
const KEEP_HITS_MS = 24 * 3600_000

/** A client address as a bucket may name it (the address itself is not kept). */
export function hashedClient(ip: string): string {
  return createHash('sha256').update(ip).digest('hex')
}

/** Counts this call in the bucket; false (and nothing counted) when the window is already full. */
export async function takeRateSlot(db: Executor, bucket: string, rule: RateRule, now: Date): Promise<boolean> {
  await deleteHitsBefore(db, new Date(now.getTime() - KEEP_HITS_MS).toISOString())
  const id = await insertHit(db, bucket, now.toISOString())
  if ((await countHits(db, bucket, new Date(now.getTime() - rule.windowMs).toISOString())) <= rule.max) return true
  await deleteHit(db, id)
  return false
}

/** For limits on failures only: whether the bucket's window is full, without counting this call. */
export async function rateLimitReached(db: Executor, bucket: string, rule: RateRule, now: Date): Promise<boolean> {
  return (await countHits(db, bucket, new Date(now.getTime() - rule.windowMs).toISOString())) >= rule.max
}

/** Counts a failure in the bucket (see rateLimitReached). */
export async function recordRateHit(db: Executor, bucket: string, now: Date): Promise<void> {
  await deleteHitsBefore(db, new Date(now.getTime() - KEEP_HITS_MS).toISOString())
  await insertHit(db, bucket, now.toISOString())
}

/** One limit a call is counted against: a bucket and its rule. */
export interface RateSlot {
  bucket: string
  rule: RateRule
}

/**
 * Counts the call in every bucket, in order, and refuses with RATE_LIMITED and `message` at the
 * first full one (the buckets before it keep the hit: a caller beyond one limit still spends the
 * others). The public calls that could be pumped or used to enumerate share it (codes, phone
 * lookups, invite codes).
 */
export async function requireRateSlots(db: Executor, slots: readonly RateSlot[], message: string, now: Date): Promise<void> {
  for (const { bucket, rule } of slots) {
    if (!(await takeRateSlot(db, bucket, rule, now))) throw new BusinessError(ErrCode.RATE_LIMITED, message)
  }
}

/** A target (a phone, a code) as a bucket may name it: hashed, like addresses. */
export const hashedTarget = hashedClient
