/**
 * The operator's credential: ADMIN_TOKEN from the environment, sent as the `x-admin-token` header.
 * It is not a team role: an operator runs the deployment (brand, logo, check-in radius, customer
 * service contact), and no group administrator or member holds it. Without ADMIN_TOKEN the
 * operator calls are off for everyone. Wrong tokens are limited per client address, so the token
 * cannot be guessed through the API.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { ErrCode } from '../../../types/api'
import { SYSTEM_CONFIG_MSG } from '../../../src/domain/systemMessages'
import type { Executor } from '../db/connection'
import { BusinessError } from '../envelope'
import { hashedClient, rateLimitReached, recordRateHit, type RateRule } from './rate-limit'

export const OPERATOR_TOKEN_HEADER = 'x-admin-token'
/** Wrong operator tokens from one address within the window before it is refused outright. */
export const OPERATOR_WRONG_TRIES: RateRule = { max: 10, windowMs: 15 * 60_000 }

/** Compares digests, so that neither the content nor the length of the token leaks through timing. */
function sameToken(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest()
  return timingSafeEqual(digest(given), digest(expected))
}

/** Passes when `given` is the configured operator token; FORBIDDEN (or RATE_LIMITED) otherwise. */
export async function requireOperator(db: Executor, adminToken: string | undefined, given: unknown, ip: string, now: Date): Promise<void> {
  if (!adminToken) throw new BusinessError(ErrCode.FORBIDDEN, SYSTEM_CONFIG_MSG.operatorDisabled)
  const bucket = `operator-token:${hashedClient(ip)}`
  if (await rateLimitReached(db, bucket, OPERATOR_WRONG_TRIES, now)) throw new BusinessError(ErrCode.RATE_LIMITED, SYSTEM_CONFIG_MSG.operatorTooManyTries)
  if (typeof given === 'string' && given.length > 0 && sameToken(given, adminToken)) return
  await recordRateHit(db, bucket, now)
  throw new BusinessError(ErrCode.FORBIDDEN, SYSTEM_CONFIG_MSG.operatorOnly)
}
