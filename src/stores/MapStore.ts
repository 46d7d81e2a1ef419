/**
 * The map engine's state: the current view, what to draw for it (the domain's draw list
 * over the filtered markers), the heatmap switch, the marker or cluster the user tapped, and the
 * drawing of a new marker vertex by vertex before /addinfo takes over, and measuring (MeasureStore),
 * which takes the map's taps while it is on.
 */
import { clusterTarget, dataTarget, fitTarget, type FitTarget } from '../domain/fit'
import { computed, makeAutoObservable, observable, reaction, runInAction, when, type IReactionDisposer } from 'mobx'
import type { MemberLocation } from '../../types/entities'
import type { Marker, MarkerType } from '../../types/mapdata'
import { DRAWN_PARAM, LOADING_DELAY_CAP_MS } from '../domain/constants'
import { distanceMeters, type LngLat } from '../domain/geo'
import type { ClusterItem, DrawList, MarkerIndex, Shape, Viewport } from '../domain/mapDraw'
import type { MapLoaderState } from '../domain/mapLoader'
import { MAP_ENGINE_MSG } from '../domain/messages'
import { checkGeometry, parsePoints, serializePoints } from '../domain/points'
import type { RootStore } from './RootStore'
import type { Rect } from '../domain/titleFrame'
import { MARKER_KIND, isPoint } from '../domain/markerKinds'
import { loadMarkerIndexer } from '../platform/indexer/loader'
import type { MarkerIndexer } from '../platform/indexer/types'
import { MeasureStore } from './MeasureStore'

/** The draw pipeline and supercluster, loaded with the map page so that other pages do not carry them. */
type Engine = typeof import('../domain/mapDraw')

/** Above this many markers the index is built by the platform's builder (a worker on H5); at or below it, at once. */
const LARGE_MAP_MARKERS = 5000

const EMPTY: DrawList = { clusters: [], points: [], shapes: [], heat: null, pointsInView: 0 }

/** Where the map should move to; seq changes on every request so the same target can be asked twice. */
export interface MapTarget {
  lng: number
  lat: number
  zoom: number
  seq: number
}

/**
 * A saved route shown on the map (/map?route=<id>, from the route list): drawn as one line through its
 * stops over the markers, with a card naming it. Loaded with its helpers only when asked for.
 */
export interface RouteOverlay {
  id: number
  name: string
  /** '3.2公里 · 约12分钟 · 3个站点' */
  summary: string
  /** The route as a solid line through its stops (the draw list's shape form). */
  line: Shape
}

/** A marker being drawn on the map: parts of vertices (one part except for kind 6), and a circle's radius. */
export interface DrawingState {
  type: MarkerType
  parts: LngLat[][]
  radius: number
}

/** An existing marker whose vertices are being moved (drag on H5; tap a vertex, then tap its new place). */
export interface EditingState {
  marker: Marker
  parts: LngLat[][]
  /** The area's holes, kept as they are: only outline vertices are moved on the map. */
  holes: LngLat[][][]
  radius: number
  /** The vertex picked by a tap, waiting for a tap on the map: [part, vertex]. */
  selected: [number, number] | null
}

/** The tallest a stop's pin is drawn (src/platform/map/markup.ts sizes pins up to 48 CSS px): room kept above each stop. */
const ROUTE_PIN_PX = 48
/** How long a route asked for before the map has drawn waits for the map's size before framing without it. */
const ROUTE_VIEW_WAIT_MS = 5000

/**
 * What covers the map around a framed route, in CSS px on a map of that size: the map card and
 * search bar across the top, the tool column down the right above the route's card, and the route's
 * card and the count across the bottom. The page lays them out in design px of a 750-wide screen
 * (src/pages/map/index.scss, src/styles/map-tools.scss), so they scale with the width.
 */
function routeCovers(size: { width: number; height: number }): Rect[] {
  const k = size.width / 750
  return [
    { left: 0, top: 0, right: size.width, bottom: 270 * k },
    // Up to eight tools of 92 with 16 between, 104 wide and 24 from the right, 200 from the bottom.
    { left: size.width - 128 * k, top: size.height - 1064 * k, right: size.width, bottom: size.height - 200 * k },
    { left: 0, top: size.height - 290 * k, right: size.width, bottom: size.height },
  ]
}

/** How many taps finish each kind: a point 1, a rectangle 2 (corners), a circle 2 (centre, then a point on the rim). */
const FIXED_VERTICES: Partial<Record<MarkerType, number>> = { 0: 1, 4: 2, 5: 2 }
const MIN_VERTICES: Record<MarkerType, number> = { 0: 1, 1: 2, 2: 2, 3: 3, 4: 2, 5: 2, 6: 3 }

export class MapStore {
  view: Viewport | null = null
  heatmap = false
  drawList: DrawList = EMPTY
  target: MapTarget | null = null
  drawing: DrawingState | null = null
  editing: EditingState | null = null
  savingGeometry = false
  /** Group members' last positions, shown while the toggle is on (SPEC 4 join-location display). */
  showMembers = false
  members: MemberLocation[] = []
  /** The saved route drawn over the markers, or null. */
  route: RouteOverlay | null = null
  /** The draw pipeline, once loaded (loadEngine). */
  engine: Engine | null = null
  /**
   * The draw index over the markers that pass the filter, rebuilt when they change: at once in the
   * mini-program, with the clusters built in a worker on H5 (src/platform/indexer); the previous
   * index stays drawn until the new one is there.
   */
  index: MarkerIndex | null = null
  /** SPEC 4 map loader states: notload, loading, loaded, failed. */
  loaderState: MapLoaderState = 'notload'
  /** True while many lines/areas are being drawn (SPEC 4 loading indicator), at most 10 s. */
  shapesLoading = false
  private seq = 0
  private builds = 0
  /** Builds the index of a large map (loaded for the first one): with a worker on H5, at once in the mini-program. */
  private buildIndex: Promise<MarkerIndexer> | null = null
  private loadingTimer: ReturnType<typeof setTimeout> | null = null
  private readonly disposers: IReactionDisposer[] = []
  /** 测距 / 测面积: while it is active, taps on the map are its points. */
  readonly measure: MeasureStore

  constructor(private readonly root: RootStore) {
    this.measure = new MeasureStore(root)
    makeAutoObservable<MapStore, 'root' | 'seq' | 'builds' | 'buildIndex' | 'loadingTimer' | 'disposers'>(this, {
      root: false,
      measure: false,
      seq: false,
      builds: false,
      buildIndex: false,
      loadingTimer: false,
      disposers: false,
      view: observable.ref,
      drawList: observable.ref,
      target: observable.ref,
      drawing: observable.ref,
      editing: observable.ref,
      members: observable.ref,
      route: observable.ref,
      engine: observable.ref,
      index: observable.ref,
      indexInput: computed,
    })
    // Markers, filter, view or heatmap changed: recompute what to draw (cheap; the index is cached).
    this.disposers.push(
      reaction(
        () => this.indexInput,
        (input) => this.rebuildIndex(input),
        { fireImmediately: true },
      ),
      reaction(
        () => [this.index, this.view, this.heatmap, this.route] as const,
        () => this.refresh(),
      ),
    )
  }

  /** Loads the draw pipeline (a separate chunk on H5); the map draws once it is there. */
  async loadEngine(): Promise<Engine> {
    if (this.engine) return this.engine
    const engine = await import('../domain/mapDraw')
    runInAction(() => {
      this.engine = engine
    })
    return engine
  }

  /** What the index is built from: the draw pipeline once loaded, and the markers that pass the filter. */
  get indexInput(): { engine: Engine; markers: Marker[] } | null {
    return this.engine ? { engine: this.engine, markers: this.root.markers.visible } : null
  }

  private rebuildIndex(input: { engine: Engine; markers: Marker[] } | null): void {
    const build = ++this.builds
    if (!input) {
      this.index = null
      return
    }
    // A map of a few thousand markers is indexed at once in a few milliseconds; the builder for large ones is loaded with the first.
    if (input.markers.length <= LARGE_MAP_MARKERS) {
      this.index = input.engine.buildMarkerIndex(input.markers)
      return
    }
    const built = (this.buildIndex ??= loadMarkerIndexer()).then((indexer) => indexer(input.engine, input.markers))
    // A later change of the markers wins over a build still under way.
    void built.then((index) => runInAction(() => build === this.builds && (this.index = index)))
  }

  get selectedId(): number | null {
    return this.root.markers.detailOpen ? (this.root.markers.detail?.id ?? null) : null
  }

  setView(view: Viewport): void {
    this.view = view
  }

  refresh(): void {
    const index = this.index
    if (!this.view || !index || !this.engine) return
    const previous = new Set(this.drawList.points.map((m) => m.id))
    const computed = this.engine.computeDrawList(index, this.view, { heatmap: this.heatmap, previous })
    // A route shown from the route list is drawn above the markers' lines and areas, in any view.
    const list = this.route ? { ...computed, shapes: [...computed.shapes, this.route.line] } : computed
    this.drawList = list
    if (this.engine.needsShapeLoading(list.shapes)) this.startShapesLoading()
  }

  setHeatmap(on: boolean): void {
    this.heatmap = on
  }

  private startShapesLoading(): void {
    this.shapesLoading = true
    if (this.loadingTimer) clearTimeout(this.loadingTimer)
    // The indicator never stays longer than the SPEC 9 cap, whatever the renderer reports.
    this.loadingTimer = setTimeout(() => this.shapesDrawn(), LOADING_DELAY_CAP_MS)
  }

  /** The renderer finished drawing the lines and areas of the current list. */
  shapesDrawn(): void {
    if (this.loadingTimer) clearTimeout(this.loadingTimer)
    this.loadingTimer = null
    this.shapesLoading = false
  }

  setLoaderState(state: MapLoaderState): void {
    this.loaderState = state
  }

  /** Shows or hides the members' last positions; showing fetches them fresh. */
  async setShowMembers(on: boolean): Promise<void> {
    this.showMembers = on
    if (!on) {
      this.members = []
      return
    }
    const list = await this.root.api.post('/api/user/location/getbygroupid', {})
    runInAction(() => {
      if (!this.showMembers) return
      this.members = list ?? []
      if (list && list.length === 0) this.root.app.notify(MAP_ENGINE_MSG.membersNone, 'primary')
    })
  }

  /** The user located themselves: their teammates may see it (quietly; a failure changes nothing here). */
  async reportPosition(p: LngLat): Promise<void> {
    this.root.app.setSelfLocation(p)
    const ok = await this.root.api.post('/api/user/location/save', { lng: p.lng, lat: p.lat }, { quiet: true })
    if (ok !== undefined && this.showMembers) await this.setShowMembers(true)
  }

  moveTo(lng: number, lat: number, zoom: number): void {
    this.target = { lng, lat, zoom, seq: ++this.seq }
  }

  /** Tapping a marker selects it and shows its detail (SPEC 4). */
  tapMarker(id: number): void {
    if (this.drawing) return
    // Measuring: a point marker tapped is a measure point at its place (the distance between two customers); it opens nothing.
    if (this.measure.active) {
      const m = this.root.markers.find(id)
      const at = m && isPoint(m.type) ? parsePoints(m.points) : null
      if (at?.ok && at.parts[0]?.[0]) this.measure.add(at.parts[0][0])
      return
    }
    // The route's own line is not a marker: its card is already shown.
    if (this.route && id === this.route.line.marker.id) return
    const m = this.root.markers.find(id)
    if (m) this.root.markers.showDetail(m)
    else void this.root.markers.openDetail(id)
  }

  /** Tapping a cluster zooms into it, centred on it. */
  tapCluster(c: ClusterItem): void {
    this.goTo(clusterTarget(this.engine, this.index, c))
  }

  /** Moves the map to show everything loaded (zero coordinates ignored). */
  fitData(): boolean {
    return this.goTo(dataTarget(this.engine, this.index))
  }

  private goTo(t: FitTarget | null): boolean {
    if (t) this.moveTo(t.lng, t.lat, t.zoom)
    return !!t
  }

  /**
   * Draws a saved route (one the caller may see) and moves the map to it. An unknown or forbidden
   * route shows the server's message and changes nothing.
   */
  async showRoute(id: number): Promise<boolean> {
    const [route, domain, layout] = await Promise.all([this.root.api.post('/api/route/getbyid', { id }), import('../domain/routes'), import('../domain/titleFrame')])
    if (!route) return false
    const line = domain.routeAsLine(route)
    if (!line) return false
    const lngs = route.stops.map((s) => s.lng)
    const lats = route.stops.map((s) => s.lat)
    const bbox: Shape['bbox'] = [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)]
    const parts = [route.stops.map((s) => ({ lng: s.lng, lat: s.lat }))]
    // /map?route= asks for the route as the page mounts, and the answer can come before the map has
    // reported its size: framing then would ignore the cards and tools. Wait a little for the size.
    if (!this.view) await when(() => this.view !== null, { timeout: ROUTE_VIEW_WAIT_MS }).catch(() => undefined)
    runInAction(() => {
      this.route = {
        id: route.id,
        name: route.name,
        summary: `${domain.formatRouteSummary(route.distance, route.duration)} · ${route.stops.length}个站点`,
        line: { marker: line, parts, holes: [], bbox, dashed: false },
      }
      // Framed as close as it fits between the page's cards and tools, so that its stops stand apart,
      // each stop's pin (above it) and title (below it, centred) clear of them.
      const spots = route.stops.map((s) => {
        const m = s.marker_id != null ? this.root.markers.find(s.marker_id) : undefined
        const title = layout.titleSize(s.name, this.root.layers.titleStyleFor(m?.layer_id ?? null))
        const half = Math.max(ROUTE_PIN_PX, title.width) / 2
        return { lng: s.lng, lat: s.lat, left: half, right: half, top: ROUTE_PIN_PX, bottom: 2 + title.height }
      })
      const t = this.view ? layout.frameSpots(spots, layout.viewSize(this.view), routeCovers(layout.viewSize(this.view))) : fitTarget(bbox)
      this.moveTo(t.lng, t.lat, t.zoom)
    })
    return true
  }

  clearRoute(): void {
    this.route = null
  }

  // ---- drawing ------------------------------------------------------------------------------

  startDrawing(type: MarkerType): void {
    this.measure.stop()
    this.root.markers.closeDetail()
    this.drawing = { type, parts: [[]], radius: 0 }
  }

  cancelDrawing(): void {
    this.drawing = null
  }

  get vertexCount(): number {
    return this.drawing ? this.drawing.parts.reduce((n, p) => n + p.length, 0) : 0
  }

  /** What the drawing bar tells the user to do next. */
  get drawingHint(): string {
    const d = this.drawing
    if (!d) return ''
    const n = d.parts[d.parts.length - 1].length
    return MAP_ENGINE_MSG.drawHint(d.type, n)
  }

  get canFinish(): boolean {
    const d = this.drawing
    if (!d) return false
    if (d.type === MARKER_KIND.multiPolygon) return d.parts.every((p) => p.length >= 3)
    return d.parts[0].length >= MIN_VERTICES[d.type]
  }

  /** A tap on the map: a measure point while measuring, a vertex while drawing, or the new place of the picked vertex while editing. */
  tapMap(p: LngLat): void {
    if (this.measure.active) return this.measure.add(p)
    if (this.editing) {
      // A point moves where the map is tapped: it has one place, nothing to pick first.
      if (isPoint(this.editing.marker.type)) return this.moveVertex(0, 0, p)
      const sel = this.editing.selected
      if (sel) this.moveVertex(sel[0], sel[1], p)
      return
    }
    const d = this.drawing
    if (!d) return
    const parts = d.parts.map((part) => [...part])
    parts[parts.length - 1].push({ lng: p.lng, lat: p.lat })
    let radius = d.radius
    if (d.type === MARKER_KIND.circle && parts[0].length === 2) radius = Math.max(1, Math.round(distanceMeters(parts[0][0], parts[0][1])))
    this.drawing = { ...d, parts, radius }
    const fixed = FIXED_VERTICES[d.type]
    if (fixed && parts[0].length >= fixed) this.finishDrawing()
  }

  /** Removes the last vertex (SPEC: undo of the last vertex); an empty extra part goes with it. */
  undoVertex(): void {
    const d = this.drawing
    if (!d) return
    const parts = d.parts.map((part) => [...part])
    if (parts[parts.length - 1].length === 0 && parts.length > 1) parts.pop()
    parts[parts.length - 1].pop()
    this.drawing = { ...d, parts, radius: d.type === MARKER_KIND.circle ? 0 : d.radius }
  }

  /** Kind 6: start another part once the current one is a polygon. */
  addPart(): boolean {
    const d = this.drawing
    if (!d || d.type !== MARKER_KIND.multiPolygon) return false
    if (d.parts[d.parts.length - 1].length < 3) {
      this.root.app.notify(MAP_ENGINE_MSG.partNeedsThree, 'warning')
      return false
    }
    this.drawing = { ...d, parts: [...d.parts, []] }
    return true
  }

  /** Hands the drawn geometry to /addinfo (MarkerStore.handToForm), where the user names and saves the marker. */
  finishDrawing(): boolean {
    const d = this.drawing
    if (!d) return false
    if (!this.canFinish) {
      this.root.app.notify(MAP_ENGINE_MSG.drawNotEnough(d.type), 'warning')
      return false
    }
    const circle = d.type === MARKER_KIND.circle
    const parts = circle ? [[d.parts[0][0]]] : d.parts.filter((p) => p.length)
    this.root.markers.handToForm({ type: d.type, parts, radius: circle ? d.radius : 0 })
    runInAction(() => {
      this.drawing = null
    })
    // The address says only that the form starts from a drawing (DRAWN_PARAM); a link may still give points itself.
    this.root.navigate(`/addinfo?type=${d.type}&${DRAWN_PARAM}=1`)
    return true
  }

  // ---- editing the geometry of a saved marker ----------------------------------------------

  startEditGeometry(m: Marker): boolean {
    const parsed = parsePoints(m.points)
    if (!parsed.ok) return false
    this.drawing = null
    this.measure.stop()
    this.root.markers.closeDetail()
    this.editing = { marker: m, parts: parsed.parts, holes: parsed.holes, radius: m.radius, selected: null }
    return true
  }

  /** Picks a vertex (tap again to let it go); the next tap on the map moves it there. */
  selectVertex(part: number, vertex: number): void {
    const e = this.editing
    if (!e) return
    const same = e.selected && e.selected[0] === part && e.selected[1] === vertex
    this.editing = { ...e, selected: same ? null : [part, vertex] }
  }

  moveVertex(part: number, vertex: number, p: LngLat): void {
    const e = this.editing
    if (!e || !e.parts[part]?.[vertex]) return
    const parts = e.parts.map((ring, i) => (i === part ? ring.map((v, j) => (j === vertex ? { lng: p.lng, lat: p.lat } : v)) : ring))
    this.editing = { ...e, parts, selected: null }
  }

  /** What the map draws for the marker being edited (one object while nothing changes). */
  get editGeometry(): { type: MarkerType; parts: LngLat[][]; radius: number; selected: [number, number] | null; markerId: number } | null {
    const e = this.editing
    return e ? { type: e.marker.type, parts: e.parts, radius: e.radius, selected: e.selected, markerId: e.marker.id } : null
  }

  get editingHint(): string {
    const e = this.editing
    if (!e) return ''
    if (isPoint(e.marker.type)) return MAP_ENGINE_MSG.editPointHint
    return e.selected ? MAP_ENGINE_MSG.editTapTarget : MAP_ENGINE_MSG.editHint
  }

  cancelEditGeometry(): void {
    const m = this.editing?.marker
    this.editing = null
    if (m) this.root.markers.showDetail(m)
  }

  /** Saves the moved vertices through the map-data call; the marker's other data stay as they are. */
  async saveGeometry(): Promise<boolean> {
    const e = this.editing
    if (!e || this.savingGeometry) return false
    const points = serializePoints(e.parts, e.holes)
    const problem = checkGeometry(e.marker.type, points, e.radius)
    if (problem) {
      this.root.app.notify(problem, 'warning')
      return false
    }
    this.savingGeometry = true
    const saved = await this.root.markers.save({ ...e.marker, points, radius: e.radius }, e.marker)
    runInAction(() => {
      this.savingGeometry = false
      if (!saved) return
      this.editing = null
      this.root.markers.showDetail(saved)
    })
    return !!saved
  }

  reset(): void {
    this.drawList = EMPTY
    this.showMembers = false
    this.members = []
    this.editing = null
    this.drawing = null
    this.measure.stop()
    this.heatmap = false
    this.route = null
    this.shapesDrawn()
  }

  dispose(): void {
    for (const d of this.disposers) d()
    this.shapesDrawn()
  }
}
