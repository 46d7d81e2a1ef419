/**
 * The data list's reads and its bulk actions' writes on markers: a layer's rows as the list shows
 * them (with notes counts and last editors), and changes of many markers made one chunk at a time,
 * each guarded by the revision it was read at, so that a change made meanwhile is never overwritten
 * (PostgreSQL and SQLite alike, without a lock held between the read and the write).
 */
import { sqliteRowArrays, type Executor } from './connection'
import type { MarkerRow } from './markers'
import { opRowOf, type NewOp, type OplogRow } from './oplog'
import { bumpRev } from './revisions'

/** What the data list reads of a marker. */
export interface ListedMarker {
  id: number
  layer_id: number
  name: string
  type: number
  /** JSON (MarkerStyle). */
  style: string
  /** JSON of field values by field id. */
  fields: string
  rev: number
  creator_id: number
  updated_at: string
}

const LISTED = ['id', 'layer_id', 'name', 'type', 'style', 'fields', 'rev', 'creator_id', 'updated_at'] as const

/**
 * The live markers of one layer of the group, by id. On SQLite the rows come as arrays (a layer of
 * 100,000 made into objects property by property costs more than the query itself).
 */
export async function listedMarkersOfLayer(db: Executor, groupId: number, layerId: number): Promise<ListedMarker[]> {
  const query = db.selectFrom('markers').select(LISTED).where('group_id', '=', groupId).where('layer_id', '=', layerId).where('deleted_at', 'is', null).orderBy('id')
  const arrays = await sqliteRowArrays(db, query)
  if (!arrays) return query.execute()
  return arrays.map((r) => ({
    id: r[0] as number,
    layer_id: r[1] as number,
    name: r[2] as string,
    type: r[3] as number,
    style: r[4] as string,
    fields: r[5] as string,
    rev: r[6] as number,
    creator_id: r[7] as number,
    updated_at: r[8] as string,
  }))
}

// Ids per IN list: well under SQLite's 32766 bind parameters and PostgreSQL's 65535.
const IDS_PER_QUERY = 5000

async function inSlices<T>(ids: readonly number[], read: (slice: number[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = []
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) out.push(...(await read(ids.slice(i, i + IDS_PER_QUERY))))
  return out
}

/** Live notes per marker, for these markers of the layer (all of the layer's when `ids` is left out). */
export async function notesCountsOf(db: Executor, groupId: number, layerId: number, ids?: readonly number[]): Promise<Map<number, number>> {
  const read = (slice?: number[]) => {
    let q = db
      .selectFrom('notes')
      .select((eb) => ['marker_id', eb.fn.countAll().as('n')])
      .where('group_id', '=', groupId)
      .where('deleted_at', 'is', null)
    q = slice ? q.where('marker_id', 'in', slice) : q.where('marker_id', 'in', (eb) => eb.selectFrom('markers').select('id').where('layer_id', '=', layerId).where('deleted_at', 'is', null))
    return q.groupBy('marker_id').execute()
  }
  const rows = ids ? (ids.length ? await inSlices(ids, read) : []) : await read()
  return new Map(rows.map((r) => [r.marker_id, Number(r.n)]))
}

/** Who made the newest op-log entry of each of these markers of the layer (all of the layer's when `ids` is left out), by marker id. */
export async function lastEditorsOf(db: Executor, groupId: number, layerId: number, ids?: readonly number[]): Promise<Map<number, number>> {
  const read = (slice?: number[]) =>
    db
      .selectFrom('oplog')
      .select(['entity_id', 'user_id'])
      .where('id', 'in', (eb) => {
        const q = eb
          .selectFrom('oplog')
          .select((e) => e.fn.max('id').as('id'))
          .where('group_id', '=', groupId)
          .where('entity', '=', 'marker')
        return (
          slice ? q.where('entity_id', 'in', slice) : q.where('entity_id', 'in', (e) => e.selectFrom('markers').select('id').where('layer_id', '=', layerId).where('deleted_at', 'is', null))
        ).groupBy('entity_id')
      })
      .execute()
  const rows = ids ? (ids.length ? await inSlices(ids, read) : []) : await read()
  return new Map(rows.map((r) => [r.entity_id, r.user_id]))
}

/** The group's markers with these ids, live or deleted. */
export function markersWithIdsEvenDeleted(db: Executor, groupId: number, ids: readonly number[]): Promise<MarkerRow[]> {
  if (ids.length === 0) return Promise.resolve([])
  return inSlices(ids, (slice) => db.selectFrom('markers').selectAll().where('group_id', '=', groupId).where('id', 'in', slice).execute())
}

export type BulkPatch = Partial<Pick<MarkerRow, 'fields' | 'search_text' | 'style' | 'width' | 'layer_id'>>

/** Changes a live marker still at revision `rev`; undefined when it has changed or gone meanwhile. */
export function updateMarkerAtRev(trx: Executor, id: number, rev: number, patch: BulkPatch, at: string): Promise<MarkerRow | undefined> {
  return trx
    .updateTable('markers')
    .set({ ...patch, updated_at: at, rev: bumpRev() })
    .where('id', '=', id)
    .where('rev', '=', rev)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
}

/** Deletes a live marker still at revision `rev`; undefined when it has changed or gone meanwhile. */
export function deleteMarkerAtRev(trx: Executor, id: number, rev: number, at: string): Promise<MarkerRow | undefined> {
  return trx
    .updateTable('markers')
    .set({ deleted_at: at, updated_at: at, rev: bumpRev() })
    .where('id', '=', id)
    .where('rev', '=', rev)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
}

/** Brings back a marker still deleted at `deletedAt` (by the entry being restored); undefined otherwise. */
export function undeleteMarker(trx: Executor, id: number, deletedAt: string, at: string): Promise<MarkerRow | undefined> {
  return trx.updateTable('markers').set({ deleted_at: null, updated_at: at, rev: bumpRev() }).where('id', '=', id).where('deleted_at', '=', deletedAt).returningAll().executeTakeFirst()
}

/** Adds each delta to its layer's kept marker count (which the marker limit and the layer panel read). */
export async function shiftLayerCounts(trx: Executor, deltas: ReadonlyMap<number, number>): Promise<void> {
  for (const [layerId, n] of deltas) {
    if (n === 0) continue
    await trx
      .updateTable('layers')
      .set((eb) => ({ marker_count: eb('marker_count', '+', n) }))
      .where('id', '=', layerId)
      .execute()
  }
}

/** Records the op-log entries of one chunk of a bulk action, each naming the action. */
export async function recordBatchOps(trx: Executor, ops: readonly NewOp[], batchId: string): Promise<void> {
  if (ops.length === 0) return
  await trx
    .insertInto('oplog')
    .values(ops.map((op) => ({ ...opRowOf(op), batch_id: batchId })))
    .execute()
}

/** The entries of one bulk action of the group, oldest first. */
export function opsOfBatch(db: Executor, groupId: number, batchId: string): Promise<OplogRow[]> {
  return db.selectFrom('oplog').selectAll().where('group_id', '=', groupId).where('batch_id', '=', batchId).orderBy('id').execute()
}
