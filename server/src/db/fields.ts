/** Repository of the layer_fields table: the custom fields of a layer. Rows are soft-deleted. */
import type { Generated, Selectable } from 'kysely'
import type { FieldKind } from '../../../types/mapdata'
import type { Executor } from './connection'
import { bumpRev } from './revisions'

export interface LayerFieldsTable {
  id: Generated<number>
  group_id: number
  layer_id: number
  name: string
  kind: string
  /** JSON array of choices. */
  options: string
  required: number
  /** Revision (types/sync.ts): 1 when created, one more on every change. */
  rev: Generated<number>
  sort: number
  created_at: string
  deleted_at: string | null
}

declare module './schema' {
  interface Tables {
    layer_fields: LayerFieldsTable
  }
}

export type FieldRow = Selectable<LayerFieldsTable>

/** The live fields of a layer in their order. */
export function fieldRowsOfLayer(db: Executor, groupId: number, layerId: number): Promise<FieldRow[]> {
  return db.selectFrom('layer_fields').selectAll().where('group_id', '=', groupId).where('layer_id', '=', layerId).where('deleted_at', 'is', null).orderBy('sort').orderBy('id').execute()
}

export function findField(db: Executor, groupId: number, id: number): Promise<FieldRow | undefined> {
  return db.selectFrom('layer_fields').selectAll().where('group_id', '=', groupId).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst()
}

export function findFieldEvenDeleted(db: Executor, groupId: number, id: number): Promise<FieldRow | undefined> {
  return db.selectFrom('layer_fields').selectAll().where('group_id', '=', groupId).where('id', '=', id).executeTakeFirst()
}

/** A live field of the layer with this name (other than `exceptId`). */
export function findFieldByName(db: Executor, layerId: number, name: string, exceptId = 0): Promise<FieldRow | undefined> {
  return db.selectFrom('layer_fields').selectAll().where('layer_id', '=', layerId).where('name', '=', name).where('id', '!=', exceptId).where('deleted_at', 'is', null).executeTakeFirst()
}

export interface FieldValues {
  name: string
  kind: FieldKind
  options: string[]
  required: boolean
}

export function insertField(db: Executor, field: FieldValues & { group_id: number; layer_id: number; sort: number; at: string }): Promise<FieldRow> {
  return db
    .insertInto('layer_fields')
    .values({
      group_id: field.group_id,
      layer_id: field.layer_id,
      name: field.name,
      kind: field.kind,
      options: JSON.stringify(field.options),
      required: field.required ? 1 : 0,
      sort: field.sort,
      created_at: field.at,
      deleted_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function updateField(db: Executor, id: number, field: FieldValues): Promise<FieldRow> {
  return db
    .updateTable('layer_fields')
    .set({ name: field.name, kind: field.kind, options: JSON.stringify(field.options), required: field.required ? 1 : 0, rev: bumpRev() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The sort value after the layer's last field (deleted ones included, so a restore keeps its place). */
export async function nextFieldSort(db: Executor, layerId: number): Promise<number> {
  const row = await db
    .selectFrom('layer_fields')
    .select((eb) => eb.fn.max('sort').as('top'))
    .where('layer_id', '=', layerId)
    .executeTakeFirst()
  return row?.top === null || row?.top === undefined ? 0 : Number(row.top) + 1
}

export async function setFieldSort(db: Executor, id: number, sort: number): Promise<void> {
  await db.updateTable('layer_fields').set({ sort, rev: bumpRev() }).where('id', '=', id).where('sort', '<>', sort).execute()
}

export async function softDeleteField(db: Executor, id: number, at: string): Promise<void> {
  await db.updateTable('layer_fields').set({ deleted_at: at, rev: bumpRev() }).where('id', '=', id).where('deleted_at', 'is', null).execute()
}

export function restoreField(db: Executor, id: number): Promise<FieldRow> {
  return db.updateTable('layer_fields').set({ deleted_at: null, rev: bumpRev() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

export async function deleteFieldsOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db.deleteFrom('layer_fields').where('group_id', 'in', groupIds).execute()
}
