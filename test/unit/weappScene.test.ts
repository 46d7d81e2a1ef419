/** The WeChat map scene: the draw list in WeChat's terms, with the markers bounded per view. */
import { MAX_VISIBLE_POINTS } from '../../src/domain/constants'
import { buildMarkerIndex, computeDrawList, type Viewport } from '../../src/domain/mapDraw'
import { keepIfUnchanged, weappScene, withAlpha } from '../../src/platform/map/weappScene'
import { buildMarker } from '../support/mapBuilders'

const icons = { pinIcon: '/assets/pin.png', clusterIcon: '/assets/cluster.png' }
const BEIJING: Viewport = { west: 116.0, south: 39.6, east: 116.8, north: 40.2, zoom: 10 }

function grid(n: number) {
  return Array.from({ length: n }, (_, i) => buildMarker({ id: i + 1, points: `${(116.01 + (i % 200) * 0.0039).toFixed(5)},${(39.61 + Math.floor(i / 200) * 0.0011).toFixed(5)}` }))
}

describe('the WeChat map scene', () => {
  it('hands the map at most 200 point markers plus the clusters, whatever the zoom', () => {
    const index = buildMarkerIndex(grid(20_000))
    for (const zoom of [5, 10, 13, 16, 18, 22]) {
      const list = computeDrawList(index, { ...BEIJING, zoom })
      const scene = weappScene(list, icons)
      expect(scene.markers.length).toBe(list.points.length + list.clusters.length)
      expect(scene.markers.filter((m) => m.id > 0).length).toBeLessThanOrEqual(MAX_VISIBLE_POINTS)
    }
  })

  it('gives clusters negative ids that lead back to the cluster, with the badge text as label', () => {
    const list = computeDrawList(buildMarkerIndex(grid(2000)), { ...BEIJING, zoom: 5 })
    const scene = weappScene(list, icons)
    const cluster = scene.markers.find((m) => m.id < 0)!
    expect(list.clusters[scene.clusterOf.get(cluster.id)!].label).toBe(cluster.label?.content)
    expect(cluster.iconPath).toBe(icons.clusterIcon)
  })

  it('draws each kind with WeChat map shapes in the marker colour', () => {
    const markers = [
      buildMarker({ id: 1, type: 1, points: '116.1,39.7|116.2,39.8', style: { color: '#FF0000' } }),
      buildMarker({ id: 2, type: 2, points: '116.1,39.7|116.2,39.8' }),
      buildMarker({ id: 3, type: 3, points: '116.1,39.7|116.2,39.7|116.2,39.8' }),
      buildMarker({ id: 4, type: 4, points: '116.1,39.7|116.2,39.8' }),
      buildMarker({ id: 5, type: 5, points: '116.3,39.9', radius: 300 }),
      buildMarker({ id: 6, type: 6, points: '116.1,39.7|116.2,39.7|116.2,39.8;116.3,39.7|116.4,39.7|116.4,39.8' }),
    ]
    const scene = weappScene(computeDrawList(buildMarkerIndex(markers), BEIJING), icons)
    expect(scene.polylines).toHaveLength(2)
    expect(scene.polylines[0]).toMatchObject({ color: '#FF0000FF', dottedLine: false })
    expect(scene.polylines[1].dottedLine).toBe(true)
    // polygon, rectangle (4 corners) and the two parts of kind 6
    expect(scene.polygons.map((p) => p.points.length)).toEqual([3, 4, 3, 3])
    expect(scene.circles).toEqual([expect.objectContaining({ latitude: 39.9, longitude: 116.3, radius: 300 })])
  })

  it('writes colours with their alpha as WeChat wants', () => {
    expect(withAlpha('#165dff', 1)).toBe('#165DFFFF')
    expect(withAlpha('#165DFF', 0.25)).toBe('#165DFF40')
    expect(withAlpha('nonsense', 1)).toBe('#165DFFFF')
  })
})

describe('overlays handed to the WeChat map through setData', () => {
  const areas = [buildMarker({ id: 1, type: 3, points: '116.1,39.7|116.2,39.7|116.2,39.8' }), buildMarker({ id: 2, type: 1, points: '116.3,39.7|116.4,39.8' })]
  const index = buildMarkerIndex(areas)

  it('keeps the very value handed before when a pan leaves the lines and areas as they were, so nothing is sent again', () => {
    const first = keepIfUnchanged(null, weappScene(computeDrawList(index, BEIJING), icons).polygons)
    const panned = weappScene(computeDrawList(index, { ...BEIJING, west: 116.05, east: 116.85 }), icons)
    expect(panned.polygons).not.toBe(first.value)
    expect(keepIfUnchanged(first, panned.polygons)).toBe(first)
  })

  it('hands over a new value when what is drawn changes: a shape selected, or one leaving the view', () => {
    const first = keepIfUnchanged(null, weappScene(computeDrawList(index, BEIJING), icons).polylines)
    const selected = keepIfUnchanged(first, weappScene(computeDrawList(index, BEIJING), { ...icons, selectedId: 2 }).polylines)
    expect(selected).not.toBe(first)
    expect(selected.value[0].width).toBeGreaterThan(first.value[0].width)
    const away = keepIfUnchanged(selected, weappScene(computeDrawList(index, { ...BEIJING, west: 116.0, east: 116.25 }), icons).polylines)
    expect(away.value).toEqual([])
  })

  it('draws an area with its hole as the filled outline plus the hole outlined, since WeChat has no polygon holes', () => {
    const holed = buildMarker({ id: 5, type: 3, points: '116.38,39.90|116.42,39.90|116.42,39.88|116.38,39.88#116.395,39.895|116.405,39.895|116.405,39.885' })
    const scene = weappScene(computeDrawList(buildMarkerIndex([holed]), { ...BEIJING, zoom: 14, west: 116.3, east: 116.5, south: 39.8, north: 40.0 }), icons)
    expect(scene.polygons).toHaveLength(1)
    expect(scene.polygons[0].points).toHaveLength(4)
    expect(scene.polylines).toHaveLength(1)
    expect(scene.polylines[0].points).toEqual([
      { longitude: 116.395, latitude: 39.895 },
      { longitude: 116.405, latitude: 39.895 },
      { longitude: 116.405, latitude: 39.885 },
      { longitude: 116.395, latitude: 39.895 },
    ])
  })

  it("titles lines and areas as points are, in their layer's title style at the line's middle, and a tap on the title opens the shape", () => {
    const look = { font_size: 14, color: '#1D2129', bg_color: '#FFFFFF', padding: 2, border_weight: 1, border_color: '#165DFF' }
    const markers = [buildMarker({ id: 11, layer_id: 4, name: '进水管', type: 1, points: '116.1,39.7|116.3,39.7' }), buildMarker({ id: 12, layer_id: 4, name: '泵站', points: '116.2,39.8' })]
    const scene = weappScene(computeDrawList(buildMarkerIndex(markers), BEIJING), { ...icons, titleStyleOf: () => look })
    const title = scene.markers.find((m) => m.label?.content === '进水管')!
    expect(title).toMatchObject({ id: 11, latitude: 39.7, width: 1, height: 1 })
    expect(title.longitude).toBeCloseTo(116.2, 9)
    expect(title.label).toMatchObject({ fontSize: 14, color: '#1D2129', bgColor: '#FFFFFF' })
    expect(scene.markers.find((m) => m.id === 12)!.label!.fontSize).toBe(14)
  })

  it('draws a point being moved once, as a large handle at its new place instead of its pin at the old one', () => {
    const point = buildMarker({ id: 21, points: '116.2,39.8' })
    const list = computeDrawList(buildMarkerIndex([point]), BEIJING)
    const scene = weappScene(list, { ...icons, editing: { type: 0, parts: [[{ lng: 116.25, lat: 39.85 }]], radius: 0, selected: null, markerId: 21 } })
    expect(scene.markers.map((m) => m.id)).not.toContain(21)
    expect(scene.markers).toEqual([expect.objectContaining({ longitude: 116.25, latitude: 39.85, width: 44, height: 44 })])
  })
})
