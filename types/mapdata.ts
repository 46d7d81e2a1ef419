/**
 * Map data (SPEC 3): layers in folders, markers of seven kinds, notes, custom fields,
 * title styles, icons, uploads and the operation log. Dates are ISO 8601 strings; ids integers.
 */

/** 0 folder, 1 point layer, 2 line layer, 3 area layer. */
export type LayerType = 0 | 1 | 2 | 3

export interface Layer {
  id: number
  name: string
  /** 0 at the root. */
  parent_id: number
  type: LayerType
  /** Markers in this layer (for a folder: in all its descendants). */
  marker_count: number
  /** Shown on the caller's map (per user, persisted by /api/layer/setting/show). */
  show: boolean
  /** The caller may do everything on this layer (administrator or group manager). */
  manager: boolean
  /** Permission ids the caller holds on this layer (src/domain/permissions.ts). */
  layer_opts: string[]
  sort: number
  /** The group's default layer for its kind. */
  is_default: boolean
  /** Revision: 1 when created, one more on every change (types/sync.ts). */
  rev: number
  created_at: string
  updated_at: string
}

/** 0 point; 1 solid line; 2 dashed line; 3 polygon; 4 rectangle (two corners); 5 circle (centre + radius); 6 dashed multi-part polygon. */
export type MarkerType = 0 | 1 | 2 | 3 | 4 | 5 | 6

/** Marker style (DESIGN 9): unknown keys are dropped, not stored. */
export interface MarkerStyle {
  color?: string
  fill_color?: string
  opacity?: number
  fill_opacity?: number
  dashed?: boolean
  icon?: string
  size?: number
}

export type FieldValue = string | number | string[] | null

export interface Marker {
  id: number
  layer_id: number
  name: string
  type: MarkerType
  /** 'lng,lat' vertices joined by '|' (GCJ-02); kind 6 separates parts with ';'. */
  points: string
  style: MarkerStyle
  /** Stroke width for lines and areas, icon size for points. */
  width: number
  /** Circle radius in metres (kind 5), else 0. */
  radius: number
  sort: number
  /** Custom field values by field id (as string keys). */
  fields: Record<string, FieldValue>
  creator_id: number
  creator_name: string
  /** Revision: 1 when created, one more on every change (types/sync.ts). */
  rev: number
  created_at: string
  updated_at: string
  /** The id the creating phone gave it (src/domain/clientId.ts), so that it knows its queued copy when the change log brings it; absent when none. */
  client_id?: string
}

/**
 * Marker without server-made fields, as the client sends it to /api/marker/save. `rev` is the
 * revision the edit started from: a save over a newer one is refused with CONFLICT (types/sync.ts).
 * `client_id` makes a create idempotent: the same id again answers the marker made the first time.
 */
export type MarkerInput = Pick<Marker, 'layer_id' | 'name' | 'type' | 'points'> &
  Partial<Pick<Marker, 'style' | 'width' | 'radius' | 'sort' | 'fields'>> & { id?: number; rev?: number; client_id?: string }

export type FieldKind = 'text' | 'number' | 'date' | 'choice' | 'phone' | 'photo'

export interface LayerField {
  id: number
  layer_id: number
  name: string
  kind: FieldKind
  /** Choices of a 'choice' field. */
  options: string[]
  required: boolean
  sort: number
  /** Revision: 1 when created, one more on every change (types/sync.ts). */
  rev: number
}

/** /api/layer/field/save: a new field without `id`, an edit with it. */
export interface FieldInput {
  id?: number
  layer_id: number
  name: string
  kind: FieldKind
  options?: string[]
  required?: boolean
  /** The revision the edit started from (types/sync.ts). */
  rev?: number
}

export interface Note {
  id: number
  marker_id: number
  content: string
  /** URLs returned by /api/system/upload. */
  photos: string[]
  user_id: number
  user_name: string
  /** Revision: 1 when created, one more on every change (types/sync.ts). */
  rev: number
  created_at: string
  updated_at: string
  /** The id the creating phone gave it (src/domain/clientId.ts); absent when none. */
  client_id?: string
}

export interface TitleStyle {
  id: number
  /** null is the group's default style. */
  layer_id: number | null
  font_size: number
  color: string
  bg_color: string
  padding: number
  border_weight: number
  border_color: string
  /** Revision: 1 when created, one more on every change (types/sync.ts). */
  rev: number
}

/** How titles look: a title style without its identity and revision. */
export type TitleStyleLook = Omit<TitleStyle, 'id' | 'layer_id' | 'rev'>

export interface Icon {
  id: number
  name: string
  url: string
}

export interface Upload {
  url: string
  /** KB, as storage quotas are counted (SPEC 3: file_rep_size in KB units). */
  size_kb: number
  name: string
}

export type OpEntity = 'layer' | 'marker' | 'note' | 'field'
export type OpAction = 'create' | 'update' | 'delete' | 'restore'

export interface OpLog {
  id: number
  at: string
  user_id: number
  user_name: string
  entity: OpEntity
  entity_id: number
  action: OpAction
  /** The entity's name at the time (layer, marker or field name; a note's first characters). */
  name: string
  before: unknown | null
  after: unknown | null
  /** A delete whose entity is still deleted, or a bulk action's change still its marker's state, which a user with the log permission may restore. */
  restorable: boolean
  /** The bulk action of the data list this entry is one marker of (/api/oplog/restore/batch restores it whole); absent for a single change. */
  batch_id?: string
}

export type ImportFormat = 'geojson' | 'kml' | 'csv'
/** What an import reads: the export formats and KMZ (a zipped KML). */
/** Formats read on import only: KMZ (a zipped KML), GPX, Excel (.xlsx), a zipped Shapefile. */
export type ImportFileFormat = ImportFormat | 'kmz' | 'gpx' | 'xlsx' | 'shp'
/** Formats a layer exports to: the text ones, GPX, KMZ and Excel (.xlsx, the point list or WKT table). */
export type ExportFormat = ImportFormat | 'kmz' | 'gpx' | 'xlsx'
/** Coordinates in import/export files: WGS-84 by default (GPS, OSM, GIS tools), or already GCJ-02. */
export type FileCrs = 'wgs84' | 'gcj02'

export interface ImportRowError {
  /** 1-based row (CSV line after the header, or feature/placemark number). */
  row: number
  message: string
}

/** What an import file holds: markers by kind (after multi-geometries are split), records without geometry, records split. */
export interface FileSummary {
  points: number
  lines: number
  areas: number
  no_geometry: number
  /** Records with several geometries (MultiPoint, MultiLineString, GeometryCollection, MultiGeometry) that became several markers. */
  split: number
}

/** A layer an import wrote into: the chosen one, or a sibling it created for another kind of the file. */
export interface ImportLayer {
  id: number
  name: string
  type: LayerType
  imported: number
  created: boolean
}

export interface ImportResult {
  imported: number
  errors: ImportRowError[]
  /** How many rows were bad in all (errors lists the first 100). */
  invalid_rows?: number
  /** What to tell the user: MAP_MSG.importOk(n) or MAP_MSG.importRowsInvalid(n). */
  message?: string
  /** What the file holds (absent from servers before it). */
  summary?: FileSummary
  /** Where the markers went, the chosen layer first; empty when nothing was imported. */
  layers?: ImportLayer[]
  /** Descriptions kept as marker notes (the layer has no description field). */
  notes?: number
}

/** Where an import is: reading the file, placing addresses, checking rows, writing; cancelled before writing; done. */
export type ImportPhase = 'reading' | 'geocoding' | 'checking' | 'writing' | 'done' | 'cancelled'

/** /api/marker/import/progress: done of total for the phases that count (geocoding: addresses; checking: rows). */
export interface ImportProgress {
  phase: ImportPhase
  done: number
  total: number
}

export interface ExportFile {
  filename: string
  mime: string
  /** The file's text, or with encoding base64 its bytes (KMZ, Excel). */
  content: string
  encoding?: 'base64'
}

export interface PermissionItem {
  id: string
  name: string
  group: string
}
