/**
 * The print sheet as a list of drawing primitives in page pixels (print-render.ts turns it into
 * SVG for the PNG and into PDF operators), from the layout of src/domain/print.ts: the title and
 * note, the map (base map tiles, areas under lines under points, clustered points above
 * PRINT_CLUSTER_ABOVE, titles without collisions), the legend, the scale bar, the north arrow and
 * the foot. Pure and synchronous: it runs in the print worker (print-worker.ts).
 *
 * Datum: stored coordinates are GCJ-02. Without a base map, or on GCJ-02 tiles, they are drawn as
 * stored; on WGS-84 tiles every coordinate is converted first (src/domain/geo.ts), so the data lies
 * where the tiles have it.
 */
import Supercluster from 'supercluster'
import type { MarkerStyle, MarkerType, TitleStyleLook } from '../../../types/mapdata'
import type { PrintBounds, PrintOptions } from '../../../types/print'
import { DEFAULT_MARKER_COLOR } from '../../../src/domain/constants'
import { gcj02ToWgs84, type LngLat } from '../../../src/domain/geo'
import { MARKER_KIND, isArea, isLine } from '../../../src/domain/markerKinds'
import { parsePoints } from '../../../src/domain/points'
import {
  PRINT_CLUSTER_ABOVE,
  PRINT_CLUSTER_MM,
  frameArea,
  frameBounds,
  legendRows,
  mercator,
  placePageLabels,
  scaleBar,
  sheetLayout,
  textEms,
  type Box,
  type LegendEntry,
  type MapFrame,
  type PageLabel,
  type SheetLayout,
} from '../../../src/domain/print'
import { PRINT_MSG } from '../../../src/domain/printMessages'

export type Prim =
  | { k: 'rect'; x: number; y: number; w: number; h: number; fill: string; stroke?: string; sw?: number; fo?: number }
  /** Rings of x,y pairs; closed rings are filled by the even-odd rule (holes stay empty). */
  | { k: 'path'; rings: number[][]; close: boolean; fill?: string; fo?: number; stroke?: string; sw: number; dash?: [number, number] }
  | { k: 'circle'; x: number; y: number; r: number; fill?: string; fo?: number; stroke?: string; sw?: number; dash?: [number, number] }
  /**
   * Point pins of one colour, each a disc with a white ring: drawn as two filled shapes (the rings,
   * then the discs) rather than one stroked circle each, which rasterises some five times faster.
   */
  | { k: 'dots'; xy: number[]; r: number; fill: string; ring: number }
  /** y is the text's baseline. */
  | { k: 'text'; x: number; y: number; s: string; size: number; color: string; bold?: boolean; anchor?: 'start' | 'middle' | 'end' }
  /** A PNG or JPEG image (a base map tile, a point's icon). */
  | { k: 'image'; x: number; y: number; w: number; h: number; png: Uint8Array }
  | { k: 'clip'; box: Box }
  | { k: 'unclip' }

export interface Scene {
  width: number
  height: number
  dpi: number
  prims: Prim[]
  /** What was drawn, for the job's log and the tests. */
  stats: { markers: number; points: number; clusters: number; titles: number; tiles: number }
}

export interface PrintLayerInput {
  id: number
  name: string
  /** 1 point, 2 line, 3 area. */
  type: number
  /** The layer's title style (or the group's default); null draws titles in the default look. */
  title: TitleStyleLook | null
}

export interface PrintMarkerInput {
  layer_id: number
  name: string
  type: MarkerType
  points: string
  style: MarkerStyle
  width: number
  radius: number
}

/** A route's or a task's stops in order. */
export interface PrintLineInput {
  name: string
  kind: 'route' | 'task'
  stops: LngLat[]
}

export interface TileSourceInfo {
  datum: 'gcj02' | 'wgs84'
  attribution: string
  reviewNo: string
}

/** One base map tile on the page. */
export interface PlacedTile {
  z: number
  x: number
  y: number
  /** Where it is drawn, in page pixels. */
  left: number
  top: number
  size: number
}

export interface SceneInput {
  options: PrintOptions
  dpi: number
  /** The view printed; null fits everything drawn. */
  view: PrintBounds | null
  layers: PrintLayerInput[]
  markers: PrintMarkerInput[]
  lines: PrintLineInput[]
  team: string
  /** 'YYYY-MM-DD'. */
  day: string
  /** The configured print tile source; null without one (or with the base map switched off). */
  tiles: TileSourceInfo | null
}

const num = (n: number) => Math.round(n * 10) / 10

function colour(value: string | undefined, fallback = DEFAULT_MARKER_COLOR): string {
  return value && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(value) ? value : fallback
}

function opacity(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : fallback
}

interface Parsed {
  m: PrintMarkerInput
  rings: LngLat[][]
  holes: LngLat[][]
}

function parseAll(markers: readonly PrintMarkerInput[], toDatum: (p: LngLat) => LngLat): Parsed[] {
  const out: Parsed[] = []
  for (const m of markers) {
    const parsed = parsePoints(m.points)
    if (!parsed.ok || !parsed.parts.length || !parsed.parts[0].length) continue
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
    out.push({ m, rings: rings.map((r) => r.map(toDatum)), holes: parsed.holes.flat().map((r) => r.map(toDatum)) })
  }
  return out
}

function boundsOfAll(shapes: readonly Parsed[], lines: readonly PrintLineInput[], toDatum: (p: LngLat) => LngLat): PrintBounds | null {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity]
  const add = (p: LngLat) => {
    if (p.lng < w) w = p.lng
    if (p.lng > e) e = p.lng
    if (p.lat < s) s = p.lat
    if (p.lat > n) n = p.lat
  }
  for (const sh of shapes) for (const ring of sh.rings) for (const p of ring) add(p)
  for (const l of lines) for (const p of l.stops) add(toDatum(p))
  if (!Number.isFinite(w)) return null
  // A lone point gets a span around it (frameArea widens it to its minimum).
  return { west: w, south: s, east: e === w ? e + 1e-9 : e, north: n === s ? n + 1e-9 : n }
}

/** Where the map's frame is, once: print-worker.ts asks for the base map tiles from it before drawing. */
export interface Framing {
  layout: SheetLayout
  frame: MapFrame
  parsed: Parsed[]
  toDatum: (p: LngLat) => LngLat
}

export function frameSheet(input: SceneInput): Framing {
  const layout = sheetLayout(input.options, input.dpi)
  const toDatum = input.tiles?.datum === 'wgs84' ? gcj02ToWgs84 : (p: LngLat) => p
  const parsed = parseAll(input.markers, toDatum)
  let area: PrintBounds | null
  if (input.view) {
    const sw = toDatum({ lng: input.view.west, lat: input.view.south })
    const ne = toDatum({ lng: input.view.east, lat: input.view.north })
    area = { west: sw.lng, south: sw.lat, east: ne.lng, north: ne.lat }
  } else area = boundsOfAll(parsed, input.lines, toDatum)
  // Nothing at all: a town's width around Beijing's centre rather than a failed print.
  area ??= { west: 116.38, south: 39.9, east: 116.41, north: 39.92 }
  // A fitted area keeps a margin so that pins and titles at its edge stay on the sheet.
  const frame = frameArea(area, layout.map, input.view ? 0 : 8 * layout.mm)
  return { layout, frame, parsed, toDatum }
}

/** The Web Mercator tiles (256 px) that cover the map at about two page pixels per tile pixel, at most `maxTiles`. */
export function tilesFor(framing: Framing, maxTiles = 120): PlacedTile[] {
  const { frame } = framing
  const b = frame.box
  const worldPx = frame.scale * 2 * Math.PI
  let z = Math.max(1, Math.min(18, Math.round(Math.log2(worldPx / 512))))
  for (;;) {
    const tilePx = worldPx / 2 ** z
    const x0 = Math.floor((((frame.cx - b.width / 2 / frame.scale) / (2 * Math.PI) + 0.5) * worldPx) / tilePx)
    const x1 = Math.floor((((frame.cx + b.width / 2 / frame.scale) / (2 * Math.PI) + 0.5) * worldPx) / tilePx)
    const y0 = Math.floor(((0.5 - (frame.cy + b.height / 2 / frame.scale) / (2 * Math.PI)) * worldPx) / tilePx)
    const y1 = Math.floor(((0.5 - (frame.cy - b.height / 2 / frame.scale) / (2 * Math.PI)) * worldPx) / tilePx)
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > maxTiles && z > 1) {
      z--
      continue
    }
    const n = 2 ** z
    const originX = b.x + b.width / 2 - (frame.cx / (2 * Math.PI) + 0.5) * worldPx
    const originY = b.y + b.height / 2 - (0.5 - frame.cy / (2 * Math.PI)) * worldPx
    const tiles: PlacedTile[] = []
    for (let y = Math.max(0, y0); y <= Math.min(n - 1, y1); y++) {
      for (let x = x0; x <= x1; x++) tiles.push({ z, x: ((x % n) + n) % n, y, left: originX + x * tilePx, top: originY + y * tilePx, size: tilePx })
    }
    return tiles
  }
}

function projector(frame: MapFrame): (p: LngLat) => [number, number] {
  const ox = frame.box.x + frame.box.width / 2
  const oy = frame.box.y + frame.box.height / 2
  return (p) => {
    const m = mercator(p)
    return [ox + (m.x - frame.cx) * frame.scale, oy - (m.y - frame.cy) * frame.scale]
  }
}

function flat(ring: readonly LngLat[], at: (p: LngLat) => [number, number]): number[] {
  const out: number[] = new Array(ring.length * 2)
  for (let i = 0; i < ring.length; i++) {
    const [x, y] = at(ring[i])
    out[2 * i] = num(x)
    out[2 * i + 1] = num(y)
  }
  return out
}

function overlaps(ring: number[], box: Box): boolean {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity]
  for (let i = 0; i < ring.length; i += 2) {
    if (ring[i] < x0) x0 = ring[i]
    if (ring[i] > x1) x1 = ring[i]
    if (ring[i + 1] < y0) y0 = ring[i + 1]
    if (ring[i + 1] > y1) y1 = ring[i + 1]
  }
  return x1 >= box.x && x0 <= box.x + box.width && y1 >= box.y && y0 <= box.y + box.height
}

const DEFAULT_TITLE: TitleStyleLook = { font_size: 12, color: '#1D2129', bg_color: '#FFFFFF', padding: 2, border_weight: 1, border_color: '#C9CDD4' }
/** Screen pixels of a title style to millimetres on paper: a 12-px title prints about 2.6 mm high. */
const TITLE_MM_PER_PX = 0.22

interface TitleDraft extends PageLabel {
  text: string
  look: TitleStyleLook
  font: number
  pad: number
}

function layerSwatch(layer: PrintLayerInput, sample: PrintMarkerInput | undefined): Omit<LegendEntry, 'name' | 'count'> {
  const color = colour(sample?.style.color)
  if (layer.type === 2) return { swatch: 'line', color, dashed: sample?.type === MARKER_KIND.dashedLine }
  if (layer.type === 3) return { swatch: 'area', color, fillColor: colour(sample?.style.fill_color, color), dashed: sample?.type === MARKER_KIND.multiPolygon }
  return { swatch: 'point', color }
}

export function buildScene(
  input: SceneInput,
  framing: Framing,
  tiles: readonly { tile: PlacedTile; png: Uint8Array }[],
  onProgress: (p: number) => void = () => undefined,
  icons: ReadonlyMap<string, Uint8Array> = new Map(),
): Scene {
  const { layout, frame, parsed } = framing
  const { options } = input
  const mm = layout.mm
  const box = layout.map
  const at = projector(frame)
  const prims: Prim[] = []
  const stats = { markers: 0, points: 0, clusters: 0, titles: 0, tiles: 0 }
  prims.push({ k: 'rect', x: 0, y: 0, w: layout.page.width, h: layout.page.height, fill: '#FFFFFF' })

  // The map: a plain background, the tiles over it, then the data, all clipped to the frame.
  prims.push({ k: 'rect', x: box.x, y: box.y, w: box.width, h: box.height, fill: '#F2F5F8' })
  prims.push({ k: 'clip', box })
  for (const t of tiles) {
    prims.push({ k: 'image', x: num(t.tile.left), y: num(t.tile.top), w: num(t.tile.size) + 0.5, h: num(t.tile.size) + 0.5, png: t.png })
    stats.tiles++
  }

  const layerById = new Map(input.layers.map((l) => [l.id, l]))
  const counts = new Map<number, number>()
  const samples = new Map<number, PrintMarkerInput>()
  const areas: Prim[] = []
  const lines: Prim[] = []
  const pointsAt: { x: number; y: number; p: Parsed; lngLat: LngLat }[] = []
  const titles: TitleDraft[] = []
  const titleOf = (p: Parsed, x: number, y: number, rank: number, beside: boolean) => {
    if (!options.titles || !p.m.name.trim()) return
    const look = layerById.get(p.m.layer_id)?.title ?? DEFAULT_TITLE
    const font = Math.max(8, Math.min(32, look.font_size)) * TITLE_MM_PER_PX * mm
    const pad = Math.max(0, Math.min(8, look.padding)) * TITLE_MM_PER_PX * mm
    const text = p.m.name.trim().slice(0, 30)
    const width = textEms(text) * font + 4 * pad
    const height = font * 1.3 + 2 * pad
    titles.push({ text, look, font, pad, width, height, rank, x: beside ? x + 2.2 * mm : x - width / 2, y: beside ? y - height / 2 : y - height / 2 })
  }

  for (let i = 0; i < parsed.length; i++) {
    const p = parsed[i]
    const m = p.m
    if (!layerById.has(m.layer_id)) continue
    counts.set(m.layer_id, (counts.get(m.layer_id) ?? 0) + 1)
    if (!samples.has(m.layer_id)) samples.set(m.layer_id, m)
    const stroke = colour(m.style.color)
    const so = opacity(m.style.opacity, 1)
    const sw = Math.max(0.35, Math.min(2, (m.width || 2) * 0.3)) * mm
    if (m.type === MARKER_KIND.point) {
      const [x, y] = at(p.rings[0][0])
      if (x < box.x || y < box.y || x > box.x + box.width || y > box.y + box.height) continue
      pointsAt.push({ x, y, p, lngLat: p.rings[0][0] })
      continue
    }
    if (isLine(m.type)) {
      const rings = p.rings.map((r) => flat(r, at))
      if (!rings.some((r) => overlaps(r, box))) continue
      lines.push({ k: 'path', rings, close: false, stroke, fo: so, sw, dash: m.type === MARKER_KIND.dashedLine ? [3 * mm, 2 * mm] : undefined })
      const mid = rings[0]
      const half = Math.floor(mid.length / 4) * 2
      titleOf(p, mid[half], mid[half + 1], 1, true)
    } else if (isArea(m.type)) {
      const fill = colour(m.style.fill_color, stroke)
      const fo = opacity(m.style.fill_opacity, 0.25)
      const dash: [number, number] | undefined = m.type === MARKER_KIND.multiPolygon ? [3 * mm, 2 * mm] : undefined
      if (m.type === MARKER_KIND.circle) {
        const centre = p.rings[0][0]
        const [x, y] = at(centre)
        const r = Math.max(1 * mm, (m.radius / (6378137 * Math.cos((centre.lat * Math.PI) / 180))) * frame.scale)
        if (x + r < box.x || x - r > box.x + box.width || y + r < box.y || y - r > box.y + box.height) continue
        areas.push({ k: 'circle', x: num(x), y: num(y), r: num(r), fill, fo, stroke, sw })
        titleOf(p, x, y, 0, false)
      } else {
        const rings = [...p.rings, ...p.holes].map((r) => flat(r, at))
        if (!overlaps(rings[0], box)) continue
        areas.push({ k: 'path', rings, close: true, fill, fo, stroke, sw, dash })
        let [sx, sy] = [0, 0]
        const outer = rings[0]
        for (let j = 0; j < outer.length; j += 2) {
          sx += outer[j]
          sy += outer[j + 1]
        }
        titleOf(p, (sx * 2) / outer.length, (sy * 2) / outer.length, 0, false)
      }
    }
    stats.markers++
    if (i % 2000 === 0) onProgress(Math.round((i / parsed.length) * 40))
  }
  prims.push(...areas, ...lines)

  // Routes and tasks: their line through the stops, the stops numbered.
  for (const l of input.lines) {
    const ring = flat(l.stops.map(framing.toDatum), at)
    if (ring.length >= 4) prims.push({ k: 'path', rings: [ring], close: false, stroke: l.kind === 'route' ? '#165DFF' : '#FF7D00', sw: 1.2 * mm })
    for (let j = 0; j < ring.length; j += 2) {
      prims.push({ k: 'circle', x: ring[j], y: ring[j + 1], r: 2.2 * mm, fill: '#FFFFFF', stroke: l.kind === 'route' ? '#165DFF' : '#FF7D00', sw: 0.6 * mm })
      prims.push({ k: 'text', x: ring[j], y: ring[j + 1] + 1 * mm, s: String(j / 2 + 1), size: 2.8 * mm, color: '#1D2129', bold: true, anchor: 'middle' })
    }
  }

  // Points: each in its colour, or above PRINT_CLUSTER_ABOVE gathered into counted clusters.
  const clustered = pointsAt.length > PRINT_CLUSTER_ABOVE
  const pointR = 1.6 * mm
  const dots = new Map<string, number[]>()
  const dot = (x: number, y: number, color: string) => {
    const list = dots.get(color)
    if (list) list.push(num(x), num(y))
    else dots.set(color, [num(x), num(y)])
  }
  const clusterPrims: Prim[] = []
  const iconPrims: Prim[] = []
  const iconSize = 5 * mm
  /** A point in its icon when the icon's image came, else a pin of its colour. */
  const point = (q: (typeof pointsAt)[number], x: number, y: number) => {
    const image = q.p.m.style.icon ? icons.get(q.p.m.style.icon) : undefined
    if (image) iconPrims.push({ k: 'image', x: num(x - iconSize / 2), y: num(y - iconSize / 2), w: num(iconSize), h: num(iconSize), png: image })
    else dot(x, y, colour(q.p.m.style.color))
  }
  if (clustered) {
    const worldPx = frame.scale * 2 * Math.PI
    const extent = 512
    const zoom = Math.max(0, Math.min(30, Math.floor(Math.log2(worldPx / extent))))
    const radius = (PRINT_CLUSTER_MM * mm * extent * 2 ** zoom) / worldPx
    const index = new Supercluster({ radius, extent, minZoom: zoom, maxZoom: zoom, minPoints: 2 })
    // Clustered on the frame's own Mercator, as drawn: a feature's coordinates are its datum's.
    index.load(pointsAt.map((q, i) => ({ type: 'Feature' as const, properties: { i }, geometry: { type: 'Point' as const, coordinates: [q.lngLat.lng, q.lngLat.lat] } })))
    const bounds = frameBounds(frame)
    for (const f of index.getClusters([bounds.west, bounds.south, bounds.east, bounds.north], zoom)) {
      const [lng, lat] = f.geometry.coordinates
      const [x, y] = at({ lng, lat })
      const props = f.properties as { cluster?: boolean; point_count?: number; i?: number }
      if (props.cluster) {
        const count = props.point_count ?? 0
        const r = (count >= 1000 ? 3.4 : count >= 100 ? 3 : 2.6) * mm
        clusterPrims.push({ k: 'circle', x: num(x), y: num(y), r, fill: '#165DFF', fo: 0.85, stroke: '#FFFFFF', sw: 0.4 * mm })
        clusterPrims.push({
          k: 'text',
          x: num(x),
          y: num(y + 0.9 * mm),
          s: count >= 1000 ? `${Math.round(count / 100) / 10}k` : String(count),
          size: 2.6 * mm,
          color: '#FFFFFF',
          bold: true,
          anchor: 'middle',
        })
        stats.clusters++
      } else {
        const q = pointsAt[props.i ?? 0]
        point(q, x, y)
        titleOf(q.p, x, y, 2, true)
      }
    }
  } else {
    for (const q of pointsAt) {
      point(q, q.x, q.y)
      titleOf(q.p, q.x, q.y, 2, true)
    }
  }
  for (const [fill, xy] of dots) prims.push({ k: 'dots', xy, r: pointR, fill, ring: 0.4 * mm })
  prims.push(...iconPrims, ...clusterPrims)
  stats.points = pointsAt.length
  onProgress(55)

  // Titles: the ones that cover no other, points' first.
  for (const i of placePageLabels(titles, box, 0.5 * mm)) {
    const t = titles[i]
    const bw = Math.max(0, Math.min(4, t.look.border_weight)) * TITLE_MM_PER_PX * mm
    prims.push({
      k: 'rect',
      x: num(t.x),
      y: num(t.y),
      w: num(t.width),
      h: num(t.height),
      fill: colour(t.look.bg_color, '#FFFFFF'),
      fo: 0.92,
      stroke: bw > 0 ? colour(t.look.border_color, '#C9CDD4') : undefined,
      sw: bw,
    })
    prims.push({ k: 'text', x: num(t.x + 2 * t.pad), y: num(t.y + t.pad + t.font * 1.02), s: t.text, size: num(t.font), color: colour(t.look.color, '#1D2129') })
    stats.titles++
  }
  onProgress(70)
  prims.push({ k: 'unclip' })
  prims.push({ k: 'rect', x: box.x, y: box.y, w: box.width, h: box.height, fill: 'none', stroke: '#4E5969', sw: 0.3 * mm })

  // North arrow, top right of the map.
  if (options.north_arrow) {
    const cx = box.x + box.width - 8 * mm
    const top = box.y + 5 * mm
    prims.push({ k: 'rect', x: cx - 4.5 * mm, y: top - 1 * mm, w: 9 * mm, h: 14 * mm, fill: '#FFFFFF', fo: 0.85 })
    prims.push({ k: 'path', rings: [[cx, top + 4 * mm, cx - 2.5 * mm, top + 11 * mm, cx, top + 9 * mm, cx + 2.5 * mm, top + 11 * mm]], close: true, fill: '#1D2129', sw: 0 })
    prims.push({ k: 'text', x: cx, y: top + 3.2 * mm, s: '北', size: 3.2 * mm, color: '#1D2129', bold: true, anchor: 'middle' })
  }

  // Scale bar, bottom right of the map.
  if (options.scale_bar) {
    const bar = scaleBar(frame.metresPerPx, 30 * mm)
    const right = box.x + box.width - 5 * mm
    const base = box.y + box.height - 5 * mm
    const left = right - bar.px
    prims.push({ k: 'rect', x: left - 2 * mm, y: base - 7.5 * mm, w: bar.px + 4 * mm, h: 9.5 * mm, fill: '#FFFFFF', fo: 0.85 })
    prims.push({ k: 'rect', x: left, y: base - 1.2 * mm, w: bar.px / 2, h: 1.2 * mm, fill: '#1D2129' })
    prims.push({ k: 'rect', x: left + bar.px / 2, y: base - 1.2 * mm, w: bar.px / 2, h: 1.2 * mm, fill: '#FFFFFF', stroke: '#1D2129', sw: 0.25 * mm })
    prims.push({ k: 'text', x: left + bar.px / 2, y: base - 2.4 * mm, s: bar.label, size: layout.font.small, color: '#1D2129', anchor: 'middle' })
  }

  // Legend, bottom left of the map: one row per layer (swatch, name, count), routes and tasks, the clustering note.
  if (options.legend) {
    const entries: LegendEntry[] = input.layers.filter((l) => counts.get(l.id)).map((l) => ({ name: l.name, count: counts.get(l.id) ?? 0, ...layerSwatch(l, samples.get(l.id)) }))
    for (const l of input.lines)
      entries.push({ name: l.name || (l.kind === 'route' ? PRINT_MSG.routeLegend : PRINT_MSG.taskLegend), swatch: 'route', color: l.kind === 'route' ? '#165DFF' : '#FF7D00', count: l.stops.length })
    const rowH = 5 * mm
    const maxRows = Math.max(1, Math.floor((box.height * 0.5) / rowH))
    const legend = legendRows(entries, clustered ? pointsAt.length : 0, maxRows)
    if (legend.rows.length || legend.note) {
      const width = Math.min(box.width * 0.45, 62 * mm)
      const noteLines = legend.note ? wrap(legend.note, Math.floor((width - 4 * mm) / (layout.font.small * 0.95))) : []
      const height = 7 * mm + (legend.rows.length + (legend.more ? 1 : 0)) * rowH + noteLines.length * layout.font.small * 1.3 + 2 * mm
      const left = box.x + 4 * mm
      const top = box.y + box.height - 4 * mm - height
      prims.push({ k: 'rect', x: left, y: top, w: width, h: height, fill: '#FFFFFF', fo: 0.92, stroke: '#C9CDD4', sw: 0.25 * mm })
      prims.push({ k: 'text', x: left + 3 * mm, y: top + 5 * mm, s: '图例', size: layout.font.label * 1.1, color: '#1D2129', bold: true })
      legend.rows.forEach((row, i) => {
        const y = top + 7 * mm + i * rowH
        const mid = y + rowH / 2
        const sx = left + 3 * mm
        if (row.swatch === 'point') prims.push({ k: 'dots', xy: [sx + 3 * mm, mid], r: 1.6 * mm, fill: row.color, ring: 0.4 * mm })
        else if (row.swatch === 'area')
          prims.push({
            k: 'path',
            rings: [[sx, mid - 1.6 * mm, sx + 6 * mm, mid - 1.6 * mm, sx + 6 * mm, mid + 1.6 * mm, sx, mid + 1.6 * mm]],
            close: true,
            fill: row.fillColor,
            fo: 0.35,
            stroke: row.color,
            sw: 0.4 * mm,
            dash: row.dashed ? [1.2 * mm, 0.8 * mm] : undefined,
          })
        else prims.push({ k: 'path', rings: [[sx, mid, sx + 6 * mm, mid]], close: false, stroke: row.color, sw: 0.6 * mm, dash: row.dashed ? [1.2 * mm, 0.8 * mm] : undefined })
        const maxChars = Math.floor((width - 24 * mm) / layout.font.label)
        const name =
          Array.from(row.name).length > maxChars
            ? Array.from(row.name)
                .slice(0, Math.max(1, maxChars - 1))
                .join('') + '…'
            : row.name
        prims.push({ k: 'text', x: sx + 8 * mm, y: mid + layout.font.label * 0.36, s: name, size: layout.font.label, color: '#1D2129' })
        if (row.countLabel) prims.push({ k: 'text', x: left + width - 3 * mm, y: mid + layout.font.label * 0.36, s: row.countLabel, size: layout.font.label, color: '#4E5969', anchor: 'end' })
      })
      let y = top + 7 * mm + legend.rows.length * rowH
      if (legend.more) {
        prims.push({ k: 'text', x: left + 3 * mm, y: y + rowH / 2 + layout.font.label * 0.36, s: `等${legend.more}项`, size: layout.font.label, color: '#4E5969' })
        y += rowH
      }
      for (const line of noteLines) {
        y += layout.font.small * 1.3
        prims.push({ k: 'text', x: left + 3 * mm, y, s: line, size: layout.font.small, color: '#4E5969' })
      }
    }
  }
  onProgress(80)

  // The title and note above, the foot below.
  const h = layout.header
  const title = options.title.trim() || PRINT_MSG.untitled
  prims.push({ k: 'text', x: h.x + h.width / 2, y: h.y + 8 * mm, s: title, size: layout.font.title, color: '#1D2129', bold: true, anchor: 'middle' })
  if (options.note.trim()) prims.push({ k: 'text', x: h.x + h.width / 2, y: h.y + 14.5 * mm, s: options.note.trim(), size: layout.font.note, color: '#4E5969', anchor: 'middle' })
  const f = layout.footer
  const footY = f.y + 5.5 * mm
  if (options.footer) prims.push({ k: 'text', x: f.x, y: footY, s: PRINT_MSG.teamAndDate(input.team, input.day), size: layout.font.small, color: '#4E5969' })
  const source = stats.tiles && input.tiles ? `${input.tiles.attribution}  ${PRINT_MSG.reviewNo(input.tiles.reviewNo)}`.trim() : PRINT_MSG.noBasemap
  prims.push({ k: 'text', x: f.x + f.width, y: footY, s: source, size: layout.font.small, color: '#86909C', anchor: 'end' })
  return { width: layout.page.width, height: layout.page.height, dpi: input.dpi, prims, stats }
}

function wrap(text: string, perLine: number): string[] {
  const chars = Array.from(text)
  const out: string[] = []
  for (let i = 0; i < chars.length; i += Math.max(4, perLine)) out.push(chars.slice(i, i + Math.max(4, perLine)).join(''))
  return out
}
