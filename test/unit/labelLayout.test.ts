/** Map titles that do not cover each other, their sizes estimated from text, and a route framed clear of the page's cards. */
import { placeLabels, type LabelBox } from '../../src/domain/labelLayout'
import { frameSpots, titleSize, viewSize } from '../../src/domain/titleFrame'

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

describe("a title's size from its text and style", () => {
  const style = { font_size: 14, padding: 4, border_weight: 1 }

  it('counts a Chinese character one em and a Latin letter or digit less, with the padding and border around', () => {
    // 4 characters of 14 px, 8 px padding each side, a 1-px border: 74 wide; a 1.3-em line, 4 px padding, the border: 29 high.
    expect(titleSize('东单门店', style)).toEqual({ width: 74, height: 29 })
    expect(titleSize('A1', style).width).toBeLessThan(titleSize('东单', style).width)
  })

  it('grows with the font size and keeps it within the drawn limits', () => {
    expect(titleSize('泵站', { ...style, font_size: 20 }).width).toBeGreaterThan(titleSize('泵站', style).width)
    expect(titleSize('泵站', { ...style, font_size: 99 })).toEqual(titleSize('泵站', { ...style, font_size: 32 }))
  })
})

describe('framing a route clear of the page around it', () => {
  // A phone's map: 390 x 844 CSS px; the top cards, the tool column (right, from y 340) and the route card cover it.
  const size = { width: 390, height: 844 }
  const covers = [
    { left: 0, top: 0, right: 390, bottom: 140 },
    { left: 323, top: 340, right: 390, bottom: 740 },
    { left: 0, top: 694, right: 390, bottom: 844 },
  ]
  // 西单, 王府井 and 东单 (the e2e route), each with a 48-px pin above and its 74 x 28 title below.
  const stop = (lng: number, lat: number) => ({ lng, lat, left: 37, right: 37, top: 48, bottom: 30 })
  const stops = [stop(116.418, 39.914), stop(116.411, 39.917), stop(116.374, 39.913)]
  const screen = (t: { lng: number; lat: number; zoom: number }, p: { lng: number; lat: number }) => {
    const scale = 256 * 2 ** t.zoom
    const y = (lat: number) => 0.5 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / (2 * Math.PI)
    return { x: size.width / 2 + ((p.lng - t.lng) / 360) * scale, y: size.height / 2 + (y(p.lat) - y(t.lat)) * scale }
  }
  const inside = (r: { left: number; top: number; right: number; bottom: number }) =>
    r.left >= 0 && r.right <= size.width && r.top >= 0 && r.bottom <= size.height && covers.every((c) => r.right <= c.left || c.right <= r.left || r.bottom <= c.top || c.bottom <= r.top)

  it('zooms in as far as the stops with their pins and titles fit: its ends over 200 px apart', () => {
    const t = frameSpots(stops, size, covers)
    expect(t.zoom).toBe(13)
    expect(screen(t, stops[0]).x - screen(t, stops[2]).x).toBeGreaterThan(200)
  })

  it('puts every pin and title clear of the cards and the tool column, above the column when it fits only there', () => {
    const t = frameSpots(stops, size, covers)
    for (const s of stops) {
      const p = screen(t, s)
      expect(inside({ left: p.x - s.left, right: p.x + s.right, top: p.y - s.top, bottom: p.y + s.bottom })).toBe(true)
    }
    // Beside the column the stops would fit only a zoom level further out.
    expect(frameSpots(stops, size, [covers[0], { ...covers[1], top: 140 }, covers[2]]).zoom).toBe(12)
  })

  it('keeps a place that fits in the middle of the map and frames a single place at the closest zoom allowed', () => {
    const t = frameSpots([stop(116.4, 39.9)], size, covers, 18)
    expect(t.zoom).toBe(18)
    const p = screen(t, { lng: 116.4, lat: 39.9 })
    expect(Math.abs(p.x - size.width / 2)).toBeLessThan(40)
  })

  it("reads the map's size back from the bounds and zoom it reports", () => {
    const half = (n: number) => (n / 2 / (256 * 2 ** 13)) * 360
    const s = viewSize({ west: 116.4 - half(390), east: 116.4 + half(390), south: 39.9, north: 39.9 + 0.02, zoom: 13 })
    expect(s.width).toBeCloseTo(390, 6)
    expect(s.height).toBeGreaterThan(100)
  })
})
