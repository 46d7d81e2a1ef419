/** Loads what the account presenters need: the user, the selected group, its owner, the membership. */
import { ErrCode } from '../../../types/api'
import { MSG } from '../../../src/domain/messages'
import type { Executor } from '../db/connection'
import { findGroupById } from '../db/groups'
import { findJoin } from '../db/joins'
import type { GroupRow, JoinRow, UserRow } from '../db/schema'
import { findUserById } from '../db/users'
import { BusinessError, UnauthorizedError } from '../envelope'

export interface SelectedGroup {
  group: GroupRow
  owner: UserRow
  join: JoinRow
}

export interface Account {
  user: UserRow
  /** Null when no group is selected or the user is no longer a member of it. */
  selected: SelectedGroup | null
}

export async function loadAccount(db: Executor, userId: number): Promise<Account> {
  const user = await findUserById(db, userId)
  if (!user) throw new UnauthorizedError()
  return { user, selected: await loadSelectedGroup(db, user) }
}

async function loadSelectedGroup(db: Executor, user: UserRow): Promise<SelectedGroup | null> {
  if (!user.select_groupid) return null
  const group = await findGroupById(db, user.select_groupid)
  if (!group) return null
  const [join, owner] = await Promise.all([findJoin(db, group.id, user.id), findUserById(db, group.owner_id)])
  return join && owner ? { group, owner, join } : null
}

/** The caller's selected group; a clear error when there is none or they are not a member. */
export async function requireSelectedGroup(db: Executor, userId: number): Promise<{ user: UserRow; group: GroupRow }> {
  const user = await findUserById(db, userId)
  if (!user) throw new UnauthorizedError()
  const group = user.select_groupid ? await findGroupById(db, user.select_groupid) : undefined
  if (!group) throw new BusinessError(ErrCode.NOT_FOUND, MSG.noGroup)
  if (!(await findJoin(db, group.id, user.id))) throw new BusinessError(ErrCode.FORBIDDEN, MSG.forbidden)
  return { user, group }
}
