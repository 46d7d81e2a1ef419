/**
 * Distribution (DistributionApi in types/distribution.ts): a promoter registers with a
 * name and a phone confirmed by an SMS code (checked exactly as /api/user/login checks it: the same
 * verifyCode, its wrong-try limit and messages) and gets a random promotion code; the same phone
 * registering again gets its existing code back, name and company unchanged. The promotion page
 * counts the users whose first sign-in came through the invitation (channel 'dist_<code>') and those
 * of them who paid for a membership.
 */
import { randomInt } from 'node:crypto'
import { ErrCode } from '../../../types/api'
import type { DistributionView } from '../../../types/distribution'
import { distributionChannel, invitePath, isDistributionCode, normalizeDistributionCode, randomDistributionCode } from '../../../src/domain/distribution'
import { DIST_MSG } from '../../../src/domain/distributionMessages'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { countUsersOfChannel, findDistributorByCode, findDistributorByPhone, insertDistributor, type DistributorRow } from '../db/distributors'
import { BusinessError } from '../envelope'
import { codeRejected, verifyCode } from './codes'

export interface Registration {
  name: string
  phone: string
  /** The SMS code. */
  code: string
  company: string
}

/** Registers the phone's promoter (or finds the one it already has) once its SMS code checks out. */
export async function registerDistributor(db: Database, input: Registration, now: Date): Promise<DistributionView> {
  // A wrong code is returned, not thrown, so that its counted try is committed.
  const outcome = await inTransaction(db, async (trx) => {
    const check = await verifyCode(trx, db.dialect, input.phone, input.code, now, true)
    if (!check.ok) return check
    // verifyCode holds the phone's lock (PostgreSQL) until commit: two registrations of one phone do not race.
    const existing = await findDistributorByPhone(trx, input.phone)
    if (existing) return { ok: true as const, row: existing }
    const row = await insertDistributor(trx, {
      name: input.name,
      phone: input.phone,
      company: input.company,
      code: await freshDistributionCode(trx),
      created_at: now.toISOString(),
    })
    return { ok: true as const, row }
  })
  if (!outcome.ok) throw codeRejected(outcome.message)
  return presentDistribution(db.kysely, outcome.row)
}

/** The promotion page of a code (any case); NOT_FOUND with '推广码无效' for a code nobody holds. */
export async function viewDistribution(db: Executor, rawCode: string): Promise<DistributionView> {
  const code = normalizeDistributionCode(rawCode)
  const row = isDistributionCode(code) ? await findDistributorByCode(db, code) : undefined
  if (!row) throw new BusinessError(ErrCode.NOT_FOUND, DIST_MSG.codeInvalid)
  return presentDistribution(db, row)
}

/** A random code no promoter holds. */
async function freshDistributionCode(db: Executor): Promise<string> {
  for (;;) {
    const code = randomDistributionCode(randomInt)
    if (!(await findDistributorByCode(db, code))) return code
  }
}

async function presentDistribution(db: Executor, row: DistributorRow): Promise<DistributionView> {
  const counts = await countUsersOfChannel(db, distributionChannel(row.code))
  return {
    code: row.code,
    name: row.name,
    company: row.company,
    invite_path: invitePath(row.code),
    registered: counts.registered,
    paid: counts.paid,
    created_at: row.created_at,
  }
}
