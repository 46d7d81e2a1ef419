/**
 * Painting a watermarked photo on a 2d canvas (H5's HTMLCanvasElement and the mini-program's
 * type="2d" canvas share this API): the photo scaled to cover the on-screen picture, then the
 * watermark panel and lines from the domain layout, all at CAMERA_EXPORT_SCALE (SPEC 9: 4x).
 */
import { CAMERA_EXPORT_SCALE } from '../../domain/constants'
import { coverCrop, layoutWatermark, WATERMARK_STYLE, watermarkFont, type WatermarkText } from '../../domain/watermark'
import type { ViewSize } from './types'

/** The part of CanvasRenderingContext2D used here (both platforms' contexts have it). */
export interface Canvas2D {
  font: string
  fillStyle: unknown
  textBaseline: string
  shadowColor: string
  shadowBlur: number
  shadowOffsetX: number
  shadowOffsetY: number
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void
  fillRect(x: number, y: number, w: number, h: number): void
  fillText(text: string, x: number, y: number): void
  measureText(text: string): { width: number }
  drawImage(image: any, sx: number, sy: number, sw: number, sh: number, dx: number, dy: number, dw: number, dh: number): void
}

/**
 * Paints `source` (natural size `photo`) covering `view`, and the watermark over it. The canvas must
 * be view x scale pixels; drawing happens in on-screen px under a scale transform.
 */
export function paintWatermarkedPhoto(ctx: Canvas2D, source: unknown, photo: { width: number; height: number }, view: ViewSize, text: WatermarkText, scale: number = CAMERA_EXPORT_SCALE): void {
  ctx.setTransform(scale, 0, 0, scale, 0, 0)
  const crop = coverCrop(photo, view)
  ctx.drawImage(source, crop.sx, crop.sy, crop.sw, crop.sh, 0, 0, view.width, view.height)
  paintWatermark(ctx, text, view)
}

export function paintWatermark(ctx: Canvas2D, text: WatermarkText, view: ViewSize): void {
  const measure = (t: string, size: number) => {
    ctx.font = watermarkFont({ size, bold: size === WATERMARK_STYLE.clockSize })
    return ctx.measureText(t).width
  }
  const layout = layoutWatermark(text, view, measure)
  const s = WATERMARK_STYLE
  ctx.fillStyle = s.boxColor
  ctx.fillRect(layout.box.x, layout.box.y, layout.box.width, layout.box.height)
  ctx.fillStyle = s.barColor
  ctx.fillRect(layout.bar.x, layout.bar.y, layout.bar.width, layout.bar.height)
  ctx.textBaseline = 'top'
  ctx.shadowColor = s.shadowColor
  ctx.shadowBlur = 2
  ctx.shadowOffsetX = 0
  ctx.shadowOffsetY = 1
  ctx.fillStyle = s.textColor
  for (const line of layout.lines) {
    ctx.font = watermarkFont(line)
    ctx.fillText(line.text, line.x, line.y)
  }
  ctx.shadowColor = 'transparent'
  ctx.shadowBlur = 0
}

/** A file name for a check-in photo. */
export function photoFileName(now: number = Date.now()): string {
  return `sign_${now}.jpg`
}
