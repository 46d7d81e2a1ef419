/**
 * What every file format shares: the rows a parser yields, the markers a serialiser takes, the
 * coordinate conversion between the file's system and the stored GCJ-02, and the per-row checks.
 */
import type { FileCrs, FileSummary, ImportRowError, MarkerType } from '../../../types/mapdata'
import { gcj02ToWgs84, wgs84ToGcj02 } from '../geo'
import { MARKER_NAME_MAX } from '../markers'
import { MAP_MSG } from '../messages'
import { checkGeometry, formatCoord, MARKER_TYPE_NAMES, parsePoints, rectangleCorners, serializePoints, type LngLat } from '../points'
import { MARKER_KIND, isArea, isLine } from '../markerKinds'
import { IMPORT_MSG } from '../importMessages'

/** One marker read from a file: GCJ-02 points as stored, field values by field name. */
export interface ImportRow {
  /** 1-based, as errors name it. */
  row: number
  name: string
  type: MarkerType
  points: string
  /** Metres; circles only, else 0. */
  radius: number
  fields: Record<string, string>
}

export interface ParsedFile {
  rows: ImportRow[]
  /** Row 0 is the file itself (unreadable, wrong columns). */
  errors: ImportRowError[]
  /** What the file holds, good rows and bad (absent when the file itself is unreadable). */
  summary?: FileSummary
  /** The file holds more records than the parse was allowed: it stopped there, rows and errors are empty. */
  tooManyRows?: true
  /**
   * A table with an address column and no coordinates: its distinct addresses, to be placed by a
   * geocoder and the file read again with those places (rows and errors are empty until then).
   */
  addresses?: string[]
}

/** Where each address of a table is (GCJ-02 [lng, lat], as AMap answers), or null where it was not found. */
export type AddressPlaces = Record<string, [number, number] | null>

/** Thrown by a parser that meets more records than it may read; parseFile answers it as tooManyRows. */
export class TooManyRows extends Error {
  constructor() {
    super('too many rows')
  }
}

/** A parser that learns how many records the file holds before reading them stops here when they are too many. */
export function requireAtMost(count: number, maxRows: number): void {
  if (count > maxRows) throw new TooManyRows()
}

/** One marker to write: stored (GCJ-02) points, field values by field name. */
export interface ExportMarker {
  name: string
  type: MarkerType
  points: string
  radius: number
  fields: Record<string, string | number>
}

export interface ExportOptions {
  crs?: FileCrs
  /** Field names in the layer's order (CSV columns). */
  fieldNames?: string[]
  /** The document's title (KML). */
  title?: string
}

/** Stable names of the marker kinds in files (GeoJSON `properties.kind`, KML data, CSV column). */
export const KIND_NAMES: Record<MarkerType, string> = {
  0: 'point',
  1: 'line',
  2: 'dashed_line',
  3: 'polygon',
  4: 'rectangle',
  5: 'circle',
  6: 'multi_polygon',
}

/**
 * Where a marker's name is found, first present wins: what we write, what GDAL and QGIS write
 * (Name, NAME) and what Chinese tools and spreadsheets write. The key used is not a field too.
 */
export const NAME_KEYS = ['name', 'Name', 'NAME', '名称', 'title', '标题'] as const

/** The key of a record's name among its keys, if any holds a value. */
export function nameKeyOf(record: Record<string, unknown>): string | undefined {
  return NAME_KEYS.find((key) => {
    const value = record[key]
    return (typeof value === 'string' && value.trim() !== '') || typeof value === 'number'
  })
}

/** The field that descriptions go to (KML <description>, any description property). */
export const DESCRIPTION_FIELD = 'description'

/** Keys that describe the geometry, never custom fields. */
export const RESERVED_KEYS = ['name', 'kind', 'radius'] as const

export function isReservedKey(key: string): boolean {
  return (RESERVED_KEYS as readonly string[]).includes(key.trim().toLowerCase())
}

/** A geometry as found in a file, still in the file's coordinate system. */
export interface FileGeometry {
  type: MarkerType
  parts: LngLat[][]
  /** Each polygon part's inner rings (closing vertex dropped), as the points codec keeps them. */
  holes?: LngLat[][][]
  radius?: number
}

export function unreadable(message: string = MAP_MSG.importUnreadable): ParsedFile {
  return { rows: [], errors: [{ row: 0, message }] }
}

/** Messages of a record that has no geometry to read (counted apart in the summary). */
const NO_GEOMETRY: readonly string[] = [IMPORT_MSG.noGeometry, IMPORT_MSG.featureNoGeometry]

/**
 * Collects rows and errors; every row is converted and checked exactly as the server checks a
 * marker. A record with several geometries (MultiPoint, MultiLineString, GeometryCollection, KML
 * MultiGeometry of mixed members) becomes several rows of the same number, named 名称-1, 名称-2 ...
 */
export class RowCollector {
  readonly rows: ImportRow[] = []
  readonly errors: ImportRowError[] = []
  readonly summary: FileSummary = { points: 0, lines: 0, areas: 0, no_geometry: 0, split: 0 }
  private seen = 0

  /** maxRows: records (good or bad) past which the file is refused unread (TooManyRows). */
  constructor(
    private readonly crs: FileCrs = 'wgs84',
    private readonly maxRows = Infinity,
  ) {}

  fail(row: number, message: string): void {
    this.errors.push({ row, message })
  }

  add(row: number, name: unknown, geometry: FileGeometry | FileGeometry[] | string, fields: Record<string, string> = {}): void {
    if (typeof geometry === 'string') {
      requireAtMost(++this.seen, this.maxRows)
      if (NO_GEOMETRY.includes(geometry)) this.summary.no_geometry++
      return this.fail(row, geometry)
    }
    if (!Array.isArray(geometry)) return this.addOne(row, name, geometry, fields, '')
    if (geometry.length > 1) this.summary.split++
    geometry.forEach((one, i) => this.addOne(row, name, one, fields, geometry.length > 1 ? `-${i + 1}` : ''))
  }

  private addOne(row: number, name: unknown, geometry: FileGeometry, fields: Record<string, string>, suffix: string): void {
    requireAtMost(++this.seen, this.maxRows)
    const { type } = geometry
    if (isLine(type)) this.summary.lines++
    else if (isArea(type)) this.summary.areas++
    else this.summary.points++
    const radius = type === MARKER_KIND.circle ? Number(geometry.radius ?? 0) : 0
    const stored = (ring: LngLat[]) => ring.map((p) => toStored(p, this.crs))
    const points = serializePoints(
      geometry.parts.map(stored),
      (geometry.holes ?? []).map((rings) => rings.map(stored)),
    )
    const problem = checkGeometry(type, points, radius)
    if (problem) return this.fail(row, problem)
    const text = typeof name === 'string' || typeof name === 'number' ? String(name).trim() : ''
    const full = (text || `${MARKER_TYPE_NAMES[type]}${row}`) + suffix
    if (full.length > MARKER_NAME_MAX) return this.fail(row, MAP_MSG.markerNameTooLong(MARKER_NAME_MAX))
    this.rows.push({ row, name: full, type, points, radius, fields })
  }

  result(): ParsedFile {
    if (this.rows.length === 0 && this.errors.length === 0) return unreadable(MAP_MSG.importEmpty)
    return { rows: this.rows, errors: this.errors, summary: this.summary }
  }
}

/** A file vertex to stored GCJ-02. Non-numbers become NaN, which the points check refuses by vertex. */
function toStored(p: LngLat, crs: FileCrs): LngLat {
  const lng = Number(p.lng)
  const lat = Number(p.lat)
  if (crs === 'gcj02' || !Number.isFinite(lng) || !Number.isFinite(lat)) return { lng, lat }
  return wgs84ToGcj02({ lng, lat })
}

/** A stored marker's parts in the file's coordinate system, rounded like the points codec. */
export function fileParts(marker: Pick<ExportMarker, 'points'>, crs: FileCrs = 'wgs84'): LngLat[][] {
  const parsed = parsePoints(marker.points)
  if (!parsed.ok) return []
  return parsed.parts.map((part) => fileRing(part, crs))
}

/** Each part's holes (inner rings) in the file's coordinate system; [] for a part without. */
export function fileHoles(marker: Pick<ExportMarker, 'points'>, crs: FileCrs = 'wgs84'): LngLat[][][] {
  const parsed = parsePoints(marker.points)
  if (!parsed.ok) return []
  return parsed.holes.map((rings) => rings.map((ring) => fileRing(ring, crs)))
}

function fileRing(ring: LngLat[], crs: FileCrs): LngLat[] {
  return ring.map((p) => {
    const q = crs === 'gcj02' ? p : gcj02ToWgs84(p)
    return { lng: Number(formatCoord(q.lng)), lat: Number(formatCoord(q.lat)) }
  })
}

/** The four corners of a rectangle from its two stored corners (a, b), in stored coordinates first. */
export function rectangleRing(marker: Pick<ExportMarker, 'points'>, crs: FileCrs = 'wgs84'): LngLat[] {
  const parsed = parsePoints(marker.points)
  if (!parsed.ok || parsed.parts[0].length !== 2) return []
  const [a, b] = parsed.parts[0]
  const corners = rectangleCorners(a, b)
  return fileParts({ points: serializePoints([corners]) }, crs)[0]
}

/** A polygon ring without the closing vertex that GeoJSON and KML repeat. */
export function openRing(ring: LngLat[]): LngLat[] {
  if (ring.length > 1) {
    const first = ring[0]
    const last = ring[ring.length - 1]
    if (first.lng === last.lng && first.lat === last.lat) return ring.slice(0, -1)
  }
  return ring
}

export function closeRing(ring: LngLat[]): LngLat[] {
  return ring.length ? [...ring, ring[0]] : ring
}

/** The kind a file names, if it is one of ours. */
export function kindFromName(value: unknown): MarkerType | null {
  const name = typeof value === 'string' ? value.trim().toLowerCase() : ''
  const hit = (Object.entries(KIND_NAMES) as [string, string][]).find(([, n]) => n === name)
  return hit ? (Number(hit[0]) as MarkerType) : null
}

/** A field value as text in a file cell. */
export function cellText(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (Array.isArray(value)) return value.map((v) => String(v)).join(' ')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** Values of the non-reserved keys as text, but the name's key; any spelling of description becomes `description`. */
export function fieldsFrom(entries: Iterable<[string, unknown]>, nameKey?: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of entries) {
    if (isReservedKey(key) || key === nameKey) continue
    const text = cellText(value)
    const name = key.trim().toLowerCase() === DESCRIPTION_FIELD ? DESCRIPTION_FIELD : key.trim()
    if (text !== null && text !== '') out[name] = text
  }
  return out
}

/** A point's geometry: a circle when the file gives a radius or says so. */
export function pointGeometry(p: LngLat, kind: MarkerType | null, radiusValue: unknown): FileGeometry {
  const radius = radiusValue === undefined || radiusValue === null || radiusValue === '' ? 0 : Number(radiusValue)
  if (kind === MARKER_KIND.circle || radius !== 0) return { type: MARKER_KIND.circle, parts: [[p]], radius }
  return { type: MARKER_KIND.point, parts: [[p]] }
}
