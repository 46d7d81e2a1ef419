/**
 * The data list (数据列表) of a layer and its bulk actions: 设置字段, 修改样式, 移动到图层 and 删除 on the
 * picked rows or on everything the list's query matched, and restoring a whole bulk action.
 *
 * - data_list on the list's layer gates the list and every bulk call (a department manager holds it
 *   on their departments' layers); the action's own permission (marker_edit; marker_delete; and
 *   marker_add on a move's target) is checked for every marker, refusals reported per id.
 * - SQLite is synchronous: one transaction over 5,000 markers would stall every team for seconds.
 *   The work goes in chunks, each its own transaction, sized after the last one so that each holds
 *   the database for about CHUNK_TARGET_MS, with a turn of the event loop between them for others.
 *   Nothing is partial within one marker: its change, its op-log entry and its sync change commit
 *   together.
 * - Conflict-safe like single saves: a marker whose revision is not the one the list showed (or,
 *   over a query, that changed after the list was read) is reported, never overwritten.
 * - Each marker gets its own op-log entry, all naming the action's batch id, and one sync change.
 */
import { randomBytes } from 'node:crypto'
import { ErrCode } from '../../../types/api'
import type { BulkAction, BulkRefusal, BulkRequest, BulkResult, DataListPage, DataListQuery, DataListRow } from '../../../types/datalist'
import type { FieldValue, LayerField, MarkerStyle, MarkerType, OpAction } from '../../../types/mapdata'
import { BULK_MAX, fieldsById, findRows, queryProblem, rowMatches } from '../../../src/domain/dataList'
import { DATA_LIST_MSG } from '../../../src/domain/dataListMessages'
import { checkFieldValues, cleanStyle, styleIconProblem } from '../../../src/domain/markers'
import { isPoint } from '../../../src/domain/markerKinds'
import { MAP_MSG } from '../../../src/domain/messages'
import { canOnLayer, PERM, type PermissionId } from '../../../src/domain/permissions'
import { FEATURES } from '../../../src/domain/moduleGate'
import { SYNC_CONFLICT_MSG } from '../../../src/domain/syncMessages'
import type { Caller } from '../auth'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { findLayer } from '../db/layers'
import {
  deleteMarkerAtRev,
  lastEditorsOf,
  listedMarkersOfLayer,
  liveMarkersInLayer,
  markersWithIdsEvenDeleted,
  notesCountsOf,
  opsOfBatch,
  recordBatchOps,
  shiftLayerCounts,
  undeleteMarker,
  updateMarkerAtRev,
  type BulkPatch,
  type ListedMarker,
} from '../db/marker-bulk'
import { countGroupMarkers, fieldsOfLayer, nicknamesOf, searchTextOf, type MarkerRow } from '../db/markers'
import type { NewOp, OplogRow } from '../db/oplog'
import { BusinessError } from '../envelope'
import { limitsInForce, markerLimitMessage } from './limits'
import { checkKindFits, markerChange } from './markers'
import { markerOp } from './oplog-entries'
import { layerAccess, mapCaller, requireFeature, type LayerAccess, type MapCaller } from './permissions'
import { findGroupLimits } from '../db/groups'
import { logChanges, type ChangeEntry } from './sync'

/** How long one chunk should hold the database. Chunks are sized after the previous one's time to stay well under 50 ms. */
export const CHUNK_TARGET_MS = 25
const FIRST_CHUNK = 50
const MIN_CHUNK = 5
const MAX_CHUNK = 1000

function invalid(message: string): BusinessError {
  return new BusinessError(ErrCode.VALIDATION, message)
}

/** The caller's access to the list's layer, when it holds data_list there; FORBIDDEN with the list's refusal otherwise. */
async function dataListAccess(db: Executor, who: MapCaller, layerId: number): Promise<LayerAccess> {
  const access = await layerAccess(db, who, layerId)
  if (!canOnLayer(who.actor, access.opts, PERM.LAYER_DATA_LIST)) throw new BusinessError(ErrCode.FORBIDDEN, DATA_LIST_MSG.noPermission)
  if (access.layer.type === 0) throw invalid(DATA_LIST_MSG.notMarkerLayer)
  return access
}

function parseOr<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T
  } catch {
    return fallback
  }
}

/** The list's rows of a layer, before notes counts and last editors are added (rows mostly share a few style texts: each is parsed once). */
function rowsOf(markers: ListedMarker[]): DataListRow[] {
  const styles = new Map<string, MarkerStyle>()
  return markers.map((m) => {
    let style = styles.get(m.style)
    if (!style) styles.set(m.style, (style = parseOr<MarkerStyle>(m.style, {})))
    return {
      id: m.id,
      layer_id: m.layer_id,
      name: m.name,
      type: m.type as MarkerType,
      style,
      fields: m.fields === '{}' ? {} : parseOr<Record<string, FieldValue>>(m.fields, {}),
      rev: m.rev,
      notes_count: 0,
      editor_name: '',
      edited_at: m.updated_at,
    }
  })
}

/** Adds notes counts and last editors (the creator when no entry names anyone) to these rows (all the layer's when `all`). */
async function addNotesAndEditors(db: Executor, who: MapCaller, layerId: number, rows: DataListRow[], creators: ReadonlyMap<number, number>, all: boolean): Promise<void> {
  const ids = all ? undefined : rows.map((r) => r.id)
  const [notes, editors] = await Promise.all([notesCountsOf(db, who.groupId, layerId, ids), lastEditorsOf(db, who.groupId, layerId, ids)])
  const userOf = (id: number) => editors.get(id) ?? creators.get(id) ?? 0
  const names = await nicknamesOf(db, [...new Set(rows.map((r) => userOf(r.id)))])
  for (const r of rows) {
    r.notes_count = notes.get(r.id) ?? 0
    r.editor_name = names.get(userOf(r.id)) ?? ''
  }
}

/**
 * A page of a layer's data list: the rows its query matches, in its order, with how many the layer
 * holds and how many matched. The rules are the phone's (src/domain/dataList.ts), so a layer larger
 * than the phone holds is filtered and sorted exactly as a small one is on the phone.
 */
export async function dataListPage(db: Executor, caller: Caller | MapCaller, req: { layer_id: number; query?: DataListQuery; pageindex: number; pagesize: number }, now: Date): Promise<DataListPage> {
  const who = await mapCaller(db, caller)
  const { layer } = await dataListAccess(db, who, req.layer_id)
  const fields = fieldsById(await fieldsOfLayer(db, layer.id))
  const problem = queryProblem(fields, req.query)
  if (problem) throw invalid(problem)
  // SQL leaves out the rows the query cannot match; the domain's rules then decide on the rest.
  const [markers, total] = await Promise.all([listedMarkersOfLayer(db, who.groupId, layer.id, req.query), liveMarkersInLayer(db, who.groupId, layer.id)])
  const creators = new Map(markers.map((m) => [m.id, m.creator_id]))
  const rows = rowsOf(markers)
  // Sorting by notes or editor needs them on every row; otherwise only the page's rows are looked up.
  const sortNeedsAll = req.query?.sort?.key === 'notes' || req.query?.sort?.key === 'editor'
  if (sortNeedsAll) await addNotesAndEditors(db, who, layer.id, rows, creators, true)
  const matched = findRows(rows, req.query, fields)
  const start = (req.pageindex - 1) * req.pagesize
  const list = matched.slice(start, start + req.pagesize)
  if (!sortNeedsAll) await addNotesAndEditors(db, who, layer.id, list, creators, false)
  return { list, total, matched: matched.length, listed_at: now.toISOString() }
}

/** One marker a bulk action is asked to change, with the revision the list showed (none over a query: its time stands in). */
interface BulkItem {
  id: number
  rev?: number
}

class Refusals {
  readonly list: BulkRefusal[] = []
  add(id: number, reason: BulkRefusal['reason'], message: string): void {
    this.list.push({ id, reason, message })
  }
}

/** What one marker becomes under the action: its patch, or the refusal's message. */
type Planned = { patch: BulkPatch } | { refuse: BulkRefusal['reason']; message: string }

interface Plan {
  /** The permission the action needs on the marker's layer. */
  perm: PermissionId
  op: OpAction
  change(row: MarkerRow): Planned | 'delete'
}

async function planOf(db: Executor, who: MapCaller, access: LayerAccess, action: BulkAction): Promise<Plan> {
  switch (action.action) {
    case 'set_field': {
      const layerFields: LayerField[] = await fieldsOfLayer(db, access.layer.id)
      const field = layerFields.find((f) => f.id === action.field_id)
      if (!field) throw invalid(DATA_LIST_MSG.fieldNotInLayer)
      const checked = checkFieldValues([field], { [String(field.id)]: action.value })
      if (!checked.ok) throw invalid(checked.error)
      const key = String(field.id)
      const value = checked.values[key]
      return {
        perm: PERM.MARKER_EDIT,
        op: 'update',
        change(row) {
          const fields = parseOr<Record<string, FieldValue>>(row.fields, {})
          if (value === undefined) delete fields[key]
          else fields[key] = value
          return { patch: { fields: JSON.stringify(fields), search_text: searchTextOf(row.name, fields) } }
        },
      }
    }
    case 'set_style': {
      const iconProblem = styleIconProblem(action.style)
      if (iconProblem) throw invalid(iconProblem)
      const style = cleanStyle(action.style)
      if (Object.keys(style).length === 0) throw invalid(DATA_LIST_MSG.pickStyle)
      return {
        perm: PERM.MARKER_EDIT,
        op: 'update',
        change(row) {
          const next: MarkerStyle = { ...parseOr<MarkerStyle>(row.style, {}) }
          if (style.color) {
            next.color = style.color
            // An area's fill follows its outline colour, as the editor sets both.
            if (next.fill_color !== undefined) next.fill_color = style.color
          }
          if (style.icon && isPoint(row.type as MarkerType)) next.icon = style.icon
          const patch: BulkPatch = {}
          if (style.size !== undefined) {
            next.size = style.size
            patch.width = style.size
          }
          return { patch: { ...patch, style: JSON.stringify(next) } }
        },
      }
    }
    case 'move': {
      const target = await findLayer(db, who.groupId, action.to_layer_id)
      if (!target || target.type === 0) throw invalid(DATA_LIST_MSG.pickLayer)
      if (target.id === access.layer.id) throw invalid(DATA_LIST_MSG.refusal.sameLayer)
      if (target.type !== access.layer.type) throw invalid(MAP_MSG.markerKindMismatch)
      const targetAccess = await layerAccess(db, who, target.id).catch(() => null)
      const mayAdd = !!targetAccess && canOnLayer(who.actor, targetAccess.opts, PERM.MARKER_ADD)
      return {
        perm: PERM.MARKER_EDIT,
        op: 'update',
        change(row) {
          if (!mayAdd) return { refuse: 'forbidden', message: DATA_LIST_MSG.refusal.forbiddenTarget }
          if (checkKindFits(target, row.type as MarkerType)) return { refuse: 'invalid', message: DATA_LIST_MSG.refusal.kindMismatch }
          return { patch: { layer_id: target.id } }
        },
      }
    }
    case 'delete':
      return { perm: PERM.MARKER_DELETE, op: 'delete', change: () => 'delete' }
  }
}

/**
 * Runs `work` over `items` in chunks, each in its own transaction, sized so that each holds the
 * database for about CHUNK_TARGET_MS; between chunks other calls get their turn.
 */
async function inChunks<T>(db: Database, items: readonly T[], work: (trx: Executor, chunk: T[]) => Promise<void>): Promise<void> {
  let size = FIRST_CHUNK
  for (let start = 0; start < items.length;) {
    const chunk = items.slice(start, start + size)
    const began = performance.now()
    await inTransaction(db, (trx) => work(trx, chunk))
    const took = Math.max(performance.now() - began, 0.1)
    start += chunk.length
    size = Math.round(Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, (chunk.length * CHUNK_TARGET_MS) / took)))
    if (start < items.length) await new Promise<void>((resolve) => setImmediate(resolve))
  }
}

function newBatchId(): string {
  return randomBytes(12).toString('base64url')
}

/** The markers a bulk request names: its items, or what the layer's query matches now but the unticked ones. */
async function itemsOf(db: Executor, who: MapCaller, req: BulkRequest): Promise<{ items: BulkItem[]; changedAfter?: string }> {
  if ('items' in req) {
    const seen = new Set<number>()
    return { items: req.items.filter((i) => !seen.has(i.id) && seen.add(i.id)) }
  }
  const fields = fieldsById(await fieldsOfLayer(db, req.layer_id))
  const problem = queryProblem(fields, req.query)
  if (problem) throw invalid(problem)
  const except = new Set(req.except_ids ?? [])
  const rows = rowsOf(await listedMarkersOfLayer(db, who.groupId, req.layer_id, req.query))
  const items = rows.filter((r) => !except.has(r.id) && rowMatches(r, req.query)).map((r) => ({ id: r.id }))
  return { items, changedAfter: req.listed_at }
}

/**
 * One bulk action of the data list on the markers of its layer. Whole-call refusals (no data_list,
 * a bad value, a bad target) change nothing; per marker, what could not be done is reported with why.
 */
export async function bulkEdit(db: Database, caller: Caller | MapCaller, req: BulkRequest, now: Date): Promise<BulkResult> {
  const who = await mapCaller(db.kysely, caller)
  const access = await dataListAccess(db.kysely, who, req.layer_id)
  const plan = await planOf(db.kysely, who, access, req)
  const { items, changedAfter } = await itemsOf(db.kysely, who, req)
  if (items.length > BULK_MAX) throw invalid(DATA_LIST_MSG.tooMany(BULK_MAX))
  const refusals = new Refusals()
  const batchId = newBatchId()
  const allowed = canOnLayer(who.actor, access.opts, plan.perm)
  const forbiddenMessage = plan.perm === PERM.MARKER_DELETE ? DATA_LIST_MSG.refusal.forbiddenDelete : DATA_LIST_MSG.refusal.forbidden
  let done = 0
  const at = now.toISOString()

  await inChunks(db, items, async (trx, chunk) => {
    const rows = new Map(
      (
        await markersWithIdsEvenDeleted(
          trx,
          who.groupId,
          chunk.map((i) => i.id),
        )
      ).map((r) => [r.id, r]),
    )
    const creatorNames = await nicknamesOf(trx, [...new Set([...rows.values()].map((r) => r.creator_id))])
    const ops: NewOp[] = []
    const changes: ChangeEntry[] = []
    const counts = new Map<number, number>()
    const count = (layerId: number, n: number) => counts.set(layerId, (counts.get(layerId) ?? 0) + n)
    const refused: BulkRefusal[] = []
    const refuse = (id: number, reason: BulkRefusal['reason'], message: string) => refused.push({ id, reason, message })
    for (const item of chunk) {
      const row = rows.get(item.id)
      if (!row || row.deleted_at !== null) {
        refuse(item.id, 'not_found', DATA_LIST_MSG.refusal.notFound)
        continue
      }
      if (row.layer_id !== access.layer.id) {
        refuse(item.id, 'invalid', DATA_LIST_MSG.refusal.notInLayer)
        continue
      }
      if (!allowed) {
        refuse(item.id, 'forbidden', forbiddenMessage)
        continue
      }
      const stale = item.rev !== undefined ? item.rev !== row.rev : changedAfter !== undefined && row.updated_at > changedAfter
      if (stale) {
        refuse(item.id, 'conflict', SYNC_CONFLICT_MSG.markerChanged)
        continue
      }
      const planned = plan.change(row)
      if (planned !== 'delete' && 'refuse' in planned) {
        refuse(item.id, planned.refuse, planned.message)
        continue
      }
      const after = planned === 'delete' ? await deleteMarkerAtRev(trx, row.id, row.rev, at) : await updateMarkerAtRev(trx, row.id, row.rev, planned.patch, at)
      if (!after) {
        refuse(item.id, 'conflict', SYNC_CONFLICT_MSG.markerChanged)
        continue
      }
      const creatorName = creatorNames.get(row.creator_id) ?? ''
      if (planned === 'delete') {
        ops.push(markerOp(who, 'delete', row, null, at, creatorName))
        changes.push(markerChange(after, 'delete'))
        count(row.layer_id, -1)
      } else {
        ops.push(markerOp(who, plan.op, row, after, at, creatorName))
        // A member who reads only the old layer learns that it left; one who reads the new one that it came.
        if (after.layer_id !== row.layer_id) {
          changes.push(markerChange({ ...after, layer_id: row.layer_id }, 'delete'))
          count(row.layer_id, -1)
          count(after.layer_id, 1)
        }
        changes.push(markerChange(after, 'upsert'))
      }
    }
    await shiftLayerCounts(trx, counts)
    await recordBatchOps(trx, ops, batchId)
    await logChanges(trx, who.groupId, changes, at)
    // Counted once the chunk's transaction is written: a rolled-back chunk throws and reports nothing.
    done += ops.length
    for (const r of refused) refusals.add(r.id, r.reason, r.message)
  })
  return { done, refused: refusals.list, batch_id: batchId }
}

interface LoggedMarker {
  rev?: number
  layer_id?: number
  style?: MarkerStyle
  width?: number
  fields?: Record<string, FieldValue>
  name?: string
}

/**
 * Undoes one entry of a bulk action when it is still its marker's current state: a delete while the
 * marker is still deleted by it, a change while the marker is still at the revision it made.
 * Answers null when done, or why not.
 */
async function undoEntry(
  trx: Executor,
  who: MapCaller,
  op: OplogRow,
  row: MarkerRow | undefined,
  at: string,
  creatorName: string,
): Promise<{ op: NewOp; changes: ChangeEntry[]; counts: [number, number][] } | { refuse: BulkRefusal['reason']; message: string }> {
  if (!row) return { refuse: 'not_found', message: DATA_LIST_MSG.refusal.notFound }
  if (op.action === 'delete') {
    if (row.deleted_at !== op.at) return { refuse: 'conflict', message: DATA_LIST_MSG.refusal.changedSince }
    if (!(await findLayer(trx, who.groupId, row.layer_id))) return { refuse: 'invalid', message: MAP_MSG.restoreNotPossible }
    const after = await undeleteMarker(trx, row.id, op.at, at)
    if (!after) return { refuse: 'conflict', message: DATA_LIST_MSG.refusal.changedSince }
    return { op: markerOp(who, 'restore', null, after, at, creatorName), changes: [markerChange(after, 'upsert')], counts: [[after.layer_id, 1]] }
  }
  const before = parseOr<LoggedMarker | null>(op.before ?? 'null', null)
  const made = parseOr<LoggedMarker | null>(op.after ?? 'null', null)
  if (!before || !made || row.deleted_at !== null || row.rev !== made.rev) return { refuse: 'conflict', message: DATA_LIST_MSG.refusal.changedSince }
  const patch: BulkPatch = {}
  if (before.layer_id !== undefined && before.layer_id !== row.layer_id) {
    if (!(await findLayer(trx, who.groupId, before.layer_id))) return { refuse: 'invalid', message: MAP_MSG.restoreNotPossible }
    patch.layer_id = before.layer_id
  }
  if (before.fields) {
    patch.fields = JSON.stringify(before.fields)
    patch.search_text = searchTextOf(row.name, before.fields)
  }
  if (before.style) patch.style = JSON.stringify(before.style)
  if (before.width !== undefined) patch.width = before.width
  const after = await updateMarkerAtRev(trx, row.id, row.rev, patch, at)
  if (!after) return { refuse: 'conflict', message: DATA_LIST_MSG.refusal.changedSince }
  const changes: ChangeEntry[] = []
  const counts: [number, number][] = []
  if (after.layer_id !== row.layer_id) {
    changes.push(markerChange({ ...after, layer_id: row.layer_id }, 'delete'))
    counts.push([row.layer_id, -1], [after.layer_id, 1])
  }
  changes.push(markerChange(after, 'upsert'))
  return { op: markerOp(who, 'update', row, after, at, creatorName), changes, counts }
}

/**
 * Whether a bulk action's change entry can still be undone on its own (the op log's single restore):
 * its marker is live and still at the revision the entry made.
 */
export async function isBulkChangeUndoable(db: Executor, op: OplogRow): Promise<boolean> {
  if (op.entity !== 'marker' || op.action !== 'update' || !op.batch_id) return false
  const made = parseOr<LoggedMarker | null>(op.after ?? 'null', null)
  const [row] = await markersWithIdsEvenDeleted(db, op.group_id, [op.entity_id])
  return !!row && !!made && row.deleted_at === null && row.rev === made.rev
}

/** Undoes one change entry of a bulk action (the caller checked who may); CONFLICT when it is no longer the marker's state. */
export async function undoBulkChange(trx: Executor, who: MapCaller, op: OplogRow, now: Date): Promise<void> {
  const at = now.toISOString()
  const [row] = await markersWithIdsEvenDeleted(trx, who.groupId, [op.entity_id])
  const name = row ? ((await nicknamesOf(trx, [row.creator_id])).get(row.creator_id) ?? '') : ''
  const undone = await undoEntry(trx, who, op, row, at, name)
  if ('refuse' in undone) throw new BusinessError(ErrCode.CONFLICT, undone.message)
  await shiftLayerCounts(trx, new Map(undone.counts))
  await recordBatchOps(trx, [undone.op], newBatchId())
  await logChanges(trx, who.groupId, undone.changes, at)
}

/**
 * Restores a whole bulk action from the op log: every entry still its marker's current state is
 * undone (deleted markers come back, changed ones return to what they were); the others are reported.
 * Markers coming back count against the group's marker limit: when they would pass it, nothing is done.
 * Who: the op log's readers (the log feature), as for a single restore.
 */
export async function restoreBatch(db: Database, caller: Caller | MapCaller, batchId: string, now: Date): Promise<BulkResult> {
  const who = await mapCaller(db.kysely, caller)
  requireFeature(who, FEATURES.log)
  const ops = (await opsOfBatch(db.kysely, who.groupId, batchId)).filter((op) => op.entity === 'marker')
  if (ops.length === 0) throw new BusinessError(ErrCode.NOT_FOUND, DATA_LIST_MSG.batchNotFound)
  const comingBack = ops.filter((op) => op.action === 'delete').length
  if (comingBack > 0) {
    const limits = limitsInForce(await findGroupLimits(db.kysely, who.groupId), now)
    if ((await countGroupMarkers(db.kysely, who.groupId)) + comingBack > limits.marker_limit) throw new BusinessError(ErrCode.LIMIT_REACHED, markerLimitMessage(limits))
  }
  const restoreId = newBatchId()
  const refusals = new Refusals()
  const at = now.toISOString()
  let done = 0
  await inChunks(db, ops, async (trx, chunk) => {
    const rows = new Map(
      (
        await markersWithIdsEvenDeleted(
          trx,
          who.groupId,
          chunk.map((op) => op.entity_id),
        )
      ).map((r) => [r.id, r]),
    )
    const names = await nicknamesOf(trx, [...new Set([...rows.values()].map((r) => r.creator_id))])
    const newOps: NewOp[] = []
    const changes: ChangeEntry[] = []
    const counts = new Map<number, number>()
    const refused: BulkRefusal[] = []
    for (const op of chunk) {
      const row = rows.get(op.entity_id)
      const undone = await undoEntry(trx, who, op, row, at, row ? (names.get(row.creator_id) ?? '') : '')
      if ('refuse' in undone) {
        refused.push({ id: op.entity_id, reason: undone.refuse, message: undone.message })
        continue
      }
      newOps.push(undone.op)
      changes.push(...undone.changes)
      for (const [layerId, n] of undone.counts) counts.set(layerId, (counts.get(layerId) ?? 0) + n)
    }
    await shiftLayerCounts(trx, counts)
    await recordBatchOps(trx, newOps, restoreId)
    await logChanges(trx, who.groupId, changes, at)
    done += newOps.length
    for (const r of refused) refusals.add(r.id, r.reason, r.message)
  })
  return { done, refused: refusals.list, batch_id: restoreId }
}
