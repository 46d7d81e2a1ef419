/**
 * The /api/oplog/* rules (what a change writes to the log is in ./oplog-entries.ts): the group's operation log, newest first with filters, and restoring what a
 * delete took away (a layer with everything deleted with it, a marker, a note, a field).
 *
 * Who: reading and restoring need the log feature (moduleGate.ts FEATURES.log: the log module and
 * the oplog permission, as the app's menu and /oplog page decide): the administrator, group
 * managers and members holding both through roles.
 * A delete is restorable while it is the entity's current state: the entity is still deleted and
 * its deleted_at is this entry's time (a later restore and delete make the later entry the one).
 */
import { ErrCode, type Paged } from '../../../types/api'
import type { OpAction, OpEntity, OpLog } from '../../../types/mapdata'
import { MAP_MSG } from '../../../src/domain/messages'
import { FEATURES } from '../../../src/domain/moduleGate'
import type { Caller } from '../auth'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { unstashFieldValues } from '../db/field-values'
import { findFieldByName, findFieldEvenDeleted, restoreField } from '../db/fields'
import { findLayer, findLayerEvenDeleted } from '../db/layers'
import { findMarker, findMarkerEvenDeleted, nicknamesOf } from '../db/markers'
import { findNoteEvenDeleted, restoreNote } from '../db/notes'
import { findOp, pageOfOps, recordOp, type OplogRow } from '../db/oplog'
import { BusinessError } from '../envelope'
import { noteLogName, presentNote } from '../presenters/map-extras'
import { presentOp } from '../presenters/mapdata'
import { logField } from './field'
import { logNoteChange } from './note'
import { restoreLayer } from './layers'
import { restoreMarker } from './markers'
import { isBulkChangeUndoable, undoBulkChange } from './marker-bulk'
import { mapCaller, notFound, requireFeature, type MapCaller } from './permissions'

function requireLogReader(who: MapCaller): void {
  requireFeature(who, FEATURES.log)
}

/** When the entity was deleted, if it still is (undefined when it is live or unknown). */
async function deletedAtOf(db: Executor, groupId: number, entity: string, id: number): Promise<string | null | undefined> {
  switch (entity) {
    case 'layer':
      return (await findLayerEvenDeleted(db, groupId, id))?.deleted_at
    case 'marker':
      return (await findMarkerEvenDeleted(db, groupId, id))?.deleted_at
    case 'note':
      return (await findNoteEvenDeleted(db, groupId, id))?.deleted_at
    case 'field':
      return (await findFieldEvenDeleted(db, groupId, id))?.deleted_at
    default:
      return undefined
  }
}

async function isRestorable(db: Executor, op: OplogRow): Promise<boolean> {
  if (op.action === 'update') return isBulkChangeUndoable(db, op)
  return op.action === 'delete' && (await deletedAtOf(db, op.group_id, op.entity, op.entity_id)) === op.at
}

export interface OpListQuery {
  pageindex: number
  pagesize: number
  entity?: OpEntity
  action?: OpAction
  user_id?: number
  kw?: string
}

export async function pageOfLog(db: Executor, caller: Caller, { pageindex, pagesize, ...filter }: OpListQuery): Promise<Paged<OpLog>> {
  const who = await mapCaller(db, caller)
  requireLogReader(who)
  const { rows, total } = await pageOfOps(db, who.groupId, { ...filter, kw: filter.kw || undefined }, { pageindex, pagesize })
  const names = await nicknamesOf(
    db,
    rows.map((r) => r.user_id),
  )
  const list = []
  for (const row of rows) list.push(presentOp(row, names.get(row.user_id) ?? '', await isRestorable(db, row)))
  return { list, total }
}

export async function restoreLogged(db: Database, caller: Caller, id: number, now: Date): Promise<void> {
  await inTransaction(db, async (trx) => {
    const who = await mapCaller(trx, caller)
    requireLogReader(who)
    const op = await findOp(trx, who.groupId, id)
    if (!op) throw notFound()
    if (!(await isRestorable(trx, op))) throw new BusinessError(ErrCode.CONFLICT, MAP_MSG.restoreNotPossible)
    // A data list bulk change, undone on its own (the whole action: /api/oplog/restore/batch).
    if (op.action === 'update') return undoBulkChange(trx, who, op, now)
    switch (op.entity) {
      case 'layer':
        await restoreLayer(trx, who, op.entity_id, now)
        break
      case 'marker':
        await restoreMarker(trx, who, op.entity_id, now)
        break
      case 'note':
        await restoreDeletedNote(trx, who, op.entity_id, now.toISOString())
        break
      case 'field':
        await restoreDeletedField(trx, who, op.entity_id, now.toISOString())
        break
      default:
        throw new BusinessError(ErrCode.CONFLICT, MAP_MSG.restoreNotPossible)
    }
  })
}

/** A note comes back only onto a live marker. */
async function restoreDeletedNote(trx: Executor, who: MapCaller, id: number, at: string): Promise<void> {
  const note = await findNoteEvenDeleted(trx, who.groupId, id)
  if (!note || !(await findMarker(trx, who.groupId, note.marker_id))) throw new BusinessError(ErrCode.CONFLICT, MAP_MSG.restoreNotPossible)
  const row = await restoreNote(trx, id, at)
  await logNoteChange(trx, who.groupId, row, 'upsert', at)
  const name = (await nicknamesOf(trx, [row.user_id])).get(row.user_id) ?? ''
  await recordOp(trx, { group_id: who.groupId, user_id: who.userId, entity: 'note', entity_id: id, action: 'restore', name: noteLogName(row), before: null, after: presentNote(row, name), at })
}

/** A field comes back only onto a live layer, and not while another live field has its name. */
async function restoreDeletedField(trx: Executor, who: MapCaller, id: number, at: string): Promise<void> {
  const field = await findFieldEvenDeleted(trx, who.groupId, id)
  if (!field || !(await findLayer(trx, who.groupId, field.layer_id))) throw new BusinessError(ErrCode.CONFLICT, MAP_MSG.restoreNotPossible)
  if (await findFieldByName(trx, field.layer_id, field.name, field.id)) throw new BusinessError(ErrCode.CONFLICT, MAP_MSG.fieldNameDuplicate)
  const row = await restoreField(trx, id)
  await unstashFieldValues(trx, who.groupId, id)
  await logField(trx, who, 'restore', null, row, at)
}
