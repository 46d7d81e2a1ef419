/**
 * The keyless H5 renderer: Leaflet over the tiles chosen on the device (OSM by default, AMap's, or
 * none: a plain background, also where tiles cannot be reached). Stored GCJ-02 is converted to
 * WGS-84 for display and back for the view and taps (setTiles: AMap's grid undoes it).
 * Updates are incremental: layers are kept by key and only what changed is added or removed, and
 * up to 300 lines/areas are SVG layers added in batches across animation frames; more than that go
 * on one canvas drawn in slices (canvasLayer.ts). Plain point markers (at most 200, with icons and
 * titles), the titles of lines and areas and cluster badges when more than 60 are in view are a canvas
 * drawing of their own, the selected and pending points elements (pointLayer.ts).
 */
import type * as Leaflet from 'leaflet'
import { gcj02ToWgs84, wgs84ToGcj02, type LngLat } from '../../domain/geo'
import { rectangleCorners } from '../../domain/points'
import type { ClusterItem, DrawList, Shape } from '../../domain/mapDraw'
import type { MemberLocation } from '../../../types/entities'
import type { Marker } from '../../../types/mapdata'
import { createCanvasLayer, shapeStyle, type CanvasLayer } from './canvasLayer'
import { clusterMarkup, clusterSize, heatColor, memberMarkup, pointMarkup, pointOf, selfMarkup, titleCss, titleLook, type TitleStyleOf } from './markup'
import { createPointLayer, type PointItem, type PointLayer, type ScreenBox } from './pointLayer'
import type { BadgeItem } from './pointSprites'
import type { Basemap, DraftGeometry, EditGeometry, MapViewProps } from './types'
import type { TileSource } from '../../domain/tileSources'
import { MARKER_KIND, isArea, isLine, isPoint } from '../../domain/markerKinds'
import { placeLabels, type LabelBox } from '../../domain/labelLayout'
import { shapeLabelPoint } from '../../domain/labelPoint'
import { nextTask } from '../tasks/nextTask'

type L = typeof Leaflet

/**
 * Lines/areas added as SVG per animation frame (up to SVG_SHAPES_MAX in view): 150 at once were 50-80 ms of the
 * task after a pan on a 4x-throttled phone profile, the first batch inside the page's own update.
 */
const SHAPE_BATCH = 50
/** Shape titles are drawn only while few shapes are in view (labels for thousands would bury the map). */
const SHAPE_TITLES_MAX = 150
/** Above this many lines/areas in view they go on one canvas instead of one SVG element each (see canvasLayer.ts). */
const SVG_SHAPES_MAX = 300
/** Above this many cluster badges in view they are drawn with the points instead of one element each. */
export const DOM_CLUSTERS_MAX = 60

export type EngineCallbacks = Pick<MapViewProps, 'onViewChange' | 'onMarkerTap' | 'onClusterTap' | 'onMapTap' | 'onShapesDrawn' | 'onVertexMove' | 'onVertexTap' | 'onBasemapError' | 'tapsToMap'>

export class LeafletEngine {
  private readonly map: Leaflet.Map
  private readonly items = new Map<string, Leaflet.Layer>()
  private readonly draftLayer: Leaflet.LayerGroup
  private readonly editLayer: Leaflet.LayerGroup
  private readonly points: PointLayer
  private readonly crowd: CanvasLayer
  private clusters = new Map<string, ClusterItem>()
  private pointItems: PointItem[] = []
  private memberItems: PointItem[] = []
  private selfItems: PointItem[] = []
  private tiles: Leaflet.TileLayer | null = null
  /** map_style bg: off hides whatever tiles the source gives. */
  private tilesShown = true
  private shapeJob = 0
  /** The latest render's lines and areas for the canvas (an earlier one's, still waiting for its task, is dropped). */
  private crowdJob = 0
  private lastTargetSeq = -1
  private declutterFrame = 0
  /** Lines' and areas' titles, drawn by the point layer (pointLayer.ts) at each shape's label point. */
  private labelItems: PointItem[] = []
  /** Each shape's title item as last drawn, by the marker object (as pointCache). */
  private readonly labelCache = new WeakMap<Marker, { css: string; item: PointItem }>()
  /** Each point marker's item as last drawn, by the marker object (markers are replaced, not changed, when edited). */
  private readonly pointCache = new WeakMap<Marker, { selected: boolean; css: string | null; item: PointItem }>()
  private started = false
  /** The view the map opens at (attach sets it). */
  private readonly firstView: { center: LngLat; zoom: number }
  /** The point whose own pin is being dragged elsewhere: its pin at the old place is left out meanwhile. */
  private movingPointId: number | null = null

  constructor(
    private readonly L: L,
    el: HTMLElement,
    center: LngLat,
    zoom: number,
    tiles: TileSource,
    private readonly cb: () => EngineCallbacks,
  ) {
    // Leaflet's default control carries its own prefix (a link and a flag): only the data's attribution shows.
    // Tiles show as they arrive, without Leaflet's fade: the fade restyles every arriving tile on each
    // frame for a fifth of a second, work a slow phone does in the very frames of a pan or a first load.
    this.map = L.map(el, { zoomControl: false, attributionControl: false, fadeAnimation: false, crs: tiles.gcj02 ? gcj02Crs(L) : L.CRS.EPSG3857 })
    this.firstView = { center, zoom }
    this.draftLayer = L.layerGroup().addTo(this.map)
    this.editLayer = L.layerGroup().addTo(this.map)
    this.points = createPointLayer(L, () => ({
      onMarker: (id) => this.cb().onMarkerTap?.(id),
      onCluster: (key) => {
        const c = this.clusters.get(key)
        if (c) this.cb().onClusterTap?.(c)
      },
    }))
    this.crowd = createCanvasLayer(L, () => ({
      onShape: (id) => this.cb().onMarkerTap?.(id),
      onShapesDrawn: () => this.cb().onShapesDrawn?.(),
    }))
    this.map.on('moveend', () => this.reportView())
    // Titles move apart or together with the zoom: which of them show is decided again once the view settles.
    this.map.on('zoomend moveend', () => this.scheduleDeclutter())
    this.map.on('click', (e: Leaflet.LeafletMouseEvent) => this.cb().onMapTap?.(wgs84ToGcj02({ lng: e.latlng.lng, lat: e.latlng.lat })))
    // The click that ends a drag of the map is dropped here, by Leaflet's own rule (nothing takes a
    // click while the map's drag has moved, except the elements that handle their own clicks: the
    // pins, the controls). Leaflet drops it too, but only after copying the whole MouseEvent for its
    // 'preclick', which reads offsetX and the like and so lays the page out again at every drag's end.
    const map = this.map as Leaflet.Map & { dragging?: { moved?: () => boolean }; _isClickDisabled?: (el: HTMLElement) => boolean }
    el.addEventListener(
      'click',
      (e) => {
        if (map.dragging?.moved?.() && !map._isClickDisabled?.(e.target as HTMLElement)) return e.stopPropagation()
        // Measuring: the tap is a place wherever it lands, on a pin, a badge or a shape too; only the controls keep theirs.
        if (this.cb().tapsToMap && !(e.target as HTMLElement).closest('.leaflet-control-container')) {
          e.stopImmediatePropagation()
          const at = this.map.mouseEventToLatLng(e)
          return this.cb().onMapTap?.(wgs84ToGcj02({ lng: at.lng, lat: at.lat }))
        }
        // Plain points and crowded badges are a drawing over the tiles and shapes, under every element that takes its own taps
        // (pins shown as elements, badges, edit handles, controls): a tap on the map anywhere else may be on one of them.
        if ((e.target as HTMLElement).closest('.map-points__item, .leaflet-marker-icon, .leaflet-control-container, .leaflet-popup')) return
        const hit = this.points.hit(this.map.mouseEventToContainerPoint(e))
        if (!hit) return
        // Immediate: the shapes' canvas listens on this element too, and would take the tap for a shape under the drawing.
        e.stopImmediatePropagation()
        if ('marker' in hit) return this.cb().onMarkerTap?.(hit.marker)
        const c = this.clusters.get(hit.cluster)
        if (c) this.cb().onClusterTap?.(c)
      },
      true,
    )
  }

  /**
   * The map's first view, its tiles, its own layers and its controls, each step in a task of its own after the map is made (the
   * page's taps and frames go between them): together they were one task of a fifth of a second on a slow phone.
   */
  async attach(tiles: TileSource): Promise<void> {
    // Setting the view reads the map's size: a layout of the page just drawn.
    const wgs = gcj02ToWgs84(this.firstView.center)
    this.map.setView([wgs.lat, wgs.lng], this.firstView.zoom)
    await nextTask()
    // The controls: made with the map, they took up to half of its making's task on a slow phone.
    // Before the tiles: Leaflet's attribution control takes a layer's attribution off again only for
    // the layers added after it, so a tile source switched away from would stay credited.
    // It shows the current tile layer's attribution (none without tiles: the stylesheet hides it empty).
    this.L.control.attribution({ prefix: false }).addTo(this.map)
    this.L.control.zoom({ position: 'bottomright' }).addTo(this.map)
    await nextTask()
    this.setTiles(tiles)
    await nextTask()
    this.crowd.addTo(this.map)
    await nextTask()
    this.points.addTo(this.map)
  }

  /** The keyless map can hide its tiles (map_style bg off): the plain background shows instead. */
  setBasemap(b: Basemap | undefined): void {
    this.tilesShown = b?.bg !== false
    if (!this.tiles) return
    if (this.tilesShown && !this.map.hasLayer(this.tiles)) this.tiles.addTo(this.map)
    if (!this.tilesShown && this.map.hasLayer(this.tiles)) this.tiles.remove()
  }

  /**
   * Another tile source, in place (the view stays where it is). Every layer here is placed in
   * WGS-84 (this file and the canvas convert stored GCJ-02 at their edge); for tiles on AMap's
   * GCJ-02 grid the map's projection shifts back to GCJ-02 before Web Mercator, so a stored point
   * lands on the tile pixel AMap gives it, unshifted.
   */
  setTiles(source: TileSource): void {
    const L = this.L
    const crs = source.gcj02 ? gcj02Crs(L) : L.CRS.EPSG3857
    if (this.map.options.crs !== crs) {
      const center = this.map.getCenter()
      this.map.options.crs = crs
      // reset: placed anew under the new projection, not animated from the old one (an option @types/leaflet lacks).
      this.map.setView(center, this.map.getZoom(), { reset: true } as Leaflet.ZoomPanOptions)
    }
    this.tiles?.remove()
    this.tiles = source.url ? L.tileLayer(source.url, { maxZoom: 20, maxNativeZoom: source.maxNativeZoom, subdomains: source.subdomains, attribution: source.attribution }) : null
    // Tiles are often unreachable (OpenStreetMap from China, no signal): say so once per source, not per tile.
    this.tiles?.once('tileerror', () => this.cb().onBasemapError?.())
    if (this.tiles && this.tilesShown) this.tiles.addTo(this.map)
  }

  /** The first view, once the page listens. */
  start(): void {
    this.started = true
    this.reportView()
  }

  private reportView(): void {
    // The page hears of views from the first one on (attach's setting of it is no move of the user's).
    if (!this.started) return
    const b = this.map.getBounds()
    const sw = wgs84ToGcj02({ lng: b.getWest(), lat: b.getSouth() })
    const ne = wgs84ToGcj02({ lng: b.getEast(), lat: b.getNorth() })
    this.cb().onViewChange?.({ west: sw.lng, south: sw.lat, east: ne.lng, north: ne.lat, zoom: this.map.getZoom() })
  }

  moveTo(target: { lng: number; lat: number; zoom: number; seq: number }): void {
    if (target.seq === this.lastTargetSeq) return
    this.lastTargetSeq = target.seq
    const wgs = gcj02ToWgs84(target)
    this.map.setView([wgs.lat, wgs.lng], target.zoom)
  }

  private ll(p: LngLat): Leaflet.LatLngExpression {
    const w = gcj02ToWgs84(p)
    return [w.lat, w.lng]
  }

  /** Draws a new list: removes what left, adds what came; unchanged items stay as they are. */
  render(list: DrawList, selectedId: number | null, titleStyleOf: TitleStyleOf | undefined): void {
    const L = this.L
    const wanted = new Map<string, () => Leaflet.Layer>()
    const items: PointItem[] = []
    this.clusters = new Map(list.clusters.map((c) => [c.key, c]))
    const drawnClusters = list.clusters.length > DOM_CLUSTERS_MAX
    if (!drawnClusters) for (const c of list.clusters) items.push(clusterItem(c))
    // Before the points: their drawing, asked for by showPoints, has the badges too, and the titles' layout makes room for them.
    this.points.setBadges(drawnClusters ? list.clusters.map(badgeItem) : [])
    // One title style per layer per draw (the page's lookup reads the layer store for every call).
    const styles = new Map<number, ReturnType<TitleStyleOf>>()
    const styleOf: TitleStyleOf | undefined = titleStyleOf && ((id) => styles.get(id) ?? styles.set(id, titleStyleOf(id)).get(id)!)
    const cssOf = new Map<number, string | null>()
    for (const m of list.points) {
      // A marker is a new object when it changes: its item is made again only then, or when its selection or title style did.
      const selected = m.id === selectedId
      let css = cssOf.get(m.layer_id)
      if (css === undefined) cssOf.set(m.layer_id, (css = styleOf ? titleCss(styleOf(m.layer_id)) : null))
      const seen = this.pointCache.get(m)
      if (seen && seen.selected === selected && seen.css === css) items.push(seen.item)
      else {
        const item = pointItem(m, selected, styleOf)
        this.pointCache.set(m, { selected, css, item })
        items.push(item)
      }
    }
    this.pointItems = items
    const titles = list.shapes.length <= SHAPE_TITLES_MAX
    const onCanvas = list.shapes.length > SVG_SHAPES_MAX
    const labels: PointItem[] = []
    if (titles && styleOf)
      for (const s of list.shapes) {
        const layer = s.marker.layer_id
        let css = cssOf.get(layer)
        if (css === undefined) cssOf.set(layer, (css = titleCss(styleOf(layer))))
        const seen = this.labelCache.get(s.marker)
        if (seen && seen.css === css) labels.push(seen.item)
        else {
          const item = shapeTitleItem(s, styleOf(layer))
          this.labelCache.set(s.marker, { css: css!, item })
          labels.push(item)
        }
      }
    this.labelItems = labels
    this.showPoints()
    if (list.heat)
      for (const h of list.heat)
        wanted.set(`h:${h.lng.toFixed(6)},${h.lat.toFixed(6)}:${h.count}`, () =>
          L.circleMarker(this.ll(h), { radius: 25, stroke: false, fillColor: heatColor(h.opacity), fillOpacity: h.opacity, interactive: false, className: 'map-heat' }),
        )
    // The canvas's shapes are projected in a task after this one: on a large map's first view, making the points'
    // items, a few hundred badges' and projecting a few thousand lines and areas took 50-60 ms in one task at 4x throttling.
    const crowdJob = ++this.crowdJob
    const canvasShapes = onCanvas ? list.shapes : []
    void nextTask().then(() => {
      if (crowdJob !== this.crowdJob) return
      this.crowd.setShapes(canvasShapes, selectedId)
    })
    const shapeKeys: [string, Shape][] = []
    if (!onCanvas) for (const s of list.shapes) shapeKeys.push([`s:${s.marker.id}:${s.marker.updated_at}:${s.marker.id === selectedId ? 1 : 0}`, s])

    const keep = new Set<string>([...wanted.keys(), ...shapeKeys.map(([k]) => k)])
    for (const [key, layer] of this.items) {
      if (!keep.has(key)) {
        layer.remove()
        this.items.delete(key)
      }
    }
    for (const [key, make] of wanted) {
      if (!this.items.has(key)) this.items.set(key, make().addTo(this.map))
    }
    const missing = shapeKeys.filter(([key]) => !this.items.has(key))
    const job = ++this.shapeJob
    const addBatch = (from: number) => {
      if (job !== this.shapeJob) return
      for (const [key, s] of missing.slice(from, from + SHAPE_BATCH)) {
        if (this.items.has(key)) continue
        const layer = this.shapeLayer(s, s.marker.id === selectedId).addTo(this.map)
        this.items.set(key, layer)
      }
      if (from + SHAPE_BATCH < missing.length) requestAnimationFrame(() => addBatch(from + SHAPE_BATCH))
      else if (!onCanvas) this.cb().onShapesDrawn?.()
    }
    addBatch(0)
  }

  /** One title layout per frame, however many draws and moves asked for it. */
  private scheduleDeclutter(): void {
    if (this.declutterFrame) return
    this.declutterFrame = requestAnimationFrame(() => {
      this.declutterFrame = 0
      this.declutter()
    })
  }

  /**
   * Titles that would cover each other or a cluster badge: the selected marker's shows first, then points', then lines'
   * and areas' in the draw list's order (a route's line comes last: its card names it too); a title
   * that would overlap one shown is hidden until the view leaves it room. Pins and shapes stay drawn.
   * Boxes come from the map's projection and each title's size (an element's read from the page once, a drawn
   * one's measured on the canvas): reading every title's box after the view moved would lay the page out again.
   */
  private declutter(): void {
    const boxes: LabelBox[] = []
    // Fields copied one by one: the H5 build turns an object spread into a helper call per title (about 50 ms over the bench's pans at 4x throttling).
    const add = (box: ScreenBox, rank: number) => boxes.push({ key: String(boxes.length), left: box.left, top: box.top, width: box.width, height: box.height, rank })
    const points = this.points.titles()
    for (const t of points) add(t.box, t.shape ? 1 : t.selected ? 3 : 2)
    // Cluster badges always show, above every title: a title that would run under one gives way.
    this.points.badges().forEach((b, i) => boxes.push({ key: `badge:${i}`, left: b.left, top: b.top, width: b.width, height: b.height, rank: 4 }))
    const shown = placeLabels(boxes)
    points.forEach((t, i) => this.points.showTitle(t, shown.has(String(i))))
  }

  private shapeLayer(s: Shape, selected: boolean): Leaflet.Layer {
    const L = this.L
    const m = s.marker
    // The same style as on the canvas.
    const st = shapeStyle(s, selected)
    const options: Leaflet.PathOptions = {
      color: st.color,
      weight: st.weight,
      dashArray: st.dash ? st.dash.join(' ') : undefined,
      fillColor: st.fillColor,
      fillOpacity: st.fillOpacity,
      opacity: st.opacity,
      className: `map-shape map-shape--${m.type}`,
    }
    let layer: Leaflet.Path
    if (isLine(m.type))
      layer = L.polyline(
        s.parts[0].map((p) => this.ll(p)),
        options,
      )
    else if (m.type === MARKER_KIND.circle) layer = L.circle(this.ll(s.parts[0][0]), { ...options, radius: m.radius })
    else if (m.type === MARKER_KIND.rectangle) {
      const [a, b] = s.parts[0]
      layer = L.polygon(
        rectangleCorners(a, b).map((p) => this.ll(p)),
        options,
      )
    } else {
      // A part is its outer ring then its holes, which Leaflet cuts out of the fill.
      const rings = (i: number) => [s.parts[i], ...(s.holes?.[i] ?? [])].map((ring) => ring.map((p) => this.ll(p)))
      layer = m.type === MARKER_KIND.multiPolygon ? L.polygon(s.parts.map((_, i) => rings(i)) as Leaflet.LatLngExpression[][][], options) : L.polygon(rings(0), options)
    }
    layer.on('click', (e: Leaflet.LeafletMouseEvent) => {
      L.DomEvent.stopPropagation(e)
      this.cb().onMarkerTap?.(m.id)
    })
    return layer
  }

  /** The marker being drawn: its lines or outline dashed, and a dot per vertex. */
  renderDraft(draft: DraftGeometry | null | undefined): void {
    const L = this.L
    this.draftLayer.clearLayers()
    if (!draft) return
    const style = { color: '#F53F3F', weight: 3, dashArray: '6 6', fillOpacity: 0.1, interactive: false }
    for (const part of draft.parts) {
      if (!part.length) continue
      const latlngs = part.map((p) => this.ll(p))
      if (draft.type === MARKER_KIND.circle) {
        if (draft.radius > 0) L.circle(latlngs[0], { ...style, radius: draft.radius }).addTo(this.draftLayer)
      } else if (draft.type === MARKER_KIND.rectangle && part.length === 2) {
        const [a, b] = part
        L.polygon(
          rectangleCorners(a, b).map((p) => this.ll(p)),
          style,
        ).addTo(this.draftLayer)
      } else if (isArea(draft.type) && part.length >= 3) L.polygon(latlngs, style).addTo(this.draftLayer)
      else if (part.length >= 2) L.polyline(latlngs, style).addTo(this.draftLayer)
      for (const v of latlngs)
        L.circleMarker(v, { radius: 6, color: '#fff', weight: 2, fillColor: '#F53F3F', fillOpacity: 1, interactive: false, className: 'map-draft-vertex' }).addTo(this.draftLayer)
    }
  }

  /** Members' last positions: a round badge with the name's first character, the name and the time. */
  renderMembers(members: MemberLocation[] | undefined): void {
    this.memberItems = (members ?? []).map((m) => {
      const wgs = gcj02ToWgs84(m)
      return { ...memberMarkup(m), lat: wgs.lat, lng: wgs.lng }
    })
    this.showPoints()
  }

  /** Points, members and the user's own position on the point layer, then their titles laid out again. */
  private showPoints(): void {
    const moving = this.movingPointId === null ? null : `p:${this.movingPointId}:`
    const points = moving ? this.pointItems.filter((it) => !it.key.startsWith(moving)) : this.pointItems
    // The title layout's frame is asked for first: it runs before the point layer's drawing in that frame, which
    // then draws the titles it shows once (the other way round, the layout's changes were drawn a frame later again).
    this.scheduleDeclutter()
    this.points.setItems([...this.labelItems, ...points, ...this.memberItems, ...this.selfItems])
  }

  renderSelf(p: LngLat | null | undefined): void {
    this.selfItems = p ? [{ ...selfMarkup(p), ...latLngOf(p) }] : []
    this.showPoints()
  }

  /** The marker being edited: its outline and a handle per vertex, dragged or tapped. */
  renderEditing(editing: EditGeometry | null | undefined): void {
    const L = this.L
    this.editLayer.clearLayers()
    const moving = editing && isPoint(editing.type) ? (editing.markerId ?? null) : null
    if (moving !== this.movingPointId) {
      this.movingPointId = moving
      this.showPoints()
    }
    if (!editing) return
    if (isPoint(editing.type)) return this.renderMovingPin(editing)
    const style = { color: '#FF7D00', weight: 3, fillOpacity: 0.15, interactive: false }
    const rings = editing.parts.map((part) => part.map((p) => this.ll(p)))
    if (editing.type === MARKER_KIND.circle) L.circle(rings[0][0], { ...style, radius: editing.radius }).addTo(this.editLayer)
    else if (editing.type === MARKER_KIND.rectangle) {
      const [a, b] = editing.parts[0]
      L.polygon(
        rectangleCorners(a, b).map((p) => this.ll(p)),
        style,
      ).addTo(this.editLayer)
    } else if (isArea(editing.type)) L.polygon(rings as Leaflet.LatLngExpression[][], style).addTo(this.editLayer)
    else if (!isPoint(editing.type)) L.polyline(rings[0], style).addTo(this.editLayer)
    editing.parts.forEach((part, pi) =>
      part.forEach((_, vi) => {
        const selected = editing.selected?.[0] === pi && editing.selected?.[1] === vi
        const icon = L.divIcon({ className: `map-vertex${selected ? ' map-vertex--selected' : ''}`, html: `<div data-vertex="${pi}-${vi}"></div>`, iconSize: [22, 22] })
        const handle = L.marker(rings[pi][vi], { icon, draggable: true, keyboard: false, zIndexOffset: 2000 })
        handle.on('dragend', () => {
          const ll = handle.getLatLng()
          this.cb().onVertexMove?.(pi, vi, wgs84ToGcj02({ lng: ll.lng, lat: ll.lat }))
        })
        handle.on('click', () => this.cb().onVertexTap?.(pi, vi))
        handle.addTo(this.editLayer)
      }),
    )
  }

  /**
   * A point being moved is its own pin, dragged where it should go: a large target (48 px) with the
   * pin's tip on the place, instead of a vertex handle; a tap on the map puts it there too (the store).
   */
  private renderMovingPin(editing: EditGeometry): void {
    const L = this.L
    const at = editing.parts[0]?.[0]
    if (!at) return
    const icon = L.divIcon({ className: 'map-moving-pin', html: '<div class="map-moving-pin__pin"></div>', iconSize: [48, 56], iconAnchor: [24, 50] })
    const pin = L.marker(this.ll(at), { icon, draggable: true, keyboard: false, zIndexOffset: 2000 })
    pin.on('dragend', () => {
      const ll = pin.getLatLng()
      this.cb().onVertexMove?.(0, 0, wgs84ToGcj02({ lng: ll.lng, lat: ll.lat }))
    })
    pin.addTo(this.editLayer)
  }

  destroy(): void {
    this.shapeJob++
    this.crowdJob++
    cancelAnimationFrame(this.declutterFrame)
    this.map.remove()
  }
}

let gcj02: Leaflet.CRS | null = null
/** Web Mercator over GCJ-02: WGS-84 positions are put on AMap's tile grid (one instance, so that a switch compares it). */
function gcj02Crs(L: L): Leaflet.CRS {
  if (gcj02) return gcj02
  const mercator = L.Projection.SphericalMercator
  const projection: Leaflet.Projection = {
    bounds: mercator.bounds,
    project: (ll) => {
      const g = wgs84ToGcj02({ lng: ll.lng, lat: ll.lat })
      return mercator.project(L.latLng(g.lat, g.lng))
    },
    unproject: (p) => {
      const g = mercator.unproject(p)
      const w = gcj02ToWgs84({ lng: g.lng, lat: g.lat })
      return L.latLng(w.lat, w.lng)
    },
  }
  return (gcj02 = L.Util.extend({}, L.CRS.EPSG3857, { projection }))
}

function latLngOf(p: LngLat): { lat: number; lng: number } {
  const wgs = gcj02ToWgs84(p)
  return { lat: wgs.lat, lng: wgs.lng }
}

function clusterItem(c: ClusterItem): PointItem {
  const wgs = gcj02ToWgs84(c)
  return { ...clusterMarkup(c), lat: wgs.lat, lng: wgs.lng }
}

/**
 * A line's or area's title in its layer's title style, drawn by the point layer at the shape's label point: on the
 * filled part of an area (its centroid may lie outside a C-shaped area, in a ring-shaped one's hole).
 */
function shapeTitleItem(s: Shape, style: ReturnType<TitleStyleOf>): PointItem {
  const m = s.marker
  const at = gcj02ToWgs84(shapeLabelPoint(m.type, s.parts, s.holes))
  return {
    key: `l:${m.id}:${m.updated_at}:${titleCss(style)}`,
    lat: at.lat,
    lng: at.lng,
    html: '',
    anchorX: 0,
    anchorY: 0,
    markerId: m.id,
    sprite: { label: true, size: 0, title: titleLook(style, m.name) },
  }
}

function badgeItem(c: ClusterItem): BadgeItem {
  const wgs = gcj02ToWgs84(c)
  return { key: c.key, lat: wgs.lat, lng: wgs.lng, size: clusterSize(c.count), label: c.label }
}

function pointItem(m: Marker, selected: boolean, titleStyleOf: TitleStyleOf | undefined): PointItem {
  const wgs = gcj02ToWgs84(pointOf(m))
  // Field by field, not a spread: the H5 build makes a spread a helper call, here one per new point in view.
  const item: PointItem = pointMarkup(m, selected, titleStyleOf) as PointItem
  item.lat = wgs.lat
  item.lng = wgs.lng
  return item
}
