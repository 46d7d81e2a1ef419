/**
 * Records changes of layers and markers in the operation log, as their presented JSON, inside the
 * change's transaction. Apart from ./oplog.ts, which restores through the layer and marker
 * services: those services write entries here, and neither imports the other.
 */
import type { OpAction } from '../../../types/mapdata'
import type { Executor } from '../db/connection'
import type { LayerRow } from '../db/layers'
import { nicknamesOf, type MarkerRow } from '../db/markers'
import { recordOp, type NewOp } from '../db/oplog'
import { presentLayerRecord, presentMarker } from '../presenters/mapdata'
import type { MapCaller } from './permissions'

export interface LayerSnapshot {
  row: LayerRow
  /** Markers in the layer (a folder: in everything below it). */
  markerCount: number
}

export function recordLayerOp(trx: Executor, who: MapCaller, action: OpAction, before: LayerSnapshot | null, after: LayerSnapshot | null, at: string): Promise<number> {
  const subject = (after ?? before)!.row
  return recordOp(trx, {
    group_id: who.groupId,
    user_id: who.userId,
    entity: 'layer',
    entity_id: subject.id,
    action,
    name: subject.name,
    before: before && presentLayerRecord(before.row, before.markerCount),
    after: after && presentLayerRecord(after.row, after.markerCount),
    at,
  })
}

/** Records a marker change; the creator's name is looked up unless given. */
export async function recordMarkerOp(trx: Executor, who: MapCaller, action: OpAction, before: MarkerRow | null, after: MarkerRow | null, at: string, creatorName?: string): Promise<number> {
  const subject = (after ?? before)!
  const creator_name = creatorName ?? (await nicknamesOf(trx, [subject.creator_id])).get(subject.creator_id) ?? ''
  return recordOp(trx, markerOp(who, action, before, after, at, creator_name))
}

/** The log entry of a marker change. */
export function markerOp(who: MapCaller, action: OpAction, before: MarkerRow | null, after: MarkerRow | null, at: string, creator_name: string): NewOp {
  const subject = (after ?? before)!
  return {
    group_id: who.groupId,
    user_id: who.userId,
    entity: 'marker',
    entity_id: subject.id,
    action,
    name: subject.name,
    before: before && presentMarker({ ...before, creator_name }),
    after: after && presentMarker({ ...after, creator_name }),
    at,
  }
}
