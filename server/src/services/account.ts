/**
 * Loads what the account presenters need: the user, the selected group, its owner, the membership
 * and the member's standing (TeamContext: modules, department manager). Also the caller's own map:
 * created with a 7-day trial on first need (group/create, leaving or losing a shared map).
 */
import { newTrial } from '../../../src/domain/tiers'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { findEnterprise } from '../db/enterprises'
import { findGroupById, findGroupOwnedBy, insertOwnedGroup } from '../db/groups'
import { addJoin, findJoin } from '../db/joins'
import type { GroupRow, JoinRow, UserRow } from '../db/schema'
import { findUserById, selectGroupForUser } from '../db/users'
import { UnauthorizedError } from '../envelope'
import { loadTeamContext, type TeamContext } from './permissions'

export interface SelectedGroup {
  group: GroupRow
  owner: UserRow
  join: JoinRow
  team: TeamContext
}

export interface Account {
  user: UserRow
  /** Null when no group is selected or the user is no longer a member of it. */
  selected: SelectedGroup | null
  /** The user has filled in the questionnaire (SPEC 3 verifyed). */
  verified: boolean
}

export async function loadAccount(db: Executor, userId: number): Promise<Account> {
  const user = await findUserById(db, userId)
  if (!user) throw new UnauthorizedError()
  const [selected, enterprise] = await Promise.all([loadSelectedGroup(db, user), findEnterprise(db, user.id)])
  return { user, selected, verified: !!enterprise }
}

async function loadSelectedGroup(db: Executor, user: UserRow): Promise<SelectedGroup | null> {
  if (!user.select_groupid) return null
  const group = await findGroupById(db, user.select_groupid)
  if (!group) return null
  const [join, owner] = await Promise.all([findJoin(db, group.id, user.id), findUserById(db, group.owner_id)])
  return join && owner ? { group, owner, join, team: await loadTeamContext(db, group, join) } : null
}

/**
 * The user's own group, created with a 7-day trial when they have none, with the user as its
 * (manager) member, selected. What /api/group/create does, and where a member who leaves a shared
 * map (or was removed from it) lands.
 */
export async function selectOwnGroup(trx: Executor, userId: number, now: Date, name?: string): Promise<GroupRow> {
  const iso = now.toISOString()
  const user = await findUserById(trx, userId)
  if (!user) throw new UnauthorizedError()
  let group = await findGroupOwnedBy(trx, user.id)
  if (!group) {
    const trial = newTrial(now)
    group = await insertOwnedGroup(trx, {
      name: name ?? ownMapName(user.nickname),
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
  return group
}

/**
 * The account for getinfo and login: a user whose selected group they no longer belong to (they
 * quit or were removed) is switched to their own map first. A user who never selected a group
 * (select_groupid 0) keeps none and goes through the guide.
 */
export async function loadAccountSwitchingLostGroup(db: Database, userId: number, now: Date): Promise<Account> {
  const account = await loadAccount(db.kysely, userId)
  if (account.selected || !account.user.select_groupid) return account
  await inTransaction(db, (trx) => selectOwnGroup(trx, userId, now))
  return loadAccount(db.kysely, userId)
}

/** The name of a user's own map: '{nickname}的地图', or '我的地图' before they have a nickname. */
export function ownMapName(nickname: string | null | undefined): string {
  return `${nickname || '我'}的地图`
}
