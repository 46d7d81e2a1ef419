/**
 * The custom fields of a layer (text, number, date, choice, phone, photo).
 * Reading needs sight of the layer; changing needs layer_field on it. Names are unique among a
 * layer's live fields. Create, update and delete are logged (restorable); a reorder is not.
 * Deleting a field moves the markers' values out of them in the same transaction (db/field-values.ts),
 * so that no answer, share or keyword search shows or matches them from then on; a restore brings
 * them back.
 */
import { ErrCode } from '../../../types/api'
import type { FieldInput, LayerField } from '../../../types/mapdata'
import { MAP_IO_MSG, MAP_MSG, MAP_UI_MSG } from '../../../src/domain/messages'
import { SYNC_CONFLICT_MSG } from '../../../src/domain/syncMessages'
import { PERM } from '../../../src/domain/permissions'
import type { Caller } from '../auth'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { fieldRowsOfLayer, findField, findFieldByName, insertField, nextFieldSort, setFieldSort, softDeleteField, updateField, type FieldRow } from '../db/fields'
import { stashFieldValues } from '../db/field-values'
import { recordOp } from '../db/oplog'
import { BusinessError } from '../envelope'
import { toLayerField } from '../presenters/map-extras'
import { FIELD_OPTIONS_MAX } from '../../../src/domain/fields'
import { isFolder } from '../../../src/domain/markerKinds'
import { requireRev } from './revisions'
import { logChanges, type ChangeEntry } from './sync'
import { layerAccess, mapCaller, notFound, requireOnLayer, type MapCaller } from './permissions'

export async function fieldsOfLayer(db: Database, caller: Caller, layer_id: number): Promise<LayerField[]> {
  const { caller: who } = await layerAccess(db.kysely, caller, layer_id)
  return (await fieldRowsOfLayer(db.kysely, who.groupId, layer_id)).map(toLayerField)
}

const FIELD_CONFLICT = { changed: SYNC_CONFLICT_MSG.fieldChanged, deleted: SYNC_CONFLICT_MSG.fieldDeleted }

/** A stale `rev` is refused with the field definition as it is now (services/revisions.ts). */
function requireFieldRev(trx: Executor, who: MapCaller, id: number, rev: number | undefined): Promise<void> {
  return requireRev(trx, 'layer_fields', who.groupId, id, rev, FIELD_CONFLICT, async () => {
    const current = await findField(trx, who.groupId, id)
    if (!current) return null
    await layerAccess(trx, who, current.layer_id)
    return toLayerField(current)
  })
}

export async function saveField(db: Database, caller: Caller, input: FieldInput, now: Date): Promise<LayerField> {
  const options = input.kind === 'choice' ? [...new Set((input.options ?? []).filter((o) => o !== ''))] : []
  if (input.kind === 'choice' && options.length === 0) throw new BusinessError(ErrCode.VALIDATION, MAP_MSG.fieldChoicesRequired)
  if (options.length > FIELD_OPTIONS_MAX) throw new BusinessError(ErrCode.VALIDATION, MAP_UI_MSG.fieldOptionsTooMany(FIELD_OPTIONS_MAX))
  const values = { name: input.name, kind: input.kind, options, required: input.required ?? false }
  const at = now.toISOString()
  const saved = await inTransaction(db, async (trx) => {
    const who = await mapCaller(trx, caller)
    if (input.id) await requireFieldRev(trx, who, input.id, input.rev)
    const existing = input.id ? await findField(trx, who.groupId, input.id) : undefined
    if (input.id && (!existing || existing.layer_id !== input.layer_id)) throw notFound()
    const { layer } = await requireOnLayer(trx, who, input.layer_id, PERM.LAYER_FIELD)
    if (isFolder(layer.type)) throw new BusinessError(ErrCode.VALIDATION, MAP_MSG.folderCannotHoldMarkers)
    if (await findFieldByName(trx, layer.id, values.name, existing?.id ?? 0)) throw new BusinessError(ErrCode.CONFLICT, MAP_MSG.fieldNameDuplicate)
    if (existing) {
      const row = await updateField(trx, existing.id, values)
      await logField(trx, who, 'update', existing, row, at)
      return row
    }
    const row = await insertField(trx, { ...values, group_id: who.groupId, layer_id: layer.id, sort: await nextFieldSort(trx, layer.id), at })
    await logField(trx, who, 'create', null, row, at)
    return row
  })
  return toLayerField(saved)
}

export async function deleteField(db: Database, caller: Caller, id: number, now: Date, rev?: number): Promise<void> {
  const at = now.toISOString()
  await inTransaction(db, async (trx) => {
    const who = await mapCaller(trx, caller)
    await requireFieldRev(trx, who, id, rev)
    const field = await findField(trx, who.groupId, id)
    if (!field) throw notFound()
    await requireOnLayer(trx, who, field.layer_id, PERM.LAYER_FIELD)
    await softDeleteField(trx, field.id, at)
    await stashFieldValues(trx, who.groupId, field.layer_id, field.id)
    await logField(trx, who, 'delete', field, null, at)
  })
}

// The ids must be exactly the layer's live fields, so that a stale page cannot drop or duplicate one.
export async function sortFields(db: Database, caller: Caller, layer_id: number, ids: number[], now: Date): Promise<LayerField[]> {
  return inTransaction(db, async (trx): Promise<LayerField[]> => {
    const { caller: who } = await requireOnLayer(trx, caller, layer_id, PERM.LAYER_FIELD)
    const current = await fieldRowsOfLayer(trx, who.groupId, layer_id)
    const known = new Set(current.map((f) => f.id))
    if (new Set(ids).size !== ids.length || ids.length !== known.size || ids.some((id) => !known.has(id))) {
      throw new BusinessError(ErrCode.VALIDATION, MAP_IO_MSG.fieldOrderChanged)
    }
    for (const [index, id] of ids.entries()) await setFieldSort(trx, id, index)
    const after = await fieldRowsOfLayer(trx, who.groupId, layer_id)
    const revBefore = new Map(current.map((f) => [f.id, f.rev]))
    await logChanges(
      trx,
      who.groupId,
      after.filter((f) => f.rev !== revBefore.get(f.id)).map((f) => fieldChange(f, 'upsert')),
      now.toISOString(),
    )
    return after.map(toLayerField)
  })
}

function fieldChange(row: Pick<FieldRow, 'id' | 'rev' | 'layer_id'>, op: 'upsert' | 'delete'): ChangeEntry {
  return { kind: 'field', id: row.id, op, rev: row.rev, layer_id: row.layer_id }
}

export async function logField(trx: Executor, who: MapCaller, action: 'create' | 'update' | 'delete' | 'restore', before: FieldRow | null, after: FieldRow | null, at: string): Promise<void> {
  const subject = (after ?? before)!
  const current = after ?? { ...before!, rev: before!.rev + 1 }
  await logChanges(trx, who.groupId, [fieldChange(current, after ? 'upsert' : 'delete')], at)
  await recordOp(trx, {
    group_id: who.groupId,
    user_id: who.userId,
    entity: 'field',
    entity_id: subject.id,
    action,
    name: subject.name,
    before: before && toLayerField(before),
    after: after && toLayerField(after),
    at,
  })
}
