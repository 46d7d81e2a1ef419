/** Map titles that do not cover each other, and a route framed clear of the page's cards. */
import { frameBox, placeLabels, viewSize, type LabelBox } from '../../src/domain/labelLayout'

const box = (key: string, left: number, top: number, rank = 0, width = 70, height = 28): LabelBox => ({ key, left, top, width, height, rank })

describe('titles that would cover each other', () => {
  it('shows every title when none overlap', () => {
    expect([...placeLabels([box('a', 0, 0), box('b', 100, 0), box('c', 0, 40)])]).toEqual(['a', 'b', 'c'])
  })

  it('hides the later of two overlapping titles of the same rank, and keeps a third clear of both', () => {
    const shown = placeLabels([box('东单门店', 100, 100), box('王府井门店', 130, 110), box('西单门店', 300, 100)])
    expect([...shown].sort()).toEqual(['东单门店', '西单门店'])
  })

  it("keeps the higher-ranked title (a point's over an area's) wherever it comes in the list", () => {
    const shown = placeLabels([box('片区', 100, 100, 0), box('泵站', 120, 110, 1)])
    expect([...shown]).toEqual(['泵站'])
  })

  it('keeps titles that only touch apart by the gap and shows a title not laid out', () => {
    expect(placeLabels([box('a', 0, 0), box('b', 71, 0)]).has('b')).toBe(false)
    expect(placeLabels([box('a', 0, 0), box('b', 73, 0)]).has('b')).toBe(true)
    expect(placeLabels([box('a', 0, 0), box('b', 0, 0, 0, 0, 0)]).has('b')).toBe(true)
  })
})

describe('framing a route with room for the page around it', () => {
  // A phone's map: 390 x 844 CSS px; the top cards, the tool column and the route card cover its edges.
  const size = { width: 390, height: 844 }
  const pad = { top: 140, right: 80, bottom: 140, left: 40 }
  // 西单, 王府井 and 东单 (the e2e route): 0.044° wide.
  const route = [116.374, 39.913, 116.418, 39.917] as const
  const px = (zoom: number, dlng: number) => (dlng / 360) * 256 * 2 ** zoom

  it('zooms in as far as the route still fits between the cards: its ends over 200 px apart', () => {
    const t = frameBox(route, size, pad)
    expect(t.zoom).toBe(13)
    expect(px(t.zoom, route[2] - route[0])).toBeGreaterThan(200)
    expect(px(t.zoom, route[2] - route[0])).toBeLessThanOrEqual(size.width - pad.left - pad.right)
  })

  it("puts the route's middle in the middle of the free area, shifted off the tool column", () => {
    const t = frameBox(route, size, pad)
    const middle = (route[0] + route[2]) / 2
    // The free area's middle is 20 px left of the map's centre: the centre is east of the route's middle by 20 px at zoom 13.
    expect(t.lng - middle).toBeCloseTo((20 / (256 * 2 ** 13)) * 360, 9)
    expect(t.lat).toBeCloseTo((route[1] + route[3]) / 2, 3)
  })

  it('frames a single place at the closest zoom allowed', () => {
    expect(frameBox([116.4, 39.9, 116.4, 39.9], size, pad, 18).zoom).toBe(18)
  })

  it("reads the map's size back from the bounds and zoom it reports", () => {
    const t = frameBox(route, size, pad)
    const half = (n: number) => (n / 2 / (256 * 2 ** t.zoom)) * 360
    const s = viewSize({ west: t.lng - half(390), east: t.lng + half(390), south: 39.9, north: 39.9 + 0.02, zoom: t.zoom })
    expect(s.width).toBeCloseTo(390, 6)
    expect(s.height).toBeGreaterThan(100)
  })
})
