/**
 * KML 2.2: Placemarks (in any Document/Folder nesting, numbered in document order) with Point,
 * LineString, Polygon (outer boundary), gx:Track or gx:MultiTrack (lines), or a MultiGeometry:
 * of Polygons only, one multi-part area; else one marker per member. ExtendedData carries custom
 * field values by name, and our `kind` and `radius` (circle) like GeoJSON's properties; the
 * Placemark's <description> is the `description` value unless ExtendedData has one.
 */
import { XMLBuilder, XMLParser } from 'fast-xml-parser'
import type { FileCrs } from '../../../types/mapdata'
import { MAP_IO_MSG } from '../messages'
import type { LngLat } from '../points'
import {
  closeRing,
  DESCRIPTION_FIELD,
  fieldsFrom,
  fileHoles,
  fileParts,
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

/** fast-xml-parser's ordered form: each element is {tag: children[], ':@'?: attributes}; text is {'#text'}. */
type Node = Record<string, unknown>

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
})

const GEOMETRY_TAGS = ['Point', 'LineString', 'Polygon', 'MultiGeometry', 'LinearRing', 'MultiTrack', 'Track', 'Model']

export function parseKml(text: string, crs: FileCrs = 'wgs84', maxRows = Infinity): ParsedFile {
  // Building the tree is most of the work (and memory): count first, stop at the limit.
  if (Number.isFinite(maxRows)) requireAtMost(countPlacemarks(text, maxRows), maxRows)
  let tree: Node[]
  try {
    tree = parser.parse(text.replace(/^\uFEFF/, '')) as Node[]
  } catch {
    return unreadable()
  }
  if (!Array.isArray(tree) || !tree.some((n) => tagOf(n) === 'kml')) return unreadable()
  const out = new RowCollector(crs, maxRows)
  placemarks(tree).forEach((placemark, index) => {
    const data = extendedData(placemark)
    const nameKey = nameKeyOf(Object.fromEntries(data))
    // <name> first; a file with only ExtendedData names (名称, title ...) still names its markers.
    const name = textOf(child(placemark, 'name')) || (nameKey ? data.find(([key]) => key === nameKey)?.[1] : '')
    const fields = fieldsFrom(data, nameKey)
    const description = textOf(child(placemark, 'description'))
    if (description && fields[DESCRIPTION_FIELD] === undefined) fields[DESCRIPTION_FIELD] = description
    out.add(index + 1, name, geometryOf(placemark, data), fields)
  })
  return out.result()
}

/**
 * Placemark start tags outside comments and CDATA (where a raw '<' cannot stand otherwise, so in a
 * well-formed file each is one Placemark), counted up to one past `stopAfter`.
 */
export function countPlacemarks(text: string, stopAfter = Infinity): number {
  const tags = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<(?:[\w.-]+:)?Placemark[\s/>]/g
  let count = 0
  for (let m = tags.exec(text); m && count <= stopAfter; m = tags.exec(text)) {
    if (m[0][1] !== '!') count++
  }
  return count
}

function tagOf(node: Node): string {
  return Object.keys(node).find((k) => k !== ':@') ?? ''
}

function childrenOf(node: Node | undefined): Node[] {
  if (!node) return []
  const value = node[tagOf(node)]
  return Array.isArray(value) ? (value as Node[]) : []
}

function child(node: Node | undefined, tag: string): Node | undefined {
  return childrenOf(node).find((n) => tagOf(n) === tag)
}

function attribute(node: Node, name: string): string {
  const attrs = node[':@'] as Record<string, unknown> | undefined
  return attrs && typeof attrs[name] === 'string' ? (attrs[name] as string) : ''
}

function textOf(node: Node | undefined): string {
  return childrenOf(node)
    .map((n) => (typeof n['#text'] === 'string' || typeof n['#text'] === 'number' ? String(n['#text']) : ''))
    .join('')
    .trim()
}

/** Every Placemark in document order, however deep. */
function placemarks(nodes: Node[]): Node[] {
  const found: Node[] = []
  const walk = (list: Node[]) => {
    for (const node of list) {
      const tag = tagOf(node)
      if (tag === 'Placemark') found.push(node)
      else if (tag !== '#text') walk(childrenOf(node))
    }
  }
  walk(nodes)
  return found
}

/** <Data name><value> and <SchemaData><SimpleData name> pairs. */
function extendedData(placemark: Node): [string, string][] {
  const pairs: [string, string][] = []
  for (const node of childrenOf(child(placemark, 'ExtendedData'))) {
    if (tagOf(node) === 'Data') pairs.push([attribute(node, 'name'), textOf(child(node, 'value'))])
    if (tagOf(node) === 'SchemaData') {
      for (const simple of childrenOf(node)) if (tagOf(simple) === 'SimpleData') pairs.push([attribute(simple, 'name'), textOf(simple)])
    }
  }
  return pairs.filter(([name]) => name !== '')
}

function geometryOf(placemark: Node, data: [string, string][]): FileGeometry | FileGeometry[] | string {
  const geometry = childrenOf(placemark).find((n) => GEOMETRY_TAGS.includes(tagOf(n)))
  if (!geometry) return IMPORT_MSG.noGeometry
  const value = (key: string) => data.find(([name]) => name.toLowerCase() === key)?.[1]
  const kind = kindFromName(value('kind'))
  return fromGeometry(geometry, kind, value('radius'))
}

function fromGeometry(geometry: Node, kind: ReturnType<typeof kindFromName>, radius: string | undefined): FileGeometry | FileGeometry[] | string {
  const lineType = kind === MARKER_KIND.dashedLine ? MARKER_KIND.dashedLine : MARKER_KIND.solidLine
  switch (tagOf(geometry)) {
    case 'Point': {
      // Empty or self-closing <coordinates/>: the geometry is there, its coordinates are not.
      const [p] = coordinates(geometry)
      return p ? pointGeometry(p, kind, radius) : MAP_IO_MSG.importGeometryMissing
    }
    case 'LineString': {
      const line = coordinates(geometry)
      return line.length ? { type: lineType, parts: [line] } : MAP_IO_MSG.importGeometryMissing
    }
    case 'Track': {
      const track = trackCoordinates(geometry)
      return track.length ? { type: lineType, parts: [track] } : MAP_IO_MSG.importGeometryMissing
    }
    case 'Polygon': {
      const ring = outerRing(geometry)
      if (!ring.length) return MAP_IO_MSG.importGeometryMissing
      const holes = innerRings(geometry)
      if (kind === MARKER_KIND.rectangle && ring.length === 4 && !holes.length) return { type: MARKER_KIND.rectangle, parts: [[ring[0], ring[2]]] }
      return { type: MARKER_KIND.polygon, parts: [ring], holes: [holes] }
    }
    case 'MultiGeometry':
    case 'MultiTrack': {
      const members = childrenOf(geometry).filter((n) => GEOMETRY_TAGS.includes(tagOf(n)))
      const polygons = members.length > 0 && members.every((n) => tagOf(n) === 'Polygon')
      if (polygons && (members.length > 1 || kind === MARKER_KIND.multiPolygon)) return { type: MARKER_KIND.multiPolygon, parts: members.map(outerRing), holes: members.map(innerRings) }
      const each = members.map((member) => fromGeometry(member, kind, radius))
      const problem = each.find((m): m is string => typeof m === 'string')
      if (problem) return problem
      const flat = each.flat() as FileGeometry[]
      if (!flat.length) return MAP_IO_MSG.importGeometryMissing
      return flat.length === 1 ? flat[0] : flat
    }
    default:
      return MAP_IO_MSG.importGeometryUnsupported(tagOf(geometry))
  }
}

/** gx:Track: one <gx:coord>lng lat alt</gx:coord> per vertex (space-separated, unlike <coordinates>). */
function trackCoordinates(track: Node): LngLat[] {
  return childrenOf(track)
    .filter((n) => tagOf(n) === 'coord')
    .map((n) => {
      const [lng, lat] = textOf(n).split(/\s+/)
      return { lng: number(lng), lat: number(lat) }
    })
}

function outerRing(polygon: Node): LngLat[] {
  return openRing(coordinates(child(child(polygon, 'outerBoundaryIs'), 'LinearRing')))
}

/** The holes: one <innerBoundaryIs> per inner ring (as KML 2.2 writes them), or several rings in one (as some tools do). */
function innerRings(polygon: Node): LngLat[][] {
  return childrenOf(polygon)
    .filter((n) => tagOf(n) === 'innerBoundaryIs')
    .flatMap((inner) => childrenOf(inner).filter((n) => tagOf(n) === 'LinearRing'))
    .map((ring) => openRing(coordinates(ring)))
    .filter((ring) => ring.length > 0)
}

/** 'lng,lat[,alt]' tuples separated by white space. */
function coordinates(node: Node | undefined): LngLat[] {
  // Some tools write 'lng, lat': join the tuple before splitting on white space.
  const text = textOf(child(node, 'coordinates')).replace(/\s*,\s*/g, ',')
  if (!text) return []
  return text.split(/\s+/).map((tuple) => {
    const [lng, lat] = tuple.split(',')
    return { lng: number(lng), lat: number(lat) }
  })
}

function number(text: string | undefined): number {
  return text !== undefined && text.trim() !== '' ? Number(text) : NaN
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@', format: true, suppressEmptyNode: true })

export function serializeKml(markers: ExportMarker[], options: ExportOptions = {}): string {
  const crs = options.crs ?? 'wgs84'
  const placemark = markers.map((m) => {
    const data: [string, string | number][] = [['kind', KIND_NAMES[m.type]], ...(m.type === MARKER_KIND.circle ? [['radius', m.radius] as [string, number]] : []), ...Object.entries(m.fields)]
    return {
      name: m.name,
      ExtendedData: { Data: data.map(([name, value]) => ({ '@name': name, value: String(value) })) },
      ...geometryFor(m, crs),
    }
  })
  return builder.build({
    '?xml': { '@version': '1.0', '@encoding': 'UTF-8' },
    kml: { '@xmlns': 'http://www.opengis.net/kml/2.2', Document: { name: options.title ?? '', Placemark: placemark } },
  }) as string
}

function coordinateText(points: LngLat[]): string {
  return points.map((p) => `${p.lng},${p.lat}`).join(' ')
}

function polygon(ring: LngLat[], holes: LngLat[][] = []) {
  return {
    outerBoundaryIs: { LinearRing: { coordinates: coordinateText(closeRing(ring)) } },
    ...(holes.length ? { innerBoundaryIs: holes.map((hole) => ({ LinearRing: { coordinates: coordinateText(closeRing(hole)) } })) } : {}),
  }
}

function geometryFor(m: ExportMarker, crs: FileCrs): Record<string, unknown> {
  const parts = fileParts(m, crs)
  const holes = fileHoles(m, crs)
  switch (m.type) {
    case MARKER_KIND.point:
    case MARKER_KIND.circle:
      return { Point: { coordinates: coordinateText(parts[0]) } }
    case MARKER_KIND.solidLine:
    case MARKER_KIND.dashedLine:
      return { LineString: { coordinates: coordinateText(parts[0]) } }
    case MARKER_KIND.polygon:
      return { Polygon: polygon(parts[0], holes[0]) }
    case MARKER_KIND.rectangle:
      return { Polygon: polygon(rectangleRing(m, crs)) }
    case MARKER_KIND.multiPolygon:
      return { MultiGeometry: { Polygon: parts.map((part, i) => polygon(part, holes[i])) } }
  }
}
