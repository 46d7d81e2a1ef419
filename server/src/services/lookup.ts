/**
 * /api/user/get/overview/phoneuid: a team's administrator or a manager looks a person up by phone
 * or account number (uid) before adding them, and sees their nickname, avatar, masked phone and
 * whether they are already in this team. Ordinary members are refused; every lookup counts against
 * the caller's rate limit (found or not), so that the call cannot be used to sweep phone numbers;
 * an unknown phone or uid is just "not found", and nothing tells which other teams a person is in.
 */
import { ErrCode } from '../../../types/api'
import type { PersonOverview } from '../../../types/teams'
import { LOOKUP_MSG } from '../../../src/domain/systemMessages'
import type { Caller } from '../auth'
import type { Executor } from '../db/connection'
import { findJoin } from '../db/joins'
import { findUserByPhone, findUserByUid } from '../db/users'
import { BusinessError } from '../envelope'
import { presentPersonOverview } from '../presenters/teams'
import { mapCaller, requireManager } from './permissions'
import { takeRateSlot, type RateRule } from './rate-limit'

/** Lookups per caller: enough to add a team by hand, too few to sweep numbers. */
export const PERSON_LOOKUP_RATE: RateRule = { max: 30, windowMs: 10 * 60_000 }

export type PersonKey = { phone: string } | { uid: string }

/** `db` is not a transaction: the rate limit's hit must be visible to other servers at once. */
export async function lookUpPerson(db: Executor, caller: Caller, key: PersonKey, now: Date): Promise<PersonOverview> {
  const who = await mapCaller(db, caller)
  requireManager(who)
  if (!(await takeRateSlot(db, `person-lookup:${who.userId}`, PERSON_LOOKUP_RATE, now))) throw new BusinessError(ErrCode.RATE_LIMITED, LOOKUP_MSG.tooMany)
  const user = 'phone' in key ? await findUserByPhone(db, key.phone) : await findUserByUid(db, key.uid)
  if (!user) throw new BusinessError(ErrCode.NOT_FOUND, 'phone' in key ? LOOKUP_MSG.phoneNotFound : LOOKUP_MSG.uidNotFound)
  return presentPersonOverview(user, !!(await findJoin(db, who.groupId, user.id)))
}
