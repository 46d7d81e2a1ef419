/** Repository of the layers table (folders are type 0). Rows are soft-deleted. */
import type { Generated, Insertable, Selectable } from 'kysely'
import type { Executor } from './connection'
import { preparedQuery } from './prepared'
import { bumpRev } from './revisions'

export interface LayersTable {
  id: Generated<number>
  group_id: number
  /** 0 at the root. */
  parent_id: number
  name: string
  /** 0 folder, 1 point, 2 line, 3 area. */
  type: number
  sort: number
  is_default: number
  /** Live markers in the layer (0 for folders); maintained by db/markers.ts. */
  marker_count: Generated<number>
  /** Revision (types/sync.ts): 1 when created, one more on every change. */
  rev: Generated<number>
  created_by: number
  created_at: string
  updated_at: string
  deleted_at: string | null
}

declare module './schema' {
  interface Tables {
    layers: LayersTable
  }
}

export type LayerRow = Selectable<LayersTable>
export type NewLayer = Insertable<LayersTable>

/** The group's live layers in display order (sort, then id). */
export function layersOfGroup(db: Executor, groupId: number): Promise<LayerRow[]> {
  return db.selectFrom('layers').selectAll().where('group_id', '=', groupId).where('deleted_at', 'is', null).orderBy('sort').orderBy('id').execute()
}

/** A live layer of the group; undefined for another group's, a deleted or an unknown id. */
export async function findLayer(db: Executor, groupId: number, id: number): Promise<LayerRow | undefined> {
  return (await liveLayer(db, groupId, id)).rows[0]
}

const liveLayer = preparedQuery((db, groupId: number, id: number) => db.selectFrom('layers').selectAll().where('id', '=', id).where('group_id', '=', groupId).where('deleted_at', 'is', null))

/** A layer of the group whether deleted or not (restoring from the log). */
export function findLayerEvenDeleted(db: Executor, groupId: number, id: number): Promise<LayerRow | undefined> {
  return db.selectFrom('layers').selectAll().where('id', '=', id).where('group_id', '=', groupId).executeTakeFirst()
}

/** The group's deleted layers (restoring a folder finds what went with it). */
export function deletedLayersOfGroup(db: Executor, groupId: number): Promise<LayerRow[]> {
  return db.selectFrom('layers').selectAll().where('group_id', '=', groupId).where('deleted_at', 'is not', null).execute()
}

export async function insertLayer(db: Executor, layer: NewLayer): Promise<LayerRow> {
  return db.insertInto('layers').values(layer).returningAll().executeTakeFirstOrThrow()
}

export async function updateLayer(db: Executor, id: number, patch: Partial<Pick<LayerRow, 'parent_id' | 'name' | 'type' | 'sort' | 'is_default' | 'updated_at'>>): Promise<LayerRow> {
  return db
    .updateTable('layers')
    .set({ ...patch, rev: bumpRev() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The group's live default layer of this type, if any. */
export function defaultLayerOfType(db: Executor, groupId: number, type: number): Promise<LayerRow | undefined> {
  return db.selectFrom('layers').selectAll().where('group_id', '=', groupId).where('type', '=', type).where('is_default', '=', 1).where('deleted_at', 'is', null).executeTakeFirst()
}

export async function softDeleteLayers(db: Executor, ids: number[], at: string): Promise<void> {
  if (ids.length === 0) return
  await db.updateTable('layers').set({ deleted_at: at, updated_at: at, rev: bumpRev() }).where('id', 'in', ids).where('deleted_at', 'is', null).execute()
}

export async function restoreLayers(db: Executor, ids: number[], at: string): Promise<void> {
  if (ids.length === 0) return
  await db.updateTable('layers').set({ deleted_at: null, updated_at: at, rev: bumpRev() }).where('id', 'in', ids).execute()
}

export async function deleteLayersOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db.deleteFrom('layers').where('group_id', 'in', groupIds).execute()
}
