/**
 * The keyless map's canvases take turns to show new pixels: one per animation frame.
 *
 * A canvas drawn again is handed to the compositor whole in the frame's commit, on the page's main
 * thread (a copy of the view and its margin at twice the CSS pixels). When the shapes' canvas and the
 * points' drawing both changed in one frame after a pan, that frame's task was 150-300 ms on a 4x
 * throttled phone profile, and a tap or the next drag waited for it. In turns, each frame hands over
 * one canvas; the other keeps its last drawing, placed where it was drawn, for a frame more.
 *
 * A canvas's owner asks for its turn with the work that changes its pixels; asking again before the
 * turn came replaces the work and keeps the place in the queue.
 */

type Raf = (cb: (t: number) => void) => number

export interface CanvasTurns {
  /** Runs `draw` in a frame of its own (after the turns asked for before it), once however often asked. */
  request(owner: object, draw: () => void): void
  /** Drops the owner's turn if it has not come yet. */
  cancel(owner: object): void
}

export function createCanvasTurns(raf: Raf = (cb) => requestAnimationFrame(cb)): CanvasTurns {
  // A Map keeps the order in which owners first asked.
  const queue = new Map<object, () => void>()
  let frame = false
  const run = () => {
    frame = false
    const next = queue.entries().next()
    if (next.done) return
    const [owner, draw] = next.value
    queue.delete(owner)
    if (queue.size) {
      frame = true
      raf(run)
    }
    draw()
  }
  return {
    request(owner, draw) {
      queue.set(owner, draw)
      if (!frame) {
        frame = true
        raf(run)
      }
    },
    cancel(owner) {
      queue.delete(owner)
    },
  }
}

/** The page's one queue: every map on it shares the compositor. */
export const canvasTurns = createCanvasTurns()
