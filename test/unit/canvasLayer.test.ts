/**
 * The canvas of the keyless map's crowded views (performance): where it puts shapes, what a tap
 * hits, and what it asks the canvas to draw. The Leaflet layer itself runs in the browser (e2e and
 * the bench); these are its pure parts.
 */
import type { Marker } from '../../types/mapdata'
import { buildMarkerIndex, type Shape } from '../../src/domain/mapDraw'
import { gcj02ToWgs84 } from '../../src/domain/geo'
import { drawShapes, mercator, projectShape, shapeContains, shapeInView, shapeStyle, ShapeKind, TAP_TOLERANCE, type Frame } from '../../src/platform/map/canvasLayer'
import { buildMarker } from '../support/mapBuilders'
import { fakeContext } from '../support/fakeCanvas'

function shapeOf(over: Partial<Marker>): Shape {
  const index = buildMarkerIndex([buildMarker({ style: { color: '#165DFF' }, width: 2, ...over })])
  expect(index.shapes).toHaveLength(1)
  return index.shapes[0]
}

/** Leaflet's spherical mercator (EPSG:3857 with its transformation), written out independently. */
function leafletPixel(lng: number, lat: number, zoom: number): [number, number] {
  const R = 6378137
  const d = Math.PI / 180
  const max = 85.0511287798
  const sin = Math.sin(Math.max(Math.min(max, lat), -max) * d)
  const x = R * lng * d
  const y = (R * Math.log((1 + sin) / (1 - sin))) / 2
  const scale = 256 * 2 ** zoom
  const k = 0.5 / (Math.PI * R)
  return [scale * (k * x + 0.5), scale * (-k * y + 0.5)]
}

/** A frame at a zoom whose layer origin is the given WGS-84 point. */
function frameAt(lng: number, lat: number, zoom: number): Frame {
  const [ox, oy] = leafletPixel(lng, lat, zoom)
  return { scale: 256 * 2 ** zoom, ox, oy }
}

/** Layer px of a stored GCJ-02 point in a frame. */
function px(f: Frame, lng: number, lat: number): [number, number] {
  const w = gcj02ToWgs84({ lng, lat })
  const [x, y] = mercator(w.lng, w.lat)
  return [x * f.scale - f.ox, y * f.scale - f.oy]
}

describe('projection', () => {
  it("puts WGS-84 where Leaflet's web mercator does, at any zoom", () => {
    for (const [lng, lat] of [
      [116.397, 39.909],
      [0, 0],
      [-73.98, 40.75],
      [151.2, -33.87],
    ]) {
      const [x, y] = mercator(lng, lat)
      for (const zoom of [2, 11, 18]) {
        const [lx, ly] = leafletPixel(lng, lat, zoom)
        expect(x * 256 * 2 ** zoom).toBeCloseTo(lx, 6)
        expect(y * 256 * 2 ** zoom).toBeCloseTo(ly, 6)
      }
    }
  })

  it('converts stored GCJ-02 to WGS-84 once per shape and keeps it', () => {
    const s = shapeOf({ type: 1, points: '116.40,39.90|116.41,39.91' })
    const p = projectShape(s)
    expect(projectShape(s)).toBe(p)
    const w = gcj02ToWgs84({ lng: 116.4, lat: 39.9 })
    expect(p.kind).toBe(ShapeKind.Line)
    expect([p.rings[0][0], p.rings[0][1]]).toEqual(mercator(w.lng, w.lat))
  })

  it("projects stored GCJ-02 unconverted for AMap's tiles (their grid is GCJ-02), and keeps each datum's projection apart", () => {
    const s = shapeOf({ type: 1, points: '116.397428,39.90923|116.41,39.92' })
    const onWgs = projectShape(s, 'wgs84')
    const onGcj = projectShape(s, 'gcj02')
    const [gx, gy] = mercator(116.397428, 39.90923)
    expect(onGcj.rings[0][0]).toBeCloseTo(gx, 12)
    expect(onGcj.rings[0][1]).toBeCloseTo(gy, 12)
    const w = gcj02ToWgs84({ lng: 116.397428, lat: 39.90923 })
    expect(onWgs.rings[0][0]).toBeCloseTo(mercator(w.lng, w.lat)[0], 12)
    // Some 500 m apart in Beijing: hundreds of pixels at a street zoom.
    expect(Math.abs(onGcj.rings[0][0] - onWgs.rings[0][0]) * 256 * 2 ** 17).toBeGreaterThan(100)
    expect(projectShape(s, 'gcj02')).toBe(onGcj)
    expect(projectShape(s)).toBe(onWgs)
  })

  it('draws a rectangle from its two stored corners, a multi-area as one ring per part', () => {
    const rect = projectShape(shapeOf({ type: 4, points: '116.40,39.90|116.42,39.92' }))
    expect(rect.kind).toBe(ShapeKind.Area)
    expect(rect.rings).toHaveLength(1)
    expect(rect.rings[0]).toHaveLength(8)
    const multi = projectShape(shapeOf({ type: 6, points: '116.40,39.90|116.41,39.90|116.41,39.91;116.50,39.90|116.51,39.90|116.51,39.91' }))
    expect(multi.rings).toHaveLength(2)
  })

  it('gives a circle its radius in metres at its latitude', () => {
    const f = frameAt(116.39, 39.9, 15)
    const p = projectShape(shapeOf({ type: 5, points: '116.40,39.90', radius: 1000 }))
    expect(p.kind).toBe(ShapeKind.Circle)
    // 156543.03 m per px at the equator at zoom 0.
    const metresPerPx = (156543.03392 * Math.cos((39.9 * Math.PI) / 180)) / 2 ** 15
    expect(p.radius * f.scale).toBeCloseTo(1000 / metresPerPx, 0)
  })
})

describe('the style of a shape on the canvas', () => {
  it('is the one the SVG renderer gives it: colour, width 1-20 (+3 selected), dashes, fill of areas only', () => {
    const line = shapeOf({ type: 2, points: '116.40,39.90|116.41,39.91', width: 40, style: { color: '#ff0000' } })
    expect(shapeStyle(line, false)).toEqual({ color: '#ff0000', weight: 20, dash: [8, 6], fillColor: '#ff0000', fillOpacity: 0, opacity: 1 })
    expect(shapeStyle(line, true).weight).toBe(23)
    const area = shapeOf({ type: 3, points: '116.40,39.90|116.41,39.90|116.41,39.91', style: { color: '#00ff00', fill_color: '#0000ff', fill_opacity: 0.5, opacity: 0.8 } })
    expect(shapeStyle(area, false)).toEqual({ color: '#00ff00', weight: 2, dash: null, fillColor: '#0000ff', fillOpacity: 0.5, opacity: 0.8 })
  })
})

describe('what a tap hits', () => {
  const f = frameAt(116.39, 39.91, 14)

  it('an area inside and near its outline, not beside it', () => {
    const s = shapeOf({ type: 3, points: '116.40,39.90|116.42,39.90|116.42,39.88' })
    const p = projectShape(s)
    const st = shapeStyle(s, false)
    const [ax, ay] = px(f, 116.4, 39.9)
    const [bx, by] = px(f, 116.42, 39.9)
    const [cx, cy] = px(f, 116.42, 39.88)
    const [mx, my] = [(ax + bx + cx) / 3, (ay + by + cy) / 3]
    expect(shapeContains(p, st, f, mx, my)).toBe(true)
    expect(shapeContains(p, st, f, (ax + bx) / 2, ay - TAP_TOLERANCE)).toBe(true)
    expect(shapeContains(p, st, f, (ax + bx) / 2, ay - TAP_TOLERANCE - st.weight - 2)).toBe(false)
    expect(shapeContains(p, st, f, ax - 30, cy)).toBe(false)
  })

  it('an area with a hole, not inside the hole away from its outline', () => {
    const s = shapeOf({ type: 3, points: '116.38,39.90|116.42,39.90|116.42,39.88|116.38,39.88#116.395,39.895|116.405,39.895|116.405,39.885|116.395,39.885' })
    expect(s.holes).toHaveLength(1)
    const p = projectShape(s)
    const st = shapeStyle(s, false)
    expect(p.rings).toHaveLength(2)
    const [hx, hy] = px(f, 116.4, 39.89)
    expect(shapeContains(p, st, f, hx, hy)).toBe(false)
    const [ix, iy] = px(f, 116.385, 39.89)
    expect(shapeContains(p, st, f, ix, iy)).toBe(true)
  })

  it('a line only near it (its open end is not joined back)', () => {
    const s = shapeOf({ type: 1, points: '116.40,39.90|116.42,39.90|116.42,39.88' })
    const p = projectShape(s)
    const st = shapeStyle(s, false)
    const [ax, ay] = px(f, 116.4, 39.9)
    const [bx] = px(f, 116.42, 39.9)
    const [, cy] = px(f, 116.42, 39.88)
    expect(shapeContains(p, st, f, (ax + bx) / 2, ay + 2)).toBe(true)
    // Inside the triangle the line's three vertices would make, far from both segments.
    expect(shapeContains(p, st, f, bx - (bx - ax) / 4, ay + (cy - ay) / 4 + 10)).toBe(false)
  })

  it('a circle within its radius, and the second part of a multi-area', () => {
    const circle = shapeOf({ type: 5, points: '116.40,39.90', radius: 300 })
    const [ox, oy] = px(f, 116.4, 39.9)
    const p = projectShape(circle)
    const r = p.radius * f.scale
    expect(shapeContains(p, shapeStyle(circle, false), f, ox + r * 0.9, oy)).toBe(true)
    expect(shapeContains(p, shapeStyle(circle, false), f, ox + r + 20, oy)).toBe(false)
    const multi = shapeOf({ type: 6, points: '116.40,39.90|116.41,39.90|116.41,39.89;116.45,39.90|116.46,39.90|116.46,39.89' })
    const [x1, y1] = px(f, 116.458, 39.899)
    expect(shapeContains(projectShape(multi), shapeStyle(multi, false), f, x1, y1)).toBe(true)
  })
})

describe('drawing', () => {
  const f = frameAt(116.39, 39.91, 14)

  it('fills areas and strokes every shape in order, dashed where the marker is, skipping those out of view', () => {
    const shapes = [
      shapeOf({ type: 3, points: '116.40,39.90|116.41,39.90|116.41,39.89' }),
      shapeOf({ type: 2, points: '116.40,39.90|116.41,39.91' }),
      shapeOf({ type: 1, points: '117.40,39.90|117.41,39.91' }),
    ].map((s) => ({ p: projectShape(s), style: shapeStyle(s, false) }))
    const view = [-1000, -1000, 1000, 1000] as const
    expect(shapeInView(shapes[2].p, f, view, 2)).toBe(false)
    const { ctx, calls, count } = fakeContext()
    expect(drawShapes(ctx, shapes, f, view)).toBe(2)
    expect(count('fill')).toBe(1)
    expect(count('stroke')).toBe(2)
    expect(calls.filter((c) => c[0] === 'setLineDash').map((c) => c[1])).toEqual([[], [8, 6], []])
  })
})
