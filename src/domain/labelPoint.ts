/**
 * Where a line's or an area's title goes on the map: a line's middle along its length (not the
 * middle of its bounds, which a bent line may miss), an area's centroid (its largest part's outer
 * ring), a circle's centre. Pure, in stored coordinates; renderers that place titles themselves
 * (AMap, the WeChat map) use it.
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

/** The label point of a drawn shape by marker kind: parts as the draw list holds them (a rectangle's two corners, a circle's centre). */
export function shapeLabelPoint(kind: number, parts: readonly (readonly LngLat[])[]): LngLat {
  const first = parts[0] ?? []
  if (isLine(kind)) return lineMiddle(first)
  if (kind === MARKER_KIND.circle) return first[0] ?? { lng: 0, lat: 0 }
  if (kind === MARKER_KIND.rectangle && first.length >= 2) return { lng: (first[0].lng + first[1].lng) / 2, lat: (first[0].lat + first[1].lat) / 2 }
  let best = ringCentroid(first)
  for (const part of parts.slice(1)) {
    const c = ringCentroid(part)
    if (c.area > best.area) best = c
  }
  return best.at
}
