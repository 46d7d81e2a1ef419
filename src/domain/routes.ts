/**
 * Route planning rules, pure: the order of stops (move, reverse, nearest-next), where a
 * marker stands as a stop, straight-line legs on GCJ-02 coordinates with an average-speed duration
 * when no map provider answers, the checks of a route with their Chinese messages, and the way
 * distances and times are written ('3.2公里 · 约12分钟'). Used by the route pages, their store and
 * the server (which measures and checks again).
 */
import type { Marker, MarkerType } from '../../types/mapdata'
import type { RouteLeg, RoutePlan, RouteStop, TravelMode } from '../../types/routes'
import { distanceMeters, type LngLat } from './geo'
import { boundsOf, formatCoord, isZeroPoint, parsePoints } from './points'
import { ROUTE_MSG } from './routeMessages'
import { charLength } from './validate'
import { MARKER_KIND, isPoint } from './markerKinds'

/** Route name length limit (as a share name's). */
export const ROUTE_NAME_MAX = 30
/** A stop's name length limit (a marker's name is cut to it). */
export const ROUTE_STOP_NAME_MAX = 50
/** A route goes from one stop to at least one other. */
export const ROUTE_STOPS_MIN = 2
/** Stops per route (each leg is one provider request). */
export const ROUTE_STOPS_MAX = 30
/** Saved routes per group. */
export const ROUTES_PER_GROUP_MAX = 1000

export const TRAVEL_MODES: readonly TravelMode[] = ['driving', 'walking']
export const TRAVEL_MODE_NAMES: Record<TravelMode, string> = { driving: '驾车', walking: '步行' }

/** Average speeds for the estimate without a provider: town driving with lights, and a walking pace (metres per second). */
export const AVERAGE_SPEED_MPS: Record<TravelMode, number> = { driving: 30 / 3.6, walking: 4.5 / 3.6 }
/** Roads and paths are longer than the straight line: the estimated time covers this much more way. */
export const DETOUR_FACTOR = 1.3

export function isTravelMode(v: unknown): v is TravelMode {
  return v === 'driving' || v === 'walking'
}

// ---------------------------------------------------------------------------------------------
// Order of stops

/** The list with the item at `from` moved to `to` (both clamped); the same list when nothing moves. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list]
  if (from < 0 || from >= list.length) return out
  const target = Math.max(0, Math.min(list.length - 1, to))
  if (target === from) return out
  const [item] = out.splice(from, 1)
  out.splice(target, 0, item)
  return out
}

export function moveUp<T>(list: readonly T[], index: number): T[] {
  return moveItem(list, index, index - 1)
}

export function moveDown<T>(list: readonly T[], index: number): T[] {
  return moveItem(list, index, index + 1)
}

export function removeAt<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, i) => i !== index)
}

/**
 * Visits the nearest unvisited stop next, starting from the first (which stays first): a quick
 * shorter order for a round of visits, not the optimum.
 */
export function nearestNextOrder<T extends LngLat>(stops: readonly T[]): T[] {
  if (stops.length <= 2) return [...stops]
  const rest = stops.slice(1)
  const out = [stops[0]]
  while (rest.length) {
    const last = out[out.length - 1]
    let best = 0
    let bestDistance = Infinity
    rest.forEach((s, i) => {
      const d = distanceMeters(last, s)
      if (d < bestDistance) {
        bestDistance = d
        best = i
      }
    })
    out.push(rest.splice(best, 1)[0])
  }
  return out
}

/** Two stops at the same place (to about a centimetre). */
export function samePlace(a: LngLat, b: LngLat): boolean {
  return Math.abs(a.lng - b.lng) < 1e-7 && Math.abs(a.lat - b.lat) < 1e-7
}

/** Whether `stop` may follow the list's last stop: not the same place again. */
export function checkAppend(stops: readonly LngLat[], stop: LngLat): string | null {
  const last = stops[stops.length - 1]
  if (last && samePlace(last, stop)) return ROUTE_MSG.sameAsLast
  if (stops.length >= ROUTE_STOPS_MAX) return ROUTE_MSG.stopsTooMany(ROUTE_STOPS_MAX)
  return null
}

// ---------------------------------------------------------------------------------------------
// Stops from markers and typed coordinates

/**
 * Where a marker stands as a stop: a point's position, a circle's centre, the centre of the
 * bounds of a line or an area; null for geometry that does not parse or lies at 0.
 */
export function markerStopPoint(type: MarkerType, points: string): LngLat | null {
  const parsed = parsePoints(points)
  if (!parsed.ok || !parsed.parts.length || !parsed.parts[0].length) return null
  let p: LngLat
  if (isPoint(type) || type === MARKER_KIND.circle) p = parsed.parts[0][0]
  else {
    const [minLng, minLat, maxLng, maxLat] = boundsOf(type, parsed.parts)
    p = { lng: (minLng + maxLng) / 2, lat: (minLat + maxLat) / 2 }
  }
  return isZeroPoint(p) ? null : { lng: roundCoord(p.lng), lat: roundCoord(p.lat) }
}

/** Seven decimals (about a centimetre), as the points codec writes them. */
export function roundCoord(n: number): number {
  return Number(formatCoord(n))
}

export type CoordParse = { ok: true; point: LngLat } | { ok: false; error: string }

/** 'lng,lat' typed by the user (a Chinese comma or spaces are fine); 0 is not a place. */
export function parseStopCoordinate(text: string): CoordParse {
  const t = (text ?? '')
    .trim()
    .replace(/，/g, ',')
    .replace(/\s*,\s*/, ',')
    .replace(/\s+/, ',')
  if (!t || t.includes('|') || t.includes(';')) return { ok: false, error: ROUTE_MSG.coordInvalid }
  const parsed = parsePoints(t)
  if (!parsed.ok || parsed.parts.length !== 1 || parsed.parts[0].length !== 1) return { ok: false, error: ROUTE_MSG.coordInvalid }
  const p = parsed.parts[0][0]
  if (isZeroPoint(p)) return { ok: false, error: ROUTE_MSG.coordZero }
  return { ok: true, point: { lng: roundCoord(p.lng), lat: roundCoord(p.lat) } }
}

/** The name of a map point given without one. */
export function defaultPointName(p: LngLat): string {
  return ROUTE_MSG.pointName(p.lng.toFixed(5), p.lat.toFixed(5))
}

/** A stop's name as kept: trimmed, cut to the limit, the coordinates when empty. */
export function stopName(name: string | null | undefined, p: LngLat): string {
  const n = (name ?? '').trim()
  if (!n) return defaultPointName(p)
  return Array.from(n).slice(0, ROUTE_STOP_NAME_MAX).join('')
}

// ---------------------------------------------------------------------------------------------
// Checks

export function checkRouteName(name: string | null | undefined): string | null {
  const n = (name ?? '').trim()
  if (!n) return ROUTE_MSG.nameRequired
  if (charLength(n) > ROUTE_NAME_MAX) return ROUTE_MSG.nameTooLong(ROUTE_NAME_MAX)
  return null
}

function validPoint(p: LngLat): boolean {
  return Number.isFinite(p.lng) && Number.isFinite(p.lat) && p.lng >= -180 && p.lng <= 180 && p.lat >= -90 && p.lat <= 90 && !isZeroPoint(p)
}

/** The stops of a route: how many, each a real place, no stop at the same place as the one before. */
export function checkStops(stops: readonly LngLat[]): string | null {
  if (stops.length < ROUTE_STOPS_MIN) return ROUTE_MSG.stopsTooFew(ROUTE_STOPS_MIN)
  if (stops.length > ROUTE_STOPS_MAX) return ROUTE_MSG.stopsTooMany(ROUTE_STOPS_MAX)
  for (let i = 0; i < stops.length; i++) {
    if (!validPoint(stops[i])) return ROUTE_MSG.stopInvalid(i + 1)
    if (i > 0 && samePlace(stops[i - 1], stops[i])) return ROUTE_MSG.sameAsPrevious(i + 1)
  }
  return null
}

/** Everything a route needs before it is saved: the name first, then the stops. */
export function checkRoute(route: { name: string; mode: unknown; stops: readonly LngLat[] }): string | null {
  return checkRouteName(route.name) ?? (isTravelMode(route.mode) ? null : ROUTE_MSG.modeInvalid) ?? checkStops(route.stops)
}

// ---------------------------------------------------------------------------------------------
// Distances and times

/** The straight-line leg: great-circle metres, and the time at the mode's average speed over the detour. */
export function straightLeg(a: LngLat, b: LngLat, mode: TravelMode): RouteLeg {
  const distance = Math.round(distanceMeters(a, b))
  return { distance, duration: Math.round((distance * DETOUR_FACTOR) / AVERAGE_SPEED_MPS[mode]), source: 'straight' }
}

export function sumLegs(legs: readonly RouteLeg[]): { distance: number; duration: number } {
  return legs.reduce((sum, l) => ({ distance: sum.distance + l.distance, duration: sum.duration + l.duration }), { distance: 0, duration: 0 })
}

/** The plan through the stops with straight-line legs (no provider, or offline). */
export function straightPlan(mode: TravelMode, stops: readonly RouteStop[]): RoutePlan {
  const legs = stops.slice(1).map((s, i) => straightLeg(stops[i], s, mode))
  return { mode, stops: [...stops], legs, ...sumLegs(legs) }
}

/** Whether any leg is an estimate (the figures are then labelled as such). */
export function isEstimate(plan: Pick<RoutePlan, 'legs'>): boolean {
  return plan.legs.some((l) => l.source === 'straight')
}

/** What identifies a plan's input: the mode and each stop's place (a plan answered for other stops is stale). */
export function planKey(mode: TravelMode, stops: readonly LngLat[]): string {
  return `${mode}|${stops.map((s) => `${formatCoord(s.lng)},${formatCoord(s.lat)}`).join(';')}`
}

/** '850米' below a kilometre, '3.2公里' below a hundred, '125公里' beyond. */
export function formatDistance(meters: number): string {
  const m = Math.max(0, Math.round(meters))
  if (m < 1000) return `${m}米`
  const km = m / 1000
  return km < 100 ? `${Number(km.toFixed(1))}公里` : `${Math.round(km)}公里`
}

/** '约12分钟', '约1小时5分钟', '约2小时'; at least a minute. */
export function formatDuration(seconds: number): string {
  const minutes = Math.max(1, Math.round(seconds / 60))
  if (minutes < 60) return `约${minutes}分钟`
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  return m ? `约${h}小时${m}分钟` : `约${h}小时`
}

/** '3.2公里 · 约12分钟' */
export function formatRouteSummary(distance: number, duration: number): string {
  return `${formatDistance(distance)} · ${formatDuration(duration)}`
}

/** Ids of the lines a route share draws, above any marker id. */
export const ROUTE_LINE_ID_BASE = 1_000_000_000

/**
 * A shared route as a solid line through its stops in order, so that the share view draws it with
 * the markers (the same draw pipeline). Null for a route with fewer than two stops.
 */
export function routeAsLine(route: { id: number; name: string; stops: readonly LngLat[]; updated_at?: string }): Marker | null {
  if (route.stops.length < ROUTE_STOPS_MIN) return null
  return {
    id: ROUTE_LINE_ID_BASE + route.id,
    layer_id: 0,
    name: route.name,
    type: MARKER_KIND.solidLine,
    points: route.stops.map((s) => `${s.lng},${s.lat}`).join('|'),
    style: { color: '#165DFF', opacity: 0.9 },
    width: 5,
    radius: 0,
    sort: 0,
    fields: {},
    creator_id: 0,
    creator_name: '',
    rev: 1,
    created_at: route.updated_at ?? '',
    updated_at: route.updated_at ?? '',
  }
}
