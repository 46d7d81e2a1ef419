/** The image preview's gestures (SPEC 9: zoom 1/3 to 3), pure so that tests pin them. */
import { IMAGE_PREVIEW_MAX_ZOOM, IMAGE_PREVIEW_MIN_ZOOM } from './constants'

/** A zoom kept within 1/3 and 3. */
export function clampZoom(scale: number): number {
  if (!Number.isFinite(scale)) return 1
  return Math.min(IMAGE_PREVIEW_MAX_ZOOM, Math.max(IMAGE_PREVIEW_MIN_ZOOM, scale))
}

/** Two fingers that started `startDistance` apart at `startScale` and are now `distance` apart. */
export function pinchZoom(startScale: number, startDistance: number, distance: number): number {
  if (startDistance <= 0) return clampZoom(startScale)
  return clampZoom((startScale * distance) / startDistance)
}

/** One zoom step of the buttons: x1.5 in, /1.5 out, within the range. */
export function stepZoom(scale: number, direction: 1 | -1): number {
  return clampZoom(direction > 0 ? scale * 1.5 : scale / 1.5)
}

/** The picture after a swipe of `dx` px (past 50 px moves one picture, wrapping round), or the same one. */
export function swipeIndex(current: number, count: number, dx: number): number {
  if (count <= 1 || Math.abs(dx) < 50) return current
  return (current + (dx < 0 ? 1 : -1) + count) % count
}
