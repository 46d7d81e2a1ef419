/** Repository of the pre_registrations table: people added by phone who have not signed in yet. */
import type { Generated, Selectable } from 'kysely'
import type { Executor } from './connection'

export interface PreRegistrationsTable {
  id: Generated<number>
  group_id: number
  phone: string
  nickname: string
  /** 0 when in no department. */
  department_id: number
  created_at: string
  /** The user who invited the phone (0 for rows from before invitations named them). */
  invited_by: Generated<number>
}

declare module './schema' {
  interface Tables {
    pre_registrations: PreRegistrationsTable
  }
}

export type PreRegistrationRow = Selectable<PreRegistrationsTable>

export function pendingOfGroup(db: Executor, groupId: number): Promise<PreRegistrationRow[]> {
  return db.selectFrom('pre_registrations').selectAll().where('group_id', '=', groupId).orderBy('id').execute()
}

export async function countPending(db: Executor, groupId: number): Promise<number> {
  const row = await db
    .selectFrom('pre_registrations')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('group_id', '=', groupId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export function findPending(db: Executor, groupId: number, id: number): Promise<PreRegistrationRow | undefined> {
  return db.selectFrom('pre_registrations').selectAll().where('id', '=', id).where('group_id', '=', groupId).executeTakeFirst()
}

export function findPendingByPhone(db: Executor, groupId: number, phone: string): Promise<PreRegistrationRow | undefined> {
  return db.selectFrom('pre_registrations').selectAll().where('group_id', '=', groupId).where('phone', '=', phone).executeTakeFirst()
}

/** Every group's pre-registration of this phone, oldest first. */
export function pendingOfPhone(db: Executor, phone: string): Promise<PreRegistrationRow[]> {
  return db.selectFrom('pre_registrations').selectAll().where('phone', '=', phone).orderBy('id').execute()
}

/** Adds the pre-registration, or updates the nickname and department of the group's one for this phone. */
export async function upsertPending(db: Executor, row: { group_id: number; phone: string; nickname: string; department_id: number; created_at: string; invited_by: number }): Promise<void> {
  await db
    .insertInto('pre_registrations')
    .values(row)
    .onConflict((oc) => oc.columns(['group_id', 'phone']).doUpdateSet({ nickname: row.nickname, department_id: row.department_id, invited_by: row.invited_by }))
    .execute()
}

/** The invitations of a phone as its owner sees them: the team's name and who invited them, oldest first (of live groups only). */
export function invitationsOfPhone(db: Executor, phone: string) {
  return db
    .selectFrom('pre_registrations as p')
    .innerJoin('groups as g', 'g.id', 'p.group_id')
    .leftJoin('users as u', 'u.id', 'p.invited_by')
    .where('p.phone', '=', phone)
    .select(['p.id', 'p.group_id', 'g.name as group_name', 'u.nickname as inviter_nickname', 'p.created_at'])
    .orderBy('p.id')
    .execute()
}

/** The phone's pre-registration with this id, or undefined (another phone's is not theirs to answer). */
export function findPendingOfPhone(db: Executor, phone: string, id: number): Promise<PreRegistrationRow | undefined> {
  return db.selectFrom('pre_registrations').selectAll().where('id', '=', id).where('phone', '=', phone).executeTakeFirst()
}

export async function deletePending(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return
  await db
    .deleteFrom('pre_registrations')
    .where('id', 'in', [...ids])
    .execute()
}

/** Pending people of deleted departments stay pending, in no department. */
export async function clearPendingDepartments(db: Executor, groupId: number, departmentIds: readonly number[]): Promise<void> {
  if (departmentIds.length === 0) return
  await db
    .updateTable('pre_registrations')
    .set({ department_id: 0 })
    .where('group_id', '=', groupId)
    .where('department_id', 'in', [...departmentIds])
    .execute()
}

export async function deletePendingOfGroups(db: Executor, groupIds: readonly number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db
    .deleteFrom('pre_registrations')
    .where('group_id', 'in', [...groupIds])
    .execute()
}
