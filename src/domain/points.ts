/**
 * The points codec of SPEC 3: vertices are 'lng,lat' strings joined by '|'; the parts of a kind 6
 * multi-part polygon are joined by ';'. A polygon part (kinds 3 and 6) may have holes: its outer
 * ring, then each inner ring after a '#' ('outer|…|…#hole|…|…'), so strings without holes read
 * as before. Coordinates are GCJ-02 as stored. Pure; the server uses it to refuse invalid geometry.
 */
import type { MarkerType } from '../../types/mapdata'
import { MAP_MSG } from './messages'
import { LAYER_KIND, MARKER_KIND, isLine, isPoint } from './markerKinds'

export interface LngLat {
  lng: number
  lat: number
}

/** [minLng, minLat, maxLng, maxLat] */
export type BBox = [number, number, number, number]

export const MARKER_TYPES: readonly MarkerType[] = Object.values(MARKER_KIND)
export const POINT_TYPES: readonly MarkerType[] = [MARKER_KIND.point]
export const LINE_TYPES: readonly MarkerType[] = [MARKER_KIND.solidLine, MARKER_KIND.dashedLine]
export const AREA_TYPES: readonly MarkerType[] = [MARKER_KIND.polygon, MARKER_KIND.rectangle, MARKER_KIND.circle, MARKER_KIND.multiPolygon]

/** Which layer type (1 point, 2 line, 3 area) holds a marker kind. */
export function layerTypeOf(type: MarkerType): 1 | 2 | 3 {
  if (isPoint(type)) return LAYER_KIND.point
  return isLine(type) ? LAYER_KIND.line : LAYER_KIND.area
}

/** The marker kinds a layer of this type holds (a folder holds none). */
export function markerTypesOf(layerType: number): readonly MarkerType[] {
  return layerType === LAYER_KIND.point ? POINT_TYPES : layerType === LAYER_KIND.line ? LINE_TYPES : layerType === LAYER_KIND.area ? AREA_TYPES : []
}

export function isDashed(type: MarkerType): boolean {
  return type === MARKER_KIND.dashedLine || type === MARKER_KIND.multiPolygon
}

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/

const POWERS_OF_TEN = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

/**
 * The number in text[from, to), exactly as Number() reads it, but several times faster for the
 * plain decimals stored points are ('116.397128'): with at most 15 digits the digits are an exact
 * integer and the power of ten is exact, so one division is the correctly rounded value (Clinger's
 * fast path). Anything else (exponents, spaces, other characters, long numbers) goes to `slow`,
 * Number() unless told otherwise.
 */
export function readNumber(text: string, from: number, to: number, slow: (piece: string) => number = Number): number {
  let i = from
  const negative = text.charCodeAt(i) === 45 // '-'
  if (negative) i++
  let digits = 0
  let decimals = -1
  let value = 0
  for (; i < to; i++) {
    const c = text.charCodeAt(i)
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48)
      digits++
      if (decimals >= 0) decimals++
    } else if (c === 46 && decimals < 0)
      decimals = 0 // '.'
    else return slow(text.slice(from, to))
  }
  if (digits === 0 || digits > 15) return slow(text.slice(from, to))
  if (decimals > 0) value /= POWERS_OF_TEN[decimals]
  return negative ? -value : value
}

/** A coordinate as SPEC 3 writes one (spaces around it allowed), else NaN. */
function strictNumber(piece: string): number {
  const t = piece.trim()
  return NUMBER.test(t) ? Number(t) : NaN
}

/** 'lng,lat' in text[from, to) read leniently (as Number() would), for drawing stored points; null when it is not one vertex. */
export function vertexAt(points: string, from: number, to: number): LngLat | null {
  const comma = points.indexOf(',', from)
  if (comma < 0 || comma >= to) return null
  // A second comma, '|' or ';' makes the latitude's text not a number, so it is refused there.
  const lng = readNumber(points, from, comma)
  const lat = readNumber(points, comma + 1, to)
  return Number.isFinite(lng) && Number.isFinite(lat) ? { lng, lat } : null
}

/** The first vertex of a points string (a point's position, a circle's centre), read as vertexAt does; null when it is broken. */
export function firstVertex(points: string): LngLat | null {
  let end = 0
  while (end < points.length) {
    const c = points.charCodeAt(end)
    if (c === 124 || c === 59 || c === 35) break
    end++
  }
  return vertexAt(points, 0, end)
}

/**
 * 'lng,lat|lng,lat#hole…;lng,lat|…' read in place (no split strings), each vertex by `vertex`
 * (text[from, to) and its 1-based place), which answers the vertex or a message that stops the read.
 */
function scanParts(points: string, vertex: (from: number, to: number, index: number) => LngLat | string): { parts: LngLat[][]; holes: LngLat[][][] } | string {
  const parts: LngLat[][] = []
  const holes: LngLat[][][] = [[]]
  let ring: LngLat[] = []
  let inHole = false
  let start = 0
  let index = 0
  for (let i = 0; i <= points.length; i++) {
    const c = i < points.length ? points.charCodeAt(i) : 59
    if (c !== 124 && c !== 59 && c !== 35) continue // '|' ends a vertex, '#' a ring too, ';' (or the end) a part
    const p = vertex(start, i, ++index)
    if (typeof p === 'string') return p
    ring.push(p)
    start = i + 1
    if (c === 124) continue
    if (inHole) holes[holes.length - 1].push(ring)
    else parts.push(ring)
    ring = []
    inHole = c === 35
    if (c === 59) holes.push([])
  }
  holes.length = parts.length
  return { parts, holes }
}

const BROKEN = ''

/** Stored points read leniently for drawing (the map's index of 100,000 markers); null when any vertex is broken. */
export function readParts(points: string): { parts: LngLat[][]; holes: LngLat[][][] } | null {
  const read = scanParts(points, (from, to) => vertexAt(points, from, to) ?? BROKEN)
  return typeof read === 'string' ? null : read
}

/** parts: each part's vertices (a polygon part's outer ring); holes: each part's inner rings, [] where none. */
export type ParseResult = { ok: true; parts: LngLat[][]; holes: LngLat[][][] } | { ok: false; error: string }

/** Parses a points string into parts of vertices (and the holes of polygon parts), checking every vertex (SPEC 8's words). */
export function parsePoints(points: string): ParseResult {
  const text = (points ?? '').trim()
  if (!text) return { ok: false, error: MAP_MSG.pointsRequired }
  const read = scanParts(text, (from, to, index) => {
    const comma = text.indexOf(',', from)
    if (comma < 0 || comma >= to) return MAP_MSG.vertexInvalid(index)
    const lng = readNumber(text, from, comma, strictNumber)
    const lat = readNumber(text, comma + 1, to, strictNumber)
    if (!Number.isFinite(lng) || !Number.isFinite(lat)) return MAP_MSG.vertexInvalid(index)
    if (lng < -180 || lng > 180) return MAP_MSG.lngRange(index)
    if (lat < -90 || lat > 90) return MAP_MSG.latRange(index)
    return { lng, lat }
  })
  return typeof read === 'string' ? { ok: false, error: read } : { ok: true, ...read }
}

/** Up to 7 decimals (about 1 cm), no trailing zeros. */
export function formatCoord(n: number): string {
  return String(Number(n.toFixed(7)))
}

/** holes: each part's inner rings (polygon parts only), written after its outer ring with '#'. */
export function serializePoints(parts: LngLat[][], holes: LngLat[][][] = []): string {
  const ring = (r: LngLat[]) => r.map((p) => `${formatCoord(p.lng)},${formatCoord(p.lat)}`).join('|')
  return parts.map((part, i) => [part, ...(holes[i] ?? [])].map(ring).join('#')).join(';')
}

/** Whether a point lies inside a ring (even-odd rule, in degrees: fine at the scale of one area). */
export function inRing(p: LngLat, ring: LngLat[]): boolean {
  let inside = false
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i]
    const b = ring[j]
    if (a.lat > p.lat !== b.lat > p.lat && p.lng < ((b.lng - a.lng) * (p.lat - a.lat)) / (b.lat - a.lat) + a.lng) inside = !inside
  }
  return inside
}

/** A marker's geometry as read once: its parts, their holes and its bounds (a circle's with its radius). */
export interface Geometry {
  parts: LngLat[][]
  holes: LngLat[][][]
  bounds: BBox
}

export type GeometryRead = ({ ok: true } & Geometry) | { ok: false; error: string }

/**
 * Reads a marker's points for its kind, once: the geometry (parts, holes, bounds), or the Chinese
 * message of the first problem (SPEC 8). What a save checks and stores is made from this one read.
 */
export function readGeometry(type: number, points: string, radius = 0): GeometryRead {
  if (!MARKER_TYPES.includes(type as MarkerType)) return { ok: false, error: MAP_MSG.markerTypeInvalid }
  const parsed = parsePoints(points)
  if (!parsed.ok) return parsed
  const problem = shapeProblem(type as MarkerType, parsed.parts, parsed.holes, radius)
  if (problem) return { ok: false, error: problem }
  return { ok: true, parts: parsed.parts, holes: parsed.holes, bounds: boundsOf(type as MarkerType, parsed.parts, radius) }
}

/** Checks a geometry for its kind; returns the Chinese message of the first problem, or null. */
export function checkGeometry(type: number, points: string, radius = 0): string | null {
  const read = readGeometry(type, points, radius)
  return read.ok ? null : read.error
}

/** What is wrong with parts read for this kind (vertex counts, holes, a circle's radius), or null. */
function shapeProblem(type: MarkerType, parts: LngLat[][], holes: LngLat[][][], radius: number): string | null {
  const holeCount = holes.reduce((n, h) => n + h.length, 0)
  if (holeCount > 0) {
    if (type !== MARKER_KIND.polygon && type !== MARKER_KIND.multiPolygon) return MAP_MSG.holesOnlyInAreas
    let n = 0
    for (let i = 0; i < parts.length; i++) {
      for (const hole of holes[i]) {
        n += 1
        if (hole.length < 3) return MAP_MSG.holeNeedsThree(n)
        if (!hole.every((p) => inRing(p, parts[i]))) return MAP_MSG.holeOutside(n)
      }
    }
  }
  const single = parts.length === 1 ? parts[0] : null
  switch (type) {
    case MARKER_KIND.point:
      return single && single.length === 1 ? null : MAP_MSG.pointNeedsOne
    case MARKER_KIND.solidLine:
    case MARKER_KIND.dashedLine:
      return single && single.length >= 2 ? null : MAP_MSG.lineNeedsTwo
    case MARKER_KIND.polygon:
      return single && single.length >= 3 ? null : MAP_MSG.polygonNeedsThree
    case MARKER_KIND.rectangle:
      if (!single || single.length !== 2) return MAP_MSG.rectangleNeedsTwo
      return single[0].lng === single[1].lng || single[0].lat === single[1].lat ? MAP_MSG.rectangleDegenerate : null
    case MARKER_KIND.circle:
      if (!single || single.length !== 1) return MAP_MSG.circleNeedsCentre
      return Number.isFinite(radius) && radius > 0 ? null : MAP_MSG.circleNeedsRadius
    case MARKER_KIND.multiPolygon: {
      const bad = parts.findIndex((p) => p.length < 3)
      return bad >= 0 ? MAP_MSG.multiPartNeedsThree(bad + 1) : null
    }
  }
  return MAP_MSG.markerTypeInvalid
}

const METERS_PER_DEGREE_LAT = 111_320

/** The bounding box of a valid geometry; a circle's box includes its radius. */
export function boundsOf(type: MarkerType, parts: LngLat[][], radius = 0): BBox {
  let minLng = Infinity
  let minLat = Infinity
  let maxLng = -Infinity
  let maxLat = -Infinity
  for (const part of parts) {
    for (const p of part) {
      if (p.lng < minLng) minLng = p.lng
      if (p.lng > maxLng) maxLng = p.lng
      if (p.lat < minLat) minLat = p.lat
      if (p.lat > maxLat) maxLat = p.lat
    }
  }
  if (type === MARKER_KIND.circle && radius > 0) {
    const dLat = radius / METERS_PER_DEGREE_LAT
    const dLng = radius / (METERS_PER_DEGREE_LAT * Math.max(Math.cos((minLat * Math.PI) / 180), 1e-6))
    return [minLng - dLng, Math.max(-90, minLat - dLat), maxLng + dLng, Math.min(90, maxLat + dLat)]
  }
  return [minLng, minLat, maxLng, maxLat]
}

/** A rectangle (kind 4) from its two stored corners: the four corners in drawing order. */
export function rectangleCorners(a: LngLat, b: LngLat): LngLat[] {
  return [a, { lng: b.lng, lat: a.lat }, b, { lng: a.lng, lat: b.lat }]
}

/** SPEC 4: markers with coordinates 0 are ignored in bounds. */
export function isZeroPoint(p: LngLat): boolean {
  return p.lng === 0 || p.lat === 0
}

/** The box around many markers' points, skipping zero coordinates; null when nothing is left. */
export function boundsOfMany(pointSets: LngLat[][][]): BBox | null {
  const all = pointSets.flatMap((parts) => parts.flat()).filter((p) => !isZeroPoint(p))
  return all.length ? boundsOf(0, [all]) : null
}

const R = 6_371_008.8
const rad = (d: number) => (d * Math.PI) / 180

function haversine(a: LngLat, b: LngLat): number {
  const h = Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2
  return 2 * R * Math.asin(Math.sqrt(h))
}

/** Length of a polyline in metres. */
export function lineLength(part: LngLat[]): number {
  let total = 0
  for (let i = 1; i < part.length; i++) total += haversine(part[i - 1], part[i])
  return total
}

/** Area of a simple polygon ring in square metres (spherical excess formula of Chamberlain & Duquette). */
export function ringArea(ring: LngLat[]): number {
  if (ring.length < 3) return 0
  let sum = 0
  for (let i = 0; i < ring.length; i++) {
    const p1 = ring[i]
    const p2 = ring[(i + 1) % ring.length]
    sum += rad(p2.lng - p1.lng) * (2 + Math.sin(rad(p1.lat)) + Math.sin(rad(p2.lat)))
  }
  return Math.abs((sum * R * R) / 2)
}

/** What the marker detail shows: length of lines, area (and perimeter) of areas; holes are taken out of their part's area. */
export function measure(type: MarkerType, parts: LngLat[][], radius = 0, holes: LngLat[][][] = []): { length?: number; area?: number } {
  const cut = (i: number) => (holes[i] ?? []).reduce((s, h) => s + ringArea(h), 0)
  switch (type) {
    case MARKER_KIND.solidLine:
    case MARKER_KIND.dashedLine:
      return { length: lineLength(parts[0]) }
    case MARKER_KIND.polygon:
      return { area: ringArea(parts[0]) - cut(0), length: lineLength([...parts[0], parts[0][0]]) }
    case MARKER_KIND.rectangle: {
      const [a, b] = parts[0]
      const ring = rectangleCorners(a, b)
      return { area: ringArea(ring), length: lineLength([...ring, a]) }
    }
    case MARKER_KIND.circle:
      return { area: Math.PI * radius * radius, length: 2 * Math.PI * radius }
    case MARKER_KIND.multiPolygon:
      return { area: parts.reduce((s, p, i) => s + ringArea(p) - cut(i), 0) }
    default:
      return {}
  }
}

/** '1.23公里' / '856米'; '2.5平方公里' / '3,200平方米'. */
export function formatLength(m: number): string {
  return m >= 1000 ? `${(m / 1000).toFixed(2)}公里` : `${Math.round(m)}米`
}

/** The unit areas are shown in: square metres (square kilometres from 1 km²), mu (亩) or hectares (公顷). */
export type AreaUnit = 'm2' | 'mu' | 'ha'

export const AREA_UNITS: readonly AreaUnit[] = ['m2', 'mu', 'ha']

/** Square metres in one mu: 10000/15, i.e. 666.67 m². */
export const M2_PER_MU = 10_000 / 15
/** Square metres in one hectare. */
export const M2_PER_HA = 10_000

export function isAreaUnit(v: unknown): v is AreaUnit {
  return typeof v === 'string' && (AREA_UNITS as readonly string[]).includes(v)
}

/** '12,345.68' from 12345.678: two decimals, thousands grouped. */
function withTwoDecimals(n: number): string {
  const [int, frac] = n.toFixed(2).split('.')
  return `${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`
}

/** '3,200平方米' / '2.50平方公里' by default; '4.80亩' or '0.32公顷' in those units. */
export function formatArea(m2: number, unit: AreaUnit = 'm2'): string {
  if (unit === 'mu') return `${withTwoDecimals(m2 / M2_PER_MU)}亩`
  if (unit === 'ha') return `${withTwoDecimals(m2 / M2_PER_HA)}公顷`
  return m2 >= 1_000_000 ? `${(m2 / 1_000_000).toFixed(2)}平方公里` : `${Math.round(m2).toLocaleString('en-US')}平方米`
}

export const MARKER_TYPE_NAMES: Record<MarkerType, string> = {
  0: '点',
  1: '实线',
  2: '虚线',
  3: '多边形',
  4: '矩形',
  5: '圆形',
  6: '多面',
}
