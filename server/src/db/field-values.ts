/**
 * Repository of deleted_field_values (migration 0021): a deleted field's values, moved out of the
 * markers of its layer (deleted markers included, which a restore may bring back) in the delete's
 * transaction, and moved back when the field is restored. The markers' search text is rewritten
 * with them, so that a keyword matches only live fields' values; the operation log's entries of
 * those markers lose the values for good.
 */
import type { FieldValue } from '../../../types/mapdata'
import type { Executor } from './connection'
import { searchTextOf } from './markers'

export interface DeletedFieldValuesTable {
  group_id: number
  field_id: number
  marker_id: number
  value: string
}

declare module './schema' {
  interface Tables {
    deleted_field_values: DeletedFieldValuesTable
  }
}

/** Rows written per statement (SQLite's bound-parameter limit is far above 3 x this). */
const BATCH = 300

/** Moves the field's values out of the layer's markers; how many markers held one. */
export async function stashFieldValues(db: Executor, groupId: number, layerId: number, fieldId: number): Promise<number> {
  const key = String(fieldId)
  // Keys are field ids in quotes: a marker without `"<id>"` anywhere in its fields holds no value of it.
  const rows = await db.selectFrom('markers').select(['id', 'name', 'fields']).where('group_id', '=', groupId).where('layer_id', '=', layerId).where('fields', 'like', `%"${key}"%`).execute()
  const stashed: DeletedFieldValuesTable[] = []
  for (const row of rows) {
    const fields = JSON.parse(row.fields) as Record<string, FieldValue>
    if (!Object.prototype.hasOwnProperty.call(fields, key)) continue
    stashed.push({ group_id: groupId, field_id: fieldId, marker_id: row.id, value: JSON.stringify(fields[key]) })
    delete fields[key]
    await db
      .updateTable('markers')
      .set({ fields: JSON.stringify(fields), search_text: searchTextOf(row.name, fields) })
      .where('id', '=', row.id)
      .execute()
  }
  await stripFromMarkerOps(
    db,
    groupId,
    rows.map((r) => r.id),
    key,
  )
  for (let at = 0; at < stashed.length; at += BATCH) {
    await db
      .insertInto('deleted_field_values')
      .values(stashed.slice(at, at + BATCH))
      .onConflict((oc) => oc.columns(['field_id', 'marker_id']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
      .execute()
  }
  return stashed.length
}

/**
 * The operation log shows markers as they were (before/after): the field's values go from those
 * entries of these markers too, so that the log does not keep showing what the delete took back.
 */
async function stripFromMarkerOps(db: Executor, groupId: number, markerIds: number[], key: string): Promise<void> {
  const strip = (text: string | null): string | null => {
    if (text === null) return null
    const entity = JSON.parse(text) as { fields?: Record<string, unknown> } | null
    if (!entity?.fields || !Object.prototype.hasOwnProperty.call(entity.fields, key)) return text
    delete entity.fields[key]
    return JSON.stringify(entity)
  }
  for (let at = 0; at < markerIds.length; at += BATCH) {
    const ops = await db
      .selectFrom('oplog')
      .select(['id', 'before', 'after'])
      .where('group_id', '=', groupId)
      .where('entity', '=', 'marker')
      .where('entity_id', 'in', markerIds.slice(at, at + BATCH))
      .where((eb) => eb.or([eb('before', 'like', `%"${key}"%`), eb('after', 'like', `%"${key}"%`)]))
      .execute()
    for (const op of ops) {
      const [before, after] = [strip(op.before), strip(op.after)]
      if (before !== op.before || after !== op.after) await db.updateTable('oplog').set({ before, after }).where('id', '=', op.id).execute()
    }
  }
}

/** Puts the field's values back into its markers (a value written since the delete wins) and forgets them. */
export async function unstashFieldValues(db: Executor, groupId: number, fieldId: number): Promise<void> {
  const key = String(fieldId)
  const stashed = await db.selectFrom('deleted_field_values').select(['marker_id', 'value']).where('field_id', '=', fieldId).execute()
  for (let at = 0; at < stashed.length; at += BATCH) {
    const batch = stashed.slice(at, at + BATCH)
    const markers = await db
      .selectFrom('markers')
      .select(['id', 'name', 'fields'])
      .where('group_id', '=', groupId)
      .where(
        'id',
        'in',
        batch.map((s) => s.marker_id),
      )
      .execute()
    const values = new Map(batch.map((s) => [s.marker_id, JSON.parse(s.value) as FieldValue]))
    for (const row of markers) {
      const fields = JSON.parse(row.fields) as Record<string, FieldValue>
      if (Object.prototype.hasOwnProperty.call(fields, key)) continue
      fields[key] = values.get(row.id) as FieldValue
      await db
        .updateTable('markers')
        .set({ fields: JSON.stringify(fields), search_text: searchTextOf(row.name, fields) })
        .where('id', '=', row.id)
        .execute()
    }
  }
  await db.deleteFrom('deleted_field_values').where('field_id', '=', fieldId).execute()
}

/** Forgets the stashed values of these groups for good (the groups' markers are purged with an account). */
export async function dropStashedValuesOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  await db.deleteFrom('deleted_field_values').where('group_id', 'in', groupIds).execute()
}
