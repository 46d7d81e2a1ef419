/**
 * The bottom draggable panel (SPEC 4 and 9): it opens at 200 px, follows a drag in steps of 15 px,
 * and on release settles at the initial height or at full height, whichever is nearer.
 */
import { PANEL_DRAG_STEP, PANEL_INITIAL_HEIGHT } from './constants'

/** The height while dragging: the start height moved by the finger, in whole drag steps, within bounds. */
export function draggedHeight(startHeight: number, dragUp: number, fullHeight: number): number {
  const steps = Math.round(dragUp / PANEL_DRAG_STEP)
  return Math.max(PANEL_INITIAL_HEIGHT, Math.min(fullHeight, startHeight + steps * PANEL_DRAG_STEP))
}

/** Where the panel settles when the finger lifts. */
export function settledHeight(height: number, fullHeight: number): number {
  return height - PANEL_INITIAL_HEIGHT > (fullHeight - PANEL_INITIAL_HEIGHT) / 2 ? fullHeight : PANEL_INITIAL_HEIGHT
}

/** A tap on the handle switches between the two heights. */
export function toggledHeight(height: number, fullHeight: number): number {
  return height >= fullHeight ? PANEL_INITIAL_HEIGHT : fullHeight
}
