/**
 * Map titles that do not cover each other, and a view that frames a box with room around it.
 * Pure: renderers measure their title boxes in screen px and show only the ones placed here; the
 * map store frames a route with the page's overlays kept clear.
 */
import type { LngLat } from './geo'

/** A title's box on the screen, in CSS px; a higher rank is placed first (a selected marker's, then points', then lines' and areas'). */
export interface LabelBox {
  key: string
  left: number
  top: number
  width: number
  height: number
  rank: number
}

/** Room kept between two shown titles, in px, so that their frames do not touch. */
export const LABEL_GAP = 2

/**
 * The keys of the titles to show: by rank (then in the given order), each title that does not
 * overlap one already shown. A title with no size (not laid out) is shown: it covers nothing.
 */
export function placeLabels(boxes: readonly LabelBox[]): Set<string> {
  const order = boxes.map((b, i) => ({ b, i })).sort((x, y) => y.b.rank - x.b.rank || x.i - y.i)
  const shown: LabelBox[] = []
  const keys = new Set<string>()
  for (const { b } of order) {
    const hit =
      b.width > 0 &&
      b.height > 0 &&
      shown.some((s) => b.left < s.left + s.width + LABEL_GAP && s.left < b.left + b.width + LABEL_GAP && b.top < s.top + s.height + LABEL_GAP && s.top < b.top + b.height + LABEL_GAP)
    if (hit) continue
    if (b.width > 0 && b.height > 0) shown.push(b)
    keys.add(b.key)
  }
  return keys
}

/** Room around a framed box, in CSS px (the page's cards and tools cover the map's edges). */
export interface Padding {
  top: number
  right: number
  bottom: number
  left: number
}

/** World size in px at zoom 0 (Web Mercator tiles of 256 px). */
const TILE = 256

/** Mercator x and y in [0, 1] of the world. */
function mercator(p: LngLat): { x: number; y: number } {
  const lat = Math.max(-85.05, Math.min(85.05, p.lat))
  const s = Math.sin((lat * Math.PI) / 180)
  return { x: (p.lng + 180) / 360, y: 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI) }
}

function unmercator(x: number, y: number): LngLat {
  return { lng: x * 360 - 180, lat: (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI }
}

/** The map's size in CSS px, from the bounds and zoom it reports. */
export function viewSize(view: { west: number; south: number; east: number; north: number; zoom: number }): { width: number; height: number } {
  const scale = TILE * 2 ** view.zoom
  const sw = mercator({ lng: view.west, lat: view.south })
  const ne = mercator({ lng: view.east, lat: view.north })
  return { width: (ne.x - sw.x) * scale, height: (sw.y - ne.y) * scale }
}

/**
 * The centre and whole zoom level at which a box [west, south, east, north] fits inside a map of
 * that size less the padding, as close as it fits (up to maxZoom): the box's middle lands in the
 * middle of the free area, not under the page's cards.
 */
export function frameBox(box: readonly [number, number, number, number], size: { width: number; height: number }, pad: Padding, maxZoom = 18): { lng: number; lat: number; zoom: number } {
  const sw = mercator({ lng: box[0], lat: box[1] })
  const ne = mercator({ lng: box[2], lat: box[3] })
  const w = Math.max(ne.x - sw.x, 1e-12)
  const h = Math.max(sw.y - ne.y, 1e-12)
  const freeW = Math.max(40, size.width - pad.left - pad.right)
  const freeH = Math.max(40, size.height - pad.top - pad.bottom)
  const zoom = Math.max(2, Math.min(maxZoom, Math.floor(Math.log2(Math.min(freeW / (w * TILE), freeH / (h * TILE))))))
  const scale = TILE * 2 ** zoom
  // The box's middle sits at the free area's middle: the map's centre is shifted by half the padding's difference.
  const cx = (sw.x + ne.x) / 2 + (pad.right - pad.left) / 2 / scale
  const cy = (sw.y + ne.y) / 2 + (pad.bottom - pad.top) / 2 / scale
  return { ...unmercator(cx, cy), zoom }
}
