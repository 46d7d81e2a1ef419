/** Repository of the shares table: share links of a group. Deleting a share removes its row. */
import type { Generated, Insertable, Selectable } from 'kysely'
import type { Executor } from './connection'
import { paged } from './paged'

export interface SharesTable {
  seq: Generated<number>
  /** Random URL-safe public id (what links carry). */
  id: string
  group_id: number
  op_user_id: number
  name: string
  /** 1 layer, 2 marker, 3 route. */
  type: number
  show_btn: number
  need_pwd: number
  pwd_hash: string | null
  pwd_salt: string | null
  /** 'YYYY-MM-DD' (Asia/Shanghai) or null. */
  exp: string | null
  /** JSON array of ids. */
  data_ids: string
  /** JSON object or null. */
  style: string | null
  created_at: string
}

declare module './schema' {
  interface Tables {
    shares: SharesTable
  }
}

export type ShareRow = Selectable<SharesTable>
export type NewShare = Omit<Insertable<SharesTable>, 'seq'>

export async function insertShare(db: Executor, share: NewShare): Promise<ShareRow> {
  return db.insertInto('shares').values(share).returningAll().executeTakeFirstOrThrow()
}

/** A share by its public id, whatever its group. */
export function findShare(db: Executor, id: string): Promise<ShareRow | undefined> {
  return db.selectFrom('shares').selectAll().where('id', '=', id).executeTakeFirst()
}

export interface ShareFilter {
  op_user_id?: number
  type?: number
}

function ofGroup(db: Executor, groupId: number, filter: ShareFilter) {
  let query = db.selectFrom('shares').where('group_id', '=', groupId)
  if (filter.op_user_id !== undefined) query = query.where('op_user_id', '=', filter.op_user_id)
  if (filter.type !== undefined) query = query.where('type', '=', filter.type)
  return query
}

/** One page of the group's shares, newest first, and how many match in all. */
export async function sharesOfGroup(db: Executor, groupId: number, filter: ShareFilter, page: { pageindex: number; pagesize: number }): Promise<{ rows: ShareRow[]; total: number }> {
  return paged(ofGroup(db, groupId, filter), (q) => q.selectAll().orderBy('seq', 'desc'), page)
}

/** The group's route shares (type 3), to find those of one route (their data_ids hold route ids). */
export async function routeSharesOfGroup(db: Executor, groupId: number): Promise<ShareRow[]> {
  return db.selectFrom('shares').selectAll().where('group_id', '=', groupId).where('type', '=', 3).execute()
}

export async function deleteShare(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('shares').where('id', '=', id).execute()
}

/** The ids of these groups' shares (account deletion). */
export async function shareIdsOfGroups(db: Executor, groupIds: number[]): Promise<string[]> {
  if (groupIds.length === 0) return []
  return (await db.selectFrom('shares').select('id').where('group_id', 'in', groupIds).execute()).map((r) => r.id)
}

export async function deleteSharesOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db.deleteFrom('shares').where('group_id', 'in', groupIds).execute()
}
