/**
 * Plain point markers and their titles drawn on a canvas, as the elements of the other points look
 * (map.h5.scss): the point layer (pointLayer.ts) draws them so instead of making elements. Hundreds of
 * pins and titles as elements cost a style and layout of each after every pan and zoom (150-170 ms
 * at 4x throttling), re-sort the page's paint into compositor layers on every frame of a pan and are
 * hit-tested under the pointer (40-80 ms a frame with 200 pins and titles, under 10 ms without).
 */

/**
 * How an item is drawn on the canvas: a coloured pin, or its icon image (by URL), with its title if titles
 * show; or a line's or area's title alone (`label`), centred on the shape's label point (size 0).
 */
export type PointSprite = ({ color: string } | { icon: string } | { label: true }) & { size: number; title?: TitleLook }

/** A title's look (markup.ts titleLook; titleCss writes the same as an element's inline style). */
export interface TitleLook {
  text: string
  fontSize: number
  color: string
  background: string
  /** Padding in px, top and bottom, left and right. */
  padY: number
  padX: number
  borderWidth: number
  borderColor: string
}

/** Line height of a title as a share of its font size (map.h5.scss .map-title). */
const TITLE_LINE_HEIGHT = 1.3
/** The title's gap under its pin (map.h5.scss .map-title margin-top). */
const TITLE_GAP = 2

/**
 * A title's text width as the sum of its characters' widths, each measured once (`measure`) and kept in
 * `known`: a team's titles share most of their characters (网点1 … 网点20000), and measuring every new
 * title whole was the largest cost of bringing points into view. Kerning is left out: none between CJK
 * characters or digits, under a pixel for a Latin pair, and the box has padding either side.
 */
export function titleWidth(text: string, known: Map<string, number>, measure: (ch: string) => number): number {
  let width = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    // A character outside the BMP (an emoji) is two UTF-16 units, measured together.
    const ch = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? text.slice(i, ++i + 1) : text[i]
    let w = known.get(ch)
    if (w === undefined) known.set(ch, (w = measure(ch)))
    width += w
  }
  return width
}

/**
 * A title's box relative to its pin's top-left, as the element would lay it out: centred under the
 * pin of `size`, its width the text's (measured on the canvas) plus padding and border.
 */
export function titleBox(look: TitleLook, size: number, textWidth: number, centred = false): { left: number; top: number; width: number; height: number } {
  const width = Math.ceil(textWidth) + 2 * (look.padX + look.borderWidth)
  const height = Math.round(look.fontSize * TITLE_LINE_HEIGHT) + 2 * (look.padY + look.borderWidth)
  // A shape's title is centred on its label point.
  if (centred) return { left: -Math.round(width / 2), top: -Math.round(height / 2), width, height }
  return { left: Math.round(size / 2 - width / 2), top: size + TITLE_GAP, width, height }
}

/** The pin's teardrop as the stylesheet makes it: a box of `size` with three round corners, turned -45° and scaled 0.8 about its centre. */
function tracePin(ctx: CanvasRenderingContext2D, size: number): void {
  const h = size / 2
  ctx.beginPath()
  // Corners: top-left, top-right and bottom-right round (radius half the size), bottom-left square.
  ctx.moveTo(-h, 0)
  ctx.arc(0, 0, h, Math.PI, Math.PI * 1.5)
  ctx.arc(0, 0, h, Math.PI * 1.5, Math.PI * 2)
  ctx.arc(0, 0, h, 0, Math.PI / 2)
  ctx.lineTo(-h, h)
  ctx.closePath()
}

/** Draws a pin whose element's top-left is at (left, top) in the context's user space. */
export function drawPin(ctx: CanvasRenderingContext2D, left: number, top: number, size: number, color: string): void {
  ctx.save()
  ctx.translate(left + size / 2, top + size / 2)
  ctx.rotate(-Math.PI / 4)
  ctx.scale(0.8, 0.8)
  // The element's shadow (0 1px 4px) under its 2-px white border, then the colour inside the border.
  ctx.shadowColor = 'rgba(0, 0, 0, 0.35)'
  ctx.shadowBlur = 4
  ctx.shadowOffsetY = 1
  tracePin(ctx, size)
  ctx.fillStyle = '#fff'
  ctx.fill()
  ctx.shadowColor = 'transparent'
  ctx.shadowBlur = 0
  ctx.shadowOffsetY = 0
  tracePin(ctx, Math.max(0, size - 4))
  ctx.fillStyle = color
  ctx.fill()
  ctx.restore()
}

/** Room around a pin's sprite for its shadow (4-px blur, 1 px down), in CSS px. */
export const PIN_SPRITE_PAD = 6

/**
 * A pin drawn once on a canvas of its own (`canvas`, sized here) at `dpr` pixels per CSS px, PIN_SPRITE_PAD around it,
 * to be copied onto the drawing for each pin of its colour and size: a shadow's blur for every pin was most of the cost
 * of handing the drawing to the compositor after a pan.
 */
export function paintPinSprite(canvas: { width: number; height: number; getContext(id: '2d'): CanvasRenderingContext2D | null }, size: number, color: string, dpr: number): void {
  const side = Math.ceil((size + 2 * PIN_SPRITE_PAD) * dpr)
  canvas.width = side
  canvas.height = side
  const ctx = canvas.getContext('2d')
  if (!ctx) return
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0)
  drawPin(ctx, PIN_SPRITE_PAD, PIN_SPRITE_PAD, size, color)
}

function traceRoundRect(ctx: CanvasRenderingContext2D, left: number, top: number, width: number, height: number, r: number): void {
  ctx.beginPath()
  ctx.moveTo(left + r, top)
  ctx.arcTo(left + width, top, left + width, top + height, r)
  ctx.arcTo(left + width, top + height, left, top + height, r)
  ctx.arcTo(left, top + height, left, top, r)
  ctx.arcTo(left, top, left + width, top, r)
  ctx.closePath()
}

/**
 * Draws a title in its box (user space): rounded background and border (3 px corners), its text centred.
 * Without a font family, the caller has set the context's font to the title's size already (setting a font parses it).
 */
export function drawTitle(ctx: CanvasRenderingContext2D, box: { left: number; top: number; width: number; height: number }, look: TitleLook, fontFamily: string | null): void {
  const { left, top, width, height } = box
  const r = Math.min(3, width / 2, height / 2)
  traceRoundRect(ctx, left, top, width, height, r)
  ctx.fillStyle = look.background
  ctx.fill()
  if (look.borderWidth > 0) {
    // The border lies inside the box: a stroke of its width along a box inset by half of it (a clip to the box
    // instead cost a mask per title when the drawing was handed to the compositor).
    const half = look.borderWidth / 2
    traceRoundRect(ctx, left + half, top + half, Math.max(0, width - look.borderWidth), Math.max(0, height - look.borderWidth), Math.max(0, r - half))
    ctx.lineWidth = look.borderWidth
    ctx.strokeStyle = look.borderColor
    ctx.stroke()
  }
  if (fontFamily !== null) ctx.font = `${look.fontSize}px ${fontFamily}`
  ctx.textAlign = 'center'
  ctx.textBaseline = 'middle'
  ctx.fillStyle = look.color
  ctx.fillText(look.text, left + width / 2, top + height / 2 + 0.5)
}

/** A drawn item as a tap sees it, in one px space: its pin's box (none for a shape's title) and its title's, if shown. */
export interface TapTarget {
  id: number | undefined
  pin: { left: number; top: number; size: number } | null
  title: { left: number; top: number; width: number; height: number } | null
  /** A line's or area's title: drawn, but a tap on it is its shape's (under the drawing). */
  passThrough: boolean
}

/** A drawn pin takes taps this far around its box (a finger is less exact than a pointer). */
export const TAP_SLOP = 4

/**
 * The marker whose drawn title or pin is topmost at (x, y), as the drawing lays them: every title over
 * every pin, a later item over an earlier one; null when the tap is on neither.
 */
export function topmostAt(items: TapTarget[], x: number, y: number): number | null {
  for (let i = items.length - 1; i >= 0; i--) {
    const t = items[i].title
    if (t && !items[i].passThrough && x >= t.left && x <= t.left + t.width && y >= t.top && y <= t.top + t.height) return items[i].id ?? null
  }
  for (let i = items.length - 1; i >= 0; i--) {
    const p = items[i].pin
    if (p && x >= p.left - TAP_SLOP && x <= p.left + p.size + TAP_SLOP && y >= p.top - TAP_SLOP && y <= p.top + p.size + TAP_SLOP) return items[i].id ?? null
  }
  return null
}

/** A cluster badge drawn on the canvas (a crowd of them: fewer are elements, markup.ts clusterMarkup). */
export interface BadgeItem {
  key: string
  lat: number
  lng: number
  /** Diameter in CSS px (the ring is drawn outside it). */
  size: number
  label: string
}

/** The badge's ring outside its size (as the element's 4-px border). */
export const BADGE_RING = 4
const BADGE_FILL = 'rgba(22, 93, 255, 0.85)'
const BADGE_RING_COLOR = 'rgba(22, 93, 255, 0.3)'

export interface PlacedBadge {
  key: string
  /** Px of the centre (the drawing's user space), radius including the ring. */
  x: number
  y: number
  r: number
}

/** The badge under a point (in the badges' px): the last drawn wins, as it is on top. */
export function hitBadge(placed: readonly PlacedBadge[], x: number, y: number): PlacedBadge | null {
  for (let i = placed.length - 1; i >= 0; i--) {
    const b = placed[i]
    const dx = x - b.x
    const dy = y - b.y
    if (dx * dx + dy * dy <= b.r * b.r) return b
  }
  return null
}

/** Draws badges placed in the context's user space, with their counts in `font`. */
export function drawBadges(ctx: CanvasRenderingContext2D, placed: readonly PlacedBadge[], labels: readonly string[], font: string): void {
  ctx.globalAlpha = 1
  ctx.setLineDash([])
  ctx.font = font
  ctx.textAlign = 'center'
  ctx.textBaseline = 'middle'
  ctx.lineWidth = BADGE_RING
  for (let i = 0; i < placed.length; i++) {
    const { x, y, r } = placed[i]
    ctx.beginPath()
    ctx.arc(x, y, r - BADGE_RING / 2, 0, Math.PI * 2)
    ctx.strokeStyle = BADGE_RING_COLOR
    ctx.stroke()
    ctx.beginPath()
    ctx.arc(x, y, r - BADGE_RING, 0, Math.PI * 2)
    ctx.fillStyle = BADGE_FILL
    ctx.fill()
  }
  // Every count over every disc: zoomed out, badges overlap, and a count under its neighbour's disc was cut off ('16' read 'l6').
  ctx.fillStyle = '#fff'
  for (let i = 0; i < placed.length; i++) ctx.fillText(labels[i], placed[i].x, placed[i].y + 0.5)
}
