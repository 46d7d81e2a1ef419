/**
 * The map's canvases take turns (performance): at most one canvas's new pixels per animation
 * frame, so that no frame hands the compositor the shapes and the points' drawing together.
 */
import { createCanvasTurns } from '../../src/platform/map/canvasTurns'

/** A queue whose animation frames run by hand (each next() is one frame's callbacks), and what it drew in order. */
function setup() {
  let waiting: (() => void)[] = []
  const turns = createCanvasTurns((cb) => {
    waiting.push(() => cb(0))
    return waiting.length
  })
  const drawn: string[] = []
  return {
    turns,
    drawn,
    /** Work that notes its name when drawn. */
    draw: (name: string) => () => void drawn.push(name),
    next() {
      const now = waiting
      waiting = []
      for (const cb of now) cb()
    },
    frames: () => waiting.length,
  }
}

describe('canvas turns', () => {
  it('runs one owner’s drawing per frame, in the order they asked', () => {
    const { turns, drawn, draw, next, frames } = setup()
    const shapes = {}
    const points = {}
    turns.request(points, draw('points'))
    turns.request(shapes, draw('shapes'))
    expect(drawn).toEqual([])
    next()
    expect(drawn).toEqual(['points'])
    next()
    expect(drawn).toEqual(['points', 'shapes'])
    // Nothing left: no frame is asked for.
    expect(frames()).toBe(0)
  })

  it('draws an owner once however often it asked, with the newest work, in its first place', () => {
    const { turns, drawn, draw, next } = setup()
    const a = {}
    const b = {}
    turns.request(a, draw('a1'))
    turns.request(b, draw('b'))
    turns.request(a, draw('a2'))
    next()
    next()
    next()
    expect(drawn).toEqual(['a2', 'b'])
  })

  it('drops a cancelled turn, and takes a request made during a turn in a later frame', () => {
    const { turns, drawn, draw, next } = setup()
    const a = {}
    const b = {}
    turns.request(a, () => {
      drawn.push('a')
      turns.request(a, draw('a again'))
    })
    turns.request(b, draw('b'))
    turns.cancel(b)
    next()
    expect(drawn).toEqual(['a'])
    next()
    expect(drawn).toEqual(['a', 'a again'])
    next()
    expect(drawn).toEqual(['a', 'a again'])
  })
})
