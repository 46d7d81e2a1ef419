/** /api/user/*: sign-in, the session's account, profile, account deletion. */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { startSession } from '../auth'
import { inTransaction } from '../db/connection'
import { deleteGroups, groupIdsOwnedBy } from '../db/groups'
import { deleteJoinsOfGroups, deleteJoinsOfUser } from '../db/joins'
import { deleteLocationOfUser } from '../db/locations'
import { deleteSessionsOfUser, revokeSession } from '../db/sessions'
import { deleteUser, findOrCreateUserByPhone, findUserByPhone, unselectGroups, updateUserProfile } from '../db/users'
import { presentExpiredInfo, presentLoginResult, presentUserInfo } from '../presenters/account'
import { loadAccount } from '../services/account'
import { codeRejected, verifyCode } from '../services/codes'
import { callDefiners, type AppDeps } from './define'
import { avatarField, channelField, codeField, nicknameField, noFields, phoneField } from './fields'

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
      return { ok: true as const, userId: user.id, token: await startSession(trx, user.id, now) }
    })
    if (!outcome.ok) throw codeRejected(outcome.message)
    return presentLoginResult(await loadAccount(db.kysely, outcome.userId), outcome.token, now)
  })

  sessionCall('/api/user/logout', noFields, async (_input, caller) => {
    await revokeSession(db.kysely, caller.sessionId, clock.now().toISOString())
    return null
  })

  sessionCall('/api/user/getinfo', noFields, async (_input, caller) => {
    return presentLoginResult(await loadAccount(db.kysely, caller.userId), caller.token, clock.now())
  })

  sessionCall('/api/user/init', z.object({ nickname: nicknameField }), async ({ nickname }, caller) => {
    await updateUserProfile(db.kysely, caller.userId, { nickname }, clock.now().toISOString())
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

  // Deletes the account with everything it owns; members of its groups are left with no group.
  sessionCall('/api/user/logoff', noFields, async (_input, caller) => {
    await inTransaction(db, async (trx) => {
      const owned = await groupIdsOwnedBy(trx, caller.userId)
      await deleteJoinsOfGroups(trx, owned)
      await deleteJoinsOfUser(trx, caller.userId)
      await unselectGroups(trx, owned, clock.now().toISOString())
      await deleteGroups(trx, owned)
      await deleteSessionsOfUser(trx, caller.userId)
      await deleteLocationOfUser(trx, caller.userId)
      await deleteUser(trx, caller.userId)
    })
    return null
  })
}
