/**
 * The picture of a forwarded share card, as SVG: WeChat shows a forwarded mini-program card at
 * 5:4, so the card is 500x400 with the share's data framed in the upper part (Web Mercator, as the
 * maps draw it) over a plain light background, and a band with the share's name and the brand
 * below. A password share shows a lock instead of its data. Pure: share-card.ts renders it to PNG.
 */
import type { LngLat } from '../../../src/domain/points'
import { parsePoints } from '../../../src/domain/points'
import { MARKER_KIND } from '../../../src/domain/markerKinds'
import { DEFAULT_MARKER_COLOR } from '../../../src/domain/constants'
import type { MarkerStyle, MarkerType } from '../../../types/mapdata'
// Its entities are XML's too: the same escaping serves the card's SVG text.
import { escapeHtml } from '../presenters/download'
import { SHARE_MSG } from '../../../src/domain/shareMessages'

export const CARD_WIDTH = 500
export const CARD_HEIGHT = 400
/** The band under the map with the name and the brand. */
export const CARD_BAND = 80
const MAP_HEIGHT = CARD_HEIGHT - CARD_BAND
const PAD = 30
export const CARD_BACKGROUND = '#EEF3F8'
const EARTH_RADIUS_M = 6378137
/** The families the card's text asks for, the server's font first (share-card.ts loads it). */
export const CARD_FONT_FAMILIES = "'WenQuanYi Zen Hei', 'Noto Sans CJK SC', 'Source Han Sans SC', sans-serif"

export interface CardMarker {
  type: MarkerType
  points: string
  style?: MarkerStyle
  width?: number
  radius?: number
}

export interface CardInput {
  name: string
  brand: string
  /** A password share: no data, a lock. */
  locked: boolean
  markers: CardMarker[]
  /** Route shares: each route's stops in order. */
  routes: LngLat[][]
}

/** A colour the SVG may carry: #rgb or #rrggbb, else the default. */
function colour(value: string | undefined, fallback = DEFAULT_MARKER_COLOR): string {
  return value && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value) ? value : fallback
}

function opacity(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : fallback
}

/** Web Mercator in radians: x grows east, y grows north. */
function project(p: LngLat): [number, number] {
  const lat = Math.max(-85, Math.min(85, p.lat))
  return [(p.lng * Math.PI) / 180, Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360))]
}

interface Shape {
  kind: MarkerType
  rings: LngLat[][]
  /** For areas: the holes of each ring that is an outer ring, cut by the even-odd rule. */
  holes: LngLat[][]
  style: MarkerStyle
  width: number
  radius: number
}

function shapesOf(markers: CardMarker[]): Shape[] {
  const shapes: Shape[] = []
  for (const m of markers) {
    const parsed = parsePoints(m.points)
    if (!parsed.ok || !parsed.parts.length) continue
    let rings = parsed.parts
    if (m.type === MARKER_KIND.rectangle && rings[0].length >= 2) {
      const [a, b] = rings[0]
      rings = [
        [
          { lng: a.lng, lat: a.lat },
          { lng: b.lng, lat: a.lat },
          { lng: b.lng, lat: b.lat },
          { lng: a.lng, lat: b.lat },
        ],
      ]
    }
    shapes.push({ kind: m.type, rings, holes: parsed.holes.flat(), style: m.style ?? {}, width: m.width ?? 2, radius: m.radius ?? 0 })
  }
  return shapes
}

/** Projected bounds of everything drawn, circles with their radius. */
function boundsOf(shapes: Shape[], routes: LngLat[][]): [number, number, number, number] | null {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity]
  const add = (x: number, y: number) => {
    x0 = Math.min(x0, x)
    y0 = Math.min(y0, y)
    x1 = Math.max(x1, x)
    y1 = Math.max(y1, y)
  }
  for (const s of shapes) {
    for (const ring of s.rings) {
      for (const p of ring) {
        const [x, y] = project(p)
        if (s.kind === MARKER_KIND.circle && s.radius > 0) {
          const r = s.radius / (EARTH_RADIUS_M * Math.cos((p.lat * Math.PI) / 180))
          add(x - r, y - r)
          add(x + r, y + r)
        } else add(x, y)
      }
    }
  }
  for (const route of routes) for (const p of route) add(...project(p))
  return Number.isFinite(x0) ? [x0, y0, x1, y1] : null
}

/** Maps projected coordinates into the map part of the card, centred, with padding. */
function frame(bounds: [number, number, number, number]): { at: (p: LngLat) => [number, number]; scale: number } {
  const [x0, y0, x1, y1] = bounds
  const w = CARD_WIDTH - 2 * PAD
  const h = MAP_HEIGHT - 2 * PAD
  const dx = x1 - x0
  const dy = y1 - y0
  // One point, or all on one spot: about a town's width around it.
  const scale = dx === 0 && dy === 0 ? w / 0.002 : Math.min(dx ? w / dx : Infinity, dy ? h / dy : Infinity)
  const cx = (x0 + x1) / 2
  const cy = (y0 + y1) / 2
  return {
    scale,
    at: (p) => {
      const [x, y] = project(p)
      return [CARD_WIDTH / 2 + (x - cx) * scale, MAP_HEIGHT / 2 - (y - cy) * scale]
    },
  }
}

const num = (n: number) => String(Math.round(n * 10) / 10)

function ringPath(ring: LngLat[], at: (p: LngLat) => [number, number], close: boolean): string {
  return ring.map((p, i) => `${i ? 'L' : 'M'}${at(p).map(num).join(' ')}`).join('') + (close ? 'Z' : '')
}

function shapeSvg(s: Shape, at: (p: LngLat) => [number, number], scale: number): string {
  const stroke = colour(s.style.color)
  const strokeWidth = Math.max(2, Math.min(6, s.width || 2))
  if (s.kind === MARKER_KIND.point) {
    const [x, y] = at(s.rings[0][0])
    return `<circle cx="${num(x)}" cy="${num(y)}" r="7" fill="${stroke}" stroke="#fff" stroke-width="2.5"/>`
  }
  if (s.kind === MARKER_KIND.solidLine || s.kind === MARKER_KIND.dashedLine) {
    const dash = s.kind === MARKER_KIND.dashedLine ? ' stroke-dasharray="10 6"' : ''
    return s.rings.map((ring) => `<path d="${ringPath(ring, at, false)}" fill="none" stroke="${stroke}" stroke-width="${strokeWidth}" stroke-linecap="round" stroke-linejoin="round"${dash}/>`).join('')
  }
  const fill = colour(s.style.fill_color, stroke)
  const fillOpacity = opacity(s.style.fill_opacity, 0.25)
  const dash = s.kind === MARKER_KIND.multiPolygon ? ' stroke-dasharray="10 6"' : ''
  if (s.kind === MARKER_KIND.circle) {
    const centre = s.rings[0][0]
    const [x, y] = at(centre)
    const r = Math.max(4, (s.radius / (EARTH_RADIUS_M * Math.cos((centre.lat * Math.PI) / 180))) * scale)
    return `<circle cx="${num(x)}" cy="${num(y)}" r="${num(r)}" fill="${fill}" fill-opacity="${fillOpacity}" stroke="${stroke}" stroke-width="${strokeWidth}"/>`
  }
  const d = [...s.rings, ...s.holes].map((ring) => ringPath(ring, at, true)).join('')
  return `<path d="${d}" fill="${fill}" fill-opacity="${fillOpacity}" fill-rule="evenodd" stroke="${stroke}" stroke-width="${strokeWidth}" stroke-linejoin="round"${dash}/>`
}

function routeSvg(stops: LngLat[], at: (p: LngLat) => [number, number]): string {
  if (!stops.length) return ''
  const line = stops.length > 1 ? `<path d="${ringPath(stops, at, false)}" fill="none" stroke="#165DFF" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/>` : ''
  const dots = stops
    .map((p) => at(p))
    .map(([x, y]) => `<circle cx="${num(x)}" cy="${num(y)}" r="6" fill="#fff" stroke="#165DFF" stroke-width="3"/>`)
    .join('')
  return line + dots
}

/** A padlock in the middle of the map part. */
function lockSvg(): string {
  const cx = CARD_WIDTH / 2
  const cy = MAP_HEIGHT / 2
  return (
    `<path d="M${cx - 22} ${cy - 8}v-14a22 22 0 0 1 44 0v14" fill="none" stroke="#86909C" stroke-width="8"/>` +
    `<rect x="${cx - 36}" y="${cy - 10}" width="72" height="56" rx="8" fill="#86909C"/>` +
    `<circle cx="${cx}" cy="${cy + 14}" r="7" fill="#fff"/><rect x="${cx - 3}" y="${cy + 16}" width="6" height="16" rx="2" fill="#fff"/>`
  )
}

/** A name longer than the band holds ends in an ellipsis (a CJK glyph is about as wide as the font size). */
function fitted(text: string, max: number): string {
  const chars = Array.from(text.trim())
  return chars.length > max ? chars.slice(0, max - 1).join('') + '…' : chars.join('')
}

export function shareCardSvg(input: CardInput): string {
  const shapes = input.locked ? [] : shapesOf(input.markers)
  const routes = input.locked ? [] : input.routes
  const bounds = boundsOf(shapes, routes)
  let data = ''
  if (input.locked) data = lockSvg()
  else if (bounds) {
    const { at, scale } = frame(bounds)
    // Areas under lines under points, as the maps draw them.
    const order = (s: Shape) => (s.kind === MARKER_KIND.point ? 2 : s.kind === MARKER_KIND.solidLine || s.kind === MARKER_KIND.dashedLine ? 1 : 0)
    data =
      [...shapes]
        .sort((a, b) => order(a) - order(b))
        .map((s) => shapeSvg(s, at, scale))
        .join('') + routes.map((r) => routeSvg(r, at)).join('')
  }
  const grid =
    Array.from({ length: 9 }, (_, i) => `<path d="M${(i + 1) * 50} 0V${MAP_HEIGHT}" stroke="#DDE5EE" stroke-width="1"/>`).join('') +
    Array.from({ length: 6 }, (_, i) => `<path d="M0 ${(i + 1) * 50}H${CARD_WIDTH}" stroke="#DDE5EE" stroke-width="1"/>`).join('')
  const name = escapeHtml(fitted(input.name || SHARE_MSG.untitled, 17))
  const brand = escapeHtml(fitted(input.brand, 24))
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}">` +
    `<rect width="${CARD_WIDTH}" height="${MAP_HEIGHT}" fill="${CARD_BACKGROUND}"/>${grid}` +
    `<g class="data">${data}</g>` +
    `<rect y="${MAP_HEIGHT}" width="${CARD_WIDTH}" height="${CARD_BAND}" fill="#fff"/>` +
    `<rect y="${MAP_HEIGHT}" width="${CARD_WIDTH}" height="1" fill="#E5E6EB"/>` +
    `<text x="24" y="${MAP_HEIGHT + 36}" font-family="${CARD_FONT_FAMILIES}" font-size="26" font-weight="bold" fill="#1D2129">${name}</text>` +
    (brand ? `<text x="24" y="${MAP_HEIGHT + 64}" font-family="${CARD_FONT_FAMILIES}" font-size="16" fill="#86909C">${brand}</text>` : '') +
    `</svg>`
  )
}
