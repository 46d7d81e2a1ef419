/**
 * Markers of the caller's group: save (create or update) with the shared geometry, style and field
 * rules of src/domain, the group's marker limit, delete, paged reads and search. Writes run in one
 * transaction with their log entry; nothing is written when a rule says no.
 */
import { ErrCode, type MarkerColumnsPage, type MarkerPageFormat, type Paged } from '../../../types/api'
import type { FieldValue, LayerField, Marker, MarkerStyle, MarkerType } from '../../../types/mapdata'
import { MAP_MSG } from '../../../src/domain/messages'
import { SYNC_CONFLICT_MSG } from '../../../src/domain/syncMessages'
import { checkFieldValues, cleanStyle, defaultStyle, defaultWidth, styleIconProblem } from '../../../src/domain/markers'
import { PERM } from '../../../src/domain/permissions'
import { markerTypesOf, readGeometry, serializePoints, type BBox } from '../../../src/domain/points'
import { MARKER_KIND, isFolder } from '../../../src/domain/markerKinds'
import type { Caller } from '../auth'
import { inSaveBatch, inTransaction, type Database, type DialectName, type Executor } from '../db/connection'
import { findGroupLimits } from '../db/groups'
import { findLayer, type LayerRow } from '../db/layers'
import {
  countGroupMarkers,
  dialectOf,
  fieldsOfLayer,
  findMarker,
  findMarkerByClientId,
  findMarkerEvenDeleted,
  insertMarker,
  markerStampsOfLayers,
  markersByIds,
  nicknamesOf,
  pageOfMarkerRecords,
  pageOfMarkersJson,
  type MarkerCursor,
  restoreMarkers,
  searchMarkers,
  searchTextOf,
  softDeleteMarkers,
  updateMarker,
  type MarkerRecord,
  type MarkerRow,
  type NewMarker,
  type Page,
} from '../db/markers'
import { BusinessError } from '../envelope'
import { presentMarker, presentMarkerColumns, presentMarkers } from '../presenters/mapdata'
import { limitsInForce, markerLimitMessage, type LimitsInForce } from './limits'
import { recordMarkerOp } from './oplog-entries'
import { layerAccess, mapCaller, notFound, requireOnLayer, usableLayerIds, visibleLayers, type MapCaller } from './permissions'
import { createOnce } from './client-ids'
import { requireRev } from './revisions'
import { logChanges, type ChangeEntry } from './sync'

export interface MarkerInput {
  id?: number
  layer_id: number
  name: string
  type: MarkerType
  points: string
  style?: unknown
  width?: number
  radius?: number
  sort?: number
  fields?: Record<string, unknown>
  /** The revision the edit started from (types/sync.ts). */
  rev?: number
  /** Makes a create idempotent (services/client-ids.ts); ignored on an update. */
  client_id?: string
}

const MARKER_CONFLICT = { changed: SYNC_CONFLICT_MSG.markerChanged, deleted: SYNC_CONFLICT_MSG.markerDeleted }

/** A stale `rev` is refused with the marker as the caller reads it now (services/revisions.ts). */
function requireMarkerRev(trx: Executor, who: MapCaller, id: number, rev: number | undefined): Promise<void> {
  return requireRev(trx, 'markers', who.groupId, id, rev, MARKER_CONFLICT, async () => {
    const row = await findMarker(trx, who.groupId, id)
    if (!row) return null
    await layerAccess(trx, who, row.layer_id)
    return withCreator(trx, row)
  })
}

function invalid(message: string): BusinessError {
  return new BusinessError(ErrCode.VALIDATION, message)
}

/** The group's marker limit in force now, read under a row lock on PostgreSQL so that concurrent creates cannot pass it together (SQLite runs one writer at a time). */
async function lockedMarkerLimit(trx: Executor, dialect: DialectName, groupId: number, now: Date): Promise<LimitsInForce> {
  return limitsInForce(await findGroupLimits(trx, groupId, dialect), now)
}

/** How many more live markers the group may hold now, read without a lock: a check before costly work, which requireRoomForMarkers repeats when writing. */
export async function markerRoom(db: Executor, groupId: number, now: Date): Promise<{ room: number; limits: LimitsInForce }> {
  const limits = limitsInForce(await findGroupLimits(db, groupId), now)
  return { room: limits.marker_limit - (await countGroupMarkers(db, groupId)), limits }
}

/** Refuses when `adding` more live markers would pass the group's limit in force (the free plan's once its membership has expired). */
export async function requireRoomForMarkers(trx: Executor, groupId: number, adding: number, now: Date): Promise<void> {
  const limits = await lockedMarkerLimit(trx, dialectOf(trx), groupId, now)
  requireRoom(limits, await countGroupMarkers(trx, groupId), adding)
}

function requireRoom(limits: LimitsInForce, live: number, adding: number): void {
  if (live + adding > limits.marker_limit) throw new BusinessError(ErrCode.LIMIT_REACHED, markerLimitMessage(limits))
}

/** Folders hold no markers; a layer holds the kinds of its type (points, lines or areas). */
export function checkKindFits(layer: Pick<LayerRow, 'type'>, type: MarkerType): string | null {
  if (isFolder(layer.type)) return MAP_MSG.folderCannotHoldMarkers
  return markerTypesOf(layer.type).includes(type) ? null : MAP_MSG.markerKindMismatch
}

/** The row a create inserts: the checked columns, made now by the caller in their group. */
function newMarkerRow(columns: ReturnType<typeof columnsOf>, who: MapCaller, input: MarkerInput, at: string): NewMarker {
  return { ...columns, group_id: who.groupId, creator_id: who.userId, created_at: at, updated_at: at, deleted_at: null, client_id: input.client_id ?? null }
}

/** The stored columns of a marker from checked input; throws VALIDATION with the first problem. */
async function markerColumns(trx: Executor, layer: LayerRow, input: MarkerInput, existing: MarkerRow | null) {
  return columnsOf(layer, input, existing, await fieldsOfLayer(trx, layer.id))
}

/** markerColumns with the layer's custom fields already read. */
function columnsOf(layer: LayerRow, input: MarkerInput, existing: MarkerRow | null, layerFields: LayerField[]) {
  const kindProblem = checkKindFits(layer, input.type)
  if (kindProblem) throw invalid(kindProblem)
  const radius = input.type === MARKER_KIND.circle ? (input.radius ?? (existing?.type === MARKER_KIND.circle ? existing.radius : 0)) : 0
  // The points are read once: what is checked, stored and indexed comes from this read.
  const geometry = readGeometry(input.type, input.points, radius)
  if (!geometry.ok) throw invalid(geometry.error)
  const [minLng, minLat, maxLng, maxLat] = geometry.bounds

  const values = input.fields ?? (existing ? (JSON.parse(existing.fields) as Record<string, unknown>) : {})
  const checked = checkFieldValues(layerFields, values)
  if (!checked.ok) throw invalid(checked.error)

  // Other bad style values are dropped (DESIGN 9), but an icon that is not an upload is refused: the
  // user chose it and would otherwise see their point lose it without a word.
  const iconProblem = styleIconProblem(input.style)
  if (iconProblem) throw invalid(iconProblem)
  const style: MarkerStyle = input.style === undefined && existing ? JSON.parse(existing.style) : { ...defaultStyle(input.type), ...cleanStyle(input.style) }
  const width = input.width ?? (existing && existing.type === input.type ? existing.width : defaultWidth(input.type))
  return {
    layer_id: layer.id,
    name: input.name,
    type: input.type,
    points: serializePoints(geometry.parts, geometry.holes),
    style: JSON.stringify(style),
    width,
    radius,
    sort: input.sort ?? existing?.sort ?? 0,
    fields: JSON.stringify(checked.values),
    search_text: searchTextOf(input.name, checked.values as Record<string, FieldValue>),
    min_lng: minLng,
    min_lat: minLat,
    max_lng: maxLng,
    max_lat: maxLat,
  }
}

/** A marker's change log entry (services/sync.ts). */
export function markerChange(row: Pick<MarkerRow, 'id' | 'rev' | 'layer_id'>, op: 'upsert' | 'delete'): ChangeEntry {
  return { kind: 'marker', id: row.id, op, rev: row.rev, layer_id: row.layer_id }
}

async function withCreator(db: Executor, row: MarkerRow): Promise<Marker> {
  const names = await nicknamesOf(db, [row.creator_id])
  return presentMarker({ ...row, creator_name: names.get(row.creator_id) ?? '' })
}

/**
 * Creates (no id: marker_add on the layer, within the group's limit) or updates (marker_edit on its
 * layer, and marker_add on a new layer when it moves) a marker.
 */
export async function saveMarker(db: Database, caller: Caller | MapCaller, input: MarkerInput, now: Date): Promise<Marker> {
  const who = await mapCaller(db.kysely, caller)
  const clientId = input.id ? undefined : input.client_id
  if (!clientId) return saveMarkerIn(db, who, input, now)
  return createOnce(
    () => saveMarkerIn(db, who, input, now),
    async () => {
      const won = await earlierMarker(db.kysely, who, clientId)
      return won && withCreator(db.kysely, won)
    },
  )
}

/**
 * The marker an earlier create with this client id made (services/client-ids.ts), as it is now:
 * CONFLICT when deleted since, and only while the caller still reads its layer. Undefined when none.
 */
async function earlierMarker(db: Executor, who: MapCaller, clientId: string): Promise<MarkerRow | undefined> {
  const row = await findMarkerByClientId(db, who.groupId, who.userId, clientId)
  if (!row) return undefined
  if (row.deleted_at !== null) throw new BusinessError(ErrCode.CONFLICT, MARKER_CONFLICT.deleted, null)
  await layerAccess(db, who, row.layer_id)
  return row
}

async function saveMarkerIn(db: Database, who: MapCaller, input: MarkerInput, now: Date): Promise<Marker> {
  const at = now.toISOString()
  // The creator's nickname, read once for both the op-log entry and the answer.
  let creatorName: string | undefined
  const creatorNameOf = async (trx: Executor, row: MarkerRow) => (creatorName = (await nicknamesOf(trx, [row.creator_id])).get(row.creator_id) ?? '')
  // A create joins SQLite's group commit (connection.ts inSaveBatch): many saves, one commit.
  const saved = await (input.id ? inTransaction : inSaveBatch)(db, async (trx) => {
    if (!input.id) {
      if (input.client_id) {
        // Under the group's limit lock (PostgreSQL) a twin that waited for the winner finds its row
        // here, instead of being counted against the limit with it. SQLite runs one writer at a time.
        const dialect = dialectOf(trx)
        if (dialect === 'postgres') await lockedMarkerLimit(trx, dialect, who.groupId, now)
        const earlier = await earlierMarker(trx, who, input.client_id)
        if (earlier) return earlier
      }
      const { layer } = await requireOnLayer(trx, who, input.layer_id, PERM.MARKER_ADD)
      const columns = await markerColumns(trx, layer, input, null)
      await requireRoomForMarkers(trx, who.groupId, 1, now)
      const row = await insertMarker(trx, newMarkerRow(columns, who, input, at))
      await recordMarkerOp(trx, who, 'create', null, row, at, await creatorNameOf(trx, row))
      await logChanges(trx, who.groupId, [markerChange(row, 'upsert')], at)
      return row
    }
    await requireMarkerRev(trx, who, input.id, input.rev)
    const existing = await findMarker(trx, who.groupId, input.id)
    if (!existing) throw notFound()
    let { layer } = await requireOnLayer(trx, who, existing.layer_id, PERM.MARKER_EDIT)
    if (input.layer_id !== existing.layer_id) layer = (await requireOnLayer(trx, who, input.layer_id, PERM.MARKER_ADD)).layer
    const columns = await markerColumns(trx, layer, input, existing)
    const row = await updateMarker(trx, existing.id, { ...columns, updated_at: at })
    await recordMarkerOp(trx, who, 'update', existing, row, at, await creatorNameOf(trx, row))
    // A member who reads only the old layer learns that it left; one who reads the new one that it came.
    const moved = existing.layer_id !== row.layer_id ? [markerChange({ ...row, layer_id: existing.layer_id }, 'delete')] : []
    await logChanges(trx, who.groupId, [...moved, markerChange(row, 'upsert')], at)
    return row
  })
  return creatorName === undefined ? withCreator(db.kysely, saved) : presentMarker({ ...saved, creator_name: creatorName })
}

export async function deleteMarker(db: Database, caller: Caller | MapCaller, id: number, now: Date, rev?: number): Promise<void> {
  const who = await mapCaller(db.kysely, caller)
  const at = now.toISOString()
  await inTransaction(db, async (trx) => {
    await requireMarkerRev(trx, who, id, rev)
    const existing = await findMarker(trx, who.groupId, id)
    if (!existing) throw notFound()
    await requireOnLayer(trx, who, existing.layer_id, PERM.MARKER_DELETE)
    await softDeleteMarkers(trx, [existing.id], at)
    await recordMarkerOp(trx, who, 'delete', existing, null, at)
    await logChanges(trx, who.groupId, [markerChange({ ...existing, rev: existing.rev + 1 }, 'delete')], at)
  })
}

/**
 * Brings back a deleted marker (for the log's restore; the caller checks the permission). Refused
 * while its layer is deleted, and when the group is at its marker limit. Records a 'restore'.
 */
export async function restoreMarker(trx: Executor, who: MapCaller, id: number, now: Date): Promise<void> {
  const at = now.toISOString()
  const marker = await findMarkerEvenDeleted(trx, who.groupId, id)
  if (!marker || marker.deleted_at === null || !(await findLayer(trx, who.groupId, marker.layer_id))) throw new BusinessError(ErrCode.CONFLICT, MAP_MSG.restoreNotPossible)
  await requireRoomForMarkers(trx, who.groupId, 1, now)
  await restoreMarkers(trx, [marker.id], at)
  await recordMarkerOp(trx, who, 'restore', null, { ...marker, deleted_at: null, updated_at: at }, at)
  await logChanges(trx, who.groupId, [markerChange({ ...marker, rev: marker.rev + 1 }, 'upsert')], at)
}

async function present(db: Executor, rows: MarkerRecord[]): Promise<Marker[]> {
  return presentMarkers(
    rows,
    await nicknamesOf(
      db,
      rows.map((r) => r.creator_id),
    ),
  )
}

/** A page of markers whose list is JSON (UTF-8 bytes) built by the database, placed into the response as it is. */
export interface MarkerPageJson {
  listJson: Buffer
  total: number
}

/** A page of markers as the caller asked for it: the SPEC shape's list as JSON bytes, or in columns (types/api.ts MarkerColumnsPage). */
export type MarkerPage = MarkerPageJson | { columns: MarkerColumnsPage }

/**
 * A page of the markers in the given layers that the caller may read (other ids are left out), in
 * layer then id order; total from the layers' kept counts. In columns it is built from the rows in JS:
 * as fast as the SPEC list built by the database, for a fraction of the bytes (bench/server.ts).
 */
export async function listMarkers(db: Executor, caller: Caller | MapCaller, layerIds: number[], page: Page, after?: MarkerCursor, format?: MarkerPageFormat): Promise<MarkerPage> {
  const who = await mapCaller(db, caller)
  const wanted = new Set(layerIds)
  const readable = (await visibleLayers(db, who)).filter((v) => !isFolder(v.layer.type) && wanted.has(v.layer.id)).map((v) => v.layer)
  const total = readable.reduce((sum, l) => sum + l.marker_count, 0)
  const ids = readable.map((l) => l.id)
  if (format === 'columns') {
    const { rows, creatorNames } = await pageOfMarkerRecords(db, who.groupId, ids, page, after)
    return { columns: presentMarkerColumns(rows, creatorNames, total) }
  }
  return { listJson: await pageOfMarkersJson(db, who.groupId, ids, page, { after }), total }
}

/** The markers with these ids that the caller may read, by id (others are left out). */
export async function markersWithIds(db: Executor, caller: Caller | MapCaller, ids: number[]): Promise<Marker[]> {
  const who = await mapCaller(db, caller)
  const readable = await usableLayerIds(db, who)
  return present(db, await markersByIds(db, who.groupId, ids, readable))
}

export interface MarkerSearch {
  kw?: string
  layer_ids?: number[]
  bbox?: BBox
}

/**
 * Markers matching a keyword (name, field values, notes) and/or meeting a bounding box, by id. A
 * box search covers only layers where the caller holds marker_range_search (managers: all).
 */
export async function searchGroupMarkers(db: Executor, caller: Caller | MapCaller, search: MarkerSearch, page: Page): Promise<Paged<Marker>> {
  const who = await mapCaller(db, caller)
  const layerIds = await usableLayerIds(db, who, search.layer_ids, search.bbox ? PERM.MARKER_RANGE_SEARCH : undefined)
  // Notes are matched only where the caller may read them: a hit must not tell what a note says.
  const noteLayerIds = search.kw ? await usableLayerIds(db, who, layerIds, PERM.NOTE_LIST) : []
  const { rows, total } = await searchMarkers(db, who.groupId, { kw: search.kw, layerIds, noteLayerIds, bbox: search.bbox }, page)
  return { list: await present(db, rows), total }
}

/** id, layer and last change of the markers in the given layers that the caller may read. */
export async function markerStamps(db: Executor, caller: Caller | MapCaller, layerIds: number[]): Promise<{ id: number; layer_id: number; updated_at: string }[]> {
  const who = await mapCaller(db, caller)
  return markerStampsOfLayers(db, who.groupId, await usableLayerIds(db, who, layerIds))
}
