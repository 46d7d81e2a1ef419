/**
 * The draw list in WeChat map terms (markers, polylines, polygons, circles). Pure, so that the
 * number of markers handed to setData per view change can be tested: at most 200 points plus the
 * clusters (the map freezes when hundreds of markers are re-set at once).
 */
import type { DrawList, Shape } from '../../domain/mapDraw'
import { drawnStyle, isPendingMarker } from '../../domain/pendingLook'
import { rectangleCorners } from '../../domain/points'
import { shortTime } from '../../domain/time'
import { clusterSize, heatColor, pointOf } from './markup'
import type { LngLat } from '../../domain/geo'
import type { MemberLocation } from '../../../types/entities'
import type { DraftGeometry, EditGeometry, MapViewProps } from './types'
import { MARKER_KIND, isArea, isLine, isPoint } from '../../domain/markerKinds'
import { shapeLabelPoint } from '../../domain/labelPoint'
import { placeLabels, type LabelBox } from '../../domain/labelLayout'
import { titleSize, worldPx } from '../../domain/titleFrame'
import type { TitleStyleLook } from '../../../types/mapdata'

/** Marker ids of members' positions: 700,000,000 + user id. */
export const MEMBER_ID_BASE = 700_000_000

/** Marker ids of vertex handles: 800,000,000 + part * 10,000 + vertex (saved markers never get that high here). */
export const VERTEX_ID_BASE = 800_000_000
export function vertexOfId(id: number): [number, number] | null {
  if (id < VERTEX_ID_BASE || id >= 900_000_000) return null
  const n = id - VERTEX_ID_BASE
  return [Math.floor(n / 10_000), n % 10_000]
}

export interface WxMarker {
  id: number
  latitude: number
  longitude: number
  iconPath: string
  width: number
  height: number
  zIndex?: number
  /** 0-1, WeChat's marker opacity. */
  alpha?: number
  label?: { content: string; color: string; fontSize: number; bgColor: string; padding: number; borderWidth: number; borderColor: string; anchorX: number; anchorY: number; textAlign: 'center' }
  callout?: { content: string; display: 'ALWAYS' | 'BYCLICK'; color: string; fontSize: number; bgColor: string; padding: number; borderRadius: number }
}

export interface WxPoint {
  latitude: number
  longitude: number
}

export interface WxScene {
  markers: WxMarker[]
  polylines: { points: WxPoint[]; color: string; width: number; dottedLine: boolean }[]
  polygons: { points: WxPoint[]; strokeWidth: number; strokeColor: string; fillColor: string; zIndex?: number }[]
  circles: { latitude: number; longitude: number; radius: number; color: string; fillColor: string; strokeWidth: number }[]
  /** Marker id -> cluster index in the draw list (cluster markers get negative ids). */
  clusterOf: Map<number, number>
}

const wx = (p: LngLat): WxPoint => ({ latitude: p.lat, longitude: p.lng })

/** Lines' and areas' titles are drawn only while this few are in view, as on H5 (leafletEngine.ts). */
const SHAPE_TITLES_MAX = 150

/** A point's or shape's title as a WeChat marker label in its layer's title style. */
function titleLabel(content: string, t: TitleStyleLook): NonNullable<WxMarker['label']> {
  return {
    content,
    color: t.color,
    fontSize: t.font_size,
    bgColor: t.bg_color,
    padding: t.padding,
    borderWidth: t.border_weight,
    borderColor: t.border_color,
    anchorX: 0,
    anchorY: 0,
    textAlign: 'center',
  }
}

/** Ids of cluster markers count down from here. */
const CLUSTER_ID_BASE = -1_000_000_000

/** #RRGGBB plus an alpha byte, as WeChat's map wants its colours. */
export function withAlpha(color: string | undefined, alpha: number): string {
  const c = /^#[0-9a-f]{6}$/i.test(color ?? '') ? color! : '#165DFF'
  return `${c}${Math.round(Math.max(0, Math.min(1, alpha)) * 255)
    .toString(16)
    .padStart(2, '0')}`.toUpperCase()
}

function rectangle(s: Shape): WxPoint[] {
  const [a, b] = s.parts[0]
  return rectangleCorners(a, b).map(wx)
}

export function weappScene(
  list: DrawList,
  options: {
    selectedId?: number | null
    titleStyleOf?: MapViewProps['titleStyleOf']
    pinIcon: string
    clusterIcon: string
    draft?: DraftGeometry | null
    editing?: EditGeometry | null
    members?: MemberLocation[]
    /** The map's scale (zoom level): titles that would cover each other are laid out at it. */
    zoom?: number
  },
): WxScene {
  const markers: WxMarker[] = []
  const clusterOf = new Map<number, number>()
  list.clusters.forEach((c, i) => {
    // Far below the temp ids of markers kept in the outbox (-1, -2 ...), so a tap never mistakes one for the other.
    const id = CLUSTER_ID_BASE - i
    clusterOf.set(id, i)
    const size = clusterSize(c.count)
    markers.push({
      id,
      latitude: c.lat,
      longitude: c.lng,
      iconPath: options.clusterIcon,
      width: size,
      height: size,
      label: { content: c.label, color: '#FFFFFF', fontSize: 13, bgColor: '#00000000', padding: 0, borderWidth: 0, borderColor: '#00000000', anchorX: 0, anchorY: -size / 2 - 9, textAlign: 'center' },
    })
  })
  // A point being moved is drawn as the large handle below, not also at its old place.
  const moving = options.editing && isPoint(options.editing.type) ? options.editing.markerId : undefined
  const hidden = options.zoom !== undefined && options.titleStyleOf ? hiddenTitles(list, options.selectedId ?? null, options.titleStyleOf, options.zoom, moving) : new Set<string>()
  for (const m of list.points) {
    if (m.id === moving) continue
    const { lng, lat } = pointOf(m)
    const selected = m.id === options.selectedId
    const size = Math.max(20, Math.min(48, Math.round((m.style?.size ?? m.width ?? 32) * 0.75))) + (selected ? 8 : 0)
    const t = options.titleStyleOf?.(m.layer_id)
    markers.push({
      id: m.id,
      latitude: lat,
      longitude: lng,
      iconPath: m.style?.icon || options.pinIcon,
      width: size,
      height: size,
      zIndex: selected ? 10 : 1,
      // A point kept in the outbox shows faded until it reaches the server.
      ...(isPendingMarker(m) ? { alpha: 0.5 } : {}),
      ...(t && !hidden.has(`p:${m.id}`) ? { label: titleLabel(m.name, t) } : {}),
    })
  }
  // Lines' and areas' titles, in their layer's title style as points' are: a label on an invisible 1-px
  // marker at the line's middle or the area's label point, with the shape's own id so a tap opens it.
  if (options.titleStyleOf && list.shapes.length <= SHAPE_TITLES_MAX)
    for (const s of list.shapes) {
      if (hidden.has(`s:${s.marker.id}`)) continue
      const at = shapeLabelPoint(s.marker.type, s.parts, s.holes)
      markers.push({ id: s.marker.id, ...wx(at), iconPath: options.pinIcon, width: 1, height: 1, zIndex: 2, label: titleLabel(s.marker.name, options.titleStyleOf(s.marker.layer_id)) })
    }
  const polylines: WxScene['polylines'] = []
  const polygons: WxScene['polygons'] = []
  const circles: WxScene['circles'] = []
  for (const s of list.shapes) {
    const m = s.marker
    const selected = m.id === options.selectedId
    const style = drawnStyle(m)
    const color = withAlpha(style.color, style.opacity ?? 1)
    const width = Math.max(1, Math.min(20, m.width || 2)) + (selected ? 3 : 0)
    const fill = withAlpha(style.fill_color ?? style.color, style.fill_opacity ?? 0.25)
    if (isLine(m.type)) polylines.push({ points: s.parts[0].map(wx), color, width, dottedLine: s.dashed })
    else if (m.type === MARKER_KIND.circle) circles.push({ ...wx(s.parts[0][0]), radius: m.radius, color, fillColor: fill, strokeWidth: width })
    else if (m.type === MARKER_KIND.rectangle) polygons.push({ points: rectangle(s), strokeWidth: width, strokeColor: color, fillColor: fill })
    else
      s.parts.forEach((part, i) => {
        polygons.push({ points: part.map(wx), strokeWidth: width, strokeColor: color, fillColor: fill })
        // WeChat's map has no polygons with holes: a hole is drawn as its outline over the fill.
        for (const hole of s.holes?.[i] ?? []) polylines.push({ points: [...hole, hole[0]].map(wx), color, width, dottedLine: false })
      })
  }
  // Heat cells as soft circles one heatmap radius (25 px at this zoom) across.
  if (list.heat) {
    for (const h of list.heat) circles.push({ latitude: h.lat, longitude: h.lng, radius: h.radiusMeters, color: '#00000000', fillColor: withAlpha(heatColor(h.opacity), h.opacity), strokeWidth: 0 })
  }
  const d = options.draft
  if (d) {
    for (const part of d.parts) {
      if (!part.length) continue
      if (d.type === MARKER_KIND.circle && d.radius > 0) circles.push({ ...wx(part[0]), radius: d.radius, color: '#F53F3FFF', fillColor: '#F53F3F1A', strokeWidth: 2 })
      else if (part.length >= 2) polylines.push({ points: (isArea(d.type) && part.length >= 3 ? [...part, part[0]] : part).map(wx), color: '#F53F3FFF', width: 3, dottedLine: true })
      part.forEach((p, i) => markers.push({ id: 900_000_000 + i, ...wx(p), iconPath: options.pinIcon, width: 16, height: 16, zIndex: 20 }))
    }
  }
  for (const u of options.members ?? []) {
    markers.push({
      id: MEMBER_ID_BASE + u.user.id,
      latitude: u.lat,
      longitude: u.lng,
      iconPath: u.user.avatar || options.pinIcon,
      width: 32,
      height: 32,
      zIndex: 15,
      callout: { content: `${u.user.nickname || '成员'} · ${shortTime(u.time)}`, display: 'ALWAYS', color: '#1D2129', fontSize: 12, bgColor: '#FFFFFF', padding: 4, borderRadius: 4 },
    })
  }
  const e = options.editing
  if (e) {
    const rings = e.parts
    if (e.type === MARKER_KIND.circle) circles.push({ ...wx(rings[0][0]), radius: e.radius, color: '#FF7D00FF', fillColor: '#FF7D0026', strokeWidth: 3 })
    else if (!isPoint(e.type)) for (const part of rings) polylines.push({ points: (isArea(e.type) ? [...part, part[0]] : part).map(wx), color: '#FF7D00FF', width: 3, dottedLine: false })
    rings.forEach((part, pi) =>
      part.forEach((p, vi) => {
        const selected = e.selected?.[0] === pi && e.selected?.[1] === vi
        // A point's own pin, large (44 px, WeChat's tap target): a tap on the map moves it.
        const size = isPoint(e.type) ? 44 : selected ? 28 : 20
        markers.push({ id: VERTEX_ID_BASE + pi * 10_000 + vi, ...wx(p), iconPath: options.pinIcon, width: size, height: size, zIndex: 30 })
      }),
    )
  }
  return { markers, polylines, polygons, circles, clusterOf }
}

/**
 * The titles that would cover a higher-ranked one or a cluster badge, by the keyless map's rule
 * (src/domain/labelLayout.ts): cluster badges first, then the selected marker's title, points',
 * lines' and areas'. WeChat's map cannot measure text, so each title's box is estimated from its
 * text and style, with its top-left corner on its place (a label's anchor is the marker's place);
 * a cluster badge is an icon standing on its place.
 */
function hiddenTitles(list: DrawList, selectedId: number | null, titleStyleOf: NonNullable<MapViewProps['titleStyleOf']>, zoom: number, moving: number | undefined): Set<string> {
  const titleAt = (key: string, at: LngLat, text: string, layerId: number, rank: number): LabelBox => {
    const p = worldPx(at, zoom)
    return { key, left: p.x, top: p.y, ...titleSize(text, titleStyleOf(layerId)), rank }
  }
  const boxes: LabelBox[] = list.clusters.map((c) => {
    const p = worldPx(c, zoom)
    const size = clusterSize(c.count)
    return { key: `c:${c.key}`, left: p.x - size / 2, top: p.y - size, width: size, height: size, rank: 4 }
  })
  for (const m of list.points) {
    if (m.id === moving) continue
    boxes.push(titleAt(`p:${m.id}`, pointOf(m), m.name, m.layer_id, m.id === selectedId ? 3 : 2))
  }
  if (list.shapes.length <= SHAPE_TITLES_MAX)
    for (const s of list.shapes) boxes.push(titleAt(`s:${s.marker.id}`, shapeLabelPoint(s.marker.type, s.parts, s.holes), s.marker.name, s.marker.layer_id, 1))
  const shown = placeLabels(boxes)
  return new Set(boxes.filter((b) => !shown.has(b.key)).map((b) => b.key))
}

/** What was last handed to the map for one overlay kind, with its serialised form. */
export interface Handed<T> {
  json: string
  value: T
}

/**
 * The overlays (polylines, polygons, circles) go through setData, which sends the whole list
 * across to the map whenever the value is a new object. A pan or a marker tap that leaves them as
 * they were gives back the very value handed over before, so nothing is sent.
 */
export function keepIfUnchanged<T>(previous: Handed<T> | null, next: T): Handed<T> {
  const json = JSON.stringify(next)
  return previous && previous.json === json ? previous : { json, value: next }
}
