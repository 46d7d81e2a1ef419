/**
 * The watermark of check-in photos (SPEC 9 "watermark text wraps at 220 width"): which
 * lines a photo carries (time in Asia/Shanghai, place, user, target and distance, the server's
 * code), how they wrap for a given text measure, where they sit on the picture, and the camera's
 * sizes (video height = window height - 200, export at 4x). Pure: the platforms draw the layout
 * on their canvas.
 */
import dayjs from 'dayjs'
import utc from 'dayjs/plugin/utc'
import type { SignTicket } from '../../types/signs'
import { CAMERA_EXPORT_SCALE, CAMERA_VIDEO_HEIGHT_INSET, WATERMARK_WRAP_WIDTH } from './constants'
import { CHECKIN_MSG } from './checkinMessages'

dayjs.extend(utc)

/** Asia/Shanghai is UTC+8 all year. */
const SHANGHAI_OFFSET_MIN = 480
const WEEKDAYS = ['日', '一', '二', '三', '四', '五', '六']

/** SPEC 9: the camera's video is the window height minus 200 (never negative). */
export function cameraVideoHeight(windowHeight: number): number {
  return Math.max(0, Math.floor(windowHeight - CAMERA_VIDEO_HEIGHT_INSET))
}

/** The exported photo's pixel size: the on-screen picture at 4x (SPEC 9). */
export function exportSize(view: { width: number; height: number }, scale: number = CAMERA_EXPORT_SCALE): { width: number; height: number } {
  return { width: Math.round(view.width * scale), height: Math.round(view.height * scale) }
}

/** Metres as the watermark and the sign list show them: '35 米', '1.2 公里'. */
export function formatSignDistance(m: number): string {
  if (m < 1000) return `${Math.round(m)} 米`
  return `${(m / 1000).toFixed(m < 10_000 ? 1 : 0)} 公里`
}

/** The check-in time in Asia/Shanghai, whatever the phone's zone: '2026-11-22 16:00:05'. */
export function shanghaiDateTime(iso: string): string {
  const d = dayjs(iso)
  return d.isValid() ? d.utcOffset(SHANGHAI_OFFSET_MIN).format('YYYY-MM-DD HH:mm:ss') : ''
}

/** What the watermark says, before wrapping. */
export interface WatermarkText {
  /** Large: '16:00'. */
  clock: string
  /** '2026-11-22 星期日'. */
  date: string
  /** One entry per fact; each may wrap onto several lines. */
  lines: string[]
}

export type WatermarkTicket = Pick<SignTicket, 'time' | 'code' | 'user' | 'target' | 'distance' | 'lng' | 'lat'>

/** The watermark of a ticket; `addr` is the reverse-geocoded address ('' when none). */
export function watermarkText(ticket: WatermarkTicket, addr: string): WatermarkText {
  const d = dayjs(ticket.time).utcOffset(SHANGHAI_OFFSET_MIN)
  const lines = [`时间 ${shanghaiDateTime(ticket.time)}`]
  if (addr.trim()) lines.push(`地点 ${addr.trim()}`)
  lines.push(`坐标 ${ticket.lng.toFixed(6)}, ${ticket.lat.toFixed(6)}`)
  lines.push(`签到人 ${ticket.user.nickname}`)
  if (ticket.target.kind === 'free') lines.push(CHECKIN_MSG.free)
  else {
    const distance = ticket.distance === null ? '' : `（距离 ${formatSignDistance(ticket.distance)}）`
    lines.push(`签到点 ${ticket.target.name || '—'}${distance}`)
  }
  lines.push(`校验码 ${ticket.code}`)
  return { clock: d.format('HH:mm'), date: `${d.format('YYYY-MM-DD')} 星期${WEEKDAYS[d.day()]}`, lines }
}

/** Width of a text at a font size, in the same unit as the wrap width (a canvas's measureText). */
export type MeasureText = (text: string, size: number) => number

// CJK ideographs, kana, Hangul, CJK and full-width punctuation: each may stand alone on a line.
const CJK = '\\u2e80-\\u2fff\\u3000-\\u303f\\u3040-\\u30ff\\u3100-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff\\ufe30-\\ufe4f\\uff00-\\uffef'
const TOKENS = new RegExp(`[${CJK}]|\\s+|[^\\s${CJK}]+`, 'g')

/**
 * Greedy line breaking at `maxWidth`: a line breaks between CJK characters and at spaces; a Latin
 * word moves whole to the next line, and a word longer than a whole line is broken by characters.
 * Spaces at a break are dropped. Never returns an empty list for non-empty text.
 */
export function wrapText(text: string, maxWidth: number, measure: (s: string) => number): string[] {
  const out: string[] = []
  let line = ''
  const push = () => {
    const t = line.trimEnd()
    if (t) out.push(t)
    line = ''
  }
  for (const token of text.match(TOKENS) ?? []) {
    if (/^\s+$/.test(token)) {
      if (line) line += ' '
      continue
    }
    if (measure(line + token) <= maxWidth) {
      line += token
      continue
    }
    if (line.trim()) push()
    else line = ''
    if (measure(token) <= maxWidth) {
      line = token
      continue
    }
    // longer than a line: break by characters (code points, so surrogate pairs stay whole)
    for (const ch of Array.from(token)) {
      if (line && measure(line + ch) > maxWidth) push()
      line += ch
    }
  }
  push()
  return out
}

/** One line to draw: text at (x, y) with textBaseline 'top', in on-screen px. */
export interface WatermarkLine {
  text: string
  x: number
  y: number
  size: number
  bold: boolean
}

export interface WatermarkLayout {
  /** The translucent panel behind the text. */
  box: { x: number; y: number; width: number; height: number }
  /** The accent bar left of the body lines. */
  bar: { x: number; y: number; width: number; height: number }
  lines: WatermarkLine[]
}

export const WATERMARK_STYLE = {
  margin: 12,
  padding: 8,
  clockSize: 26,
  dateSize: 13,
  bodySize: 13,
  lineHeight: 1.4,
  barWidth: 3,
  barGap: 6,
  textColor: '#ffffff',
  boxColor: 'rgba(0, 0, 0, 0.38)',
  barColor: '#ffb400',
  shadowColor: 'rgba(0, 0, 0, 0.6)',
} as const

/**
 * Where the watermark sits on a picture of `view` size (on-screen px): a panel at the bottom-left
 * corner, the clock and date on top, then every body line wrapped at WATERMARK_WRAP_WIDTH (SPEC 9).
 * When the picture is too low for it all, the panel starts at the top margin and runs past the bottom
 * rather than hiding the first lines.
 */
export function layoutWatermark(text: WatermarkText, view: { width: number; height: number }, measure: MeasureText, wrapWidth: number = WATERMARK_WRAP_WIDTH): WatermarkLayout {
  const s = WATERMARK_STYLE
  const width = Math.min(wrapWidth, Math.max(40, view.width - 2 * (s.margin + s.padding) - s.barWidth - s.barGap))
  const rows: { text: string; size: number; bold: boolean; indent: number; gapBefore: number }[] = []
  rows.push({ text: text.clock, size: s.clockSize, bold: true, indent: 0, gapBefore: 0 })
  rows.push({ text: text.date, size: s.dateSize, bold: false, indent: 0, gapBefore: 0 })
  const indent = s.barWidth + s.barGap
  let first = true
  for (const line of text.lines) {
    for (const part of wrapText(line, width, (t) => measure(t, s.bodySize))) {
      rows.push({ text: part, size: s.bodySize, bold: false, indent, gapBefore: first ? 6 : 0 })
      first = false
    }
  }
  const heights = rows.map((r) => r.gapBefore + r.size * s.lineHeight)
  const textHeight = heights.reduce((a, b) => a + b, 0)
  const textWidth = Math.max(...rows.map((r) => r.indent + measure(r.text, r.size)))
  const boxW = Math.ceil(textWidth + 2 * s.padding)
  const boxH = Math.ceil(textHeight + 2 * s.padding)
  const boxX = s.margin
  const boxY = Math.max(s.margin, view.height - s.margin - boxH)
  const lines: WatermarkLine[] = []
  let y = boxY + s.padding
  let barTop = 0
  rows.forEach((r, i) => {
    y += r.gapBefore
    if (r.indent && !barTop) barTop = y
    lines.push({ text: r.text, x: boxX + s.padding + r.indent, y: y + ((s.lineHeight - 1) * r.size) / 2, size: r.size, bold: r.bold })
    y += heights[i] - r.gapBefore
  })
  const bar = { x: boxX + s.padding, y: barTop, width: s.barWidth, height: Math.max(0, y - barTop) }
  return { box: { x: boxX, y: boxY, width: boxW, height: boxH }, bar, lines }
}

/** The font string of a line for a canvas (the system UI font, which carries CJK glyphs). */
export function watermarkFont(line: Pick<WatermarkLine, 'size' | 'bold'>): string {
  return `${line.bold ? 'bold ' : ''}${line.size}px -apple-system, "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif`
}

/**
 * Where the photo goes in the on-screen picture: scaled to cover it and centred (what the video
 * element and the mini-program's camera show), as a source rectangle of the photo.
 */
export function coverCrop(photo: { width: number; height: number }, view: { width: number; height: number }): { sx: number; sy: number; sw: number; sh: number } {
  const scale = Math.max(view.width / photo.width, view.height / photo.height)
  const sw = view.width / scale
  const sh = view.height / scale
  return { sx: (photo.width - sw) / 2, sy: (photo.height - sh) / 2, sw, sh }
}
