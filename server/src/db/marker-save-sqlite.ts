/**
 * The statements of a marker create on SQLite, run synchronously through better-sqlite3 inside one
 * transaction (connection.ts runOnSqlite): the same rows as the kysely repositories read and write
 * (markers.ts, layers.ts, layer-auth.ts, groups.ts, oplog.ts, change-log.ts), without building and
 * awaiting a query per step. Statements are prepared once per SQL text (connection.ts).
 */
import type SqliteDatabase from 'better-sqlite3'
import type { LayerField } from '../../../types/mapdata'
import type { NewSyncChange } from './change-log'
import { parseOpts } from './layer-auth'
import type { LayerRow } from './layers'
import { layerFieldsOf, type LayerFieldRecord, type MarkerRow, type NewMarker } from './markers'
import type { OplogRow } from './oplog'
import type { GroupRow } from './schema'

type Raw = SqliteDatabase.Database

export function liveLayerNow(raw: Raw, groupId: number, id: number): LayerRow | undefined {
  return raw.prepare('select * from layers where id = ? and group_id = ? and deleted_at is null').get(id, groupId) as LayerRow | undefined
}

/** The member's own opts on the layer (layer-auth.ts optsOnLayer). */
export function optsOnLayerNow(raw: Raw, groupId: number, layerId: number, userId: number): string[] {
  const row = raw.prepare('select opts from layer_auth where group_id = ? and layer_id = ? and user_id = ?').get(groupId, layerId, userId) as { opts: string } | undefined
  return row ? parseOpts(row.opts) : []
}

export function fieldsOfLayerNow(raw: Raw, layerId: number): LayerField[] {
  const rows = raw
    .prepare('select id, layer_id, name, kind, options, required, sort, rev from layer_fields where layer_id = ? and deleted_at is null order by sort, id')
    .all(layerId) as LayerFieldRecord[]
  return layerFieldsOf(rows)
}

export type GroupLimitsRow = Pick<GroupRow, 'level' | 'vip_exp' | 'marker_limit' | 'join_limit' | 'file_size_limit'>

export function groupLimitsNow(raw: Raw, groupId: number): GroupLimitsRow {
  const row = raw.prepare('select level, vip_exp, marker_limit, join_limit, file_size_limit from groups where id = ?').get(groupId) as GroupLimitsRow | undefined
  if (!row) throw new Error(`group ${groupId} not found`)
  return row
}

/** Live markers of the group, from the layers' kept counts (markers.ts countGroupMarkers). */
export function countGroupMarkersNow(raw: Raw, groupId: number): number {
  const row = raw.prepare('select coalesce(sum(marker_count), 0) as n from layers where group_id = ?').get(groupId) as { n: number }
  return Number(row.n)
}

export function markerByClientIdNow(raw: Raw, groupId: number, creatorId: number, clientId: string): MarkerRow | undefined {
  return raw.prepare('select * from markers where group_id = ? and creator_id = ? and client_id = ?').get(groupId, creatorId, clientId) as MarkerRow | undefined
}

/** Inserts one live marker, indexes its bounds and counts it in its layer (markers.ts insertMarkers). */
export function insertMarkerNow(raw: Raw, row: NewMarker): MarkerRow {
  // Columns left undefined take their default, as kysely leaves them out.
  const columns = (Object.keys(row) as (keyof NewMarker)[]).filter((c) => row[c] !== undefined)
  const inserted = raw
    .prepare(`insert into markers (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')}) returning *`)
    .get(...columns.map((c) => row[c])) as MarkerRow
  raw
    .prepare('insert or replace into markers_rtree (id, min_lng, max_lng, min_lat, max_lat) values (?, ?, ?, ?, ?)')
    .run(inserted.id, inserted.min_lng, inserted.max_lng, inserted.min_lat, inserted.max_lat)
  if (inserted.deleted_at === null) raw.prepare('update layers set marker_count = marker_count + 1 where id = ?').run(inserted.layer_id)
  return inserted
}

export function nicknameNow(raw: Raw, userId: number): string | undefined {
  return (raw.prepare('select nickname from users where id = ?').get(userId) as { nickname: string } | undefined)?.nickname
}

/** Records one change in the oplog (oplog.ts recordOp). */
export function recordOpNow(raw: Raw, op: Omit<OplogRow, 'id'>): number {
  const row = raw
    .prepare('insert into oplog (group_id, at, user_id, entity, entity_id, action, name, before, after) values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning id')
    .get(op.group_id, op.at, op.user_id, op.entity, op.entity_id, op.action, op.name, op.before, op.after) as { id: number }
  return row.id
}

/** Takes `n` sequence numbers of the group's change log and answers the last one (change-log.ts takeSeqs). */
export function takeSeqsNow(raw: Raw, groupId: number, n: number): number {
  const row = raw.prepare('insert into sync_seqs (group_id, seq, pruned_seq) values (?, ?, 0) on conflict (group_id) do update set seq = sync_seqs.seq + ? returning seq').get(groupId, n, n) as {
    seq: number
  }
  return Number(row.seq)
}

export function insertChangesNow(raw: Raw, groupId: number, firstSeq: number, changes: NewSyncChange[], at: string): void {
  const insert = raw.prepare('insert into sync_changes (group_id, seq, kind, entity_id, op, rev, layer_id, marker_id, user_id, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
  changes.forEach((c, i) => insert.run(groupId, firstSeq + i, c.kind, c.entity_id, c.op, c.rev, c.layer_id, c.marker_id, c.user_id, at))
}

/** The last seq of the group's entries older than `before` (0 when none). */
export function lastSeqBeforeNow(raw: Raw, groupId: number, before: string): number {
  const row = raw.prepare('select max(seq) as seq from sync_changes where group_id = ? and created_at < ?').get(groupId, before) as { seq: number | null } | undefined
  return Number(row?.seq ?? 0)
}

/** Drops the group's entries up to `seq` and remembers that readers behind it must reload (change-log.ts pruneChanges). */
export function pruneChangesNow(raw: Raw, groupId: number, seq: number): void {
  if (seq <= 0) return
  raw.prepare('delete from sync_changes where group_id = ? and seq <= ?').run(groupId, seq)
  raw.prepare('update sync_seqs set pruned_seq = case when pruned_seq > ? then pruned_seq else ? end where group_id = ?').run(seq, seq, groupId)
}
