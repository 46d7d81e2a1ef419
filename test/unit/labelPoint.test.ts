/** Where lines' and areas' titles go on the map: a line's middle along its length, an area's label point. */
import { areaLabelPoint, insideRing, lineMiddle, shapeLabelPoint } from '../../src/domain/labelPoint'
import { MARKER_KIND } from '../../src/domain/markerKinds'
import type { LngLat } from '../../src/domain/points'

const pts = (...xy: [number, number][]): LngLat[] => xy.map(([lng, lat]) => ({ lng, lat }))

describe('the place of a line or area title', () => {
  it('puts a bent line title halfway along the line, on the line, not in the middle of its bounds', () => {
    // An L: 3 units east then 1 north; half of 4 units is 2 units east of the start.
    expect(lineMiddle(pts([0, 0], [3, 0], [3, 1]))).toEqual({ lng: 2, lat: 0 })
    expect(shapeLabelPoint(MARKER_KIND.dashedLine, [pts([0, 0], [3, 0], [3, 1])])).toEqual({ lng: 2, lat: 0 })
  })

  it('takes a two-point line at its midpoint and a repeated point as that point', () => {
    expect(lineMiddle(pts([116, 39], [117, 40]))).toEqual({ lng: 116.5, lat: 39.5 })
    expect(lineMiddle(pts([116, 39], [116, 39]))).toEqual({ lng: 116, lat: 39 })
  })

  it('puts an area title at its centroid, on the largest part of a multi-part area', () => {
    const square = pts([0, 0], [4, 0], [4, 4], [0, 4])
    expect(shapeLabelPoint(MARKER_KIND.polygon, [square])).toEqual({ lng: 2, lat: 2 })
    const small = pts([10, 10], [11, 10], [11, 11], [10, 11])
    expect(shapeLabelPoint(MARKER_KIND.multiPolygon, [small, square])).toEqual({ lng: 2, lat: 2 })
  })

  it('puts a rectangle title between its corners and a circle title at its centre', () => {
    expect(shapeLabelPoint(MARKER_KIND.rectangle, [pts([0, 0], [2, 6])])).toEqual({ lng: 1, lat: 3 })
    expect(shapeLabelPoint(MARKER_KIND.circle, [pts([116.4, 39.9])])).toEqual({ lng: 116.4, lat: 39.9 })
  })

  it("keeps an area title out of the area's hole: a square with a square hole in its middle", () => {
    const square = pts([0, 0], [6, 0], [6, 6], [0, 6])
    const hole = pts([2, 2], [4, 2], [4, 4], [2, 4])
    const at = shapeLabelPoint(MARKER_KIND.polygon, [square], [[hole]])
    expect(insideRing(at, square)).toBe(true)
    expect(insideRing(at, hole)).toBe(false)
    // In one of the 2-unit bands beside the hole, in the middle of its width.
    expect(at.lng === 1 || at.lng === 5).toBe(true)
  })

  it('puts a C-shaped area title on the area, not at its centroid in the open middle', () => {
    // A C opening east: the centroid lies in the gap, which is not part of the area.
    const c = pts([0, 0], [6, 0], [6, 1], [1, 1], [1, 5], [6, 5], [6, 6], [0, 6])
    const at = areaLabelPoint(c)
    expect(insideRing(at, c)).toBe(true)
  })

  it('takes the hole of the largest part only, the part that carries the title', () => {
    const small = pts([10, 10], [11, 10], [11, 11], [10, 11])
    const big = pts([0, 0], [4, 0], [4, 4], [0, 4])
    const hole = pts([1, 1], [3, 1], [3, 3], [1, 3])
    const at = shapeLabelPoint(MARKER_KIND.multiPolygon, [small, big], [[], [hole]])
    expect(insideRing(at, big)).toBe(true)
    expect(insideRing(at, hole)).toBe(false)
  })
})
