/**
 * H5 only (imported by index.h5.ts and CameraView.h5.tsx): a video frame or an image painted with
 * the watermark on a canvas at 4x the on-screen size (SPEC 9) and exported as a JPEG blob: URL that
 * the uploader sends.
 */
import { exportSize } from '../../domain/watermark'
import type { WatermarkText } from '../../domain/watermark'
import { paintWatermarkedPhoto, photoFileName, type Canvas2D } from './draw'
import { CameraError, type CapturedPhoto, type ViewSize } from './types'

const JPEG_QUALITY = 0.85

export async function exportWatermarked(source: CanvasImageSource, photo: { width: number; height: number }, view: ViewSize, text: WatermarkText): Promise<CapturedPhoto> {
  if (!photo.width || !photo.height || !view.width || !view.height) throw new CameraError('failed', 'empty picture')
  const size = exportSize(view)
  const canvas = document.createElement('canvas')
  canvas.width = size.width
  canvas.height = size.height
  const ctx = canvas.getContext('2d')
  if (!ctx) throw new CameraError('failed', 'no 2d canvas')
  paintWatermarkedPhoto(ctx as unknown as Canvas2D, source, photo, view, text)
  let blob: Blob | null
  try {
    blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', JPEG_QUALITY))
  } catch (err) {
    // a cross-origin picture taints the canvas
    throw new CameraError('failed', String(err))
  }
  if (!blob) throw new CameraError('failed', 'canvas export gave nothing')
  return { path: URL.createObjectURL(blob), width: size.width, height: size.height, fileName: photoFileName() }
}

/** Loads an image (a data URL, or a URL that allows CORS) for painting. */
export function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image()
    if (!src.startsWith('data:') && !src.startsWith('blob:')) img.crossOrigin = 'anonymous'
    img.onload = () => resolve(img)
    img.onerror = () => reject(new CameraError('failed', 'image did not load'))
    img.src = src
  })
}
