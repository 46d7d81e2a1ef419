/**
 * The markup of point markers, cluster badges and members' positions on the H5 maps (Leaflet and
 * AMap draw the same elements, so tests and styles see one thing). Coordinates stay with the caller.
 */
import type { MemberLocation } from '../../../types/entities'
import type { Marker } from '../../../types/mapdata'
import type { LngLat } from '../../domain/geo'
import type { ClusterItem } from '../../domain/mapDraw'
import { PENDING_BADGE, drawnStyle, isPendingMarker } from '../../domain/pendingLook'
import { firstVertex } from '../../domain/points'
import { shortTime } from '../../domain/time'
import type { PointSprite, TitleLook } from './pointSprites'
import type { MapViewProps } from './types'

export type TitleStyleOf = NonNullable<MapViewProps['titleStyleOf']>

export interface Markup {
  key: string
  html: string
  anchorX: number
  anchorY: number
  zIndex?: number
  /** Plain points only: the keyless map draws the point on its canvas instead of as an element (pointSprites.ts). */
  sprite?: PointSprite
  /** The point's marker (a tap on its drawing opens it). */
  markerId?: number
}

export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** Diameter of a cluster badge in CSS px, by how many points it holds (its 4-px ring sits outside). */
export function clusterSize(count: number): number {
  return count >= 1000 ? 52 : count >= 100 ? 46 : 40
}

export function clusterMarkup(c: ClusterItem): Markup {
  const size = clusterSize(c.count)
  return {
    key: `c:${c.key}:${c.label}`,
    html: `<div class="map-cluster map-cluster__badge" data-cluster-key="${esc(c.key)}" style="width:${size}px;height:${size}px;line-height:${size}px">${esc(c.label)}</div>`,
    // The badge's 4-px ring sits outside its size.
    anchorX: size / 2 + 4,
    anchorY: size / 2 + 4,
    // Cluster badges are drawn over pins, members and the user's own dot on the same spot: their count stays readable.
    zIndex: 5,
  }
}

export function pointMarkup(m: Marker, selected: boolean, titleStyleOf: TitleStyleOf | undefined): Markup {
  const style = drawnStyle(m)
  const color = /^#[0-9a-f]{6}$/i.test(style.color ?? '') ? style.color! : '#165DFF'
  const size = Math.max(16, Math.min(48, Math.round((m.style?.size ?? m.width ?? 32) * 0.75))) + (selected ? 8 : 0)
  const pin = m.style?.icon
    ? `<img class="map-point__icon" src="${esc(iconUrl(m.style.icon))}" style="width:${size}px;height:${size}px" alt="">`
    : `<div class="map-point__pin" style="width:${size}px;height:${size}px;background:${color}"></div>`
  const titleStyle = titleStyleOf?.(m.layer_id)
  const css = titleStyle ? titleCss(titleStyle) : null
  const title = css !== null ? `<div class="map-title" style="${css}">${esc(m.name)}</div>` : ''
  const pending = isPendingMarker(m)
  const badge = pending ? `<div class="map-point__pending">${PENDING_BADGE}</div>` : ''
  return {
    // The title and its style are in the key: switching titles on or restyling them redraws the point.
    key: `p:${m.id}:${m.updated_at}:${selected ? 1 : 0}:${css ?? '-'}:${pending ? 'q' : ''}`,
    html: `<div class="map-point${selected ? ' map-point--selected' : ''}${pending ? ' map-point--pending' : ''}" data-marker-id="${m.id}"><div class="map-point__body" style="width:${size}px">${pin}${badge}${title}</div></div>`,
    anchorX: size / 2,
    anchorY: m.style?.icon ? size / 2 : size,
    zIndex: selected ? 2 : undefined,
    markerId: m.id,
    // A selected or pending point stays an element: its glow or badge is more than a pin.
    sprite: selected || pending ? undefined : spriteOf(m, color, size, titleStyle),
  }
}

/** A plain point's drawing. Built field by field: the H5 build makes an object spread a helper call, for each point of every view. */
function spriteOf(m: Marker, color: string, size: number, titleStyle: ReturnType<TitleStyleOf> | undefined): PointSprite {
  const title = titleStyle ? titleLook(titleStyle, m.name) : undefined
  return m.style?.icon ? { icon: iconUrl(m.style.icon), size, title } : { color, size, title }
}

export function memberMarkup(m: MemberLocation): Markup {
  const face = m.user.avatar ? `<img src="${esc(iconUrl(m.user.avatar))}" alt="">` : esc((m.user.nickname || '?').slice(0, 1))
  return {
    key: `u:${m.user.id}:${m.time}`,
    html: `<div class="map-member" data-member-id="${m.user.id}"><div class="map-member__face">${face}</div><div class="map-member__name">${esc(m.user.nickname || '成员')} · ${esc(shortTime(m.time))}</div></div>`,
    anchorX: 18,
    anchorY: 18,
    zIndex: 3,
  }
}

/** A point marker's position (its first vertex, as the map's index reads it); NaN where its points are broken. */
export function pointOf(m: Marker): LngLat {
  return firstVertex(m.points) ?? { lng: NaN, lat: NaN }
}

/** Server paths of uploads are relative to the API host (the page's own origin by default on H5). */
export function iconUrl(u: string): string {
  return u.startsWith('/') ? `${typeof API_BASE === 'string' ? API_BASE : ''}${u}` : u
}

/** A layer's title style as drawn, its sizes kept in bounds (SPEC: 14 px by default): an element's (titleCss) or the canvas's. */
export function titleLook(t: ReturnType<TitleStyleOf>, text: string): TitleLook {
  return {
    text,
    fontSize: Math.max(10, Math.min(32, t.font_size)),
    color: t.color,
    background: t.bg_color,
    padY: Math.max(0, Math.min(20, t.padding)),
    padX: Math.max(2, Math.min(24, t.padding * 2)),
    borderWidth: t.border_weight > 0 ? Math.min(6, t.border_weight) : 0,
    borderColor: t.border_color,
  }
}

/** A layer's title style as inline CSS: points, lines and areas share it. */
export function titleCss(t: ReturnType<TitleStyleOf>): string {
  const l = titleLook(t, '')
  return [
    `font-size:${l.fontSize}px`,
    `color:${l.color}`,
    `background:${l.background}`,
    `padding:${l.padY}px ${l.padX}px`,
    l.borderWidth > 0 ? `border:${l.borderWidth}px solid ${l.borderColor}` : 'border:none',
  ].join(';')
}

/** Blue to red as a heat cell gets denser. */
export function heatColor(opacity: number): string {
  const t = Math.max(0, Math.min(1, opacity / 0.8))
  if (t < 0.35) return '#165DFF'
  if (t < 0.6) return '#14C9C9'
  if (t < 0.8) return '#F7BA1E'
  return '#F53F3F'
}

/** The user's own located position. */
export function selfMarkup(p: LngLat): Markup {
  return { key: `self:${p.lng},${p.lat}`, html: '<div class="map-self" data-self="1"></div>', anchorX: 9, anchorY: 9, zIndex: 4 }
}
