/**
 * Plain point markers and their titles drawn on a canvas, as their elements look (map.h5.scss):
 * the point layer (pointLayer.ts) shows this drawing in place of the elements while the map moves.
 * Hundreds of pins and titles as elements make every frame of a pan re-sort the page's paint into
 * compositor layers and hit-test each element under the pointer (measured at 4x throttling, 200 pins
 * with titles: 40-80 ms a frame, against under 10 ms with the elements hidden).
 */

/** How an item is drawn on the canvas: a coloured pin, or the item's own icon image. */
export type PointSprite = { color: string; size: number } | { icon: true; size: number }

/** A title's look, read from its element's inline style (markup.ts titleCss writes it there). */
export interface TitleLook {
  text: string
  fontSize: number
  color: string
  background: string
  borderWidth: number
  borderColor: string
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

const px = (v: string, fallback: number) => {
  const n = parseFloat(v)
  return Number.isFinite(n) ? n : fallback
}

/** The look of a title element (markup.ts titleCss: font size, colour, background, border in its inline style). */
export function titleLook(el: HTMLElement): TitleLook {
  const s = el.style
  return {
    text: el.textContent ?? '',
    fontSize: px(s.fontSize, 14),
    color: s.color || '#1d2129',
    background: s.backgroundColor || 'transparent',
    borderWidth: s.borderTopStyle === 'none' ? 0 : px(s.borderTopWidth, 0),
    borderColor: s.borderTopColor || 'transparent',
  }
}

/** Draws a title in its box (user space): rounded background and border (3 px corners), its text centred. */
export function drawTitle(ctx: CanvasRenderingContext2D, box: { left: number; top: number; width: number; height: number }, look: TitleLook, fontFamily: string): void {
  const { left, top, width, height } = box
  const r = Math.min(3, width / 2, height / 2)
  ctx.beginPath()
  ctx.moveTo(left + r, top)
  ctx.arcTo(left + width, top, left + width, top + height, r)
  ctx.arcTo(left + width, top + height, left, top + height, r)
  ctx.arcTo(left, top + height, left, top, r)
  ctx.arcTo(left, top, left + width, top, r)
  ctx.closePath()
  ctx.fillStyle = look.background
  ctx.fill()
  if (look.borderWidth > 0) {
    ctx.save()
    ctx.clip()
    // The border lies inside the box: a stroke twice as wide, clipped to the box.
    ctx.lineWidth = look.borderWidth * 2
    ctx.strokeStyle = look.borderColor
    ctx.stroke()
    ctx.restore()
  }
  ctx.font = `${look.fontSize}px ${fontFamily}`
  ctx.textAlign = 'center'
  ctx.textBaseline = 'middle'
  ctx.fillStyle = look.color
  ctx.fillText(look.text, left + width / 2, top + height / 2 + 0.5)
}
