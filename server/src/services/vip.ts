/**
 * Membership of the caller's group (SPEC 1, 3, 4, 5, 9): what /api/vip/info shows, the
 * reset to free (collaborators removed, all but the latest 20 markers hidden, nothing deleted),
 * hidden markers brought back by a renewal within 3 months of the expiry, and the questionnaire
 * (+30 trial days once, verifyed). The rules are src/domain/tiers and src/domain/vip.
 */
import { ErrCode } from '../../../types/api'
import type { Level } from '../../../types/entities'
import type { Enterprise, VipInfo, VipRecoveryResult, VerifySubmitResult } from '../../../types/vip'
import { FREE_KEEP_RECORDS } from '../../../src/domain/constants'
import { VIP_MSG } from '../../../src/domain/vipMessages'
import { canRestoreHidden, checkResetRemark, freePlan, isCustomMember, isVipExpired, levelName, questionnaireBonus, resetProblem, restoreUntil, vipDaysLeft } from '../../../src/domain/tiers'
import { checkEnterprise, VIP_PRODUCTS } from '../../../src/domain/vip'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { deleteEnterpriseOfUser, findEnterprise, insertEnterpriseIfNone, setEnterpriseBonus, updateEnterprise } from '../db/enterprises'
import { findGroupForUpdate, findGroupOwnedBy, setMembership } from '../db/groups'
import { countMembers, joinsOfGroup } from '../db/joins'
import { countGroupMarkers, countHiddenMarkers, hideMarkersExceptLatest, unhideMarkers } from '../db/markers'
import { countPending, deletePendingOfGroups } from '../db/pre-registrations'
import { usedStorageKb } from '../db/uploads'
import { deleteResetsOfGroups, insertReset, markRestored, unrestoredResets } from '../db/vip-resets'
import { BusinessError } from '../envelope'
import { limitsInForce } from './limits'
import type { Caller } from '../auth'
import { markerChange } from './markers'
import { mapCaller } from './permissions'
import { logChanges } from './sync'
import { leaveGroup } from './teams'
import { presentEnterprise } from '../presenters/vip'
import type { EnterpriseInput } from '../schemas/vip'

/** The latest reset of the group whose hidden markers a renewal would still bring back, with their count. */
async function restorableReset(db: Executor, groupId: number, now: Date): Promise<{ hidden: number; until: string } | null> {
  const latest = (await unrestoredResets(db, groupId)).find((r) => canRestoreHidden(r.expired_at, now))
  if (!latest) return null
  return { hidden: await countHiddenMarkers(db, groupId, latest.hidden_at), until: restoreUntil(latest.expired_at).toISOString() }
}

export async function vipInfo(db: Executor, caller: Caller, now: Date): Promise<VipInfo> {
  const who = await mapCaller(db, caller)
  const group = who.group
  const [markers, members, pending, storage, restorable, enterprise, own] = await Promise.all([
    countGroupMarkers(db, group.id),
    countMembers(db, group.id),
    countPending(db, group.id),
    usedStorageKb(db, group.id),
    restorableReset(db, group.id, now),
    findEnterprise(db, who.userId),
    findGroupOwnedBy(db, who.userId),
  ])
  const level = group.level as Level
  const limits = limitsInForce(group, now)
  return {
    group_id: group.id,
    level,
    level_name: levelName(level, { level, marker_limit: group.marker_limit, join_limit: group.join_limit, file_size_limit: group.file_size_limit }),
    vip_exp: group.vip_exp,
    expired: isVipExpired(level, group.vip_exp, now),
    custom: isCustomMember({ level, marker_limit: group.marker_limit, join_limit: group.join_limit, file_size_limit: group.file_size_limit }),
    days_left: level === 0 ? 0 : vipDaysLeft(group.vip_exp, now),
    is_admin: who.actor.is_admin,
    marker_limit: group.marker_limit,
    join_limit: group.join_limit,
    file_rep_size: group.file_size_limit,
    effective: { marker_limit: limits.marker_limit, join_limit: limits.join_limit, file_size_limit: limits.file_size_limit },
    usage: { markers, members, pending, storage_kb: storage },
    hidden_markers: restorable?.hidden ?? 0,
    restore_until: restorable?.until ?? null,
    products: [...VIP_PRODUCTS],
    verifyed: !!enterprise,
    can_get_trial_bonus: !enterprise && !!own && questionnaireBonus(own, now) !== null,
  }
}

/**
 * SPEC 4 reset to free, by the administrator of an expired group, with a remark: every other
 * member leaves (their grants, roles and manager rows with them) and pending people are dropped;
 * all live markers but the latest 20 are hidden; the group becomes free. One transaction.
 */
export async function resetToFree(db: Database, caller: Caller, remarks: string, now: Date): Promise<VipRecoveryResult> {
  const who = await mapCaller(db.kysely, caller)
  const remarkProblem = checkResetRemark(remarks)
  if (remarkProblem) throw new BusinessError(ErrCode.VALIDATION, remarkProblem)
  const at = now.toISOString()
  return inTransaction(db, async (trx) => {
    const group = await findGroupForUpdate(trx, who.groupId, db.dialect)
    if (!group) throw new BusinessError(ErrCode.NOT_FOUND, VIP_MSG.adminOnly)
    const problem = resetProblem(group, group.owner_id === who.userId, now)
    if (problem) throw new BusinessError(problem === VIP_MSG.adminOnly ? ErrCode.FORBIDDEN : ErrCode.CONFLICT, problem)
    const others = (await joinsOfGroup(trx, group.id)).filter((j) => j.user_id !== group.owner_id)
    for (const member of others) await leaveGroup(trx, group.id, member.user_id)
    await deletePendingOfGroups(trx, [group.id])
    const hiddenMarkers = await hideMarkersExceptLatest(trx, group.id, FREE_KEEP_RECORDS, at)
    const hidden = hiddenMarkers.length
    await logChanges(
      trx,
      group.id,
      hiddenMarkers.map((m) => markerChange(m, 'delete')),
      at,
    )
    const expiredAt = group.vip_exp ?? at
    await insertReset(trx, {
      group_id: group.id,
      user_id: who.userId,
      remarks: remarks.trim(),
      level_before: group.level,
      expired_at: expiredAt,
      hidden_at: at,
      hidden_count: hidden,
      removed_members: others.length,
    })
    await setMembership(trx, group.id, freePlan())
    return { removed_members: others.length, hidden_markers: hidden, restore_until: restoreUntil(expiredAt).toISOString() }
  })
}

/** On a renewal: markers hidden by resets whose expiry is at most 3 months ago come back. Returns how many. */
export async function restoreHiddenOnRenewal(trx: Executor, groupId: number, now: Date): Promise<number> {
  let restored = 0
  const at = now.toISOString()
  for (const reset of await unrestoredResets(trx, groupId)) {
    if (!canRestoreHidden(reset.expired_at, now)) continue
    const back = await unhideMarkers(trx, groupId, reset.hidden_at, at)
    await logChanges(
      trx,
      groupId,
      back.map((m) => markerChange(m, 'upsert')),
      at,
    )
    const count = back.length
    await markRestored(trx, reset.id, at, count)
    restored += count
  }
  return restored
}

export async function enterpriseOf(db: Executor, userId: number): Promise<Enterprise | null> {
  const row = await findEnterprise(db, userId)
  return row ? presentEnterprise(row) : null
}

function cleanEnterprise(e: Enterprise): Enterprise {
  return {
    name: e.name.trim(),
    business_type: e.business_type.trim(),
    size: e.size,
    contacts: e.contacts.trim(),
    post: (e.post ?? '').trim(),
    qa: [e.qa[0]?.trim() ?? '', e.qa[1]?.trim() ?? '', e.qa[2]?.trim() ?? ''],
  }
}

/**
 * The questionnaire (SPEC 5 rules): the first submission marks the user verified and gives their
 * own group, when it is on the trial, 30 more days (once: counted from its expiry, or from now when
 * that has passed); later ones update the profile only. Also what /api/user/enterprise/save does.
 */
export async function submitQuestionnaire(db: Database, userId: number, input: Enterprise, now: Date): Promise<VerifySubmitResult & { enterprise: Enterprise }> {
  const problem = checkEnterprise(input)
  if (problem) throw new BusinessError(ErrCode.VALIDATION, problem)
  const e = cleanEnterprise(input)
  const at = now.toISOString()
  const fields = { name: e.name, business_type: e.business_type, size: e.size, contacts: e.contacts, post: e.post, qa: JSON.stringify(e.qa) }
  return inTransaction(db, async (trx) => {
    const own = await findGroupOwnedBy(trx, userId)
    const group = own ? await findGroupForUpdate(trx, own.id, db.dialect) : undefined
    const inserted = await insertEnterpriseIfNone(trx, { user_id: userId, ...fields, verified_at: at, bonus_days: 0, bonus_group_id: 0, updated_at: at })
    if (!inserted) {
      await updateEnterprise(trx, userId, fields, at)
      return { verifyed: true, bonus_days: 0, vip_exp: group?.vip_exp ?? null, enterprise: e }
    }
    const bonus = group ? questionnaireBonus(group, now) : null
    if (!group || !bonus) return { verifyed: true, bonus_days: 0, vip_exp: group?.vip_exp ?? null, enterprise: e }
    const vipExp = bonus.vip_exp.toISOString()
    await setMembership(trx, group.id, { ...group, vip_exp: vipExp })
    await setEnterpriseBonus(trx, userId, bonus.days, group.id)
    return { verifyed: true, bonus_days: bonus.days, vip_exp: vipExp, enterprise: e }
  })
}

/** Account deletion: the user's profile and the resets of the groups that go with it (their orders are kept for the books). */
export async function purgeVipRows(trx: Executor, userId: number, ownedGroupIds: number[]): Promise<void> {
  await deleteEnterpriseOfUser(trx, userId)
  await deleteResetsOfGroups(trx, ownedGroupIds)
}

function asEnterprise(input: EnterpriseInput) {
  const qa = input.qa
  return { ...input, size: input.size as number, qa: [qa[0] ?? '', qa[1] ?? '', qa[2] ?? ''] as [string, string, string] }
}

/** /api/user/verify/submit: the questionnaire's result, without the profile. */
export async function verifySubmit(db: Database, userId: number, input: EnterpriseInput, now: Date): Promise<VerifySubmitResult> {
  const { enterprise: _saved, ...result } = await submitQuestionnaire(db, userId, asEnterprise(input), now)
  return result
}

/** /api/user/enterprise/save: the profile as saved. */
export async function saveEnterprise(db: Database, userId: number, input: EnterpriseInput, now: Date): Promise<Enterprise> {
  return (await submitQuestionnaire(db, userId, asEnterprise(input), now)).enterprise
}
