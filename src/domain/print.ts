/**
 * The print sheet's layout (打印): paper sizes in pixels (at the chosen dpi) and in PDF points, the
 * bands of the sheet (title and note above, the map, the foot with the date, the team and the base
 * map's attribution), the map's frame (Web Mercator, as the maps draw it), the scale bar's round
 * length, the legend's rows and the titles that do not cover each other. Pure: the server draws
 * the sheet from it (server/src/services/print-scene.ts) and the print page reads its defaults.
 */
import type { PrintBounds, PrintOptions, PrintOrientation, PrintPaper, PrintQuality } from '../../types/print'
import type { LngLat } from './geo'
import { PRINT_MSG } from './printMessages'

/** Paper sizes in millimetres, portrait (ISO 216). */
export const PAPER_MM: Readonly<Record<PrintPaper, { width: number; height: number }>> = {
  A4: { width: 210, height: 297 },
  A3: { width: 297, height: 420 },
}

/** 标准 and 高清. */
export const QUALITY_DPI: Readonly<Record<PrintQuality, number>> = { standard: 150, hd: 300 }
export const QUALITY_NAMES: Readonly<Record<PrintQuality, string>> = { standard: '标准', hd: '高清' }
/** The live preview's resolution: the same sheet, about 500-700 px on its long side. */
export const PREVIEW_DPI = 40

/** A print of more markers than this is refused (the sheet could not show them, and the server would hold them all). */
export const PRINT_MAX_MARKERS = 100_000
/** Above this many points in the area, points are drawn clustered with their counts. */
export const PRINT_CLUSTER_ABOVE = 20_000
/** The cluster radius on paper, in millimetres. */
export const PRINT_CLUSTER_MM = 6
export const PRINT_TITLE_MAX = 40
export const PRINT_NOTE_MAX = 100

const MM_PER_INCH = 25.4
const PT_PER_INCH = 72
const EARTH_RADIUS_M = 6378137

export const DEFAULT_PRINT_OPTIONS: PrintOptions = {
  paper: 'A4',
  orientation: 'landscape',
  quality: 'standard',
  title: '',
  note: '',
  legend: true,
  scale_bar: true,
  north_arrow: true,
  titles: true,
  footer: true,
  basemap: true,
}

export interface Size {
  width: number
  height: number
}

export interface Box {
  x: number
  y: number
  width: number
  height: number
}

export function paperMm(paper: PrintPaper, orientation: PrintOrientation): Size {
  const { width, height } = PAPER_MM[paper]
  return orientation === 'portrait' ? { width, height } : { width: height, height: width }
}

/** The sheet in whole pixels at `dpi` (A4 portrait at 150 dpi: 1240 x 1754). */
export function pagePx(paper: PrintPaper, orientation: PrintOrientation, dpi: number): Size {
  const mm = paperMm(paper, orientation)
  return { width: Math.round((mm.width / MM_PER_INCH) * dpi), height: Math.round((mm.height / MM_PER_INCH) * dpi) }
}

/** The sheet in PDF points (A4 portrait: 595.28 x 841.89). */
export function pagePt(paper: PrintPaper, orientation: PrintOrientation): Size {
  const mm = paperMm(paper, orientation)
  const pt = (v: number) => Math.round((v / MM_PER_INCH) * PT_PER_INCH * 100) / 100
  return { width: pt(mm.width), height: pt(mm.height) }
}

/** The sheet's parts, in pixels at its dpi. */
export interface SheetLayout {
  dpi: number
  page: Size
  /** Pixels per millimetre. */
  mm: number
  header: Box
  map: Box
  footer: Box
  /** Font sizes in pixels. */
  font: { title: number; note: number; small: number; label: number }
}

const MARGIN_MM = 10
const TITLE_BAND_MM = 12
const NOTE_BAND_MM = 6
const FOOTER_BAND_MM = 8

export function sheetLayout(options: Pick<PrintOptions, 'paper' | 'orientation' | 'note'>, dpi: number): SheetLayout {
  const page = pagePx(options.paper, options.orientation, dpi)
  const mm = dpi / MM_PER_INCH
  const margin = MARGIN_MM * mm
  const headerHeight = (TITLE_BAND_MM + (options.note.trim() ? NOTE_BAND_MM : 0)) * mm
  const footerHeight = FOOTER_BAND_MM * mm
  const inner = page.width - 2 * margin
  const header = { x: margin, y: margin, width: inner, height: headerHeight }
  const footer = { x: margin, y: page.height - margin - footerHeight, width: inner, height: footerHeight }
  const map = { x: margin, y: header.y + headerHeight, width: inner, height: footer.y - header.y - headerHeight }
  return { dpi, page, mm, header, map, footer, font: { title: 6 * mm, note: 3.6 * mm, small: 3 * mm, label: 3 * mm } }
}

/** Web Mercator in radians: x grows east, y grows north. */
export function mercator(p: LngLat): { x: number; y: number } {
  const lat = Math.max(-85, Math.min(85, p.lat))
  return { x: (p.lng * Math.PI) / 180, y: Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) }
}

/** How the map's area lands in its box: page pixels per Mercator radian, and the centre. */
export interface MapFrame {
  box: Box
  /** Page pixels per radian of Mercator. */
  scale: number
  cx: number
  cy: number
  /** Ground metres per page pixel at the centre's latitude (what the scale bar measures). */
  metresPerPx: number
}

/** The smallest span framed (about 200 m), so that one point or one spot gets a street's width around it. */
const MIN_SPAN_RAD = 200 / EARTH_RADIUS_M

/** The frame that shows all of `area` in `box`, centred (the box's other side shows more around it). */
export function frameArea(area: PrintBounds, box: Box, padPx = 0): MapFrame {
  const a = mercator({ lng: area.west, lat: area.south })
  const b = mercator({ lng: area.east, lat: area.north })
  const dx = Math.max(Math.abs(b.x - a.x), MIN_SPAN_RAD)
  const dy = Math.max(Math.abs(b.y - a.y), MIN_SPAN_RAD)
  const w = Math.max(1, box.width - 2 * padPx)
  const h = Math.max(1, box.height - 2 * padPx)
  const scale = Math.min(w / dx, h / dy)
  const cx = (a.x + b.x) / 2
  const cy = (a.y + b.y) / 2
  const lat = (2 * Math.atan(Math.exp(cy)) - Math.PI / 2) * (180 / Math.PI)
  return { box, scale, cx, cy, metresPerPx: (EARTH_RADIUS_M * Math.cos((lat * Math.PI) / 180)) / scale }
}

/** A place on the page. */
export function toPage(frame: MapFrame, p: LngLat): { x: number; y: number } {
  const m = mercator(p)
  return { x: frame.box.x + frame.box.width / 2 + (m.x - frame.cx) * frame.scale, y: frame.box.y + frame.box.height / 2 - (m.y - frame.cy) * frame.scale }
}

/** The coordinates the frame's box covers (its corners back to longitude and latitude). */
export function frameBounds(frame: MapFrame): PrintBounds {
  const halfW = frame.box.width / 2 / frame.scale
  const halfH = frame.box.height / 2 / frame.scale
  const lat = (y: number) => (2 * Math.atan(Math.exp(y)) - Math.PI / 2) * (180 / Math.PI)
  return { west: ((frame.cx - halfW) * 180) / Math.PI, east: ((frame.cx + halfW) * 180) / Math.PI, south: lat(frame.cy - halfH), north: lat(frame.cy + halfH) }
}

export interface ScaleBar {
  metres: number
  /** Its length on the page, in pixels. */
  px: number
  /** '500米', '2公里'. */
  label: string
}

export function lengthLabel(metres: number): string {
  return metres >= 1000 ? `${Math.round((metres / 1000) * 1000) / 1000}公里` : `${metres}米`
}

/** The longest round length (1, 2 or 5 times a power of ten metres) that fits in `maxPx`. */
export function scaleBar(metresPerPx: number, maxPx: number): ScaleBar {
  const most = metresPerPx * maxPx
  let metres = 1
  for (let p = Math.floor(Math.log10(Math.max(most, 1))); p >= 0; p--) {
    const step = [5, 2, 1].map((k) => k * 10 ** p).find((m) => m <= most)
    if (step) {
      metres = step
      break
    }
  }
  return { metres, px: metres / metresPerPx, label: lengthLabel(metres) }
}

/** A layer, route or task as the legend lists it. */
export interface LegendEntry {
  name: string
  /** 'point' | 'line' | 'area' | 'route': the swatch drawn. */
  swatch: 'point' | 'line' | 'area' | 'route'
  color: string
  fillColor?: string
  dashed?: boolean
  count: number
}

export interface LegendRow extends LegendEntry {
  /** The count as shown ('12个'); empty for a route. */
  countLabel: string
}

export interface Legend {
  rows: LegendRow[]
  /** The rows that did not fit ('等N项'), 0 when all did. */
  more: number
  /** The note under the rows when points are clustered. */
  note: string
}

/** The legend's rows in the given order, at most `maxRows`, and the clustering note when points are clustered. */
export function legendRows(entries: readonly LegendEntry[], clusteredPoints: number, maxRows: number): Legend {
  const rows = entries.map((e) => ({ ...e, countLabel: e.swatch === 'route' ? '' : PRINT_MSG.count(e.count) }))
  const fit = rows.length > maxRows ? Math.max(0, maxRows - 1) : rows.length
  return { rows: rows.slice(0, fit), more: rows.length - fit, note: clusteredPoints > 0 ? PRINT_MSG.clustered(clusteredPoints) : '' }
}

/** A title's box on the page; a higher rank is placed first. */
export interface PageLabel {
  x: number
  y: number
  width: number
  height: number
  rank: number
}

/**
 * The indexes of the titles shown: by rank (then in the given order), each one that neither covers
 * one already shown nor leaves `bounds`. A grid of `cell` pixels holds what is shown, so that tens of
 * thousands of titles are placed in one pass.
 */
export function placePageLabels(labels: readonly PageLabel[], bounds: Box, gap: number): number[] {
  const order = labels.map((_, i) => i).sort((a, b) => labels[b].rank - labels[a].rank || a - b)
  const typical = labels.length ? labels.reduce((s, l) => s + l.width, 0) / labels.length : 1
  const cell = Math.max(8, typical)
  const grid = new Map<number, number[]>()
  const key = (cx: number, cy: number) => cy * 100_003 + cx
  const shown: number[] = []
  for (const i of order) {
    const l = labels[i]
    if (l.x < bounds.x || l.y < bounds.y || l.x + l.width > bounds.x + bounds.width || l.y + l.height > bounds.y + bounds.height) continue
    const x0 = Math.floor((l.x - gap) / cell)
    const x1 = Math.floor((l.x + l.width + gap) / cell)
    const y0 = Math.floor((l.y - gap) / cell)
    const y1 = Math.floor((l.y + l.height + gap) / cell)
    let hit = false
    for (let cy = y0; cy <= y1 && !hit; cy++) {
      for (let cx = x0; cx <= x1 && !hit; cx++) {
        for (const j of grid.get(key(cx, cy)) ?? []) {
          const s = labels[j]
          if (l.x < s.x + s.width + gap && s.x < l.x + l.width + gap && l.y < s.y + s.height + gap && s.y < l.y + l.height + gap) {
            hit = true
            break
          }
        }
      }
    }
    if (hit) continue
    shown.push(i)
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        const k = key(cx, cy)
        const list = grid.get(k)
        if (list) list.push(i)
        else grid.set(k, [i])
      }
    }
  }
  return shown.sort((a, b) => a - b)
}

/** A CJK character or full-width sign is one em wide; Latin letters, digits and signs about 0.6 em. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/

/** A text's width in ems, as the sheet's CJK font draws it. */
export function textEms(text: string): number {
  let ems = 0
  for (const ch of text) ems += WIDE.test(ch) ? 1 : 0.6
  return ems
}

/** The day as 'YYYY-MM-DD' in Asia/Shanghai (UTC+8 all year). */
export function printDay(at: Date): string {
  return new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 10)
}

/** The file name: the title and the date, without the characters file systems refuse. */
export function printFileName(title: string, at: Date, format: 'png' | 'pdf'): string {
  const clean = (title.trim() || PRINT_MSG.untitled).replace(/[\\/:*?"<>|\s]+/g, '_').slice(0, PRINT_TITLE_MAX)
  return `${clean}_${printDay(at)}.${format}`
}

/** Why these options cannot be printed, or null. */
export function checkPrintOptions(options: PrintOptions): string | null {
  if (Array.from(options.title).length > PRINT_TITLE_MAX) return PRINT_MSG.titleTooLong(PRINT_TITLE_MAX)
  if (Array.from(options.note).length > PRINT_NOTE_MAX) return PRINT_MSG.noteTooLong(PRINT_NOTE_MAX)
  return null
}

/** Whether a view box is usable: finite, west below east, south below north, on the globe. */
export function validBounds(b: PrintBounds | null | undefined): b is PrintBounds {
  return !!b && [b.west, b.south, b.east, b.north].every(Number.isFinite) && b.west < b.east && b.south < b.north && b.west >= -180 && b.east <= 180 && b.south >= -85 && b.north <= 85
}
