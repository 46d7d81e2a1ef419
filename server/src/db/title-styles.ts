/** Repository of the title_styles table: how marker titles look, per layer or as the group's default. */
import { PostgresAdapter, type Generated, type Selectable } from 'kysely'
import type { Executor } from './connection'
import { bumpRev } from './revisions'

export interface TitleStylesTable {
  id: Generated<number>
  group_id: number
  /** null is the group's default style. */
  layer_id: number | null
  font_size: number
  color: string
  bg_color: string
  padding: number
  border_weight: number
  border_color: string
  /** Revision (types/sync.ts): 1 when created, one more on every change. */
  rev: Generated<number>
}

declare module './schema' {
  interface Tables {
    title_styles: TitleStylesTable
  }
}

export type TitleStyleRow = Selectable<TitleStylesTable>
export type TitleStyleValues = Omit<TitleStyleRow, 'id' | 'group_id' | 'layer_id' | 'rev'>

/** The group's styles: the default first, then by layer. */
export function stylesOfGroup(db: Executor, groupId: number): Promise<TitleStyleRow[]> {
  return db.selectFrom('title_styles').selectAll().where('group_id', '=', groupId).orderBy('layer_id').orderBy('id').execute()
}

export function stylesOfLayers(db: Executor, groupId: number, layerIds: number[]): Promise<TitleStyleRow[]> {
  if (layerIds.length === 0) return Promise.resolve([])
  return db.selectFrom('title_styles').selectAll().where('group_id', '=', groupId).where('layer_id', 'in', layerIds).orderBy('layer_id').execute()
}

export function findStyleOf(db: Executor, groupId: number, layerId: number | null, opts: { lock?: boolean } = {}): Promise<TitleStyleRow | undefined> {
  let query = db.selectFrom('title_styles').selectAll().where('group_id', '=', groupId)
  query = layerId === null ? query.where('layer_id', 'is', null) : query.where('layer_id', '=', layerId)
  // A save that checks the rev holds the row until it commits (PostgreSQL; SQLite has one writer).
  if (opts.lock && db.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate()
  return query.executeTakeFirst()
}

/** Creates or replaces the style of a layer (or the default). */
export async function saveStyle(db: Executor, groupId: number, layerId: number | null, values: TitleStyleValues): Promise<TitleStyleRow> {
  const existing = await findStyleOf(db, groupId, layerId)
  if (existing)
    return db
      .updateTable('title_styles')
      .set({ ...values, rev: bumpRev() })
      .where('id', '=', existing.id)
      .returningAll()
      .executeTakeFirstOrThrow()
  return db
    .insertInto('title_styles')
    .values({ group_id: groupId, layer_id: layerId, ...values })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function deleteStylesOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db.deleteFrom('title_styles').where('group_id', 'in', groupIds).execute()
}
