/**
 * The H5 renderer with an AMap key: AMap JS API 2.0 (GCJ-02 natively, so no conversion). It draws
 * the same draw list as the keyless renderer: point markers, cluster badges and members as HTML
 * markers (the same markup), lines and areas as AMap overlays, the heatmap through Loca when it
 * was loaded (circles otherwise), the drawing and the vertex handles of an edited marker. Updates
 * are incremental by key, as WeChat's and Leaflet's are.
 */
import type { LngLat } from '../../domain/geo'
import { rectangleCorners } from '../../domain/points'
import type { DrawList, Shape } from '../../domain/mapDraw'
import { drawnStyle } from '../../domain/pendingLook'
import { clusterMarkup, heatColor, memberMarkup, pointMarkup, pointOf, selfMarkup, titleCss, type Markup, type TitleStyleOf } from './markup'
import { shapeLabelPoint } from '../../domain/labelPoint'
import { placeLabels, type LabelBox } from '../../domain/labelLayout'
import { titleSize, type TitleMetrics } from '../../domain/titleFrame'
import type { MemberLocation } from '../../../types/entities'
import type { Basemap, DraftGeometry, EditGeometry, MapViewProps } from './types'
import { MARKER_KIND, isArea, isLine, isPoint } from '../../domain/markerKinds'

type AMapNS = any
export type AmapCallbacks = Pick<MapViewProps, 'onViewChange' | 'onMarkerTap' | 'onClusterTap' | 'onMapTap' | 'onShapesDrawn' | 'onVertexMove' | 'onVertexTap' | 'tapsToMap'>

const SHAPE_TITLES_MAX = 150
const path = (part: LngLat[]) => part.map((p) => [p.lng, p.lat])

export class AmapEngine {
  private readonly items = new Map<string, any>()
  private draftOverlays: any[] = []
  private editOverlays: any[] = []
  private memberOverlays = new Map<string, any>()
  private heat: any = null
  private selfOverlay: any = null
  private lastTargetSeq = -1
  /** The point whose own pin is being dragged elsewhere (its pin at the old place is left out), and the last draw to redo then. */
  private movingPointId: number | null = null
  private lastRender: Parameters<AmapEngine['render']> | null = null
  private readonly baseLayers: Record<'satellite' | 'roadnet' | 'traffic', any> = { satellite: null, roadnet: null, traffic: null }

  constructor(
    private readonly AMap: AMapNS,
    private readonly map: any,
    private readonly cb: () => AmapCallbacks,
    /** Loca (the heatmap layer) when it was loaded with the map; circles stand in otherwise. */
    private readonly Loca?: any,
  ) {
    map.on('moveend', () => this.reportView())
    map.on('zoomend', () => this.reportView())
    map.on('click', (e: any) => this.cb().onMapTap?.({ lng: e.lnglat.getLng(), lat: e.lnglat.getLat() }))
  }

  /** Satellite, road-net and traffic layers over the map, and its style elements (SPEC 3 map_style). */
  setBasemap(b: Basemap | undefined): void {
    if (!b) return
    const make = { satellite: () => new this.AMap.TileLayer.Satellite(), roadnet: () => new this.AMap.TileLayer.RoadNet(), traffic: () => new this.AMap.TileLayer.Traffic() }
    for (const k of ['satellite', 'roadnet', 'traffic'] as const) {
      if (b[k] && !this.baseLayers[k]) {
        this.baseLayers[k] = make[k]()
        this.map.add(this.baseLayers[k])
      } else if (!b[k] && this.baseLayers[k]) {
        this.map.remove(this.baseLayers[k])
        this.baseLayers[k] = null
      }
    }
    const features = [b.bg && 'bg', b.road && 'road', b.building && 'building', b.poi && 'point'].filter(Boolean)
    this.map.setFeatures?.(features)
  }

  start(): void {
    this.reportView()
  }

  private reportView(): void {
    const b = this.map.getBounds()
    const sw = b.getSouthWest()
    const ne = b.getNorthEast()
    this.cb().onViewChange?.({ west: sw.getLng(), south: sw.getLat(), east: ne.getLng(), north: ne.getLat(), zoom: this.map.getZoom() })
  }

  moveTo(target: { lng: number; lat: number; zoom: number; seq: number }): void {
    if (target.seq === this.lastTargetSeq) return
    this.lastTargetSeq = target.seq
    this.map.setZoomAndCenter(target.zoom, [target.lng, target.lat])
  }

  private htmlMarker(m: Markup, at: LngLat, onClick?: () => void): any {
    const marker = new this.AMap.Marker({ position: [at.lng, at.lat], content: m.html, offset: new this.AMap.Pixel(-m.anchorX, -m.anchorY), zIndex: 100 + (m.zIndex ?? 0), anchor: 'top-left' })
    if (onClick) marker.on('click', onClick)
    return marker
  }

  render(list: DrawList, selectedId: number | null, titleStyleOf: TitleStyleOf | undefined): void {
    this.lastRender = [list, selectedId, titleStyleOf]
    const wanted = new Map<string, () => any>()
    for (const c of list.clusters) {
      const m = clusterMarkup(c)
      wanted.set(m.key, () => this.htmlMarker(m, c, () => this.cb().onClusterTap?.(c)))
    }
    const titles = list.shapes.length <= SHAPE_TITLES_MAX
    const hidden = this.hiddenTitles(list, selectedId, titleStyleOf, titles)
    for (const p of list.points) {
      if (p.id === this.movingPointId) continue
      const m = pointMarkup(p, p.id === selectedId, hidden.has(`p:${p.id}`) ? undefined : titleStyleOf)
      wanted.set(m.key, () => this.htmlMarker(m, pointOf(p), () => this.cb().onMarkerTap?.(p.id)))
    }
    for (const s of list.shapes) {
      // A line's or area's title takes its layer's title style, as a point's does (SPEC: 14 px by default).
      const title = titles && !hidden.has(`s:${s.marker.id}`) ? (titleStyleOf ? titleCss(titleStyleOf(s.marker.layer_id)) : DEFAULT_TITLE_CSS) : null
      const key = `s:${s.marker.id}:${s.marker.updated_at}:${s.marker.id === selectedId ? 1 : 0}:${title ?? ''}`
      wanted.set(key, () => this.shapeOverlay(s, s.marker.id === selectedId, title))
    }
    for (const [key, overlay] of this.items) {
      if (!wanted.has(key)) {
        this.map.remove(overlay)
        this.items.delete(key)
      }
    }
    const added: any[] = []
    for (const [key, make] of wanted) {
      if (this.items.has(key)) continue
      const overlay = make()
      this.items.set(key, overlay)
      added.push(...(Array.isArray(overlay) ? overlay : [overlay]))
    }
    if (added.length) this.map.add(added)
    this.renderHeat(list)
    this.cb().onShapesDrawn?.()
  }

  /**
   * The titles that would cover a higher-ranked one or a cluster badge, by the keyless map's rule
   * (src/domain/labelLayout.ts): cluster badges first, then the selected marker's title, points',
   * lines' and areas'. Boxes are sized from the titles' text and style where AMap puts them (a
   * point's under its pin, a shape's centred on its label point); the draw after each move lays them
   * out again, and a title that gives way is drawn without it until there is room.
   */
  private hiddenTitles(list: DrawList, selectedId: number | null, titleStyleOf: TitleStyleOf | undefined, shapeTitles: boolean): Set<string> {
    if (!this.map.lngLatToContainer) return new Set()
    const at = (p: LngLat) => {
      const px = this.map.lngLatToContainer([p.lng, p.lat])
      return { x: px.x ?? px.getX(), y: px.y ?? px.getY() }
    }
    const boxes: LabelBox[] = []
    for (const c of list.clusters) {
      const m = clusterMarkup(c)
      const p = at(c)
      boxes.push({ key: `c:${c.key}`, left: p.x - m.anchorX, top: p.y - m.anchorY, width: 2 * m.anchorX, height: 2 * m.anchorY, rank: 4 })
    }
    if (titleStyleOf) {
      for (const pt of list.points) {
        if (pt.id === this.movingPointId) continue
        // The pin's body is 2 x anchorX square, its top anchorY above the point; the title sits 2 px under it, centred.
        const m = pointMarkup(pt, pt.id === selectedId, undefined)
        const size = titleSize(pt.name, titleStyleOf(pt.layer_id))
        const p = at(pointOf(pt))
        boxes.push({ key: `p:${pt.id}`, left: p.x - size.width / 2, top: p.y - m.anchorY + 2 * m.anchorX + 2, ...size, rank: pt.id === selectedId ? 3 : 2 })
      }
    }
    if (shapeTitles) {
      for (const s of list.shapes) {
        const size = titleSize(s.marker.name, titleStyleOf ? titleStyleOf(s.marker.layer_id) : DEFAULT_TITLE_METRICS)
        const p = at(shapeLabelPoint(s.marker.type, s.parts, s.holes))
        boxes.push({ key: `s:${s.marker.id}`, left: p.x - size.width / 2, top: p.y - size.height / 2, ...size, rank: 1 })
      }
    }
    const shown = placeLabels(boxes)
    return new Set(boxes.filter((b) => !shown.has(b.key)).map((b) => b.key))
  }

  private shapeOverlay(s: Shape, selected: boolean, title: string | null): any[] {
    const m = s.marker
    const style = drawnStyle(m)
    const color = style.color || '#165DFF'
    const stroke = {
      strokeColor: color,
      strokeWeight: Math.max(1, Math.min(20, m.width || 2)) + (selected ? 3 : 0),
      strokeOpacity: style.opacity ?? 1,
      strokeStyle: s.dashed ? 'dashed' : 'solid',
      strokeDasharray: s.dashed ? [8, 6] : undefined,
      fillColor: style.fill_color || color,
      fillOpacity: isArea(m.type) ? (style.fill_opacity ?? 0.25) : 0,
      extData: { id: m.id },
    }
    const A = this.AMap
    const overlays: any[] = []
    if (isLine(m.type)) overlays.push(new A.Polyline({ ...stroke, path: path(s.parts[0]) }))
    else if (m.type === MARKER_KIND.circle) overlays.push(new A.Circle({ ...stroke, center: [s.parts[0][0].lng, s.parts[0][0].lat], radius: m.radius }))
    else if (m.type === MARKER_KIND.rectangle) {
      const [a, b] = s.parts[0]
      overlays.push(new A.Polygon({ ...stroke, path: path(rectangleCorners(a, b)) }))
    } else
      s.parts.forEach((part, i) => {
        // A ring list is AMap's polygon with holes: the outer ring, then each hole.
        const holes = s.holes?.[i] ?? []
        overlays.push(new A.Polygon({ ...stroke, path: holes.length ? [part, ...holes].map(path) : path(part) }))
      })
    // Measuring, a tap on a line or an area is a place on the map like any other.
    for (const o of overlays) o.on('click', (e: any) => (this.cb().tapsToMap ? this.cb().onMapTap?.({ lng: e.lnglat.getLng(), lat: e.lnglat.getLat() }) : this.cb().onMarkerTap?.(m.id)))
    if (title !== null) overlays.push(new A.Text({ text: m.name, position: lngLatArray(shapeLabelPoint(m.type, s.parts, s.holes)), anchor: 'center', style: cssObject(title) }))
    return overlays
  }

  private renderHeat(list: DrawList): void {
    if (this.heat) {
      if (this.heat.destroy) this.heat.destroy()
      else this.map.remove(this.heat)
      this.heat = null
    }
    if (!list.heat) return
    if (this.Loca) {
      const container = new this.Loca.Container({ map: this.map })
      const source = new this.Loca.GeoJSONSource({
        data: { type: 'FeatureCollection', features: list.heat.map((h) => ({ type: 'Feature', properties: { count: h.count }, geometry: { type: 'Point', coordinates: [h.lng, h.lat] } })) },
      })
      const layer = new this.Loca.HeatMapLayer({ zIndex: 10, opacity: 0.8, visible: true })
      layer.setSource(source, { radius: 25, unit: 'px', value: (_: number, f: any) => f.properties.count, max: 100 })
      container.add(layer)
      this.heat = { destroy: () => container.destroy() }
      return
    }
    const circles = list.heat.map((h) => new this.AMap.CircleMarker({ center: [h.lng, h.lat], radius: 25, strokeWeight: 0, fillColor: heatColor(h.opacity), fillOpacity: h.opacity, bubble: true }))
    this.map.add(circles)
    this.heat = { destroy: () => this.map.remove(circles) }
  }

  renderMembers(members: MemberLocation[] | undefined): void {
    const wanted = new Map((members ?? []).map((u) => [memberMarkup(u).key, u]))
    for (const [key, o] of this.memberOverlays) {
      if (!wanted.has(key)) {
        this.map.remove(o)
        this.memberOverlays.delete(key)
      }
    }
    for (const [key, u] of wanted) {
      if (this.memberOverlays.has(key)) continue
      const o = this.htmlMarker(memberMarkup(u), u)
      this.memberOverlays.set(key, o)
      this.map.add(o)
    }
  }

  renderSelf(p: LngLat | null | undefined): void {
    if (this.selfOverlay) this.map.remove(this.selfOverlay)
    this.selfOverlay = p ? this.htmlMarker(selfMarkup(p), p) : null
    if (this.selfOverlay) this.map.add(this.selfOverlay)
  }

  renderDraft(draft: DraftGeometry | null | undefined): void {
    if (this.draftOverlays.length) this.map.remove(this.draftOverlays)
    this.draftOverlays = []
    if (!draft) return
    const A = this.AMap
    const style = { strokeColor: '#F53F3F', strokeWeight: 3, strokeStyle: 'dashed', strokeDasharray: [6, 6], fillColor: '#F53F3F', fillOpacity: 0.1, bubble: true }
    for (const part of draft.parts) {
      if (!part.length) continue
      if (draft.type === MARKER_KIND.circle) {
        if (draft.radius > 0) this.draftOverlays.push(new A.Circle({ ...style, center: [part[0].lng, part[0].lat], radius: draft.radius }))
      } else if (isArea(draft.type) && part.length >= 3) this.draftOverlays.push(new A.Polygon({ ...style, path: path(part) }))
      else if (part.length >= 2) this.draftOverlays.push(new A.Polyline({ ...style, path: path(part) }))
      for (const v of part) this.draftOverlays.push(new A.CircleMarker({ center: [v.lng, v.lat], radius: 6, strokeColor: '#fff', strokeWeight: 2, fillColor: '#F53F3F', fillOpacity: 1, bubble: true }))
    }
    if (this.draftOverlays.length) this.map.add(this.draftOverlays)
  }

  renderEditing(editing: EditGeometry | null | undefined): void {
    if (this.editOverlays.length) this.map.remove(this.editOverlays)
    this.editOverlays = []
    const moving = editing && isPoint(editing.type) ? (editing.markerId ?? null) : null
    if (moving !== this.movingPointId) {
      this.movingPointId = moving
      if (this.lastRender) this.render(...this.lastRender)
    }
    if (!editing) return
    const A = this.AMap
    // A point being moved is its own pin, a large target dragged where it should go (as on the keyless map).
    const at = isPoint(editing.type) ? editing.parts[0]?.[0] : undefined
    if (at) {
      const pin = new A.Marker({
        position: [at.lng, at.lat],
        content: '<div class="map-moving-pin" style="position:relative;width:48px;height:56px"><div class="map-moving-pin__pin"></div></div>',
        offset: new A.Pixel(-24, -50),
        anchor: 'top-left',
        draggable: true,
        zIndex: 300,
      })
      pin.on('dragend', (e: any) => this.cb().onVertexMove?.(0, 0, { lng: e.lnglat.getLng(), lat: e.lnglat.getLat() }))
      this.editOverlays.push(pin)
      this.map.add(this.editOverlays)
      return
    }
    const style = { strokeColor: '#FF7D00', strokeWeight: 3, fillColor: '#FF7D00', fillOpacity: 0.15, bubble: true }
    if (editing.type === MARKER_KIND.circle) this.editOverlays.push(new A.Circle({ ...style, center: [editing.parts[0][0].lng, editing.parts[0][0].lat], radius: editing.radius }))
    else if (isArea(editing.type)) for (const part of editing.parts) this.editOverlays.push(new A.Polygon({ ...style, path: path(part) }))
    else if (!isPoint(editing.type)) this.editOverlays.push(new A.Polyline({ ...style, path: path(editing.parts[0]) }))
    editing.parts.forEach((part, pi) =>
      part.forEach((v, vi) => {
        const selected = editing.selected?.[0] === pi && editing.selected?.[1] === vi
        const handle = new A.Marker({
          position: [v.lng, v.lat],
          content: `<div class="map-vertex${selected ? ' map-vertex--selected' : ''}"><div></div></div>`,
          offset: new A.Pixel(-11, -11),
          draggable: true,
          zIndex: 300,
          anchor: 'top-left',
        })
        handle.on('dragend', (e: any) => this.cb().onVertexMove?.(pi, vi, { lng: e.lnglat.getLng(), lat: e.lnglat.getLat() }))
        handle.on('click', () => this.cb().onVertexTap?.(pi, vi))
        this.editOverlays.push(handle)
      }),
    )
    this.map.add(this.editOverlays)
  }

  destroy(): void {
    this.heat?.destroy?.()
    this.map.destroy()
  }
}

/** The title look without a layer style to read: SPEC's default title (14 px, dark on white). */
const DEFAULT_TITLE_CSS = 'font-size:14px;color:#1D2129;background:rgba(255,255,255,0.85);padding:1px 4px;border:none'

/** DEFAULT_TITLE_CSS's sizes, for laying the titles out. */
const DEFAULT_TITLE_METRICS: TitleMetrics = { font_size: 14, padding: 2, border_weight: 0 }

/** Inline CSS as the style object AMap's Text takes. */
function cssObject(css: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const rule of css.split(';')) {
    const at = rule.indexOf(':')
    if (at > 0) out[rule.slice(0, at).trim()] = rule.slice(at + 1).trim()
  }
  return out
}

function lngLatArray(p: { lng: number; lat: number }): [number, number] {
  return [p.lng, p.lat]
}
