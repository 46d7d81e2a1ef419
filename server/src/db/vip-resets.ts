/** Repository of the vip_resets table: resets to free and the markers they hid. */
import type { Generated, Selectable } from 'kysely'
import type { Executor } from './connection'

export interface VipResetsTable {
  id: Generated<number>
  group_id: number
  user_id: number
  remarks: string
  level_before: number
  expired_at: string
  /** The deleted_at the hidden markers carry. */
  hidden_at: string
  hidden_count: number
  removed_members: number
  restored_at: string | null
  restored_count: number
}

declare module './schema' {
  interface Tables {
    vip_resets: VipResetsTable
  }
}

export type VipResetRow = Selectable<VipResetsTable>

export function insertReset(db: Executor, reset: Omit<VipResetRow, 'id' | 'restored_at' | 'restored_count'>): Promise<VipResetRow> {
  return db
    .insertInto('vip_resets')
    .values({ ...reset, restored_at: null, restored_count: 0 })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The group's resets whose hidden markers have not come back, newest first. */
export function unrestoredResets(db: Executor, groupId: number): Promise<VipResetRow[]> {
  return db.selectFrom('vip_resets').selectAll().where('group_id', '=', groupId).where('restored_at', 'is', null).orderBy('id', 'desc').execute()
}

export async function markRestored(db: Executor, id: number, at: string, count: number): Promise<void> {
  await db.updateTable('vip_resets').set({ restored_at: at, restored_count: count }).where('id', '=', id).execute()
}

export async function deleteResetsOfGroups(db: Executor, groupIds: readonly number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db
    .deleteFrom('vip_resets')
    .where('group_id', 'in', [...groupIds])
    .execute()
}
