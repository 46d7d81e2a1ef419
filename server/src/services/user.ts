/**
 * The /api/user/* rules: sign-in (taking up pre-registrations of the phone), the session's account
 * (moving a user who lost their selected group to their own map), profile, account deletion, and
 * pre-registering people by phone into the team.
 */
import type { ExpiredInfo, LoginResult, UserInfo } from '../../../types/entities'
import { ErrCode } from '../../../types/api'
import { TEAM_MSG } from '../../../src/domain/messages'
import { startSession, type Caller } from '../auth'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { deleteGroups, findGroupOwnedBy, groupIdsOwnedBy, lockGroup, renameGroup } from '../db/groups'
import { findDepartment } from '../db/departments'
import { deleteJoinsOfGroups, deleteJoinsOfUser, findJoin } from '../db/joins'
import { deleteLocationOfUser } from '../db/locations'
import { deleteSessionsOfUser, revokeSession } from '../db/sessions'
import { deletePending, findPending, findPendingByPhone, upsertPending } from '../db/pre-registrations'
import { deleteUser, findOrCreateUserByPhone, findUserByPhone, unselectGroups, updateUserProfile } from '../db/users'
import { BusinessError } from '../envelope'
import { presentExpiredInfo, presentLoginResult, presentUserInfo } from '../presenters/account'
import { loadAccount, loadAccountSwitchingLostGroup, ownMapName } from './account'
import { codeRejected, verifyCode } from './codes'
import { requireRateSlots } from './rate-limit'
import { phoneLookupSlots } from './public-limits'
import { RATE_MSG } from '../../../src/domain/consentMessages'
import { mapCaller, requireManager } from './permissions'
import { purgeVipRows } from './vip'
import { purgeGroupTeamData, purgeUserTeamRows, requireRoom } from './teams'
import { purgeGroupShares } from './shares'
import { purgeGroupRoutes } from './routes'
import { purgeGroupSigns } from './signs'
import { purgeGroupMapData } from './layers'
import { deleteStoredFiles, purgeGroupNotesFieldsAndFiles } from './uploads'
import type { FileStorage } from './storage'
import { purgeGroupTasks } from './tasks'

export async function logIn(db: Database, { phone, code, channel }: { phone: string; code: string; channel?: string }, now: Date, device?: { device: string; os: string }): Promise<LoginResult> {
  // A wrong code is returned, not thrown, so that its counted try is committed.
  const outcome = await inTransaction(db, async (trx) => {
    const check = await verifyCode(trx, db.dialect, phone, code, now, true)
    if (!check.ok) return check
    const user = await findOrCreateUserByPhone(trx, phone, channel ?? '', now.toISOString())
    // Invitations of the phone wait for its owner's answer (services/invitations.ts): nothing joins here.
    return { ok: true as const, userId: user.id, token: await startSession(trx, user.id, now, device) }
  })
  if (!outcome.ok) throw codeRejected(outcome.message)
  return presentLoginResult(await loadAccountSwitchingLostGroup(db, outcome.userId, now), outcome.token, now)
}

export async function logOut(db: Executor, caller: Caller, now: Date): Promise<void> {
  await revokeSession(db, caller.sessionId, now.toISOString())
}

export async function accountOf(db: Database, caller: Caller, now: Date): Promise<LoginResult> {
  return presentLoginResult(await loadAccountSwitchingLostGroup(db, caller.userId, now), caller.token, now)
}

export async function initProfile(db: Database, caller: Caller, { nickname, avatar }: { nickname: string; avatar?: string }, now: Date): Promise<UserInfo> {
  await inTransaction(db, async (trx) => {
    await updateUserProfile(trx, caller.userId, avatar === undefined ? { nickname } : { nickname, avatar }, now.toISOString())
    // The own map made on the guide page before the nickname was '我的地图': it takes the name now
    // (unless the user renamed it), so that the people they invite see whose map it is.
    const own = await findGroupOwnedBy(trx, caller.userId)
    if (own && own.name === ownMapName('')) await renameGroup(trx, own.id, ownMapName(nickname))
  })
  return presentUserInfo(await loadAccount(db.kysely, caller.userId), caller.token)
}

export async function saveProfile(db: Executor, caller: Caller, patch: { nickname?: string; avatar?: string }, now: Date): Promise<UserInfo> {
  await updateUserProfile(db, caller.userId, patch, now.toISOString())
  return presentUserInfo(await loadAccount(db, caller.userId), caller.token)
}

/** Whether the phone has an account: public, so limited per client address and per phone (services/public-limits.ts). */
export async function phoneExists(db: Executor, phone: string, ip: string, now: Date): Promise<{ exist: boolean }> {
  await requireRateSlots(db, phoneLookupSlots(ip, phone), RATE_MSG.phoneLookup, now)
  return { exist: !!(await findUserByPhone(db, phone)) }
}

export async function expiredInfo(db: Executor, caller: Caller, now: Date): Promise<ExpiredInfo> {
  return presentExpiredInfo(await loadAccount(db, caller.userId), now)
}

// Deletes the account with everything it owns (SPEC: its maps with their layers, markers, notes,
// fields, files and members); members of its groups are left with no group. Files go once the
// rows are gone for good.
export async function deleteAccount(db: Database, storage: FileStorage, caller: Caller, now: Date): Promise<void> {
  const files = await inTransaction(db, async (trx) => {
    const owned = await groupIdsOwnedBy(trx, caller.userId)
    const keys = await purgeGroupNotesFieldsAndFiles(trx, owned)
    await purgeGroupMapData(trx, owned)
    await purgeGroupTeamData(trx, owned)
    await purgeGroupShares(trx, owned)
    await purgeGroupRoutes(trx, owned)
    await purgeGroupSigns(trx, owned)
    await purgeGroupTasks(trx, owned)
    await purgeUserTeamRows(trx, caller.userId)
    await purgeVipRows(trx, caller.userId, owned)
    await deleteJoinsOfGroups(trx, owned)
    await deleteJoinsOfUser(trx, caller.userId)
    await unselectGroups(trx, owned, now.toISOString())
    await deleteGroups(trx, owned)
    await deleteSessionsOfUser(trx, caller.userId)
    await deleteLocationOfUser(trx, caller.userId)
    await deleteUser(trx, caller.userId)
    return keys
  })
  await deleteStoredFiles(storage, files)
}

/**
 * Invites a person by phone. Nobody joins without their own yes: registered or not, the phone gets
 * a pending invitation (counted against join_limit while it waits) that its owner accepts or
 * declines once signed in. The answer is the same for registered and unregistered phones, so that
 * it tells nobody who has an account.
 */
export async function preRegister(
  db: Database,
  caller: Caller,
  { nickname, phone, department_id }: { nickname: string; phone: string; department_id: number },
  now: Date,
): Promise<{ joined: boolean }> {
  const at = now.toISOString()
  return inTransaction(db, async (trx) => {
    const who = await mapCaller(trx, caller)
    requireManager(who)
    if (department_id !== 0 && !(await findDepartment(trx, who.groupId, department_id))) throw new BusinessError(ErrCode.NOT_FOUND, TEAM_MSG.departmentNotFound)
    await lockGroup(trx, who.groupId)
    const user = await findUserByPhone(trx, phone)
    if (user && (await findJoin(trx, who.groupId, user.id))) throw new BusinessError(ErrCode.CONFLICT, TEAM_MSG.alreadyMember)
    // A phone already invited keeps its place; its name, department and inviter change.
    if (!(await findPendingByPhone(trx, who.groupId, phone))) await requireRoom(trx, who.group, at)
    await upsertPending(trx, { group_id: who.groupId, phone, nickname, department_id, created_at: at, invited_by: who.userId })
    return { joined: false }
  })
}

export async function deletePreRegistration(db: Executor, caller: Caller, id: number): Promise<void> {
  const who = await mapCaller(db, caller)
  requireManager(who)
  if (!(await findPending(db, who.groupId, id))) throw new BusinessError(ErrCode.NOT_FOUND, TEAM_MSG.pendingNotFound)
  await deletePending(db, [id])
}
