/**
 * /api/group/* (routes/group.ts): the caller's own group (a 7-day trial), the selected group's info
 * and name, and the team: members and pending people, removing and quitting, managers,
 * departments of members, the invite code, joining by it, the groups the caller belongs to and
 * switching.
 *
 * Who: every member reads the team (phones masked and pending people left out for members who do
 * not manage it); the administrator and managers manage members, departments of members and the
 * invite code; only the administrator renames the group, sets or unsets managers and removes a
 * manager; nobody removes the administrator, who cannot quit their own group either.
 */
import { ErrCode } from '../../../types/api'
import { TEAM_MSG } from '../../../src/domain/messages'
import { parseInviteCode } from '../../../src/domain/teams'
import type { Caller } from '../auth'
import type { Clock } from '../clock'
import { inTransaction, type Database } from '../db/connection'
import { findDepartment } from '../db/departments'
import { groupsOfMember, lockGroup, renameGroup, setInviteCode } from '../db/groups'
import { countMembers, findJoin, findJoinById, updateJoin } from '../db/joins'
import { findUserById, selectGroupForUser } from '../db/users'
import { BusinessError, UnauthorizedError } from '../envelope'
import { presentGroupInfo, presentLoginResult } from '../presenters/account'
import { presentGroupSummary } from '../presenters/teams'
import { loadAccount, selectOwnGroup } from './account'
import { isManager, mapCaller, requireAdministrator, requireManager, type MapCaller } from './permissions'
import { limitsInForce } from './limits'
import { INVITE_JOIN_PER_USER, inviteInfoSlots } from './public-limits'
import { requireRateSlots } from './rate-limit'
import { RATE_MSG } from '../../../src/domain/consentMessages'
import { describeMember, freshInviteCode, groupOfInviteCode, headcount, joinGroup, joinsOverview, leaveGroup } from './teams'

/** What the group calls work with. */
export interface GroupEnv {
  db: Database
  clock: Clock
}

async function loginResult({ db, clock }: GroupEnv, userId: number, token: string) {
  return presentLoginResult(await loadAccount(db.kysely, userId), token, clock.now())
}

/** A member of the caller's group by join id; NOT_FOUND for another group's or an unknown one. */
async function requireJoin({ db }: GroupEnv, who: MapCaller, joinId: number) {
  const join = await findJoinById(db.kysely, who.groupId, joinId)
  if (!join) throw new BusinessError(ErrCode.NOT_FOUND, TEAM_MSG.memberNotFound)
  return join
}

// Idempotent: a caller who already owns a group gets it selected instead of a second one.
export async function createGroup(env: GroupEnv, caller: Caller, name: string | undefined) {
  const { db, clock } = env
  await inTransaction(db, (trx) => selectOwnGroup(trx, caller.userId, clock.now(), name))
  return loginResult(env, caller.userId, caller.token)
}

export async function groupInfo({ db }: GroupEnv, caller: Caller) {
  const who = await mapCaller(db.kysely, caller)
  return presentGroupInfo(who.group, await countMembers(db.kysely, who.groupId), caller.userId)
}

export async function saveGroupName({ db }: GroupEnv, caller: Caller, name: string) {
  const who = await mapCaller(db.kysely, caller)
  requireAdministrator(who)
  await renameGroup(db.kysely, who.groupId, name)
  return presentGroupInfo({ ...who.group, name }, await countMembers(db.kysely, who.groupId), caller.userId)
}

export async function groupJoins({ db, clock }: GroupEnv, caller: Caller) {
  const who = await mapCaller(db.kysely, caller)
  return joinsOverview(db.kysely, who.group, isManager(who), clock.now())
}

export async function removeJoin({ db }: GroupEnv, caller: Caller, join_id: number) {
  await inTransaction(db, async (trx) => {
    const who = await mapCaller(trx, caller)
    requireManager(who)
    const join = await findJoinById(trx, who.groupId, join_id)
    if (!join) throw new BusinessError(ErrCode.NOT_FOUND, TEAM_MSG.memberNotFound)
    if (join.user_id === who.group.owner_id) throw new BusinessError(ErrCode.FORBIDDEN, TEAM_MSG.cannotRemoveAdmin)
    if (join.user_id === who.userId) throw new BusinessError(ErrCode.VALIDATION, TEAM_MSG.cannotRemoveSelf)
    if (join.is_manager === 1) requireAdministrator(who)
    await leaveGroup(trx, who.groupId, join.user_id)
  })
  return null
}

export async function quitGroup(env: GroupEnv, caller: Caller) {
  const { db, clock } = env
  await inTransaction(db, async (trx) => {
    const who = await mapCaller(trx, caller)
    if (who.actor.is_admin) throw new BusinessError(ErrCode.FORBIDDEN, TEAM_MSG.adminCannotQuit)
    await leaveGroup(trx, who.groupId, who.userId)
    await selectOwnGroup(trx, who.userId, clock.now())
  })
  return loginResult(env, caller.userId, caller.token)
}

export async function setManager(env: GroupEnv, caller: Caller, { join_id, is_manager }: { join_id: number; is_manager: boolean }) {
  const { db } = env
  const who = await mapCaller(db.kysely, caller)
  requireAdministrator(who)
  const join = await requireJoin(env, who, join_id)
  if (join.user_id === who.group.owner_id) throw new BusinessError(ErrCode.VALIDATION, TEAM_MSG.adminIsAlwaysManager)
  await updateJoin(db.kysely, join.id, { is_manager: is_manager ? 1 : 0 })
  return describeMember(db.kysely, who.group, join.id)
}

export async function setJoinDepartment(env: GroupEnv, caller: Caller, { join_id, department_id }: { join_id: number; department_id: number }) {
  const { db } = env
  const who = await mapCaller(db.kysely, caller)
  requireManager(who)
  const join = await requireJoin(env, who, join_id)
  if (department_id !== 0 && !(await findDepartment(db.kysely, who.groupId, department_id))) throw new BusinessError(ErrCode.NOT_FOUND, TEAM_MSG.departmentNotFound)
  await updateJoin(db.kysely, join.id, { department_id })
  return describeMember(db.kysely, who.group, join.id)
}

export async function inviteCode({ db }: GroupEnv, caller: Caller, reset: boolean | undefined) {
  return inTransaction(db, async (trx) => {
    const who = await mapCaller(trx, caller)
    requireManager(who)
    if (who.group.invite_code && !reset) return { code: who.group.invite_code }
    const code = await freshInviteCode(trx)
    await setInviteCode(trx, who.groupId, code)
    return { code }
  })
}

// Public: an invite link can show what it leads to before the person signs in. Limited per client
// address, so that codes cannot be walked to find teams.
export async function inviteInfo({ db, clock }: GroupEnv, code: string, ip: string) {
  await requireRateSlots(db.kysely, inviteInfoSlots(ip), RATE_MSG.inviteInfo, clock.now())
  const group = await groupOfInviteCode(db.kysely, parseInviteCode(code))
  const [owner, { members, collaborators }] = await Promise.all([findUserById(db.kysely, group.owner_id), headcount(db.kysely, group.id)])
  return {
    group_id: group.id,
    group_name: group.name,
    owner_nickname: owner?.nickname ?? '',
    member_count: members,
    collaborator_count: collaborators,
    join_limit: limitsInForce(group, clock.now()).join_limit,
  }
}

// Joining an own group or one already joined only selects it; a new member counts against join_limit (a collaborator).
export async function joinByCode(env: GroupEnv, caller: Caller, code: string) {
  const { db, clock } = env
  const at = clock.now().toISOString()
  // Counted outside the transaction, so that a wrong code's try stays counted.
  await requireRateSlots(db.kysely, [{ bucket: `invite-join:${caller.userId}`, rule: INVITE_JOIN_PER_USER }], RATE_MSG.inviteInfo, clock.now())
  await inTransaction(db, async (trx) => {
    const group = await groupOfInviteCode(trx, parseInviteCode(code))
    const user = await findUserById(trx, caller.userId)
    if (!user) throw new UnauthorizedError()
    await lockGroup(trx, group.id)
    await joinGroup(trx, group, user, 0, at)
    await selectGroupForUser(trx, user.id, group.id, at)
  })
  return loginResult(env, caller.userId, caller.token)
}

export async function groupsOfCaller({ db }: GroupEnv, caller: Caller) {
  const user = await findUserById(db.kysely, caller.userId)
  if (!user) throw new UnauthorizedError()
  return (await groupsOfMember(db.kysely, user.id)).map((g) => presentGroupSummary(g, user.id, user.select_groupid))
}

export async function selectGroup(env: GroupEnv, caller: Caller, group_id: number) {
  const { db, clock } = env
  if (!(await findJoin(db.kysely, group_id, caller.userId))) throw new BusinessError(ErrCode.FORBIDDEN, TEAM_MSG.notMemberOfGroup)
  await selectGroupForUser(db.kysely, caller.userId, group_id, clock.now().toISOString())
  return loginResult(env, caller.userId, caller.token)
}
