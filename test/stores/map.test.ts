/** MapStore: what the map draws for a view, the heatmap switch, taps, and drawing a marker. */
import { autorun } from 'mobx'
import { LOADING_DELAY_CAP_MS, MAX_VISIBLE_POINTS } from '../../src/domain/constants'
import { MAP_ENGINE_MSG } from '../../src/domain/messages'
import type { Viewport } from '../../src/domain/mapDraw'
import { serializePoints } from '../../src/domain/points'
import { ok } from '../support/fakes'
import { buildLayer, buildMarker, signedInRoot } from '../support/mapBuilders'

const spots = buildLayer({ id: 1, name: '网点', type: 1, show: true })
const lines = buildLayer({ id: 2, name: '管线', type: 2, show: true })
const fields = buildLayer({ id: 3, name: '地块', type: 3, show: true })
const BEIJING: Viewport = { west: 116.0, south: 39.6, east: 116.8, north: 40.2, zoom: 10 }

function many(n: number, layerId = 1) {
  return Array.from({ length: n }, (_, i) => buildMarker({ id: i + 1, layer_id: layerId, points: `${(116.01 + (i % 100) * 0.0078).toFixed(5)},${(39.61 + Math.floor(i / 100) * 0.005).toFixed(5)}` }))
}

async function mapRoot(markers = many(500), shapes = [] as ReturnType<typeof buildMarker>[], extra: Record<string, (b: any) => any> = {}) {
  const made = await signedInRoot({
    ...extra,
    '/api/layer/getlist': () => ok([spots, lines, fields]),
    '/api/marker/getlist': (b: any) => {
      const all = [...markers, ...shapes].filter((m) => b.layer_ids.includes(m.layer_id))
      return ok({ list: all.slice((b.pageindex - 1) * b.pagesize, b.pageindex * b.pagesize), total: all.length })
    },
    '/api/layer/setting/show': () => ok(null),
    '/api/layer/field/getlist': () => ok([]),
    '/api/marker/save': (b: any) => ok(buildMarker({ ...b, id: 777 })),
  })
  await made.root.layers.load()
  await made.root.markers.loadShown()
  await made.root.map.loadEngine()
  return made
}

describe('MapStore', () => {
  it('draws once the draw pipeline is loaded (it comes with the map page, not with every page)', async () => {
    const { root } = await signedInRoot({ '/api/layer/getlist': () => ok([spots]), '/api/marker/getlist': () => ok({ list: many(30), total: 30 }) })
    await root.layers.load()
    await root.markers.loadShown()
    root.map.setView(BEIJING)
    expect(root.map.drawList.pointsInView).toBe(0)
    await root.map.loadEngine()
    expect(root.map.drawList.pointsInView).toBe(30)
  })

  it('draws nothing until the map reports its view, then the list for that view', async () => {
    const { root } = await mapRoot()
    expect(root.map.drawList.points).toEqual([])
    root.map.setView(BEIJING)
    expect(root.map.drawList.pointsInView).toBe(500)
    expect(root.map.drawList.clusters.length + root.map.drawList.points.length).toBeGreaterThan(0)
  })

  it('draws a large map (over 5000 markers) with every marker counted once its index is built', async () => {
    const { root } = await mapRoot(many(8000))
    root.map.setView(BEIJING)
    for (let i = 0; i < 20 && !root.map.index; i++) await new Promise((r) => setImmediate(r))
    expect(root.map.index?.points).toHaveLength(8000)
    expect(root.map.drawList.pointsInView).toBe(8000)
    expect(root.map.drawList.clusters.length).toBeGreaterThan(0)
  })

  it('never hands the map more than 200 point markers, even zoomed in on thousands', async () => {
    const { root } = await mapRoot(many(5000))
    root.map.setView({ ...BEIJING, zoom: 22 })
    expect(root.map.drawList.points.length).toBeLessThanOrEqual(MAX_VISIBLE_POINTS)
  })

  it('applies the marker filter to what is drawn', async () => {
    const { root } = await mapRoot([buildMarker({ id: 1, name: '泵站', points: '116.4,39.9' }), buildMarker({ id: 2, name: '阀门', points: '116.41,39.91' })])
    root.map.setView(BEIJING)
    expect(root.map.drawList.points.map((m) => m.id).sort()).toEqual([1, 2])
    root.markers.setFilterKw('泵')
    expect(root.map.drawList.points.map((m) => m.id)).toEqual([1])
  })

  it('replaces point markers by heat cells and back', async () => {
    const { root } = await mapRoot()
    root.map.setView(BEIJING)
    root.map.setHeatmap(true)
    expect(root.map.drawList.points).toEqual([])
    expect(root.map.drawList.heat?.reduce((n, c) => n + c.count, 0)).toBe(500)
    root.map.setHeatmap(false)
    expect(root.map.drawList.heat).toBeNull()
  })

  it('removes the markers of a layer toggled off without asking the server again', async () => {
    const { root, calls } = await mapRoot()
    root.map.setView(BEIJING)
    calls.length = 0
    await root.layers.setShown(1, false)
    expect(root.map.drawList.pointsInView).toBe(0)
    expect(calls.some((c) => c.path === '/api/marker/getlist')).toBe(false)
  })

  it('shows the detail of a tapped marker and moves into a tapped cluster', async () => {
    const { root } = await mapRoot()
    root.map.setView({ ...BEIJING, zoom: 5 })
    const cluster = root.map.drawList.clusters[0]
    root.map.tapCluster(cluster)
    expect(root.map.target).toMatchObject({ lng: cluster.lng, lat: cluster.lat })
    expect(root.map.target!.zoom).toBeGreaterThan(5)
    root.map.tapMarker(3)
    expect(root.markers.detailOpen).toBe(true)
    expect(root.map.selectedId).toBe(3)
  })

  it('shows the loading indicator for more than 30 solid lines, until drawn or 10 s at most', async () => {
    jest.useFakeTimers()
    try {
      const shapes = Array.from({ length: 31 }, (_, i) => buildMarker({ id: 1000 + i, layer_id: 2, type: 1, points: `116.1,39.7|116.2,${(39.7 + i * 0.001).toFixed(3)}` }))
      const { root } = await mapRoot([], shapes)
      root.map.setView(BEIJING)
      expect(root.map.shapesLoading).toBe(true)
      root.map.shapesDrawn()
      expect(root.map.shapesLoading).toBe(false)
      root.map.refresh()
      expect(root.map.shapesLoading).toBe(true)
      jest.advanceTimersByTime(LOADING_DELAY_CAP_MS)
      expect(root.map.shapesLoading).toBe(false)
    } finally {
      jest.useRealTimers()
    }
  })
})

/** What the map handed to the marker form (taken, as the form takes it), its parts written as stored points. */
function handed(root: { markers: { takeDrawn(): { type: number; parts: { lng: number; lat: number }[][]; radius: number } | null } }) {
  const drawn = root.markers.takeDrawn()
  expect(drawn).not.toBeNull()
  expect(root.markers.takeDrawn()).toBeNull()
  return { type: drawn!.type, points: serializePoints(drawn!.parts), radius: drawn!.radius }
}

describe('drawing a marker on the map', () => {
  it('places a point with one tap and opens /addinfo with it', async () => {
    const { root, navigations } = await mapRoot()
    root.map.startDrawing(0)
    root.map.tapMap({ lng: 116.4, lat: 39.9 })
    expect(root.map.drawing).toBeNull()
    expect(navigations.at(-1)?.path).toBe('/addinfo?type=0&drawn=1')
    expect(handed(root)).toEqual({ type: 0, points: '116.4,39.9', radius: 0 })
  })

  it('draws a line vertex by vertex with undo, and needs two vertices to finish', async () => {
    const { root, navigations } = await mapRoot()
    root.map.startDrawing(1)
    root.map.tapMap({ lng: 116.1, lat: 39.1 })
    expect(root.map.finishDrawing()).toBe(false)
    expect(root.app.currentNotice?.text).toBe(MAP_ENGINE_MSG.drawNotEnough(1))
    root.map.tapMap({ lng: 116.2, lat: 39.2 })
    root.map.tapMap({ lng: 116.3, lat: 39.3 })
    root.map.undoVertex()
    expect(root.map.vertexCount).toBe(2)
    expect(root.map.drawingHint).toBe(MAP_ENGINE_MSG.drawHint(1, 2))
    expect(root.map.finishDrawing()).toBe(true)
    expect(navigations.at(-1)?.path).toBe('/addinfo?type=1&drawn=1')
    expect(handed(root)).toEqual({ type: 1, points: '116.1,39.1|116.2,39.2', radius: 0 })
  })

  it('finishes a rectangle after its two corners', async () => {
    const { root, navigations } = await mapRoot()
    root.map.startDrawing(4)
    root.map.tapMap({ lng: 116.1, lat: 39.1 })
    expect(root.map.drawing).not.toBeNull()
    root.map.tapMap({ lng: 116.2, lat: 39.2 })
    expect(navigations.at(-1)?.path).toBe('/addinfo?type=4&drawn=1')
    expect(handed(root)).toEqual({ type: 4, points: '116.1,39.1|116.2,39.2', radius: 0 })
  })

  it('takes a circle as its centre and a tap on the rim, passing the radius in metres', async () => {
    const { root, navigations } = await mapRoot()
    root.map.startDrawing(5)
    root.map.tapMap({ lng: 116.4, lat: 39.9 })
    root.map.tapMap({ lng: 116.4, lat: 39.909 })
    expect(navigations.at(-1)?.path).toBe('/addinfo?type=5&drawn=1')
    const circle = handed(root)
    expect(circle).toMatchObject({ type: 5, points: '116.4,39.9' })
    expect(Number.isInteger(circle.radius)).toBe(true)
    expect(circle.radius).toBeGreaterThan(990)
    expect(circle.radius).toBeLessThan(1010)
  })

  it('builds a multi-part polygon part by part, each part at least a triangle', async () => {
    const { root, navigations } = await mapRoot()
    root.map.startDrawing(6)
    for (const [x, y] of [
      [1, 1],
      [2, 1],
    ])
      root.map.tapMap({ lng: 116 + x / 10, lat: 39 + y / 10 })
    expect(root.map.addPart()).toBe(false)
    expect(root.app.currentNotice?.text).toBe(MAP_ENGINE_MSG.partNeedsThree)
    root.map.tapMap({ lng: 116.2, lat: 39.2 })
    expect(root.map.addPart()).toBe(true)
    for (const [x, y] of [
      [5, 5],
      [6, 5],
      [6, 6],
    ])
      root.map.tapMap({ lng: 116 + x / 10, lat: 39 + y / 10 })
    expect(root.map.finishDrawing()).toBe(true)
    expect(navigations.at(-1)?.path).toBe('/addinfo?type=6&drawn=1')
    expect(handed(root)).toEqual({ type: 6, points: '116.1,39.1|116.2,39.1|116.2,39.2;116.5,39.5|116.6,39.5|116.6,39.6', radius: 0 })
  })

  it('ignores marker taps while drawing and cancels cleanly', async () => {
    const { root } = await mapRoot()
    root.map.startDrawing(3)
    root.map.tapMarker(3)
    expect(root.markers.detailOpen).toBe(false)
    root.map.cancelDrawing()
    expect(root.map.drawing).toBeNull()
  })

  it('puts a marker saved into a new, empty layer on the map at once', async () => {
    const { root } = await mapRoot([])
    root.map.setView(BEIJING)
    await root.markers.save({ layer_id: 1, name: '新点', type: 0, points: '116.4,39.9' })
    expect(root.map.drawList.points.map((m) => m.id)).toEqual([777])
  })
})

describe('moving the vertices of a saved marker', () => {
  it('moves a dragged vertex and saves only the new geometry', async () => {
    const pipe = buildMarker({ id: 50, layer_id: 2, type: 1, name: '管线', points: '116.1,39.1|116.2,39.1|116.2,39.2' })
    const { root, calls } = await mapRoot([], [pipe])
    expect(root.map.startEditGeometry(pipe)).toBe(true)
    expect(root.markers.detailOpen).toBe(false)
    root.map.moveVertex(0, 2, { lng: 116.25, lat: 39.25 })
    expect(await root.map.saveGeometry()).toBe(true)
    const body = calls.find((c) => c.path === '/api/marker/save')!.body
    expect(body).toMatchObject({ id: 50, name: '管线', type: 1, points: '116.1,39.1|116.2,39.1|116.25,39.25', layer_id: 2 })
    expect(root.map.editing).toBeNull()
    expect(root.markers.detailOpen).toBe(true)
  })

  it("keeps an area's hole when an outline vertex is moved", async () => {
    const plot = buildMarker({ id: 52, layer_id: 3, type: 3, points: '116.1,39.1|116.3,39.1|116.3,39.3#116.25,39.15|116.28,39.15|116.28,39.2' })
    const { root, calls } = await mapRoot([], [plot])
    root.map.startEditGeometry(plot)
    root.map.moveVertex(0, 0, { lng: 116.05, lat: 39.05 })
    expect(await root.map.saveGeometry()).toBe(true)
    expect(calls.find((c) => c.path === '/api/marker/save')!.body.points).toBe('116.05,39.05|116.3,39.1|116.3,39.3#116.25,39.15|116.28,39.15|116.28,39.2')
  })

  it('moves a vertex by tapping it and then its new place (where dragging is not available)', async () => {
    const line = buildMarker({ id: 51, layer_id: 2, type: 1, points: '116.1,39.1|116.2,39.2' })
    const { root } = await mapRoot([], [line])
    root.map.startEditGeometry(line)
    root.map.tapMap({ lng: 117, lat: 40 })
    expect(root.map.editing!.parts[0]).toEqual([
      { lng: 116.1, lat: 39.1 },
      { lng: 116.2, lat: 39.2 },
    ])
    root.map.selectVertex(0, 0)
    expect(root.map.editingHint).toBe(MAP_ENGINE_MSG.editTapTarget)
    root.map.tapMap({ lng: 116.05, lat: 39.05 })
    expect(root.map.editing!.parts[0][0]).toEqual({ lng: 116.05, lat: 39.05 })
    expect(root.map.editing!.selected).toBeNull()
  })

  it('moves a point where the map is tapped, with point wording: it has no vertices to pick', async () => {
    const p = buildMarker({ id: 54, points: '116.4,39.9' })
    const { root } = await mapRoot([p])
    root.map.startEditGeometry(p)
    expect(root.map.editingHint).toBe(MAP_ENGINE_MSG.editPointHint)
    expect(root.map.editingHint).not.toMatch(/顶点/)
    root.map.tapMap({ lng: 116.45, lat: 39.92 })
    expect(root.map.editGeometry).toMatchObject({ markerId: 54, parts: [[{ lng: 116.45, lat: 39.92 }]] })
  })

  it('gives the map one geometry object while nothing changes, a new one after a move', async () => {
    const p = buildMarker({ id: 53, points: '116.4,39.9' })
    const { root } = await mapRoot([p])
    root.map.startEditGeometry(p)
    // Observed, as the map page observes it.
    const seen: unknown[] = []
    const stop = autorun(() => seen.push(root.map.editGeometry))
    root.map.setHeatmap(true)
    root.map.moveVertex(0, 0, { lng: 116.5, lat: 39.95 })
    stop()
    expect(seen).toHaveLength(2)
    expect(seen[1]).toMatchObject({ type: 0, parts: [[{ lng: 116.5, lat: 39.95 }]], selected: null })
  })

  it('cancels without saving and shows the detail again', async () => {
    const p = buildMarker({ id: 52, points: '116.4,39.9' })
    const { root, calls } = await mapRoot([p])
    root.map.startEditGeometry(p)
    root.map.moveVertex(0, 0, { lng: 116.5, lat: 39.95 })
    calls.length = 0
    root.map.cancelEditGeometry()
    expect(calls.filter((c) => c.path === '/api/marker/save')).toEqual([])
    expect(root.markers.detail?.points).toBe('116.4,39.9')
    expect(root.markers.detailOpen).toBe(true)
  })
})

describe("members' last positions", () => {
  const here = { user: { id: 7, nickname: '小王', avatar: '' }, time: '2026-11-22T08:00:00.000Z', lng: 116.4, lat: 39.9, addr: '' }

  it('fetches them when shown and forgets them when hidden', async () => {
    const made = await signedInRoot({ '/api/user/location/getbygroupid': () => ok([here]) })
    await made.root.map.setShowMembers(true)
    expect(made.root.map.members).toEqual([here])
    await made.root.map.setShowMembers(false)
    expect(made.root.map.members).toEqual([])
  })

  it('says so when nobody has reported a position yet', async () => {
    const { root } = await signedInRoot({ '/api/user/location/getbygroupid': () => ok([]) })
    await root.map.setShowMembers(true)
    expect(root.app.currentNotice?.text).toBe(MAP_ENGINE_MSG.membersNone)
  })

  it('reports the position the user located, and refreshes the shown members', async () => {
    const { root, calls } = await signedInRoot({ '/api/user/location/save': () => ok(null), '/api/user/location/getbygroupid': () => ok([here]) })
    await root.map.setShowMembers(true)
    calls.length = 0
    await root.map.reportPosition({ lng: 116.41, lat: 39.91 })
    expect(calls.map((c) => c.path)).toEqual(['/api/user/location/save', '/api/user/location/getbygroupid'])
    expect(calls[0].body).toMatchObject({ lng: 116.41, lat: 39.91 })
  })
})

describe('base map settings (SPEC 3 map_style and base layers)', () => {
  it('keeps the chosen style and layers on the phone, and logout brings back the defaults', async () => {
    const first = await signedInRoot()
    first.root.app.setMapStyle('poi', false)
    first.root.app.setBaseLayer('satellite_layer', true)
    const saved = first.storage.get('base_setting')!
    const again = await signedInRoot({}, { storage: { base_setting: saved } })
    expect(again.root.app.map_style.poi).toBe(false)
    expect(again.root.app.map_style.road).toBe(true)
    expect(again.root.app.satellite_layer).toBe(true)
    expect(again.root.app.basemap).toMatchObject({ poi: false, road: true, satellite: true, roadnet: false, traffic: false })
    again.root.app.resetMap()
    expect(again.root.app.map_style.poi).toBe(true)
    expect(again.root.app.satellite_layer).toBe(false)
  })

  it('ignores an unreadable saved setting', async () => {
    const { root } = await signedInRoot({}, { storage: { base_setting: '{broken' } })
    expect(root.app.map_style).toMatchObject({ bg: true, road: true, building: true, poi: true, traffic: false })
  })
})

describe('map loader state, self location and the filter flag', () => {
  it('moves through the SPEC 4 loader states', async () => {
    const { root } = await signedInRoot()
    expect(root.map.loaderState).toBe('notload')
    root.map.setLoaderState('loading')
    root.map.setLoaderState('failed')
    expect(root.map.loaderState).toBe('failed')
  })

  it('remembers where the user located themselves', async () => {
    const { root } = await signedInRoot({ '/api/user/location/save': () => ok(null) })
    await root.map.reportPosition({ lng: 116.41, lat: 39.91 })
    expect(root.app.self_location).toEqual({ lng: 116.41, lat: 39.91 })
  })

  it('says when the filter hides anything', async () => {
    const { root } = await signedInRoot()
    expect(root.markers.filterActive).toBe(false)
    root.markers.setKindShown(3, false)
    expect(root.markers.filterActive).toBe(true)
    root.markers.resetFilter()
    root.markers.setFilterKw('  ')
    expect(root.markers.filterActive).toBe(false)
  })
})

describe('a saved route on the map (/map?route=<id>)', () => {
  const saved = {
    id: 5,
    name: '巡检路线',
    mode: 'driving',
    stops: [
      { marker_id: null, name: '起点', lng: 116.3, lat: 39.9 },
      { marker_id: null, name: '中途', lng: 116.35, lat: 39.95 },
      { marker_id: null, name: '终点', lng: 116.4, lat: 39.92 },
    ],
    legs: [],
    distance: 3200,
    duration: 720,
    creator: { id: 1, nickname: '钱' },
    created_at: '2025-06-01T02:00:00.000Z',
    updated_at: '2025-06-01T02:00:00.000Z',
  }

  it('frames a route asked for before the map reported its size once the size is known, between the cards and tools', async () => {
    const phone = { west: 116.13, south: 39.5, east: 116.666, north: 40.3, zoom: 10 }
    // Where the route is framed when the map's size is known first.
    const first = await mapRoot(many(20), [], { '/api/route/getbyid': () => ok(saved) })
    first.root.map.setView(phone)
    await first.root.map.showRoute(5)
    const framed = first.root.map.target!
    // /map?route= asks as the page mounts; here the map reports its view after the answer came.
    const { root } = await mapRoot(many(20), [], { '/api/route/getbyid': () => ok(saved) })
    const shown = root.map.showRoute(5)
    await new Promise((r) => setTimeout(r, 20))
    root.map.setView(phone)
    expect(await shown).toBe(true)
    // The same frame, shifted off the cards and tools: not a plain fit of the stops' box (centred on it).
    expect(root.map.target?.zoom).toBe(framed.zoom)
    expect(root.map.target!.lng).toBeCloseTo(framed.lng, 6)
    expect(root.map.target!.lat).toBeCloseTo(framed.lat, 6)
    expect(Math.abs(framed.lat - 39.925)).toBeGreaterThan(0.002)
  })

  it('draws the route as one line through its stops over the markers, frames it, and goes away when closed', async () => {
    const { root, calls } = await mapRoot(many(20), [], { '/api/route/getbyid': () => ok(saved) })
    // A phone's map, 390 x 844 CSS px at zoom 10.
    root.map.setView({ west: 116.13, south: 39.5, east: 116.666, north: 40.3, zoom: 10 })
    const before = root.map.drawList.shapes.length
    expect(await root.map.showRoute(5)).toBe(true)
    const shapes = root.map.drawList.shapes
    expect(shapes).toHaveLength(before + 1)
    const line = shapes[shapes.length - 1]
    expect(line.parts[0].map((p) => [p.lng, p.lat])).toEqual(saved.stops.map((s) => [s.lng, s.lat]))
    expect(root.map.route?.summary).toContain('3个站点')
    // Framed: the map moves near the stops' middle (shifted off the page's cards and tools), as close as
    // the stops with their pins and titles still fit in the map's free part: zoom 11, their 0.1° span 145 px
    // wide. At 12 they would take 340 x 270 px, too tall above the tool column, too wide beside it.
    expect(Math.abs(root.map.target!.lng - 116.35)).toBeLessThan(0.05)
    expect(Math.abs(root.map.target!.lat - 39.925)).toBeLessThan(0.05)
    expect(root.map.target?.zoom).toBe(11)
    // The line is not a marker: tapping it opens no detail.
    root.map.tapMarker(line.marker.id)
    expect(root.markers.detailOpen).toBe(false)
    expect(calls.some((c) => c.path === '/api/marker/getbyid')).toBe(false)
    root.map.clearRoute()
    expect(root.map.drawList.shapes).toHaveLength(before)
  })

  it('changes nothing for a route the server refuses', async () => {
    const { root } = await mapRoot(many(20), [], { '/api/route/getbyid': () => ({ status: 200, data: { header: { errcode: 1002, errmsg: '路线不存在' }, data: null } }) })
    root.map.setView(BEIJING)
    expect(await root.map.showRoute(9)).toBe(false)
    expect(root.map.route).toBeNull()
    expect(root.app.notices.at(-1)?.text).toBe('路线不存在')
  })
})
