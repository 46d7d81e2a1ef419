/**
 * Where a line's or an area's title goes on the map: a line's middle along its length (not the
 * middle of its bounds, which a bent line may miss), an area's centroid (its largest part's outer
 * ring) or, where that falls outside the area or in a hole, another point of its filled part, a
 * circle's centre. Pure, in stored coordinates; every renderer places its titles there.
 */
import { MARKER_KIND, isLine } from './markerKinds'
import type { LngLat } from './points'

/** The point halfway along a polyline, measured in coordinate units (a title's place needs no metres). */
export function lineMiddle(line: readonly LngLat[]): LngLat {
  if (line.length === 0) return { lng: 0, lat: 0 }
  const seg = (i: number) => Math.hypot(line[i + 1].lng - line[i].lng, line[i + 1].lat - line[i].lat)
  let total = 0
  for (let i = 0; i + 1 < line.length; i++) total += seg(i)
  let left = total / 2
  for (let i = 0; i + 1 < line.length; i++) {
    const d = seg(i)
    if (d > 0 && left <= d) {
      const t = left / d
      return { lng: line[i].lng + (line[i + 1].lng - line[i].lng) * t, lat: line[i].lat + (line[i + 1].lat - line[i].lat) * t }
    }
    left -= d
  }
  return line[0]
}

/** Area and centroid of a ring (shoelace); a ring with no area gives its vertices' mean. */
function ringCentroid(ring: readonly LngLat[]): { area: number; at: LngLat } {
  let a = 0
  let cx = 0
  let cy = 0
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i]
    const q = ring[(i + 1) % ring.length]
    const cross = p.lng * q.lat - q.lng * p.lat
    a += cross
    cx += (p.lng + q.lng) * cross
    cy += (p.lat + q.lat) * cross
  }
  if (Math.abs(a) < 1e-18) {
    const n = Math.max(1, ring.length)
    return { area: 0, at: { lng: ring.reduce((s, p) => s + p.lng, 0) / n, lat: ring.reduce((s, p) => s + p.lat, 0) / n } }
  }
  return { area: Math.abs(a / 2), at: { lng: cx / (3 * a), lat: cy / (3 * a) } }
}

/** Whether a point is inside a ring (even-odd rule; a point on the edge may go either way). */
export function insideRing(p: LngLat, ring: readonly LngLat[]): boolean {
  let inside = false
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i]
    const b = ring[j]
    if (a.lat > p.lat !== b.lat > p.lat && p.lng < a.lng + ((p.lat - a.lat) * (b.lng - a.lng)) / (b.lat - a.lat)) inside = !inside
  }
  return inside
}

/** Distance from a point to a ring's nearest edge, in coordinate units. */
function edgeDistance(p: LngLat, ring: readonly LngLat[]): number {
  let d = Infinity
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[j]
    const b = ring[i]
    const dx = b.lng - a.lng
    const dy = b.lat - a.lat
    const len = dx * dx + dy * dy
    const t = len > 0 ? Math.max(0, Math.min(1, ((p.lng - a.lng) * dx + (p.lat - a.lat) * dy) / len)) : 0
    d = Math.min(d, Math.hypot(p.lng - a.lng - t * dx, p.lat - a.lat - t * dy))
  }
  return d
}

/** Horizontal lines tried across an area whose centroid misses it. */
const SCANLINES = 15

/**
 * A point of an area's filled part (inside its outline, outside its holes): the centroid when it is
 * filled there, else, of the middles of the filled stretches along a few horizontal lines across
 * the area, the one farthest from every edge (a C-shaped area's centroid lies outside it, a
 * ring-shaped one's in its hole).
 */
export function areaLabelPoint(outer: readonly LngLat[], holes: readonly (readonly LngLat[])[] = []): LngLat {
  const c = ringCentroid(outer).at
  const filled = (p: LngLat) => insideRing(p, outer) && !holes.some((h) => insideRing(p, h))
  if (outer.length < 3 || filled(c)) return c
  const rings = [outer, ...holes]
  let south = Infinity
  let north = -Infinity
  for (const p of outer) {
    south = Math.min(south, p.lat)
    north = Math.max(north, p.lat)
  }
  let best: { clearance: number; at: LngLat } | null = null
  for (let k = 0; k <= SCANLINES; k++) {
    // The centroid's own latitude first, then evenly across the area.
    const lat = k === 0 ? c.lat : south + ((north - south) * k) / (SCANLINES + 1)
    const xs: number[] = []
    for (const ring of rings)
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const a = ring[i]
        const b = ring[j]
        if (a.lat > lat !== b.lat > lat) xs.push(a.lng + ((lat - a.lat) * (b.lng - a.lng)) / (b.lat - a.lat))
      }
    xs.sort((x, y) => x - y)
    // Between the 1st and 2nd crossing, the 3rd and 4th ... the line is in the filled part: each such
    // stretch's middle is a candidate, and the one farthest from every edge wins (the title's room).
    for (let i = 0; i + 1 < xs.length; i += 2) {
      const at = { lng: (xs[i] + xs[i + 1]) / 2, lat }
      const clearance = Math.min(...rings.map((ring) => edgeDistance(at, ring)))
      if (!best || clearance > best.clearance) best = { clearance, at }
    }
  }
  return best?.at ?? c
}

/**
 * The label point of a drawn shape by marker kind: parts as the draw list holds them (a rectangle's
 * two corners, a circle's centre) and each part's holes; an area's title goes on its largest part,
 * on the filled area, never in a hole.
 */
export function shapeLabelPoint(kind: number, parts: readonly (readonly LngLat[])[], holes: readonly (readonly (readonly LngLat[])[])[] = []): LngLat {
  const first = parts[0] ?? []
  if (isLine(kind)) return lineMiddle(first)
  if (kind === MARKER_KIND.circle) return first[0] ?? { lng: 0, lat: 0 }
  if (kind === MARKER_KIND.rectangle && first.length >= 2) return { lng: (first[0].lng + first[1].lng) / 2, lat: (first[0].lat + first[1].lat) / 2 }
  let largest = 0
  let area = -1
  parts.forEach((part, i) => {
    const a = ringCentroid(part).area
    if (a > area) {
      area = a
      largest = i
    }
  })
  return areaLabelPoint(parts[largest] ?? [], holes[largest] ?? [])
}
