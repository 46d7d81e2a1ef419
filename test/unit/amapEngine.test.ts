/**
 * The AMap renderer against a fake AMap namespace (the real one needs a key and the network):
 * what it adds and removes for a draw list, that unchanged items stay, and that taps and views
 * reach the page in GCJ-02 as AMap gives them.
 */
import { buildMarkerIndex, computeDrawList, type Viewport } from '../../src/domain/mapDraw'
import { AmapEngine } from '../../src/platform/map/amapEngine'
import { buildMarker } from '../support/mapBuilders'

class Evented {
  handlers: Record<string, ((e?: any) => void)[]> = {}
  on(name: string, fn: (e?: any) => void) {
    ;(this.handlers[name] ??= []).push(fn)
  }
  fire(name: string, e?: any) {
    for (const fn of this.handlers[name] ?? []) fn(e)
  }
}
class Overlay extends Evented {
  constructor(
    public kind: string,
    public opts: any,
  ) {
    super()
  }
}
const lnglat = (lng: number, lat: number) => ({ getLng: () => lng, getLat: () => lat })

function fakeAmap() {
  const make = (kind: string) =>
    class extends Overlay {
      constructor(opts: any) {
        super(kind, opts)
      }
    }
  return {
    Marker: make('Marker'),
    Polyline: make('Polyline'),
    Polygon: make('Polygon'),
    Circle: make('Circle'),
    CircleMarker: make('CircleMarker'),
    Text: make('Text'),
    Pixel: class {
      constructor(
        public x: number,
        public y: number,
      ) {}
    },
    TileLayer: { Satellite: make('Satellite'), RoadNet: make('RoadNet'), Traffic: make('Traffic') },
  }
}

class FakeMap extends Evented {
  overlays = new Set<Overlay>()
  zoom = 12
  center: [number, number] = [116.4, 39.9]
  add(o: Overlay | Overlay[]) {
    for (const x of Array.isArray(o) ? o : [o]) this.overlays.add(x)
  }
  remove(o: Overlay | Overlay[]) {
    for (const x of Array.isArray(o) ? o : [o]) this.overlays.delete(x)
  }
  getBounds() {
    return { getSouthWest: () => lnglat(116.0, 39.6), getNorthEast: () => lnglat(116.8, 40.2) }
  }
  getZoom() {
    return this.zoom
  }
  setZoomAndCenter(z: number, c: [number, number]) {
    this.zoom = z
    this.center = c
  }
  /** A linear stand-in for AMap's projection over the fake bounds: 1000 x 1000 px. */
  lngLatToContainer([lng, lat]: [number, number]) {
    return { x: ((lng - 116.0) / 0.8) * 1000, y: ((40.2 - lat) / 0.6) * 1000 }
  }
  features: string[] = []
  setFeatures(f: string[]) {
    this.features = f
  }
  destroy() {}
  count(kind: string) {
    return [...this.overlays].filter((o) => o.kind === kind).length
  }
}

const BEIJING: Viewport = { west: 116.0, south: 39.6, east: 116.8, north: 40.2, zoom: 12 }

function setup() {
  const map = new FakeMap()
  const events = { view: [] as Viewport[], markers: [] as number[], taps: [] as { lng: number; lat: number }[], moves: [] as unknown[] }
  const engine = new AmapEngine(fakeAmap(), map, () => ({
    onViewChange: (v) => events.view.push(v),
    onMarkerTap: (id) => events.markers.push(id),
    onMapTap: (p) => events.taps.push(p),
    onVertexMove: (...a) => events.moves.push(a),
  }))
  return { map, engine, events }
}

const markers = [
  buildMarker({ id: 1, name: '泵站', points: '116.4,39.9' }),
  buildMarker({ id: 2, type: 1, points: '116.1,39.7|116.2,39.8' }),
  buildMarker({ id: 3, type: 6, points: '116.1,39.7|116.2,39.7|116.2,39.8;116.3,39.7|116.4,39.7|116.4,39.8' }),
  buildMarker({ id: 4, type: 5, points: '116.3,39.9', radius: 300 }),
]

describe('the AMap renderer', () => {
  it('reports the view in GCJ-02 as AMap gives it, on start and after moves', () => {
    const { map, engine, events } = setup()
    engine.start()
    map.fire('moveend')
    expect(events.view).toEqual([
      { west: 116.0, south: 39.6, east: 116.8, north: 40.2, zoom: 12 },
      { west: 116.0, south: 39.6, east: 116.8, north: 40.2, zoom: 12 },
    ])
  })

  it('draws points as HTML markers and each kind of shape as AMap overlays, part by part', () => {
    const { map, engine } = setup()
    engine.render(computeDrawList(buildMarkerIndex(markers), BEIJING), null, undefined)
    expect(map.count('Marker')).toBe(1)
    expect([...map.overlays].find((o) => o.kind === 'Marker')!.opts.content).toContain('data-marker-id="1"')
    expect(map.count('Polyline')).toBe(1)
    expect(map.count('Polygon')).toBe(2)
    expect(map.count('Circle')).toBe(1)
  })

  it('hands AMap an area with a hole as its ring list: the outline, then the hole', () => {
    const { map, engine } = setup()
    const holed = buildMarker({ id: 8, type: 3, points: '116.38,39.9|116.42,39.9|116.42,39.88#116.40,39.895|116.41,39.895|116.41,39.89' })
    engine.render(computeDrawList(buildMarkerIndex([holed]), BEIJING), null, undefined)
    const polygon = [...map.overlays].find((o) => o.kind === 'Polygon')!
    expect(polygon.opts.path).toEqual([
      [
        [116.38, 39.9],
        [116.42, 39.9],
        [116.42, 39.88],
      ],
      [
        [116.4, 39.895],
        [116.41, 39.895],
        [116.41, 39.89],
      ],
    ])
  })

  it('keeps unchanged items and removes what left the list', () => {
    const { map, engine } = setup()
    const index = buildMarkerIndex(markers)
    engine.render(computeDrawList(index, BEIJING), null, undefined)
    const before = new Set(map.overlays)
    engine.render(computeDrawList(index, BEIJING), null, undefined)
    expect(new Set(map.overlays)).toEqual(before)
    engine.render(computeDrawList(buildMarkerIndex([markers[0]]), BEIJING), null, undefined)
    expect([...map.overlays].map((o) => o.kind).filter((k) => k !== 'Text')).toEqual(['Marker'])
  })

  it('passes taps on markers and on the map to the page', () => {
    const { map, engine, events } = setup()
    engine.render(computeDrawList(buildMarkerIndex(markers), BEIJING), null, undefined)
    for (const o of map.overlays) if (o.kind === 'Marker' || o.kind === 'Polyline') o.fire('click')
    expect(events.markers.sort()).toEqual([1, 2])
    map.fire('click', { lnglat: lnglat(116.5, 39.95) })
    expect(events.taps).toEqual([{ lng: 116.5, lat: 39.95 }])
  })

  it('moves to a target once per request', () => {
    const { map, engine } = setup()
    engine.moveTo({ lng: 116.3, lat: 39.8, zoom: 15, seq: 1 })
    map.zoom = 10
    engine.moveTo({ lng: 116.3, lat: 39.8, zoom: 15, seq: 1 })
    expect(map.zoom).toBe(10)
    engine.moveTo({ lng: 116.3, lat: 39.8, zoom: 15, seq: 2 })
    expect(map.zoom).toBe(15)
    expect(map.center).toEqual([116.3, 39.8])
  })

  it('draws heat cells instead of point markers when the heatmap is on, and clears them after', () => {
    const { map, engine } = setup()
    const index = buildMarkerIndex(markers)
    engine.render(computeDrawList(index, BEIJING, { heatmap: true }), null, undefined)
    expect(map.count('Marker')).toBe(0)
    expect(map.count('CircleMarker')).toBe(1)
    engine.render(computeDrawList(index, BEIJING), null, undefined)
    expect(map.count('CircleMarker')).toBe(0)
  })

  it('switches the satellite, road-net and traffic layers and the style elements', () => {
    const { map, engine } = setup()
    const base = { bg: true, road: true, building: false, poi: true, satellite: true, roadnet: false, traffic: true }
    engine.setBasemap(base)
    expect([map.count('Satellite'), map.count('RoadNet'), map.count('Traffic')]).toEqual([1, 0, 1])
    expect(map.features).toEqual(['bg', 'road', 'point'])
    engine.setBasemap({ ...base, satellite: false })
    engine.setBasemap({ ...base, satellite: false })
    expect([map.count('Satellite'), map.count('Traffic')]).toEqual([0, 1])
  })

  it('gives an edited marker draggable vertex handles that report the new place', () => {
    const { map, engine, events } = setup()
    engine.renderEditing({
      type: 1,
      parts: [
        [
          { lng: 116.1, lat: 39.7 },
          { lng: 116.2, lat: 39.8 },
        ],
      ],
      radius: 0,
      selected: null,
    })
    const handles = [...map.overlays].filter((o) => o.kind === 'Marker')
    expect(handles).toHaveLength(2)
    expect(handles.every((h) => h.opts.draggable)).toBe(true)
    handles[1].fire('dragend', { lnglat: lnglat(116.25, 39.85) })
    expect(events.moves).toEqual([[0, 1, { lng: 116.25, lat: 39.85 }]])
    engine.renderEditing(null)
    expect(map.overlays.size).toBe(0)
  })

  describe("titles that would cover each other, by the keyless map's rule", () => {
    const style = { font_size: 14, color: '#1D2129', bg_color: '#FFFFFF', padding: 4, border_weight: 1, border_color: '#165DFF' }
    const contentOf = (map: FakeMap, id: number) => [...map.overlays].find((o) => o.kind === 'Marker' && String(o.opts.content).includes(`data-marker-id="${id}"`))!.opts.content as string
    const texts = (map: FakeMap) => [...map.overlays].filter((o) => o.kind === 'Text').map((o) => o.opts.text)
    // 0.008° is 10 px here: 东单 and 王府井 stand 10 px apart, 西单 400 px off.
    const stores = [
      buildMarker({ id: 11, name: '东单门店', points: '116.4,39.9' }),
      buildMarker({ id: 12, name: '王府井门店', points: '116.408,39.9' }),
      buildMarker({ id: 13, name: '西单门店', points: '116.08,39.9' }),
    ]

    it("hides the later of two points' titles that would overlap and keeps one clear of both; the pins stay", () => {
      const { map, engine } = setup()
      engine.render(computeDrawList(buildMarkerIndex(stores), BEIJING), null, () => style)
      expect(contentOf(map, 11)).toContain('map-title')
      expect(contentOf(map, 12)).not.toContain('map-title')
      expect(contentOf(map, 13)).toContain('map-title')
    })

    it("shows the selected marker's title first", () => {
      const { map, engine } = setup()
      engine.render(computeDrawList(buildMarkerIndex(stores), BEIJING), 12, () => style)
      expect(contentOf(map, 11)).not.toContain('map-title')
      expect(contentOf(map, 12)).toContain('map-title')
    })

    it("gives a line's title way to a point's over it, and shows it again once the view leaves room", () => {
      const { map, engine } = setup()
      // The line's middle is at 116.4,39.9, on 东单门店's title.
      const road = buildMarker({ id: 20, type: 1, name: '长安街', points: '116.39,39.903|116.41,39.903' })
      engine.render(computeDrawList(buildMarkerIndex([stores[0], road]), BEIJING), null, () => style)
      expect(contentOf(map, 11)).toContain('map-title')
      expect(texts(map)).toEqual([])
      engine.render(computeDrawList(buildMarkerIndex([road]), BEIJING), null, () => style)
      expect(texts(map)).toEqual(['长安街'])
    })
  })
})
