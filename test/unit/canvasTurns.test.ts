/**
 * The map's canvases take turns (performance): at most one canvas's new pixels per animation
 * frame, so that no frame hands the compositor the shapes and the points' drawing together.
 */
import { createCanvasTurns } from '../../src/platform/map/canvasTurns'

/** Animation frames run by hand: each call of next() is one frame's callbacks. */
function frames() {
  let waiting: (() => void)[] = []
  return {
    raf: (cb: (t: number) => void) => {
      waiting.push(() => cb(0))
      return waiting.length
    },
    next() {
      const now = waiting
      waiting = []
      for (const cb of now) cb()
    },
    get pending() {
      return waiting.length
    },
  }
}

describe('canvas turns', () => {
  it('runs one owner’s drawing per frame, in the order they asked', () => {
    const f = frames()
    const turns = createCanvasTurns(f.raf)
    const drawn: string[] = []
    const shapes = {}
    const points = {}
    turns.request(points, () => drawn.push('points'))
    turns.request(shapes, () => drawn.push('shapes'))
    expect(drawn).toEqual([])
    f.next()
    expect(drawn).toEqual(['points'])
    expect(turns.waiting(shapes)).toBe(true)
    f.next()
    expect(drawn).toEqual(['points', 'shapes'])
    // Nothing left: no frame is asked for.
    expect(f.pending).toBe(0)
  })

  it('draws an owner once however often it asked, with the newest work, in its first place', () => {
    const f = frames()
    const turns = createCanvasTurns(f.raf)
    const drawn: string[] = []
    const a = {}
    const b = {}
    turns.request(a, () => drawn.push('a1'))
    turns.request(b, () => drawn.push('b'))
    turns.request(a, () => drawn.push('a2'))
    f.next()
    f.next()
    f.next()
    expect(drawn).toEqual(['a2', 'b'])
  })

  it('drops a cancelled turn, and takes a request made during a turn in a later frame', () => {
    const f = frames()
    const turns = createCanvasTurns(f.raf)
    const drawn: string[] = []
    const a = {}
    const b = {}
    turns.request(a, () => {
      drawn.push('a')
      turns.request(a, () => drawn.push('a again'))
    })
    turns.request(b, () => drawn.push('b'))
    turns.cancel(b)
    expect(turns.waiting(b)).toBe(false)
    f.next()
    expect(drawn).toEqual(['a'])
    f.next()
    expect(drawn).toEqual(['a', 'a again'])
    f.next()
    expect(drawn).toEqual(['a', 'a again'])
  })
})
