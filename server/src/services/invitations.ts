/**
 * The invited person's side of /api/user/pre/register: a team's invitation of their phone waits
 * (counted against the team's join_limit) until they answer it. Accepting makes them a member in
 * the department they were invited to, takes the name they were given when they have none, and
 * selects the team; declining removes the invitation; ignoring it changes nothing.
 */
import { ErrCode } from '../../../types/api'
import type { LoginResult } from '../../../types/entities'
import type { Invitation } from '../../../types/invitations'
import { INVITE_MSG } from '../../../src/domain/consentMessages'
import type { Caller } from '../auth'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { findDepartment } from '../db/departments'
import { findGroupById, lockGroup } from '../db/groups'
import { addJoin, findJoin } from '../db/joins'
import { deletePending, findPendingOfPhone, invitationsOfPhone } from '../db/pre-registrations'
import { findUserById, selectGroupForUser, updateUserProfile } from '../db/users'
import { BusinessError, UnauthorizedError } from '../envelope'
import { presentLoginResult } from '../presenters/account'
import { loadAccount } from './account'

async function callerUser(db: Executor, caller: Caller) {
  const user = await findUserById(db, caller.userId)
  if (!user) throw new UnauthorizedError()
  return user
}

function notFound(): BusinessError {
  return new BusinessError(ErrCode.NOT_FOUND, INVITE_MSG.notFound)
}

export async function invitationsOfCaller(db: Executor, caller: Caller): Promise<{ list: Invitation[] }> {
  const user = await callerUser(db, caller)
  const rows = await invitationsOfPhone(db, user.phone)
  return { list: rows.map((r) => ({ id: r.id, group_id: r.group_id, group_name: r.group_name, inviter_nickname: r.inviter_nickname ?? '', created_at: r.created_at })) }
}

export async function acceptInvitation(db: Database, caller: Caller, id: number, now: Date): Promise<LoginResult> {
  const at = now.toISOString()
  await inTransaction(db, async (trx) => {
    const user = await callerUser(trx, caller)
    const invitation = await findPendingOfPhone(trx, user.phone, id)
    if (!invitation) throw notFound()
    const group = await findGroupById(trx, invitation.group_id)
    if (!group) throw notFound()
    await lockGroup(trx, group.id)
    // Its place was counted while it waited: joining takes that place, no new one.
    await deletePending(trx, [invitation.id])
    if (!(await findJoin(trx, group.id, user.id))) {
      const department = invitation.department_id && (await findDepartment(trx, group.id, invitation.department_id)) ? invitation.department_id : 0
      await addJoin(trx, { group_id: group.id, user_id: user.id, is_manager: false, department_id: department, created_at: at })
    }
    if (!user.nickname && invitation.nickname) await updateUserProfile(trx, user.id, { nickname: invitation.nickname }, at)
    await selectGroupForUser(trx, user.id, group.id, at)
  })
  return presentLoginResult(await loadAccount(db.kysely, caller.userId), caller.token, now)
}

export async function declineInvitation(db: Executor, caller: Caller, id: number): Promise<void> {
  const user = await callerUser(db, caller)
  if (!(await findPendingOfPhone(db, user.phone, id))) throw notFound()
  await deletePending(db, [id])
}
