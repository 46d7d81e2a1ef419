/**
 * 导航: handing a place to a map app that drives the user there. Pure: which places can be navigated
 * to, and AMap's navigation address (URI API, https://lbs.amap.com/api/uri-api/guide/travel/route)
 * that a phone browser or our host app opens. A marker's place is in markerPlace.ts (its geometry
 * helpers stay out of the code every page loads).
 * Coordinates stay GCJ-02 as stored: AMap takes them with coordinate=gaode and WeChat's openLocation
 * natively, so nothing is converted and nothing is asked of any service before the user's tap.
 */
import { DIRECTIONS_MSG } from './directionsMessages'
import { isZeroPoint } from './points'

/** A place to navigate to, in GCJ-02. */
export interface NavPlace {
  lng: number
  lat: number
  name: string
  /** Shown under the name by WeChat's map page; '' when the place has none. */
  address: string
}

/** AMap's URI API: navigation to `to`, the app when installed (callnative=1), its web page otherwise. */
export const AMAP_NAVIGATION_BASE = 'https://uri.amap.com/navigation'

/** What AMap's page names as the caller (the URI API asks every caller for a `src`). */
export const AMAP_URI_SOURCE = 'teammap'

/** Six decimals: about 10 cm, finer than any phone's position; keeps the address short. */
const COORD_DECIMALS = 6

/** How long a name may be in the address: AMap shows one line of it; a very long note is not a name. */
export const NAV_NAME_MAX = 60

/** Why a place cannot be navigated to, or null when it can: coordinates present, finite, in range and not 0,0. */
export function navPlaceProblem(place: Pick<NavPlace, 'lng' | 'lat'> | null | undefined): string | null {
  if (!place) return DIRECTIONS_MSG.noPlace
  const { lng, lat } = place
  if (typeof lng !== 'number' || typeof lat !== 'number' || !Number.isFinite(lng) || !Number.isFinite(lat)) return DIRECTIONS_MSG.noPlace
  if (lng < -180 || lng > 180 || lat < -90 || lat > 90 || isZeroPoint({ lng, lat })) return DIRECTIONS_MSG.noPlace
  return null
}

/** A name fit for AMap's `to` parameter: one line, no commas (its separator) and not too long; a place without a name is 目的地. */
export function navName(name: string | null | undefined): string {
  const one = String(name ?? '')
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/,/g, '，')
    .trim()
  return (one || DIRECTIONS_MSG.defaultName).slice(0, NAV_NAME_MAX)
}

/**
 * AMap's navigation address to the place by car, e.g.
 * `https://uri.amap.com/navigation?to=116.397428,39.90923,%E5%A4%A9%E5%AE%89%E9%97%A8&mode=car&coordinate=gaode&callnative=1&src=teammap`.
 * No `from`: AMap starts from where the phone is.
 */
export function amapNavigationUri(place: Pick<NavPlace, 'lng' | 'lat' | 'name'>): string {
  const to = `${place.lng.toFixed(COORD_DECIMALS)},${place.lat.toFixed(COORD_DECIMALS)},${encodeURIComponent(navName(place.name))}`
  return `${AMAP_NAVIGATION_BASE}?to=${to}&mode=car&coordinate=gaode&callnative=1&src=${AMAP_URI_SOURCE}`
}

/** A place with a name and coordinates (a route's stop, a task's marker or place) as a navigation target; null without coordinates. */
export function navPlaceOf(p: { lng: number; lat: number; name?: string | null; address?: string | null } | null | undefined): NavPlace | null {
  if (!p || navPlaceProblem(p)) return null
  return { lng: p.lng, lat: p.lat, name: p.name ?? '', address: p.address ?? '' }
}
