/** Repository of the icons table: a group's custom point icons. */
import type { Generated, Selectable } from 'kysely'
import type { Executor } from './connection'

export interface IconsTable {
  id: Generated<number>
  group_id: number
  name: string
  url: string
  created_by: number
  created_at: string
}

declare module './schema' {
  interface Tables {
    icons: IconsTable
  }
}

export type IconRow = Selectable<IconsTable>

export function iconsOfGroup(db: Executor, groupId: number): Promise<IconRow[]> {
  return db.selectFrom('icons').selectAll().where('group_id', '=', groupId).orderBy('id').execute()
}

export function findIcon(db: Executor, groupId: number, id: number): Promise<IconRow | undefined> {
  return db.selectFrom('icons').selectAll().where('group_id', '=', groupId).where('id', '=', id).executeTakeFirst()
}

export function insertIcon(db: Executor, icon: Omit<IconRow, 'id'>): Promise<IconRow> {
  return db.insertInto('icons').values(icon).returningAll().executeTakeFirstOrThrow()
}

export function updateIcon(db: Executor, id: number, patch: { name: string; url: string }): Promise<IconRow> {
  return db.updateTable('icons').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

export async function deleteIcon(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('icons').where('id', '=', id).execute()
}

export async function deleteIconsOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db.deleteFrom('icons').where('group_id', 'in', groupIds).execute()
}
