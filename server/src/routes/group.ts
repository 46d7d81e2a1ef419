/** /api/group/*: the caller's own group (a 7-day trial), joining, the selected group's info and name. */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { ErrCode } from '../../../types/api'
import { MSG } from '../../../src/domain/messages'
import { newTrial } from '../../../src/domain/tiers'
import { inTransaction } from '../db/connection'
import { findGroupOwnedBy, insertOwnedGroup, renameGroup } from '../db/groups'
import { addJoin, countMembers } from '../db/joins'
import { findUserById, selectGroupForUser } from '../db/users'
import { BusinessError, UnauthorizedError } from '../envelope'
import { presentGroupInfo, presentLoginResult } from '../presenters/account'
import { loadAccount, requireSelectedGroup } from '../services/account'
import { callDefiners, type AppDeps } from './define'
import { groupNameField, inviteCodeField, noFields } from './fields'

export function groupRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, clock } = deps
  const { sessionCall } = callDefiners(app, deps)

  // Idempotent: a caller who already owns a group gets it selected instead of a second one.
  sessionCall('/api/group/create', z.object({ name: groupNameField.optional() }), async ({ name }, caller) => {
    const now = clock.now()
    const iso = now.toISOString()
    await inTransaction(db, async (trx) => {
      const user = await findUserById(trx, caller.userId)
      if (!user) throw new UnauthorizedError()
      let group = await findGroupOwnedBy(trx, user.id)
      if (!group) {
        const trial = newTrial(now)
        group = await insertOwnedGroup(trx, {
          name: name ?? `${user.nickname || '我'}的地图`,
          owner_id: user.id,
          level: trial.level,
          vip_exp: trial.vip_exp.toISOString(),
          marker_limit: trial.marker_limit,
          join_limit: trial.join_limit,
          file_size_limit: trial.file_size_limit,
          created_at: iso,
        })
      }
      await addJoin(trx, { group_id: group.id, user_id: user.id, is_manager: true, created_at: iso })
      await selectGroupForUser(trx, user.id, group.id, iso)
    })
    return presentLoginResult(await loadAccount(db.kysely, caller.userId), caller.token, now)
  })

  // Invite codes arrive with the teams issue; until then no code can match.
  sessionCall('/api/group/join', z.object({ code: inviteCodeField }), async () => {
    throw new BusinessError(ErrCode.NOT_FOUND, MSG.inviteCodeInvalid)
  })

  sessionCall('/api/group/info', noFields, async (_input, caller) => {
    const { group } = await requireSelectedGroup(db.kysely, caller.userId)
    return presentGroupInfo(group, await countMembers(db.kysely, group.id), caller.userId)
  })

  sessionCall('/api/group/save/name', z.object({ name: groupNameField }), async ({ name }, caller) => {
    const { group } = await requireSelectedGroup(db.kysely, caller.userId)
    if (group.owner_id !== caller.userId) throw new BusinessError(ErrCode.FORBIDDEN, MSG.forbidden)
    await renameGroup(db.kysely, group.id, name)
    return presentGroupInfo({ ...group, name }, await countMembers(db.kysely, group.id), caller.userId)
  })
}
