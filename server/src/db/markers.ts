/**
 * Repository of the markers table, its bounds index (an R*Tree on SQLite, a GiST box index on
 * PostgreSQL) and the reads of neighbouring tables that marker rules need (custom fields, notes).
 * Rows are soft-deleted; soft-deleted markers stay in the R*Tree and every query joins back to
 * markers, so a restore only clears deleted_at.
 */
import { PostgresAdapter, sql, type Expression, type Generated, type Insertable, type RawBuilder, type Selectable, type SqlBool } from 'kysely'
import type { FieldKind, FieldValue, LayerField } from '../../../types/mapdata'
import { fieldValuesText } from '../../../src/domain/markers'
import type { BBox } from '../../../src/domain/points'
import { MARKER_WIRE, STORED_WIRE_KEYS, type StoredWireKey, type WireColumn } from '../../../src/domain/markerWire'
import { sqliteRowArrays, type DialectName, type Executor } from './connection'
import { paged, type Page } from './paged'
import { preparedQuery } from './prepared'
import { bumpRev } from './revisions'

export interface MarkersTable {
  id: Generated<number>
  group_id: number
  layer_id: number
  name: string
  type: number
  points: string
  /** JSON object (MarkerStyle). */
  style: string
  width: number
  radius: number
  sort: number
  /** JSON object of custom field values by field id. */
  fields: string
  /** Lower-cased name and field values (what a keyword matches besides notes). */
  search_text: string
  min_lng: number
  min_lat: number
  max_lng: number
  max_lat: number
  /** Revision (types/sync.ts): 1 when created, one more on every change. */
  rev: Generated<number>
  creator_id: number
  created_at: string
  updated_at: string
  deleted_at: string | null
  /** The id the creating phone gave it (src/domain/clientId.ts): unique per group and creator. */
  client_id: string | null
}

declare module './schema' {
  interface Tables {
    markers: MarkersTable
  }
}

export type MarkerRow = Selectable<MarkersTable>
export type NewMarker = Omit<Insertable<MarkersTable>, 'id'>

/** The columns a marker is presented from (everything the client sees but its creator's nickname), src/domain/markerWire.ts's. markerRecordOf reads rows by position in this order. */
const PRESENTED: readonly StoredWireKey[] = STORED_WIRE_KEYS
export type MarkerRecord = Pick<MarkerRow, StoredWireKey>

/** A row of PRESENTED's columns, in its order, as sqliteRowArrays gives it. */
function markerRecordOf(r: unknown[]): MarkerRecord {
  const record: Record<string, unknown> = {}
  for (let c = 0; c < PRESENTED.length; c++) record[PRESENTED[c]] = r[c]
  return record as MarkerRecord
}

export type { Page }

/** Which database runs the queries (the bounds index differs). */
export function dialectOf(db: Executor): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}

/** What a keyword search matches in the marker row itself: the name and the field values. */
export function searchTextOf(name: string, fields: Record<string, FieldValue>): string {
  return `${name} ${fieldValuesText(fields)}`.trim().toLowerCase()
}

// Both SQLite (32766) and PostgreSQL (65535) bind-parameter limits leave room for many more rows; on
// SQLite each chunk is one statement that holds the event loop while it is made and runs (a transaction
// gives other calls a turn only between statements): smaller chunks let them in sooner.
const INSERT_CHUNK = 250

/**
 * Inserts many markers (import, benches) in chunks and indexes their bounds. Call it inside a
 * transaction. Returns the inserted rows.
 */
export async function insertMarkers(trx: Executor, rows: NewMarker[]): Promise<MarkerRow[]> {
  const inserted: MarkerRow[] = []
  const sqlite = dialectOf(trx) === 'sqlite'
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const chunk = await trx
      .insertInto('markers')
      .values(rows.slice(start, start + INSERT_CHUNK))
      .returningAll()
      .execute()
    if (sqlite) await indexBounds(trx, chunk)
    inserted.push(...chunk)
  }
  await addToLayerCounts(trx, tally(inserted.filter((r) => r.deleted_at === null)), 1)
  return inserted
}

function tally(rows: readonly { layer_id: number }[]): Map<number, number> {
  const counts = new Map<number, number>()
  for (const r of rows) counts.set(r.layer_id, (counts.get(r.layer_id) ?? 0) + 1)
  return counts
}

/** Adds sign * n to layers.marker_count of each layer in `counts`. */
async function addToLayerCounts(trx: Executor, counts: ReadonlyMap<number, number>, sign: 1 | -1): Promise<void> {
  for (const [layerId, n] of counts) {
    await trx
      .updateTable('layers')
      .set((eb) => ({ marker_count: eb('marker_count', '+', sign * n) }))
      .where('id', '=', layerId)
      .execute()
  }
}

/** Sets layers.marker_count of these layers from their live markers (after bulk changes; repairs). */
export async function recountLayerMarkers(trx: Executor, layerIds: number[]): Promise<void> {
  if (layerIds.length === 0) return
  await trx
    .updateTable('layers')
    .set((eb) => ({
      marker_count: eb
        .selectFrom('markers')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('markers.layer_id', '=', 'layers.id')
        .where('markers.deleted_at', 'is', null),
    }))
    .where('id', 'in', layerIds)
    .execute()
}

const insertMarkerRow = preparedQuery((db, row: NewMarker) => db.insertInto('markers').values(row).returningAll())
const indexBoundsOfOne = preparedQuery(
  (db, id: number, minLng: number, maxLng: number, minLat: number, maxLat: number) =>
    sql`insert or replace into markers_rtree (id, min_lng, max_lng, min_lat, max_lat) values (${id}, ${minLng}, ${maxLng}, ${minLat}, ${maxLat})`,
)
const addToLayerCount = preparedQuery((db, layerId: number, n: number) =>
  db
    .updateTable('layers')
    .set((eb) => ({ marker_count: eb('marker_count', '+', n) }))
    .where('id', '=', layerId),
)

/** Inserts one marker as insertMarkers does (a save's: its statements prepared once). */
export async function insertMarker(trx: Executor, row: NewMarker): Promise<MarkerRow> {
  const {
    rows: [inserted],
  } = await insertMarkerRow(trx, row)
  if (dialectOf(trx) === 'sqlite') await indexBoundsOfOne(trx, inserted.id, inserted.min_lng, inserted.max_lng, inserted.min_lat, inserted.max_lat)
  if (inserted.deleted_at === null) await addToLayerCount(trx, inserted.layer_id, 1)
  return inserted
}

async function indexBounds(trx: Executor, rows: Pick<MarkerRow, 'id' | 'min_lng' | 'max_lng' | 'min_lat' | 'max_lat'>[]): Promise<void> {
  if (rows.length === 0) return
  const values = sql.join(rows.map((r) => sql`(${r.id}, ${r.min_lng}, ${r.max_lng}, ${r.min_lat}, ${r.max_lat})`))
  await sql`insert or replace into markers_rtree (id, min_lng, max_lng, min_lat, max_lat) values ${values}`.execute(trx)
}

export type MarkerPatch = Partial<Omit<NewMarker, 'group_id' | 'creator_id' | 'created_at' | 'deleted_at'>>

/** Updates one live marker and keeps its bounds index and its layers' counts in step. */
export async function updateMarker(trx: Executor, id: number, patch: MarkerPatch): Promise<MarkerRow> {
  const before = patch.layer_id === undefined ? undefined : await trx.selectFrom('markers').select(['layer_id', 'deleted_at']).where('id', '=', id).executeTakeFirst()
  const row = await trx
    .updateTable('markers')
    .set({ ...patch, rev: bumpRev() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
  if (dialectOf(trx) === 'sqlite' && patch.min_lng !== undefined) await indexBounds(trx, [row])
  if (before && before.deleted_at === null && before.layer_id !== row.layer_id) {
    await addToLayerCounts(trx, new Map([[before.layer_id, 1]]), -1)
    await addToLayerCounts(trx, new Map([[row.layer_id, 1]]), 1)
  }
  return row
}

/** The marker (live or deleted) this member of the group created with this client id. */
export async function findMarkerByClientId(db: Executor, groupId: number, creatorId: number, clientId: string): Promise<MarkerRow | undefined> {
  return (await markerByClientId(db, groupId, creatorId, clientId)).rows[0]
}

const markerByClientId = preparedQuery((db, groupId: number, creatorId: number, clientId: string) =>
  db.selectFrom('markers').selectAll().where('group_id', '=', groupId).where('creator_id', '=', creatorId).where('client_id', '=', clientId),
)

/** A live marker of the group; undefined for another group's, a deleted or an unknown id. */
export function findMarker(db: Executor, groupId: number, id: number): Promise<MarkerRow | undefined> {
  return db.selectFrom('markers').selectAll().where('id', '=', id).where('group_id', '=', groupId).where('deleted_at', 'is', null).executeTakeFirst()
}

export function findMarkerEvenDeleted(db: Executor, groupId: number, id: number): Promise<MarkerRow | undefined> {
  return db.selectFrom('markers').selectAll().where('id', '=', id).where('group_id', '=', groupId).executeTakeFirst()
}

/** Live markers of the group with these ids that lie in the given layers, by id. */
export function markersByIds(db: Executor, groupId: number, ids: number[], layerIds: number[]): Promise<MarkerRecord[]> {
  if (ids.length === 0 || layerIds.length === 0) return Promise.resolve([])
  return db.selectFrom('markers').select(PRESENTED).where('group_id', '=', groupId).where('id', 'in', ids).where('layer_id', 'in', layerIds).where('deleted_at', 'is', null).orderBy('id').execute()
}

/** The last marker of the page before: the next page starts after it in layer then id order. */
export interface MarkerCursor {
  layer_id: number
  id: number
}

function liveInLayers(db: Executor, groupId: number, layerIds: number[]) {
  return db.selectFrom('markers').where('group_id', '=', groupId).where('layer_id', 'in', layerIds).where('deleted_at', 'is', null)
}

/** The rows of one page of the live markers in these layers, ordered by layer, then id (the query, to run or to wrap). */
function pageOfLiveMarkers(db: Executor, groupId: number, layerIds: number[], page: Page, after?: MarkerCursor) {
  const sorted = [...new Set(layerIds)].sort((a, b) => a - b)
  const ordered = liveInLayers(db, groupId, sorted).select(PRESENTED).orderBy('layer_id').orderBy('id').limit(page.pagesize)
  // With the last marker of the previous page as cursor the index seeks straight to the next one,
  // where OFFSET reads and throws away every earlier row (the last page of a big layer was the slowest);
  // markers added or deleted between pages cannot shift the later pages either.
  return after
    ? ordered.where((eb) => eb.or([eb('layer_id', '>', after.layer_id), eb.and([eb('layer_id', '=', after.layer_id), eb('id', '>', after.id)])]))
    : ordered.offset((page.pageindex - 1) * page.pagesize)
}

/**
 * The same page as pageOfMarkersJson as rows, with their creators' nicknames by id, for the columnar
 * page (types/api.ts MarkerColumnsPage), which is built from them in JS.
 */
export async function pageOfMarkerRecords(db: Executor, groupId: number, layerIds: number[], page: Page, after?: MarkerCursor): Promise<{ rows: MarkerRecord[]; creatorNames: Map<number, string> }> {
  if (layerIds.length === 0) return { rows: [], creatorNames: new Map() }
  const query = pageOfLiveMarkers(db, groupId, layerIds, page, after)
  const arrays = await sqliteRowArrays(db, query)
  const rows = arrays ? arrays.map(markerRecordOf) : await query.execute()
  return { rows, creatorNames: await nicknamesOf(db, [...new Set(rows.map((r) => r.creator_id))]) }
}

/**
 * One page of the live markers in these layers as the UTF-8 bytes of a JSON array, built by the
 * database (a page of 5000 is bound by serialisation otherwise; SQLite hands the bytes over
 * without a round trip through a JS string). Ordered by layer, then id: a total order, so that
 * pages never repeat or skip a marker, which the layer index reads without sorting. Each element
 * has exactly the shape of presentMarker (a test compares them).
 */
export async function pageOfMarkersJson(db: Executor, groupId: number, layerIds: number[], page: Page, opts: { hideCreator?: boolean; after?: MarkerCursor } = {}): Promise<Buffer> {
  if (layerIds.length === 0) return Buffer.from('[]')
  const dialect = dialectOf(db)
  const pageRows = pageOfLiveMarkers(db, groupId, layerIds, page, opts.after)
  const element = markerJsonSql(dialect, opts.hideCreator === true)
  if (dialect === 'postgres') {
    const { rows } = await sql<{ list: string }>`select coalesce(json_agg(${element} order by m.layer_id, m.id), '[]'::json)::text as list
      from (${pageRows}) as m left join users as u on u.id = m.creator_id`.execute(db)
    return Buffer.from(rows[0]?.list ?? '[]')
  }
  const { rows } = await sql<{ list: Buffer }>`select cast(coalesce(json_group_array(${element} order by m.layer_id, m.id), '[]') as blob) as list
    from (${pageRows}) as m`.execute(db)
  return rows[0]?.list ?? Buffer.from('[]')
}

/**
 * One marker of `m` (a row of PRESENTED's columns; on PostgreSQL joined with its creator as `u`) as
 * a JSON object in the database, key by key as src/domain/markerWire.ts lists them. `hideCreator`:
 * a public share's, with what the table says a share shows instead.
 */
function markerJsonSql(dialect: DialectName, hideCreator: boolean) {
  const pg = dialect === 'postgres'
  const pairs: RawBuilder<unknown>[] = []
  const optional: WireColumn[] = []
  for (const column of MARKER_WIRE as readonly WireColumn[]) {
    if (hideCreator && column.onShare === 'absent') continue
    if (column.optional) {
      optional.push(column)
      continue
    }
    const ref = sql.ref(`m.${column.key}`)
    let value: RawBuilder<unknown>
    if (hideCreator && column.onShare !== undefined) value = sql.lit(column.onShare)
    else if (column.stored === 'json') value = pg ? sql`${ref}::json` : sql`json(${ref})`
    else if (column.stored === 'creator') value = pg ? sql`coalesce(u.nickname, '')` : sql`coalesce((select nickname from users where users.id = m.creator_id), '')`
    else value = sql`${ref}`
    pairs.push(sql`${sql.lit(column.key)}, ${value}`)
  }
  let element = pg ? sql`json_build_object(${sql.join(pairs)})` : sql`json_object(${sql.join(pairs)})`
  // Absent rather than null (presentMarkers does the same).
  for (const column of optional) {
    const ref = sql.ref(`m.${column.key}`)
    element = pg
      ? sql`case when ${ref} is null then ${element} else (${element}::jsonb || jsonb_build_object(${sql.lit(column.key)}, ${ref}))::json end`
      : sql`case when ${ref} is null then ${element} else json_set(${element}, ${sql.lit(`$.${column.key}`)}, ${ref}) end`
  }
  return element
}

/** Live markers of one layer by id (export). The caller checks the layer's group and permission. */
export function markersOfLayer(db: Executor, layerId: number): Promise<MarkerRow[]> {
  return db.selectFrom('markers').selectAll().where('layer_id', '=', layerId).where('deleted_at', 'is', null).orderBy('id').execute()
}

/** id, layer and last change of the live markers in these layers (client sync). */
export function markerStampsOfLayers(db: Executor, groupId: number, layerIds: number[]): Promise<{ id: number; layer_id: number; updated_at: string }[]> {
  if (layerIds.length === 0) return Promise.resolve([])
  return liveInLayers(db, groupId, layerIds).select(['id', 'layer_id', 'updated_at']).orderBy('layer_id').orderBy('id').execute()
}

/**
 * Live markers of the group (the marker limit counts these), from the counters every marker change
 * keeps in step in its own transaction (layers.marker_count): a sum over the group's few layers,
 * where COUNT(*) over its markers grew with the group and ran on every save.
 */
export async function countGroupMarkers(db: Executor, groupId: number): Promise<number> {
  const { rows } = await groupMarkerCount(db, groupId)
  return Number(rows[0].n)
}

const groupMarkerCount = preparedQuery((db, groupId: number) =>
  db
    .selectFrom('layers')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('marker_count'), eb.lit(0)).as('n'))
    .where('group_id', '=', groupId),
)

/** Live markers per layer of the group, counted (layers.marker_count holds the same, kept in step). */
export async function markerCountsByLayer(db: Executor, groupId: number): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('markers')
    .select((eb) => ['layer_id', eb.fn.countAll().as('n')])
    .where('group_id', '=', groupId)
    .where('deleted_at', 'is', null)
    .groupBy('layer_id')
    .execute()
  return new Map(rows.map((r) => [r.layer_id, Number(r.n)]))
}

/** Deletes these live markers; their layers' counts follow. */
export async function softDeleteMarkers(db: Executor, ids: number[], at: string): Promise<void> {
  if (ids.length === 0) return
  const going = await db.selectFrom('markers').select('layer_id').where('id', 'in', ids).where('deleted_at', 'is', null).execute()
  await db.updateTable('markers').set({ deleted_at: at, updated_at: at, rev: bumpRev() }).where('id', 'in', ids).where('deleted_at', 'is', null).execute()
  await addToLayerCounts(db, tally(going), -1)
}

/** Deletes the live markers of these layers (their counts become 0); returns how many went. */
export async function softDeleteMarkersOfLayers(db: Executor, layerIds: number[], at: string): Promise<number> {
  if (layerIds.length === 0) return 0
  const result = await db.updateTable('markers').set({ deleted_at: at, updated_at: at, rev: bumpRev() }).where('layer_id', 'in', layerIds).where('deleted_at', 'is', null).executeTakeFirst()
  await db.updateTable('layers').set({ marker_count: 0 }).where('id', 'in', layerIds).execute()
  return Number(result.numUpdatedRows)
}

/** Brings back these deleted markers; their layers' counts follow. */
export async function restoreMarkers(db: Executor, ids: number[], at: string): Promise<void> {
  if (ids.length === 0) return
  const coming = await db.selectFrom('markers').select('layer_id').where('id', 'in', ids).where('deleted_at', 'is not', null).execute()
  await db.updateTable('markers').set({ deleted_at: null, updated_at: at, rev: bumpRev() }).where('id', 'in', ids).where('deleted_at', 'is not', null).execute()
  await addToLayerCounts(db, tally(coming), 1)
}

/** Brings back the markers of these layers that were deleted at `deletedAt` (with their layer); returns how many. */
export async function restoreMarkersDeletedWith(db: Executor, layerIds: number[], deletedAt: string, at: string): Promise<number> {
  if (layerIds.length === 0) return 0
  const result = await db.updateTable('markers').set({ deleted_at: null, updated_at: at, rev: bumpRev() }).where('layer_id', 'in', layerIds).where('deleted_at', '=', deletedAt).executeTakeFirst()
  await recountLayerMarkers(db, layerIds)
  return Number(result.numUpdatedRows)
}

/** The markers restoreMarkersDeletedWith would bring back (their change log entries). */
export function markersDeletedWith(db: Executor, layerIds: number[], deletedAt: string): Promise<{ id: number; layer_id: number; rev: number }[]> {
  if (layerIds.length === 0) return Promise.resolve([])
  return db.selectFrom('markers').select(['id', 'layer_id', 'rev']).where('layer_id', 'in', layerIds).where('deleted_at', '=', deletedAt).execute()
}

/** How many markers restoreMarkersDeletedWith would bring back (the marker limit is checked first). */
export async function countMarkersDeletedWith(db: Executor, layerIds: number[], deletedAt: string): Promise<number> {
  if (layerIds.length === 0) return 0
  const row = await db
    .selectFrom('markers')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('layer_id', 'in', layerIds)
    .where('deleted_at', '=', deletedAt)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * A reset to free: hides every live marker of the group but the latest `keep` (by id,
 * which grows with creation) by marking them deleted at `at`, which the reset records; layer counts
 * follow. Nothing is removed. Returns the hidden ones.
 */
export async function hideMarkersExceptLatest(db: Executor, groupId: number, keep: number, at: string): Promise<MarkerStamp[]> {
  const kept = await db.selectFrom('markers').select('id').where('group_id', '=', groupId).where('deleted_at', 'is', null).orderBy('id', 'desc').limit(keep).execute()
  let hide = db.updateTable('markers').set({ deleted_at: at, updated_at: at, rev: bumpRev() }).where('group_id', '=', groupId).where('deleted_at', 'is', null)
  if (kept.length > 0)
    hide = hide.where(
      'id',
      'not in',
      kept.map((r) => r.id),
    )
  const hidden = await hide.returning(['id', 'layer_id', 'rev']).execute()
  if (hidden.length > 0) await recountLayerMarkers(db, await liveLayerIdsOfGroup(db, groupId))
  return hidden
}

/** A changed marker as the change log records it. */
export type MarkerStamp = Pick<MarkerRow, 'id' | 'layer_id' | 'rev'>

/** Markers a reset hid (deleted at `hiddenAt`) that lie in live layers: what a renewal would bring back. */
export async function countHiddenMarkers(db: Executor, groupId: number, hiddenAt: string): Promise<number> {
  const row = await db
    .selectFrom('markers')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('group_id', '=', groupId)
    .where('deleted_at', '=', hiddenAt)
    .where('layer_id', 'in', (eb) => eb.selectFrom('layers').select('id').where('group_id', '=', groupId).where('deleted_at', 'is', null))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Brings back the markers a reset hid, in layers that still exist; layer counts follow. Returns them. */
export async function unhideMarkers(db: Executor, groupId: number, hiddenAt: string, at: string): Promise<MarkerStamp[]> {
  const layerIds = await liveLayerIdsOfGroup(db, groupId)
  if (layerIds.length === 0) return []
  const restored = await db
    .updateTable('markers')
    .set({ deleted_at: null, updated_at: at, rev: bumpRev() })
    .where('group_id', '=', groupId)
    .where('deleted_at', '=', hiddenAt)
    .where('layer_id', 'in', layerIds)
    .returning(['id', 'layer_id', 'rev'])
    .execute()
  if (restored.length > 0) await recountLayerMarkers(db, layerIds)
  return restored
}

async function liveLayerIdsOfGroup(db: Executor, groupId: number): Promise<number[]> {
  const rows = await db.selectFrom('layers').select('id').where('group_id', '=', groupId).where('deleted_at', 'is', null).execute()
  return rows.map((r) => r.id)
}

export async function deleteMarkersOfGroups(db: Executor, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return
  if (dialectOf(db) === 'sqlite') await sql`delete from markers_rtree where id in (select id from markers where group_id in (${sql.join(groupIds)}))`.execute(db)
  await db.deleteFrom('markers').where('group_id', 'in', groupIds).execute()
}

export interface MarkerQuery {
  /** Matched in the name, field values and, in noteLayerIds, notes (case-insensitive). */
  kw?: string
  layerIds: number[]
  /** The layers whose notes the keyword may match (the caller holds note_list there); none when left out. */
  noteLayerIds?: number[]
  /** [minLng, minLat, maxLng, maxLat]: markers whose bounds meet the box. */
  bbox?: BBox
}

/** One page of the live markers matching the query, by id, and how many match in all. */
export async function searchMarkers(db: Executor, groupId: number, query: MarkerQuery, page: Page): Promise<{ rows: MarkerRecord[]; total: number }> {
  if (query.layerIds.length === 0) return { rows: [], total: 0 }
  const conditions: Expression<SqlBool>[] = []
  if (query.kw) {
    const inRow = containsText('markers.search_text', query.kw.toLowerCase())
    const noteLayers = query.noteLayerIds ?? []
    conditions.push(noteLayers.length ? sql<SqlBool>`(${inRow} or (markers.layer_id in (${sql.join(noteLayers)}) and ${noteMatchSql(groupId, query.kw)}))` : inRow)
  }
  if (query.bbox) conditions.push(boundsMeet(dialectOf(db), query.bbox))
  const base = () => {
    let q = liveInLayers(db, groupId, query.layerIds)
    for (const c of conditions) q = q.where(c)
    return q
  }
  return paged(base(), (q) => q.select(PRESENTED).orderBy('id'), page)
}

/** The marker's bounds meet the box: through the R*Tree on SQLite, the GiST box index on PostgreSQL. */
function boundsMeet(dialect: DialectName, [minLng, minLat, maxLng, maxLat]: BBox): Expression<SqlBool> {
  // The R*Tree stores 32-bit floats rounded outwards, so the exact test on the row follows it.
  const exact = sql<SqlBool>`markers.max_lng >= ${minLng} and markers.min_lng <= ${maxLng} and markers.max_lat >= ${minLat} and markers.min_lat <= ${maxLat}`
  if (dialect === 'postgres') {
    return sql<SqlBool>`(box(point(markers.min_lng, markers.min_lat), point(markers.max_lng, markers.max_lat)) && box(point(${minLng}::float8, ${minLat}::float8), point(${maxLng}::float8, ${maxLat}::float8)) and ${exact})`
  }
  return sql<SqlBool>`(markers.id in (select id from markers_rtree where max_lng >= ${minLng} and min_lng <= ${maxLng} and max_lat >= ${minLat} and min_lat <= ${maxLat}) and ${exact})`
}

/** `column` contains `text` literally (LIKE wildcards in the text are escaped). */
export function containsText(column: string, text: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${likeContains(text)} escape '\\'`
}

/** `column` contains `text` literally, whatever the case of Latin letters. */
export function containsTextIgnoringCase(column: string, text: string): Expression<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${likeContains(text.toLowerCase())} escape '\\'`
}

function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/**
 * The keyword search's hook into notes (migration 0003): markers with a live note containing the keyword.
 */
export function noteMatchSql(groupId: number, kw: string): Expression<SqlBool> {
  return sql<SqlBool>`exists (select 1 from notes where notes.marker_id = markers.id and notes.group_id = ${groupId} and notes.deleted_at is null and lower(notes.content) like ${`%${kw.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\')`
}

export interface LayerFieldRecord {
  id: number
  layer_id: number
  name: string
  kind: string
  options: string | null
  required: number | boolean
  sort: number
  rev: number
}

/** The live custom fields of a layer in their order. */
export async function fieldsOfLayer(db: Executor, layerId: number): Promise<LayerField[]> {
  return layerFieldsOf((await liveFieldsOfLayer(db, layerId)).rows)
}

const liveFieldsOfLayer = preparedQuery(
  (db, layerId: number) => sql<LayerFieldRecord>`select id, layer_id, name, kind, options, required, sort, rev from layer_fields where layer_id = ${layerId} and deleted_at is null order by sort, id`,
)

/** Custom fields from their rows (both dialects store required as a flag or a boolean). */
export function layerFieldsOf(rows: LayerFieldRecord[]): LayerField[] {
  return rows.map((r) => ({
    id: r.id,
    layer_id: r.layer_id,
    name: r.name,
    kind: r.kind as FieldKind,
    options: parseOptions(r.options),
    required: r.required === true || Number(r.required) === 1,
    sort: r.sort,
    rev: r.rev,
  }))
}

function parseOptions(text: string | null): string[] {
  if (!text) return []
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? value.map(String) : []
  } catch {
    return []
  }
}

/** The nicknames of these users (markers show their creator's). */
export async function nicknamesOf(db: Executor, userIds: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(userIds)]
  if (unique.length === 0) return new Map()
  // A save's one creator: its statement prepared once.
  if (unique.length === 1) return new Map((await nicknameOf(db, unique[0])).rows.map((r) => [r.id, r.nickname]))
  const rows = await db.selectFrom('users').select(['id', 'nickname']).where('id', 'in', unique).execute()
  return new Map(rows.map((r) => [r.id, r.nickname]))
}

const nicknameOf = preparedQuery((db, userId: number) => db.selectFrom('users').select(['id', 'nickname']).where('id', '=', userId))

/** One page of the live markers of the group with these ids that lie in these layers (ordered by layer, then id), and how many there are (share links). */
export async function pageOfMarkersWithIds(db: Executor, groupId: number, ids: number[], layerIds: number[], page: Page): Promise<{ rows: MarkerRecord[]; total: number }> {
  if (ids.length === 0 || layerIds.length === 0) return { rows: [], total: 0 }
  const base = () => liveInLayers(db, groupId, layerIds).where('id', 'in', ids)
  return paged(base(), (q) => q.select(PRESENTED).orderBy('layer_id').orderBy('id'), page)
}

/** The layers holding the live markers of the group with these ids (share links). */
export async function sharedMarkerLayerIds(db: Executor, groupId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return []
  const rows = await db.selectFrom('markers').select('layer_id').distinct().where('group_id', '=', groupId).where('id', 'in', ids).where('deleted_at', 'is', null).execute()
  return rows.map((r) => r.layer_id)
}
