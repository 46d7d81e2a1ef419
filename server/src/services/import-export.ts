/**
 * Import and export of a layer's markers (GeoJSON, KML, CSV) on top of the pure formats in
 * src/domain/formats. Import checks every row against the layer (kind, custom fields) as a marker
 * save would, and writes all rows in one transaction or none: any bad row, and the answer lists
 * the bad rows with their numbers and imports nothing. The group's marker limit holds.
 *
 * A file is parsed on a worker thread (file-parser.ts), and only as far as the group's room and
 * IMPORT_MAX_ROWS allow: a file of more records is refused as soon as the parser has counted past
 * them. The rows that come back are checked in slices that yield, so that no step of an import
 * holds other clients' calls for long.
 */
import { ErrCode } from '../../../types/api'
import type { ExportFile, FieldValue, FileCrs, ImportFormat, ImportResult, ImportRowError, LayerField, MarkerType } from '../../../types/mapdata'
import { IMPORT_MAX_ROWS } from '../../../src/domain/constants'
import { exportFileName, FORMAT_FILES, serializeFile, type ExportMarker, type ImportRow } from '../../../src/domain/formats'
import { checkFieldValues, defaultStyle, defaultWidth } from '../../../src/domain/markers'
import { MAP_IO_MSG, MAP_MSG } from '../../../src/domain/messages'
import { PERM } from '../../../src/domain/permissions'
import { boundsOf, parsePoints } from '../../../src/domain/points'
import type { Caller } from '../auth'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { fieldRowsOfLayer } from '../db/fields'
import type { LayerRow } from '../db/layers'
import { insertMarkers, markerCountsByLayer, markersOfLayer, searchTextOf, type NewMarker } from '../db/markers'
import { BusinessError } from '../envelope'
import { toLayerField } from '../presenters/map-extras'
import { FileTooComplex, parseFileOffThread } from './file-parser'
import { markerLimitMessage } from './limits'
import { checkKindFits, markerChange, markerRoom, requireRoomForMarkers } from './markers'
import { logChanges } from './sync'
import { recordLayerOp } from './oplog-entries'
import { mapCaller, requireOnLayer, type MapCaller } from './permissions'

/** The answer lists at most this many bad rows (a wrong file can have thousands). */
export const IMPORT_ERRORS_LISTED = 100

/** Rows checked between two yields to the event loop (about a few milliseconds of work). */
const ROWS_PER_SLICE = 500

export interface ImportRequest {
  layer_id: number
  format: ImportFormat
  /** The file's text, or its UTF-8 bytes. */
  content: string | Uint8Array
  crs: FileCrs
}

function invalid(message: string): BusinessError {
  return new BusinessError(ErrCode.VALIDATION, message)
}

function requireMarkerLayer(layer: LayerRow): void {
  if (layer.type === 0) throw invalid(MAP_MSG.folderCannotHoldMarkers)
}

export async function importMarkers(db: Database, caller: Caller | MapCaller, request: ImportRequest, now: Date): Promise<ImportResult> {
  const who = await mapCaller(db.kysely, caller)
  const { layer } = await requireOnLayer(db.kysely, who, request.layer_id, PERM.LAYER_IMPORT)
  requireMarkerLayer(layer)
  // Read no further than the group can take: a trial group's 300 needs 301 records to refuse a file of 100,000.
  const { room, limits } = await markerRoom(db.kysely, who.groupId, now)
  const maxRows = Math.max(0, Math.min(room, IMPORT_MAX_ROWS))
  const parsed = await parseFileOffThread(request.format, request.content, request.crs, maxRows).catch((err: unknown) => {
    throw err instanceof FileTooComplex ? invalid(MAP_MSG.importUnreadable) : err
  })
  if (parsed.tooManyRows) {
    if (room <= IMPORT_MAX_ROWS) throw new BusinessError(ErrCode.LIMIT_REACHED, markerLimitMessage(limits))
    throw invalid(MAP_IO_MSG.importTooManyRows(IMPORT_MAX_ROWS))
  }
  const fileProblem = parsed.errors.find((e) => e.row === 0)
  if (fileProblem) throw invalid(fileProblem.message)

  const fields = (await fieldRowsOfLayer(db.kysely, who.groupId, layer.id)).map(toLayerField)
  const at = now.toISOString()
  const errors: ImportRowError[] = [...parsed.errors]
  const rows: NewMarker[] = []
  for (let i = 0; i < parsed.rows.length; i++) {
    if (i > 0 && i % ROWS_PER_SLICE === 0) await new Promise((next) => setImmediate(next))
    const row = parsed.rows[i]
    const built = markerOfRow(layer, fields, row)
    if (typeof built === 'string') errors.push({ row: row.row, message: built })
    else rows.push({ ...built, group_id: who.groupId, creator_id: who.userId, created_at: at, updated_at: at, deleted_at: null })
  }
  if (errors.length > 0) {
    errors.sort((a, b) => a.row - b.row)
    return { imported: 0, errors: errors.slice(0, IMPORT_ERRORS_LISTED), invalid_rows: errors.length, message: MAP_MSG.importRowsInvalid(errors.length) }
  }

  await inTransaction(db, async (trx) => {
    // Checked again inside the transaction: the layer may have gone meanwhile.
    const { layer: current } = await requireOnLayer(trx, who, layer.id, PERM.LAYER_IMPORT)
    await requireRoomForMarkers(trx, who.groupId, rows.length, now)
    const before = (await markerCountsByLayer(trx, who.groupId)).get(current.id) ?? 0
    const inserted = await insertMarkers(trx, rows)
    await logChanges(
      trx,
      who.groupId,
      inserted.map((m) => markerChange(m, 'upsert')),
      at,
    )
    // One entry for the whole import (not one per marker): the layer with its count before and after.
    await recordLayerOp(trx, who, 'update', { row: current, markerCount: before }, { row: current, markerCount: before + rows.length }, at)
  })
  return { imported: rows.length, errors: [], invalid_rows: 0, message: MAP_MSG.importOk(rows.length) }
}

type BuiltMarker = Omit<NewMarker, 'group_id' | 'creator_id' | 'created_at' | 'updated_at' | 'deleted_at'>

/** The stored columns of one imported row, or the reason it cannot be a marker of this layer. */
function markerOfRow(layer: LayerRow, fields: LayerField[], row: ImportRow): BuiltMarker | string {
  const kindProblem = checkKindFits(layer, row.type)
  if (kindProblem) return kindProblem
  const checked = checkFieldValues(fields, fieldValuesById(fields, row.fields))
  if (!checked.ok) return checked.error
  const parsed = parsePoints(row.points)
  if (!parsed.ok) return parsed.error
  const [minLng, minLat, maxLng, maxLat] = boundsOf(row.type, parsed.parts, row.radius)
  return {
    layer_id: layer.id,
    name: row.name,
    type: row.type,
    points: row.points,
    style: JSON.stringify(defaultStyle(row.type)),
    width: defaultWidth(row.type),
    radius: row.radius,
    sort: 0,
    fields: JSON.stringify(checked.values),
    search_text: searchTextOf(row.name, checked.values as Record<string, FieldValue>),
    min_lng: minLng,
    min_lat: minLat,
    max_lng: maxLng,
    max_lat: maxLat,
  }
}

/** File values are by field name; markers keep them by field id. Photo fields list URLs separated by spaces or commas. */
function fieldValuesById(fields: LayerField[], byName: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const field of fields) {
    const value = byName[field.name]
    if (value === undefined) continue
    out[String(field.id)] = field.kind === 'photo' ? value.split(/[\s,]+/).filter(Boolean) : value
  }
  return out
}

export async function exportMarkers(db: Executor, caller: Caller | MapCaller, request: { layer_id: number; format: ImportFormat; crs: FileCrs }): Promise<ExportFile> {
  const who = await mapCaller(db, caller)
  const { layer } = await requireOnLayer(db, who, request.layer_id, PERM.LAYER_EXPORT)
  requireMarkerLayer(layer)
  const fields = (await fieldRowsOfLayer(db, who.groupId, layer.id)).map(toLayerField)
  const markers = (await markersOfLayer(db, layer.id)).map((m): ExportMarker => {
    const values = JSON.parse(m.fields) as Record<string, FieldValue>
    const byName: Record<string, string | number> = {}
    for (const field of fields) {
      const value = values[String(field.id)]
      if (value === undefined || value === null) continue
      byName[field.name] = Array.isArray(value) ? value.join(' ') : value
    }
    return { name: m.name, type: m.type as MarkerType, points: m.points, radius: m.radius, fields: byName }
  })
  const content = serializeFile(request.format, markers, { crs: request.crs, fieldNames: fields.map((f) => f.name), title: layer.name })
  return { filename: exportFileName(layer.name, request.format), mime: FORMAT_FILES[request.format].mime, content }
}
