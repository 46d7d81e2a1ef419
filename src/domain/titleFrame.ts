/**
 * Titles' sizes estimated from their text and style, places in world px, and a view that frames
 * places with their pins and titles clear of the page's cards. Pure; loaded with what needs it
 * (a route's framing, the AMap and WeChat maps' title layout), not with the /map page.
 */
import type { LngLat } from './geo'

/** World size in px at zoom 0 (Web Mercator tiles of 256 px). */
const TILE = 256

/** Mercator x and y in [0, 1] of the world. */
function mercator(p: LngLat): { x: number; y: number } {
  const lat = Math.max(-85.05, Math.min(85.05, p.lat))
  const s = Math.sin((lat * Math.PI) / 180)
  return { x: (p.lng + 180) / 360, y: 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI) }
}

/** A place in world px at that zoom (Web Mercator, 256-px tiles): the map's own pixels up to a shift, for laying titles out where a map cannot measure them. */
export function worldPx(p: LngLat, zoom: number): { x: number; y: number } {
  const m = mercator(p)
  const scale = TILE * 2 ** zoom
  return { x: m.x * scale, y: m.y * scale }
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

/** A rectangle on the map in CSS px from its top-left corner (a card or tool column over the map). */
export interface Rect {
  left: number
  top: number
  right: number
  bottom: number
}

/** A place to frame with what is drawn around it, in CSS px from its point: a pin above it, a title below it. */
export interface FramedSpot extends LngLat {
  left: number
  right: number
  top: number
  bottom: number
}

/** The style fields that size a title (a layer's title style). */
export interface TitleMetrics {
  font_size: number
  padding: number
  border_weight: number
}

/** A CJK character or full-width sign is one em wide; Latin letters, digits and signs about 0.6 em. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/

/**
 * A title's box in CSS px estimated from its text and style, for maps that cannot measure text
 * (WeChat's native map) and for framing before anything is drawn. Sized as the H5 titles are drawn
 * (src/platform/map/markup.ts titleCss): the font size within 10-32, padding p by 2p, a line of 1.3 em.
 */
export function titleSize(text: string, style: TitleMetrics): { width: number; height: number } {
  const font = Math.max(10, Math.min(32, style.font_size))
  const padY = Math.max(0, Math.min(20, style.padding))
  const padX = Math.max(2, Math.min(24, style.padding * 2))
  const border = style.border_weight > 0 ? Math.min(6, style.border_weight) : 0
  let ems = 0
  for (const ch of text) ems += WIDE.test(ch) ? 1 : 0.6
  return { width: Math.ceil(ems * font + 2 * padX + 2 * border), height: Math.ceil(font * 1.3 + 2 * padY + 2 * border) }
}

/** Room kept between what is framed and the map's edge or a card, in CSS px. */
const FRAME_GAP = 6

/**
 * The centre and whole zoom level at which the places, with their pins and titles, fit on a map of
 * that size clear of the cards and tools covering it, as close as they fit (up to maxZoom). Whole
 * levels only (the map engines snap to them), so the gap between the cards is used as a whole: the
 * places may sit above a tool column rather than beside it. Of the positions that fit, the one
 * nearest the map's middle is taken.
 */
export function frameSpots(spots: readonly FramedSpot[], size: { width: number; height: number }, covers: readonly Rect[], maxZoom = 18): { lng: number; lat: number; zoom: number } {
  const world = spots.map((s) => ({ ...mercator(s), s }))
  for (let zoom = maxZoom; zoom >= 2; zoom--) {
    const scale = TILE * 2 ** zoom
    const minX = Math.min(...world.map((p) => p.x * scale - p.s.left))
    const maxX = Math.max(...world.map((p) => p.x * scale + p.s.right))
    const minY = Math.min(...world.map((p) => p.y * scale - p.s.top))
    const maxY = Math.max(...world.map((p) => p.y * scale + p.s.bottom))
    const at = placeBox(maxX - minX, maxY - minY, size, covers)
    if (!at && zoom > 2) continue
    const left = at?.left ?? (size.width - (maxX - minX)) / 2
    const top = at?.top ?? (size.height - (maxY - minY)) / 2
    // The box's corner lands at (left, top): the map's centre is that far from it.
    return { ...unmercator((minX - left + size.width / 2) / scale, (minY - top + size.height / 2) / scale), zoom }
  }
  return { lng: spots[0]?.lng ?? 0, lat: spots[0]?.lat ?? 0, zoom: 2 }
}

/** Where a box of that size fits on the map clear of the covers (its top-left corner), nearest the middle; null when it fits nowhere. */
function placeBox(w: number, h: number, size: { width: number; height: number }, covers: readonly Rect[]): { left: number; top: number } | null {
  const xs = [FRAME_GAP, size.width - FRAME_GAP - w, (size.width - w) / 2, ...covers.flatMap((c) => [c.right + FRAME_GAP, c.left - FRAME_GAP - w])]
  const ys = [FRAME_GAP, size.height - FRAME_GAP - h, (size.height - h) / 2, ...covers.flatMap((c) => [c.bottom + FRAME_GAP, c.top - FRAME_GAP - h])]
  let best: { left: number; top: number; d: number } | null = null
  for (const left of xs) {
    if (left < FRAME_GAP - 1e-6 || left + w > size.width - FRAME_GAP + 1e-6) continue
    for (const top of ys) {
      if (top < FRAME_GAP - 1e-6 || top + h > size.height - FRAME_GAP + 1e-6) continue
      // Less a hair, so that a box put exactly the gap away from a cover (as the candidates are) counts as clear.
      const g = FRAME_GAP - 1e-6
      const hit = covers.some((c) => left < c.right + g && c.left < left + w + g && top < c.bottom + g && c.top < top + h + g)
      if (hit) continue
      const d = Math.hypot(left + w / 2 - size.width / 2, top + h / 2 - size.height / 2)
      if (!best || d < best.d) best = { left, top, d }
    }
  }
  return best && { left: best.left, top: best.top }
}
