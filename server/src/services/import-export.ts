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
import type { ExportFile, FieldValue, FileCrs, ExportFormat, ImportFileFormat, ImportLayer, ImportResult, ImportRowError, LayerField, LayerType, MarkerType } from '../../../types/mapdata'
import { IMPORT_MAX_ROWS } from '../../../src/domain/constants'
import { type AddressPlaces, type ExportMarker, type ImportRow } from '../../../src/domain/formats'
import { exportFile } from '../../../src/domain/formats/exportFile'
import { checkFieldValues, defaultStyle, defaultWidth, LAYER_NAME_MAX, NOTE_MAX } from '../../../src/domain/markers'
import { LAYER_KIND, isArea, isFolder, isLine } from '../../../src/domain/markerKinds'
import { DESCRIPTION_FIELD } from '../../../src/domain/formats/rows'
import { MAP_IO_MSG, MAP_MSG } from '../../../src/domain/messages'
import { PERM } from '../../../src/domain/permissions'
import { boundsOf, parsePoints } from '../../../src/domain/points'
import type { Caller } from '../auth'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { fieldRowsOfLayer } from '../db/fields'
import { findLayer, type LayerRow } from '../db/layers'
import { insertNote } from '../db/notes'
import { insertMarkers, markerCountsByLayer, markersOfLayer, searchTextOf, type NewMarker } from '../db/markers'
import { BusinessError } from '../envelope'
import { toLayerField } from '../presenters/map-extras'
import { FileTooComplex, parseFileOffThread } from './file-parser'
import { GEOCODE_MAX_ADDRESSES, type Geocoder } from './geocode'
import { ImportTracker } from './import-progress'
import { markerLimitMessage } from './limits'
import { checkKindFits, markerChange, markerRoom, requireRoomForMarkers } from './markers'
import { createLayer } from './layers'
import { logChanges, type ChangeEntry } from './sync'
import { recordLayerOp } from './oplog-entries'
import { mapCaller, requireOnLayer, type MapCaller } from './permissions'
import { IMPORT_MSG } from '../../../src/domain/importMessages'

/** The answer lists at most this many bad rows (a wrong file can have thousands). */
export const IMPORT_ERRORS_LISTED = 100

/** Rows checked between two yields to the event loop (about a few milliseconds of work). */
const ROWS_PER_SLICE = 500

export interface ImportRequest {
  layer_id: number
  format: ImportFileFormat
  /** The file's text, or its UTF-8 bytes; with encoding 'base64', the file's own bytes as base64. */
  content: string | Uint8Array
  /** The file's bytes travel as base64 (the client sends them so the server can tell GBK and UTF-16 from UTF-8, and unzip a KMZ). */
  encoding?: 'base64'
  /** The picked file's name: the new layers for the file's other kinds are named after it. */
  file_name?: string
  crs: FileCrs
  /** The app's id of this import, for its progress and cancel calls (services/import-progress.ts). */
  import_id?: string
}

/** Where a table's addresses are, through the geocoder when the server has one. */
async function placesOf(addresses: string[], geocoder: Geocoder | undefined, progress: ImportTracker): Promise<AddressPlaces> {
  if (!geocoder) throw invalid(IMPORT_MSG.geocodeUnavailable)
  if (addresses.length > GEOCODE_MAX_ADDRESSES) throw invalid(IMPORT_MSG.geocodeTooMany(GEOCODE_MAX_ADDRESSES))
  return geocoder.geocode(addresses, (done) => progress.step('geocoding', done, addresses.length))
}

function invalid(message: string): BusinessError {
  return new BusinessError(ErrCode.VALIDATION, message)
}

function requireMarkerLayer(layer: LayerRow): void {
  if (isFolder(layer.type)) throw invalid(MAP_MSG.folderCannotHoldMarkers)
}

type MarkerLayerKind = 1 | 2 | 3

/** The kind of layer that holds a marker kind. */
function layerKindOf(type: MarkerType): MarkerLayerKind {
  if (isLine(type)) return LAYER_KIND.line
  if (isArea(type)) return LAYER_KIND.area
  return LAYER_KIND.point
}

/** A file's name without its extension, as a layer name's beginning (room left for '-线'). */
function baseName(fileName: string | undefined, fallback: string): string {
  const base =
    (fileName ?? '')
      .replace(/^.*[\\/]/, '')
      .replace(/\.[^.]*$/, '')
      .trim() || fallback
  return base.slice(0, LAYER_NAME_MAX - 2)
}

/** Where the rows of one kind go: the chosen layer, or a sibling made in the transaction. */
interface Target {
  kind: MarkerLayerKind
  layer: LayerRow | null
  name: string
  fields: LayerField[]
  rows: NewMarker[]
  notes: (string | null)[]
}

/**
 * Imports a file into a layer. Each kind of the file goes to a layer of its kind: the chosen
 * layer's own kind into it, the others into new sibling layers named after the file (文件名-线),
 * made in the same transaction: all rows of all kinds or none. A description goes into the
 * layer's `description` field when it has one, else into a note on the marker (same transaction).
 */
export async function importMarkers(db: Database, caller: Caller | MapCaller, request: ImportRequest, now: Date, geocoder?: Geocoder): Promise<ImportResult> {
  const who = await mapCaller(db.kysely, caller)
  const { layer } = await requireOnLayer(db.kysely, who, request.layer_id, PERM.LAYER_IMPORT)
  requireMarkerLayer(layer)
  // Read no further than the group can take: a trial group's 300 needs 301 records to refuse a file of 100,000.
  const { room, limits } = await markerRoom(db.kysely, who.groupId, now)
  const maxRows = Math.max(0, Math.min(room, IMPORT_MAX_ROWS))
  const progress = new ImportTracker(who.userId, request.import_id)
  try {
    return await importChecked(db, who, layer, request, now, geocoder, maxRows, room, limits, progress)
  } finally {
    progress.finish()
  }
}

async function importChecked(
  db: Database,
  who: MapCaller,
  layer: LayerRow,
  request: ImportRequest,
  now: Date,
  geocoder: Geocoder | undefined,
  maxRows: number,
  room: number,
  limits: Parameters<typeof markerLimitMessage>[0],
  progress: ImportTracker,
): Promise<ImportResult> {
  // A table may hold addresses only, and then is read twice: its bytes move to the worker, so keep a copy.
  const second = request.format === 'csv' || request.format === 'xlsx' ? (typeof request.content === 'string' ? request.content : request.content.slice()) : null
  const parse = (content: string | Uint8Array, places?: AddressPlaces) =>
    parseFileOffThread(`group:${who.groupId}`, request.format, content, request.crs, maxRows, request.encoding === 'base64', places).catch((err: unknown) => {
      throw err instanceof FileTooComplex ? invalid(MAP_MSG.importUnreadable) : err
    })
  let parsed = await parse(request.content)
  if (parsed.addresses && second !== null) {
    progress.step('geocoding', 0, parsed.addresses.length)
    const places = await placesOf(parsed.addresses, geocoder, progress)
    progress.step('reading')
    parsed = await parse(second, places)
  }
  if (parsed.tooManyRows) {
    if (room <= IMPORT_MAX_ROWS) throw new BusinessError(ErrCode.LIMIT_REACHED, markerLimitMessage(limits))
    throw invalid(MAP_IO_MSG.importTooManyRows(IMPORT_MAX_ROWS))
  }
  const fileProblem = parsed.errors.find((e) => e.row === 0)
  if (fileProblem) throw invalid(fileProblem.message)
  const summary = parsed.summary

  const chosenKind = layer.type as MarkerLayerKind
  const base = baseName(request.file_name, layer.name)
  const targets = new Map<MarkerLayerKind, Target>()
  const targetOf = async (kind: MarkerLayerKind): Promise<Target> => {
    let target = targets.get(kind)
    if (!target) {
      const own = kind === chosenKind
      const fields = own ? (await fieldRowsOfLayer(db.kysely, who.groupId, layer.id)).map(toLayerField) : []
      target = { kind, layer: own ? layer : null, name: own ? layer.name : IMPORT_MSG.siblingLayer(base, kind), fields, rows: [], notes: [] }
      targets.set(kind, target)
    }
    return target
  }
  await targetOf(chosenKind)

  const at = now.toISOString()
  const errors: ImportRowError[] = [...parsed.errors]
  for (let i = 0; i < parsed.rows.length; i++) {
    if (i % ROWS_PER_SLICE === 0) {
      if (i > 0) await new Promise((next) => setImmediate(next))
      progress.step('checking', i, parsed.rows.length)
    }
    const row = parsed.rows[i]
    const target = await targetOf(layerKindOf(row.type))
    const built = markerOfRow(target, row)
    if (typeof built === 'string') errors.push({ row: row.row, message: built })
    else {
      target.rows.push({ ...built.marker, group_id: who.groupId, creator_id: who.userId, created_at: at, updated_at: at, deleted_at: null })
      target.notes.push(built.note)
    }
  }
  if (errors.length > 0) {
    errors.sort((a, b) => a.row - b.row)
    return { imported: 0, errors: errors.slice(0, IMPORT_ERRORS_LISTED), invalid_rows: errors.length, message: MAP_MSG.importRowsInvalid(errors.length), summary, layers: [] }
  }

  const filled = [...targets.values()].filter((t) => t.rows.length > 0 || t.layer)
  const total = filled.reduce((n, t) => n + t.rows.length, 0)
  // The last moment to stop: from here the import is written whole.
  progress.step('writing', 0, total)
  let notes = 0
  const layers = await inTransaction(db, async (trx) => {
    // Checked again inside the transaction: the layer may have gone meanwhile.
    const { layer: current } = await requireOnLayer(trx, who, layer.id, PERM.LAYER_IMPORT)
    await requireRoomForMarkers(trx, who.groupId, total, now)
    const counts = await markerCountsByLayer(trx, who.groupId)
    const written: ImportLayer[] = []
    for (const target of filled) {
      const created = !target.layer
      const into = target.layer ? current : await findLayerOrFail(trx, who.groupId, await createLayer(trx, who, { name: target.name, type: target.kind, parent_id: current.parent_id }, at))
      if (target.layer && target.rows.length === 0) continue
      const before = created ? 0 : (counts.get(into.id) ?? 0)
      const inserted = await insertMarkers(
        trx,
        target.rows.map((r) => ({ ...r, layer_id: into.id })),
      )
      const changes: ChangeEntry[] = inserted.map((m) => markerChange(m, 'upsert'))
      for (let i = 0; i < inserted.length; i++) {
        const content = target.notes[i]
        if (!content) continue
        const note = await insertNote(trx, { group_id: who.groupId, marker_id: inserted[i].id, content, photos: [], user_id: who.userId, at })
        changes.push({ kind: 'note', id: note.id, op: 'upsert', rev: note.rev, layer_id: into.id, marker_id: note.marker_id })
        notes++
      }
      await logChanges(trx, who.groupId, changes, at)
      // One entry per layer for the whole import (not one per marker): the layer with its count before and after.
      await recordLayerOp(trx, who, 'update', { row: into, markerCount: before }, { row: into, markerCount: before + inserted.length }, at)
      written.push({ id: into.id, name: into.name, type: into.type as LayerType, imported: inserted.length, created })
    }
    return written
  })
  return { imported: total, errors: [], invalid_rows: 0, message: MAP_MSG.importOk(total), summary, layers, notes }
}

async function findLayerOrFail(trx: Executor, groupId: number, id: number): Promise<LayerRow> {
  const row = await findLayer(trx, groupId, id)
  if (!row) throw new Error(`layer ${id} made by this import is gone`)
  return row
}

type BuiltMarker = Omit<NewMarker, 'group_id' | 'creator_id' | 'created_at' | 'updated_at' | 'deleted_at'>

/**
 * The stored columns of one imported row (its layer set when written) and the note its
 * description becomes, or the reason it cannot be a marker of this layer.
 */
function markerOfRow(target: Pick<Target, 'kind' | 'fields'>, row: ImportRow): { marker: BuiltMarker; note: string | null } | string {
  const kindProblem = checkKindFits({ type: target.kind }, row.type)
  if (kindProblem) return kindProblem
  const { fields } = target
  const description = fields.some((f) => f.name === DESCRIPTION_FIELD) ? null : (row.fields[DESCRIPTION_FIELD]?.trim() ?? null)
  if (description && description.length > NOTE_MAX) return IMPORT_MSG.descriptionTooLong(NOTE_MAX)
  const checked = checkFieldValues(fields, fieldValuesById(fields, row.fields))
  if (!checked.ok) return checked.error
  const parsed = parsePoints(row.points)
  if (!parsed.ok) return parsed.error
  const [minLng, minLat, maxLng, maxLat] = boundsOf(row.type, parsed.parts, row.radius)
  const marker: BuiltMarker = {
    layer_id: 0,
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
  return { marker, note: description || null }
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

export async function exportMarkers(db: Executor, caller: Caller | MapCaller, request: { layer_id: number; format: ExportFormat; crs: FileCrs; ids?: number[] }): Promise<ExportFile> {
  const who = await mapCaller(db, caller)
  const { layer } = await requireOnLayer(db, who, request.layer_id, PERM.LAYER_EXPORT)
  requireMarkerLayer(layer)
  const fields = (await fieldRowsOfLayer(db, who.groupId, layer.id)).map(toLayerField)
  const only = request.ids ? new Set(request.ids) : null
  const inLayer = await markersOfLayer(db, layer.id)
  const markers = (only ? inLayer.filter((m) => only.has(m.id)) : inLayer).map((m): ExportMarker => {
    const values = JSON.parse(m.fields) as Record<string, FieldValue>
    const byName: Record<string, string | number> = {}
    for (const field of fields) {
      const value = values[String(field.id)]
      if (value === undefined || value === null) continue
      byName[field.name] = Array.isArray(value) ? value.join(' ') : value
    }
    return { name: m.name, type: m.type as MarkerType, points: m.points, radius: m.radius, fields: byName }
  })
  return exportFile(request.format, layer.name, markers, { crs: request.crs, fieldNames: fields.map((f) => f.name), title: layer.name })
}
