/** The draw pipeline of the map engine (SPEC 4 and 9): clusters, sampling, heatmap, loading indicator. */
import type { Marker } from '../../types/mapdata'
import { CLUSTER_MIN_ITEMS, HEATMAP_OPTIONS, MAX_VISIBLE_POINTS } from '../../src/domain/constants'
import { buildMarkerIndex, clusterZoom, computeDrawList, dataBounds, degreesPerPixel, heatCells, needsShapeLoading, stableHash, type Viewport } from '../../src/domain/mapDraw'
import { checkAmapLoader } from '../../src/domain/mapLoader'
import { draggedHeight, settledHeight, toggledHeight } from '../../src/domain/panel'
import { readNumber, rectangleCorners } from '../../src/domain/points'
import { dateTime, shortTime } from '../../src/domain/time'
import { MAP_ENGINE_MSG } from '../../src/domain/messages'
import { buildMarker } from '../support/mapBuilders'

/** A deterministic scatter of n points in a box around Beijing. */
function scatter(n: number, box = { west: 116.0, south: 39.6, east: 116.8, north: 40.2 }, firstId = 1): Marker[] {
  let s = 12345
  const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32
  return Array.from({ length: n }, (_, i) =>
    buildMarker({ id: firstId + i, type: 0, points: `${(box.west + rnd() * (box.east - box.west)).toFixed(6)},${(box.south + rnd() * (box.north - box.south)).toFixed(6)}` }),
  )
}

const BEIJING: Viewport = { west: 116.0, south: 39.6, east: 116.8, north: 40.2, zoom: 10 }

describe('the draw list of a view', () => {
  it('draws every point on its own when fewer than 20 are in view (SPEC 4: clustering only with 20 or more)', () => {
    const index = buildMarkerIndex(scatter(CLUSTER_MIN_ITEMS - 1))
    const list = computeDrawList(index, { ...BEIJING, zoom: 3 })
    expect(list.clusters).toEqual([])
    expect(list.points).toHaveLength(CLUSTER_MIN_ITEMS - 1)
    expect(list.pointsInView).toBe(CLUSTER_MIN_ITEMS - 1)
  })

  it('clusters once 20 or more points are in view, and the counts add up', () => {
    const index = buildMarkerIndex(scatter(CLUSTER_MIN_ITEMS))
    const list = computeDrawList(index, { ...BEIJING, zoom: 3 })
    expect(list.clusters.length).toBeGreaterThan(0)
    expect(list.clusters.reduce((n, c) => n + c.count, 0) + list.points.length).toBe(CLUSTER_MIN_ITEMS)
    expect(list.pointsInView).toBe(CLUSTER_MIN_ITEMS)
  })

  it('clusters within 20 screen pixels of 256-px map tiles (SPEC 9 radius 20)', () => {
    const zoom = 10
    const px = degreesPerPixel(zoom)
    const group = (lng: number, firstId: number) => Array.from({ length: 10 }, (_, i) => buildMarker({ id: firstId + i, points: `${lng},39.9` }))
    const near = buildMarkerIndex([...group(116.4, 1), ...group(116.4 + 15 * px, 100)])
    expect(computeDrawList(near, { ...BEIJING, zoom }).clusters.map((c) => c.count)).toEqual([20])
    const apart = buildMarkerIndex([...group(116.4, 1), ...group(116.4 + 45 * px, 100)])
    expect(
      computeDrawList(apart, { ...BEIJING, zoom })
        .clusters.map((c) => c.count)
        .sort(),
    ).toEqual([10, 10])
  })

  it('abbreviates cluster badges with k from 1000 (SPEC 9)', () => {
    const index = buildMarkerIndex(scatter(1500, { west: 116.39, south: 39.9, east: 116.4, north: 39.91 }))
    const list = computeDrawList(index, { ...BEIJING, zoom: 5 })
    expect(list.clusters).toHaveLength(1)
    expect(list.clusters[0]).toMatchObject({ count: 1500, label: '1.5k' })
    const small = computeDrawList(buildMarkerIndex(scatter(999, { west: 116.39, south: 39.9, east: 116.4, north: 39.91 })), { ...BEIJING, zoom: 5 })
    expect(small.clusters[0].label).toBe('999')
  })

  it('never draws more than 200 point markers in one view (SPEC 9)', () => {
    const index = buildMarkerIndex(scatter(5000))
    const clustered = computeDrawList(index, { ...BEIJING, zoom: 22 })
    expect(clustered.points.length).toBeLessThanOrEqual(MAX_VISIBLE_POINTS)
    const plain = computeDrawList(index, BEIJING, { cluster: false })
    expect(plain.points).toHaveLength(MAX_VISIBLE_POINTS)
    expect(plain.pointsInView).toBe(MAX_VISIBLE_POINTS)
  })

  it('samples the same markers for the same view every time, whatever order they arrived in', () => {
    const markers = scatter(3000)
    const a = computeDrawList(buildMarkerIndex(markers), BEIJING, { cluster: false }).points.map((m) => m.id)
    const b = computeDrawList(buildMarkerIndex([...markers].reverse()), BEIJING, { cluster: false }).points.map((m) => m.id)
    expect(new Set(a)).toEqual(new Set(b))
  })

  it('samples randomly, not the first markers loaded', () => {
    const ids = computeDrawList(buildMarkerIndex(scatter(3000)), BEIJING, { cluster: false }).points.map((m) => m.id)
    expect(Math.max(...ids)).toBeGreaterThan(2000)
    expect(Math.min(...ids)).toBeLessThan(1000)
  })

  it('keeps a drawn marker drawn while it stays in view after a pan', () => {
    const index = buildMarkerIndex(scatter(5000))
    const first = computeDrawList(index, BEIJING, { cluster: false })
    const panned: Viewport = { ...BEIJING, west: 116.2, east: 117.0 }
    const second = computeDrawList(index, panned, { cluster: false, previous: new Set(first.points.map((m) => m.id)) })
    const stillInView = first.points.filter((m) => Number(m.points.split(',')[0]) >= 116.2).map((m) => m.id)
    const drawnNow = new Set(second.points.map((m) => m.id))
    expect(stillInView.length).toBeGreaterThan(0)
    expect(stillInView.every((id) => drawnNow.has(id))).toBe(true)
    expect(second.points).toHaveLength(MAX_VISIBLE_POINTS)
  })

  it('draws only the lines and areas whose bounds meet the view', () => {
    const line = buildMarker({ id: 1, type: 1, points: '116.1,39.7|116.2,39.8' })
    const far = buildMarker({ id: 2, type: 3, points: '120,30|120.1,30|120.1,30.1' })
    const circle = buildMarker({ id: 3, type: 5, points: '116.85,40.0', radius: 10_000 })
    const list = computeDrawList(buildMarkerIndex([line, far, circle]), BEIJING)
    expect(list.shapes.map((s) => s.marker.id).sort()).toEqual([1, 3])
  })

  it('skips markers whose points cannot be read instead of failing the whole map', () => {
    const index = buildMarkerIndex([buildMarker({ id: 1, points: 'x,y' }), buildMarker({ id: 2, type: 1, points: '' }), buildMarker({ id: 3 })])
    expect(index.points.map((m) => m.id)).toEqual([3])
    expect(index.shapes).toEqual([])
  })

  it('reads lines and multi-part areas vertex by vertex, and refuses a shape with one broken vertex', () => {
    const index = buildMarkerIndex([
      buildMarker({ id: 1, type: 6, points: '116.1,39.1|116.2,39.1|116.2,39.2;116.3,39.1|116.4,39.1|116.4,39.2' }),
      buildMarker({ id: 2, type: 1, points: '116.1,39.1|116.2' }),
      buildMarker({ id: 3, type: 1, points: '116.1,39.1|' }),
      buildMarker({ id: 4, type: 0, points: '116.1,39.1|116.2,39.2' }),
    ])
    expect(index.shapes.map((s) => s.marker.id)).toEqual([1])
    expect(index.shapes[0].parts).toEqual([
      [
        { lng: 116.1, lat: 39.1 },
        { lng: 116.2, lat: 39.1 },
        { lng: 116.2, lat: 39.2 },
      ],
      [
        { lng: 116.3, lat: 39.1 },
        { lng: 116.4, lat: 39.1 },
        { lng: 116.4, lat: 39.2 },
      ],
    ])
    expect(index.points).toEqual([])
  })

  it('draws a point on the edge of a few-point view and not one a metre outside it', () => {
    const view: Viewport = { west: 116.4, south: 39.9, east: 116.401, north: 39.901, zoom: 19 }
    const index = buildMarkerIndex([
      buildMarker({ id: 1, points: '116.401,39.9005' }),
      buildMarker({ id: 2, points: '116.40101,39.9005' }),
      buildMarker({ id: 3, points: '116.4005,39.9' }),
      buildMarker({ id: 4, points: '116.4005,39.89999' }),
    ])
    expect(
      computeDrawList(index, view)
        .points.map((m) => m.id)
        .sort(),
    ).toEqual([1, 3])
  })

  it('replaces point markers by heat cells when the heatmap is on', () => {
    const index = buildMarkerIndex(scatter(500))
    const list = computeDrawList(index, BEIJING, { heatmap: true })
    expect(list.points).toEqual([])
    expect(list.clusters).toEqual([])
    expect(list.heat?.reduce((n, c) => n + c.count, 0)).toBe(500)
  })

  it('zooms into a tapped cluster at the level where it falls apart', () => {
    const index = buildMarkerIndex(scatter(300))
    const list = computeDrawList(index, { ...BEIJING, zoom: 4 })
    const z = clusterZoom(index, list.clusters[0])
    expect(z).toBeGreaterThan(4)
  })
})

describe('street-level clusters (zoom 15-22)', () => {
  it('still clusters 20 or more points that sit within a few metres', () => {
    const crowd = scatter(40, { west: 116.4, south: 39.9, east: 116.40002, north: 39.90002 })
    const others = scatter(2000, BEIJING, 100)
    const index = buildMarkerIndex([...crowd, ...others])
    const street: Viewport = { west: 116.3995, south: 39.8995, east: 116.4005, north: 39.9005, zoom: 19 }
    const list = computeDrawList(index, street)
    expect(list.clusters.length).toBeGreaterThan(0)
    expect(list.clusters.every((c) => c.level === 'high')).toBe(true)
    expect(list.clusters.reduce((n, c) => n + c.count, 0) + list.points.length).toBe(list.pointsInView)
    expect(clusterZoom(index, list.clusters[0])).toBeGreaterThan(19)
  })

  it('reuses the street-level index while the view stays near, and rebuilds it further away', () => {
    const index = buildMarkerIndex(scatter(2000))
    const a: Viewport = { west: 116.4, south: 39.9, east: 116.402, north: 39.902, zoom: 18 }
    computeDrawList(index, a)
    const first = index.high
    computeDrawList(index, { ...a, west: 116.4005, east: 116.4025 })
    expect(index.high).toBe(first)
    computeDrawList(index, { ...a, west: 116.6, east: 116.602 })
    expect(index.high).not.toBe(first)
  })
})

describe('heat cells (SPEC 9: radius 25, opacity 0-0.8, max 100)', () => {
  it('caps the opacity at 0.8 for 100 or more points in a cell and scales below it', () => {
    const dense = scatter(150, { west: 116.4, south: 39.9, east: 116.40001, north: 39.90001 })
    const sparse = scatter(10, { west: 116.7, south: 40.1, east: 116.70001, north: 40.10001 }, 1000)
    const { cells } = heatCells(buildMarkerIndex([...dense, ...sparse]), BEIJING)
    const byCount = [...cells].sort((a, b) => b.count - a.count)
    expect(byCount[0]).toMatchObject({ count: 150, opacity: HEATMAP_OPTIONS.opacity[1] })
    expect(byCount[1].count).toBe(10)
    expect(byCount[1].opacity).toBeCloseTo(0.08, 5)
  })
})

describe('the loading indicator for lines and areas (SPEC 9: above 10 dashed or 30 solid)', () => {
  const shapes = (dashed: number, solid: number) => [...Array(dashed).fill({ dashed: true }), ...Array(solid).fill({ dashed: false })]
  it('stays off up to 10 dashed and 30 solid items', () => {
    expect(needsShapeLoading(shapes(10, 30))).toBe(false)
  })
  it('shows above 10 dashed items', () => {
    expect(needsShapeLoading(shapes(11, 0))).toBe(true)
  })
  it('shows above 30 solid items', () => {
    expect(needsShapeLoading(shapes(0, 31))).toBe(true)
  })
})

describe('reading stored coordinates', () => {
  it('reads every decimal exactly as Number() does, including the odd ones', () => {
    const odd = ['116.397128', '-0.5', '-0', '0', '.5', '1.', '007.10', '180', '1e3', ' 116.3', '+1', '', '-', '.', '1.2.3', '1,2', '12345678901234567', '3.141592653589793']
    let s = 7
    const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32
    const random = Array.from({ length: 5000 }, () => ((rnd() - 0.5) * 360).toFixed(Math.floor(rnd() * 10)))
    for (const text of [...odd, ...random]) expect(Object.is(readNumber(text, 0, text.length), Number(text))).toBe(true)
  })
})

describe('stable sampling order', () => {
  it('hashes ids deterministically and spreads neighbours apart', () => {
    expect(stableHash(42)).toBe(stableHash(42))
    const hashes = Array.from({ length: 1000 }, (_, i) => stableHash(i + 1))
    expect(new Set(hashes).size).toBe(1000)
    // Neighbouring ids land all over the range, not in order.
    const ascending = hashes.filter((h, i) => i > 0 && h > hashes[i - 1]).length
    expect(ascending).toBeGreaterThan(350)
    expect(ascending).toBeLessThan(650)
  })
})

describe('data bounds', () => {
  it('ignores markers at coordinate 0 (SPEC 4)', () => {
    const index = buildMarkerIndex([buildMarker({ id: 1, points: '0,0' }), buildMarker({ id: 2, points: '116.4,39.9' }), buildMarker({ id: 3, type: 1, points: '116.5,40|116.6,40.1' })])
    expect(dataBounds(index)).toEqual([116.4, 39.9, 116.6, 40.1])
    expect(dataBounds(buildMarkerIndex([buildMarker({ points: '0,0' })]))).toBeNull()
  })
})

describe('the AMap loader rules (SPEC 5 and 8)', () => {
  it('rejects a missing key', () => {
    expect(checkAmapLoader({ key: '', version: '2.0' })).toBe(MAP_ENGINE_MSG.loaderKeyMissing)
    expect(checkAmapLoader({ key: '  ', version: '2.0' })).toBe(MAP_ENGINE_MSG.loaderKeyMissing)
  })
  it('rejects mixed keys and mixed versions on one page', () => {
    expect(checkAmapLoader({ key: 'b', version: '2.0' }, { key: 'a', version: '2.0' })).toBe(MAP_ENGINE_MSG.loaderMixedKeys)
    expect(checkAmapLoader({ key: 'a', version: '1.4.15' }, { key: 'a', version: '2.0' })).toBe(MAP_ENGINE_MSG.loaderMixedVersions)
    expect(checkAmapLoader({ key: 'a', version: '2.0', loca: '2.0.0' }, { key: 'a', version: '2.0', loca: '2.0.1' })).toBe(MAP_ENGINE_MSG.loaderMixedVersions)
  })
  it('rejects a Loca version that does not match the map API', () => {
    expect(checkAmapLoader({ key: 'a', version: '2.0', loca: '1.3.2' })).toBe(MAP_ENGINE_MSG.loaderLocaMismatch)
    expect(checkAmapLoader({ key: 'a', version: '1.4.15', loca: '2.0.0' })).toBe(MAP_ENGINE_MSG.loaderLocaMismatch)
  })
  it('accepts the default plugin version 2.0 with Loca 2', () => {
    expect(checkAmapLoader({ key: 'a', version: '2.0', loca: '2.0.0' })).toBeNull()
    expect(checkAmapLoader({ key: 'a', version: '2.0' }, { key: 'a', version: '2.0' })).toBeNull()
  })
})

describe('the bottom draggable panel (SPEC 4 and 9: initial height 200, drag step 15)', () => {
  const FULL = 700
  it('follows a drag in whole steps of 15 px between 200 and full height', () => {
    expect(draggedHeight(200, 7, FULL)).toBe(200)
    expect(draggedHeight(200, 8, FULL)).toBe(215)
    expect(draggedHeight(200, 100, FULL)).toBe(305)
    expect(draggedHeight(200, -50, FULL)).toBe(200)
    expect(draggedHeight(600, 400, FULL)).toBe(FULL)
  })
  it('settles at the nearer of 200 and full height', () => {
    expect(settledHeight(440, FULL)).toBe(200)
    expect(settledHeight(460, FULL)).toBe(FULL)
  })
  it('switches between the two heights on a tap', () => {
    expect(toggledHeight(200, FULL)).toBe(FULL)
    expect(toggledHeight(FULL, FULL)).toBe(200)
  })
})

describe('short time labels', () => {
  it('shows a report time as month-day hour:minute and a note time with the year, empty when unreadable', () => {
    const iso = new Date(2026, 10, 22, 8, 5).toISOString()
    expect(shortTime(iso)).toBe('11-22 08:05')
    expect(dateTime(iso)).toBe('2026-11-22 08:05')
    expect(shortTime('not a date')).toBe('')
  })
})

describe('rectangle corners', () => {
  it('turns the two stored corners into the four corners in drawing order', () => {
    expect(rectangleCorners({ lng: 1, lat: 2 }, { lng: 3, lat: 4 })).toEqual([
      { lng: 1, lat: 2 },
      { lng: 3, lat: 2 },
      { lng: 3, lat: 4 },
      { lng: 1, lat: 4 },
    ])
  })
})

describe('areas with holes in the index', () => {
  it("keeps each part's holes and skips nothing for them; a broken vertex in a hole still skips the marker", () => {
    const index = buildMarkerIndex([
      buildMarker({ id: 1, type: 6, points: '116.38,39.9|116.42,39.9|116.42,39.88#116.40,39.895|116.41,39.895|116.41,39.89;116.5,39.9|116.51,39.9|116.51,39.91' }),
      buildMarker({ id: 2, type: 3, points: '116.38,39.9|116.42,39.9|116.42,39.88#116.40,x|116.41,39.895|116.41,39.89' }),
    ])
    expect(index.shapes.map((s) => s.marker.id)).toEqual([1])
    const [shape] = index.shapes
    expect(shape.parts.map((p) => p.length)).toEqual([3, 3])
    expect(shape.holes.map((h) => h.length)).toEqual([1, 0])
    expect(shape.holes[0][0][0]).toEqual({ lng: 116.4, lat: 39.895 })
  })
})
