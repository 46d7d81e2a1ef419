/** Repository of the groups table. */
import { NoResultError, sql } from 'kysely'
import type { DialectName, Executor } from './connection'
import type { GroupRow, NewGroup } from './schema'
import { preparedQuery } from './prepared'

export function findGroupById(db: Executor, id: number): Promise<GroupRow | undefined> {
  return db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findGroupOwnedBy(db: Executor, ownerId: number): Promise<GroupRow | undefined> {
  return db.selectFrom('groups').selectAll().where('owner_id', '=', ownerId).executeTakeFirst()
}

/** Inserts the owner's group unless they already own one; returns the owner's group either way. */
export async function insertOwnedGroup(db: Executor, group: NewGroup): Promise<GroupRow> {
  await db
    .insertInto('groups')
    .values(group)
    .onConflict((oc) => oc.column('owner_id').doNothing())
    .execute()
  const owned = await findGroupOwnedBy(db, group.owner_id)
  if (!owned) throw new Error(`group of owner ${group.owner_id} vanished after insert`)
  return owned
}

export async function renameGroup(db: Executor, id: number, name: string): Promise<void> {
  await db.updateTable('groups').set({ name }).where('id', '=', id).execute()
}

export async function deleteGroups(db: Executor, ids: number[]): Promise<void> {
  if (ids.length === 0) return
  await db.deleteFrom('groups').where('id', 'in', ids).execute()
}

export async function groupIdsOwnedBy(db: Executor, ownerId: number): Promise<number[]> {
  const rows = await db.selectFrom('groups').select('id').where('owner_id', '=', ownerId).execute()
  return rows.map((r) => r.id)
}

export function findGroupByInviteCode(db: Executor, code: string): Promise<GroupRow | undefined> {
  return db.selectFrom('groups').selectAll().where('invite_code', '=', code).executeTakeFirst()
}

export async function setInviteCode(db: Executor, id: number, code: string): Promise<void> {
  await db.updateTable('groups').set({ invite_code: code }).where('id', '=', id).execute()
}

/** The groups the user is a member of, oldest membership first, each with its member count. */
export async function groupsOfMember(db: Executor, userId: number): Promise<(GroupRow & { member_count: number })[]> {
  const rows = await db
    .selectFrom('joins as mine')
    .innerJoin('groups', 'groups.id', 'mine.group_id')
    .selectAll('groups')
    .select((eb) =>
      eb
        .selectFrom('joins as all_joins')
        .select((e) => e.fn.countAll().as('n'))
        .whereRef('all_joins.group_id', '=', 'groups.id')
        .as('member_count'),
    )
    .where('mine.user_id', '=', userId)
    .orderBy('mine.id')
    .execute()
  return rows.map((r) => ({ ...r, member_count: Number(r.member_count) }))
}

/** Sets the group's membership: level, expiry and the three limits (payments, the questionnaire, resets). */
export async function setMembership(db: Executor, id: number, m: Pick<GroupRow, 'level' | 'vip_exp' | 'marker_limit' | 'join_limit' | 'file_size_limit'>): Promise<void> {
  await db.updateTable('groups').set({ level: m.level, vip_exp: m.vip_exp, marker_limit: m.marker_limit, join_limit: m.join_limit, file_size_limit: m.file_size_limit }).where('id', '=', id).execute()
}

/** The columns of the group's membership limits; with the postgres dialect the row stays locked until the transaction ends (SQLite runs one writer at a time). Throws when the group is missing. */
export async function findGroupLimits(db: Executor, id: number, lockOn?: DialectName): Promise<Pick<GroupRow, 'level' | 'vip_exp' | 'marker_limit' | 'join_limit' | 'file_size_limit'>> {
  const row = (await (lockOn === 'postgres' ? groupLimitsLocked : groupLimits)(db, id)).rows[0]
  if (!row) throw new NoResultError(groupLimitsQuery(db, id).toOperationNode())
  return row
}

const groupLimitsQuery = (db: Executor, id: number) => db.selectFrom('groups').select(['level', 'vip_exp', 'marker_limit', 'join_limit', 'file_size_limit']).where('id', '=', id)
const groupLimits = preparedQuery(groupLimitsQuery)
const groupLimitsLocked = preparedQuery((db, id: number) => groupLimitsQuery(db, id).forUpdate())

/** The group row, locked until the transaction ends on PostgreSQL (SQLite runs one writer at a time). */
export function findGroupForUpdate(db: Executor, id: number, dialect: 'sqlite' | 'postgres'): Promise<GroupRow | undefined> {
  let query = db.selectFrom('groups').selectAll().where('id', '=', id)
  if (dialect === 'postgres') query = query.forUpdate()
  return query.executeTakeFirst()
}

/**
 * Serialises changes to the group's membership: a no-op write on the group row holds its row lock
 * (PostgreSQL) or the write lock (SQLite) until the transaction ends, so that two joins cannot both
 * see the last free place.
 */
export async function lockGroup(trx: Executor, groupId: number): Promise<void> {
  await trx
    .updateTable('groups')
    .set({ join_limit: sql<number>`join_limit` })
    .where('id', '=', groupId)
    .execute()
}
