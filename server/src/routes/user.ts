/**
 * /api/user/*: sign-in (taking up pre-registrations of the phone), the session's account (moving a
 * user who lost their selected group to their own map), profile, account deletion, and
 * pre-registering people by phone into the team (issue 5), and looking a person up by phone or uid
 * before adding them (services/lookup.ts).
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { ErrCode } from '../../../types/api'
import { MSG, TEAM_MSG } from '../../../src/domain/messages'
import { NICKNAME_MAX } from '../../../src/domain/constants'
import { LOOKUP_MSG } from '../../../src/domain/systemMessages'
import { charLength, checkPhone } from '../../../src/domain/validate'
import { startSession } from '../auth'
import { inTransaction } from '../db/connection'
import { deleteGroups, findGroupOwnedBy, groupIdsOwnedBy, renameGroup } from '../db/groups'
import { findDepartment } from '../db/departments'
import { addJoin, deleteJoinsOfGroups, deleteJoinsOfUser, findJoin } from '../db/joins'
import { deleteLocationOfUser } from '../db/locations'
import { deleteSessionsOfUser, revokeSession } from '../db/sessions'
import { deletePending, findPending, findPendingByPhone, upsertPending } from '../db/pre-registrations'
import { deleteUser, findOrCreateUserByPhone, findUserByPhone, selectGroupForUser, unselectGroups, updateUserProfile } from '../db/users'
import { BusinessError } from '../envelope'
import { presentExpiredInfo, presentLoginResult, presentUserInfo } from '../presenters/account'
import { loadAccount, loadAccountSwitchingLostGroup, ownMapName } from '../services/account'
import { codeRejected, verifyCode } from '../services/codes'
import { lookUpPerson, type PersonKey } from '../services/lookup'
import { mapCaller, requireManager } from '../services/permissions'
import { purgeVipRows } from '../services/vip'
import { lockGroup, purgeGroupTeamData, purgeUserTeamRows, requireRoom, takeUpPreRegistrations } from '../services/teams'
import { purgeGroupShares } from '../services/shares'
import { purgeGroupRoutes } from '../services/routes'
import { purgeGroupSigns } from '../services/signs'
import { purgeGroupMapData } from '../services/layers'
import { deleteStoredFiles, purgeGroupNotesFieldsAndFiles } from '../services/uploads'
import { storageOf } from '../services/storage'
import { purgeGroupTasks } from '../services/tasks'
import { callDefiners, type AppDeps } from './define'
import { avatarField, channelField, codeField, idField, idOrZeroField, nicknameField, noFields, phoneField } from '../schemas/common'

/** The name a manager gives a person they pre-register. */
const memberNameField = z
  .string({ required_error: TEAM_MSG.memberNameRequired, invalid_type_error: TEAM_MSG.memberNameRequired })
  .trim()
  .min(1, TEAM_MSG.memberNameRequired)
  .refine((name) => charLength(name) <= NICKNAME_MAX, MSG.nicknameTooLong(NICKNAME_MAX))

/** One of phone (a mainland mobile number) or uid (the account number people see). */
const personKey = z
  .object({
    phone: z.string({ invalid_type_error: MSG.phoneInvalid }).trim().optional(),
    uid: z.string({ invalid_type_error: LOOKUP_MSG.uidInvalid }).trim().optional(),
  })
  .superRefine(({ phone, uid }, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, message })
    if (phone && uid) return fail(LOOKUP_MSG.keyBoth)
    if (!phone && !uid) return fail(LOOKUP_MSG.keyRequired)
    if (phone) {
      const problem = checkPhone(phone)
      if (problem) fail(problem)
    } else if (!/^\d{1,20}$/.test(uid ?? '')) fail(LOOKUP_MSG.uidInvalid)
  })
  .transform(({ phone, uid }): PersonKey => (phone ? { phone } : { uid: uid ?? '' }))

const preRegister = z.object({
  nickname: memberNameField,
  phone: phoneField,
  department_id: idOrZeroField().default(0),
})

export function userRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { publicCall, sessionCall } = callDefiners(app, deps)

  publicCall('/api/user/login', z.object({ phone: phoneField, code: codeField, channel: channelField.optional() }), async ({ phone, code, channel }) => {
    const now = clock.now()
    // A wrong code is returned, not thrown, so that its counted try is committed.
    const outcome = await inTransaction(db, async (trx) => {
      const check = await verifyCode(trx, db.dialect, phone, code, now, true)
      if (!check.ok) return check
      const user = await findOrCreateUserByPhone(trx, phone, channel ?? '', now.toISOString())
      await takeUpPreRegistrations(trx, user, now.toISOString())
      return { ok: true as const, userId: user.id, token: await startSession(trx, user.id, now) }
    })
    if (!outcome.ok) throw codeRejected(outcome.message)
    return presentLoginResult(await loadAccountSwitchingLostGroup(db, outcome.userId, now), outcome.token, now)
  })

  sessionCall('/api/user/logout', noFields, async (_input, caller) => {
    await revokeSession(db.kysely, caller.sessionId, clock.now().toISOString())
    return null
  })

  sessionCall('/api/user/getinfo', noFields, async (_input, caller) => {
    const now = clock.now()
    return presentLoginResult(await loadAccountSwitchingLostGroup(db, caller.userId, now), caller.token, now)
  })

  sessionCall('/api/user/init', z.object({ nickname: nicknameField, avatar: avatarField.optional() }), async ({ nickname, avatar }, caller) => {
    await inTransaction(db, async (trx) => {
      await updateUserProfile(trx, caller.userId, avatar === undefined ? { nickname } : { nickname, avatar }, clock.now().toISOString())
      // The own map made on the guide page before the nickname was '我的地图': it takes the name now
      // (unless the user renamed it), so that the people they invite see whose map it is.
      const own = await findGroupOwnedBy(trx, caller.userId)
      if (own && own.name === ownMapName('')) await renameGroup(trx, own.id, ownMapName(nickname))
    })
    return presentUserInfo(await loadAccount(db.kysely, caller.userId), caller.token)
  })

  sessionCall('/api/user/save', z.object({ nickname: nicknameField.optional(), avatar: avatarField.optional() }), async (patch, caller) => {
    await updateUserProfile(db.kysely, caller.userId, patch, clock.now().toISOString())
    return presentUserInfo(await loadAccount(db.kysely, caller.userId), caller.token)
  })

  publicCall('/api/user/exist/phone', z.object({ phone: phoneField }), async ({ phone }) => {
    return { exist: !!(await findUserByPhone(db.kysely, phone)) }
  })

  sessionCall('/api/user/check/expired', noFields, async (_input, caller) => {
    return presentExpiredInfo(await loadAccount(db.kysely, caller.userId), clock.now())
  })

  // Deletes the account with everything it owns (SPEC: its maps with their layers, markers, notes,
  // fields, files and members); members of its groups are left with no group. Files go once the
  // rows are gone for good.
  const storage = storageOf(app, deps)
  sessionCall('/api/user/logoff', noFields, async (_input, caller) => {
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
      await unselectGroups(trx, owned, clock.now().toISOString())
      await deleteGroups(trx, owned)
      await deleteSessionsOfUser(trx, caller.userId)
      await deleteLocationOfUser(trx, caller.userId)
      await deleteUser(trx, caller.userId)
      return keys
    })
    await deleteStoredFiles(storage, files)
    return null
  })

  // An existing user joins at once (their place counts against join_limit, which counts
  // collaborators, now); anyone else is kept pending, counted too, until their first sign-in.
  sessionCall('/api/user/pre/register', preRegister, async ({ nickname, phone, department_id }, caller) => {
    const at = clock.now().toISOString()
    return inTransaction(db, async (trx) => {
      const who = await mapCaller(trx, caller)
      requireManager(who)
      if (department_id !== 0 && !(await findDepartment(trx, who.groupId, department_id))) throw new BusinessError(ErrCode.NOT_FOUND, TEAM_MSG.departmentNotFound)
      await lockGroup(trx, who.groupId)
      const user = await findUserByPhone(trx, phone)
      if (user) {
        if (await findJoin(trx, who.groupId, user.id)) throw new BusinessError(ErrCode.CONFLICT, TEAM_MSG.alreadyMember)
        await requireRoom(trx, who.group, at)
        await addJoin(trx, { group_id: who.groupId, user_id: user.id, is_manager: false, department_id, created_at: at })
        if (!user.nickname) await updateUserProfile(trx, user.id, { nickname }, at)
        if (!user.select_groupid) await selectGroupForUser(trx, user.id, who.groupId, at)
        return { joined: true }
      }
      // A phone already pending in the group keeps its place; its name and department change.
      if (!(await findPendingByPhone(trx, who.groupId, phone))) await requireRoom(trx, who.group, at)
      await upsertPending(trx, { group_id: who.groupId, phone, nickname, department_id, created_at: at })
      return { joined: false }
    })
  })

  sessionCall('/api/user/get/overview/phoneuid', personKey, async (key, caller) => lookUpPerson(db.kysely, caller, key, clock.now()))

  sessionCall('/api/user/pre/delete', z.object({ id: idField(TEAM_MSG.pendingNotFound) }), async ({ id }, caller) => {
    const who = await mapCaller(db.kysely, caller)
    requireManager(who)
    if (!(await findPending(db.kysely, who.groupId, id))) throw new BusinessError(ErrCode.NOT_FOUND, TEAM_MSG.pendingNotFound)
    await deletePending(db.kysely, [id])
    return null
  })
}
