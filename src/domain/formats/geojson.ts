/**
 * GeoJSON (RFC 7946): Point, LineString, Polygon (outer ring) and MultiPolygon; MultiPoint,
 * MultiLineString and GeometryCollection become one marker per member. Our kinds that
 * GeoJSON lacks travel in properties: a circle is a Point with `radius` (metres), a rectangle a
 * Polygon with `kind: 'rectangle'`, a dashed line a LineString with `kind: 'dashed_line'`.
 * Other properties are custom field values by field name.
 */
import type { FileCrs, MarkerType } from '../../../types/mapdata'
import { MAP_IO_MSG } from '../messages'
import type { LngLat } from '../points'
import {
  closeRing,
  fileHoles,
  fileParts,
  fieldsFrom,
  KIND_NAMES,
  kindFromName,
  nameKeyOf,
  openRing,
  pointGeometry,
  rectangleRing,
  requireAtMost,
  RowCollector,
  unreadable,
  type ExportMarker,
  type ExportOptions,
  type FileGeometry,
  type ParsedFile,
} from './rows'
import { MARKER_KIND } from '../markerKinds'
import { IMPORT_MSG } from '../importMessages'

type Position = unknown[]

interface GeoJsonGeometry {
  type: string
  coordinates?: unknown
}

interface GeoJsonFeature {
  type: 'Feature'
  geometry: GeoJsonGeometry | null
  properties: Record<string, unknown> | null
}

const GEOMETRY_TYPES = ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection']

export function parseGeoJson(text: string, crs: FileCrs = 'wgs84', maxRows = Infinity): ParsedFile {
  let root: unknown
  try {
    root = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch {
    return unreadable()
  }
  const features = featuresOf(root)
  if (!features) return unreadable()
  requireAtMost(features.length, maxRows)
  const out = new RowCollector(crs, maxRows)
  features.forEach((feature, index) => {
    const row = index + 1
    const f = (feature && typeof feature === 'object' ? feature : {}) as Partial<GeoJsonFeature>
    const properties = f.properties && typeof f.properties === 'object' ? f.properties : {}
    const nameKey = nameKeyOf(properties)
    out.add(row, nameKey ? properties[nameKey] : undefined, geometryOf(f.geometry, properties), fieldsFrom(Object.entries(properties), nameKey))
  })
  return out.result()
}

function featuresOf(root: unknown): unknown[] | null {
  if (!root || typeof root !== 'object') return null
  const r = root as { type?: unknown; features?: unknown }
  if (r.type === 'FeatureCollection') return Array.isArray(r.features) ? r.features : null
  if (r.type === 'Feature') return [root]
  if (typeof r.type === 'string' && GEOMETRY_TYPES.includes(r.type)) return [{ type: 'Feature', geometry: root, properties: {} }]
  return null
}

function geometryOf(geometry: GeoJsonGeometry | null | undefined, properties: Record<string, unknown>): FileGeometry | FileGeometry[] | string {
  if (!geometry || typeof geometry !== 'object') return IMPORT_MSG.featureNoGeometry
  const kind = kindFromName(properties.kind)
  const c = geometry.coordinates
  switch (geometry.type) {
    case 'MultiPoint':
    case 'MultiLineString': {
      const single = geometry.type === 'MultiPoint' ? 'Point' : 'LineString'
      const members = Array.isArray(c) ? c : []
      return several(members.map((coordinates: unknown) => geometryOf({ type: single, coordinates }, properties)))
    }
    case 'GeometryCollection': {
      const members = (geometry as { geometries?: unknown }).geometries
      return several((Array.isArray(members) ? members : []).map((member) => geometryOf(member as GeoJsonGeometry, properties)))
    }
    case 'Point':
      return pointGeometry(position(c), kind, properties.radius)
    case 'LineString':
      return { type: kind === MARKER_KIND.dashedLine ? MARKER_KIND.dashedLine : MARKER_KIND.solidLine, parts: [positions(c)] }
    case 'Polygon': {
      const [ring, ...holes] = rings(c)
      // Our rectangle is its two opposite corners: the first and the third of the four.
      if (kind === MARKER_KIND.rectangle && ring.length === 4 && !holes.length) return { type: MARKER_KIND.rectangle, parts: [[ring[0], ring[2]]] }
      return { type: MARKER_KIND.polygon, parts: [ring], holes: [holes] }
    }
    case 'MultiPolygon': {
      const polygons = (Array.isArray(c) ? c : []).map(rings)
      return { type: MARKER_KIND.multiPolygon, parts: polygons.map((p) => p[0]), holes: polygons.map((p) => p.slice(1)) }
    }
    default:
      return MAP_IO_MSG.importGeometryUnsupported(String(geometry.type))
  }
}

/** The members of a multi-geometry as one list; the first member's problem stands for the record, an empty one has no coordinates. */
function several(members: (FileGeometry | FileGeometry[] | string)[]): FileGeometry[] | string {
  const problem = members.find((m): m is string => typeof m === 'string')
  if (problem) return problem
  const flat = members.flat() as FileGeometry[]
  return flat.length > 0 ? flat : MAP_IO_MSG.importGeometryMissing
}

/** A position as given; what is not a pair of numbers becomes NaN for the points check to name. */
function position(value: unknown): LngLat {
  const p = (Array.isArray(value) ? value : []) as Position
  return { lng: coordinate(p[0]), lat: coordinate(p[1]) }
}

function coordinate(value: unknown): number {
  return typeof value === 'number' ? value : NaN
}

/** A polygon's rings, outer first, each without its closing vertex. */
function rings(value: unknown): LngLat[][] {
  const list = Array.isArray(value) && value.length ? value : [undefined]
  return list.map((ring) => openRing(positions(ring)))
}

function positions(value: unknown): LngLat[] {
  return Array.isArray(value) ? value.map(position) : []
}

export function serializeGeoJson(markers: ExportMarker[], options: ExportOptions = {}): string {
  const crs = options.crs ?? 'wgs84'
  const features = markers.map((m) => ({
    type: 'Feature',
    properties: { name: m.name, kind: KIND_NAMES[m.type], ...(m.type === MARKER_KIND.circle ? { radius: m.radius } : {}), ...m.fields },
    geometry: geometryFor(m, crs),
  }))
  return JSON.stringify({ type: 'FeatureCollection', features })
}

function geometryFor(m: ExportMarker, crs: FileCrs): GeoJsonGeometry {
  const parts = fileParts(m, crs)
  const holes = fileHoles(m, crs)
  const polygon = (i: number) => [parts[i], ...(holes[i] ?? [])].map((ring) => closeRing(ring).map(xy))
  const xy = (p: LngLat) => [p.lng, p.lat]
  const type: MarkerType = m.type
  switch (type) {
    case MARKER_KIND.point:
    case MARKER_KIND.circle:
      return { type: 'Point', coordinates: xy(parts[0][0]) }
    case MARKER_KIND.solidLine:
    case MARKER_KIND.dashedLine:
      return { type: 'LineString', coordinates: parts[0].map(xy) }
    case MARKER_KIND.polygon:
      return { type: 'Polygon', coordinates: polygon(0) }
    case MARKER_KIND.rectangle:
      return { type: 'Polygon', coordinates: [closeRing(rectangleRing(m, crs)).map(xy)] }
    case MARKER_KIND.multiPolygon:
      return { type: 'MultiPolygon', coordinates: parts.map((_, i) => polygon(i)) }
  }
}
