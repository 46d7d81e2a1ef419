/**
 * Location tracking (SPEC 4 location, SPEC 9 polls): once location access is granted the
 * position is polled every 2 s; every 10th poll, when signed in, the position is reverse-geocoded
 * (only inside China's range, SPEC 9) and reported to the team. Pure rules; LocationStore runs them.
 */
import { GEOCODE_EVERY_N_POLLS, GEOCODE_RANGE } from './constants'

/** SPEC 9: reverse geocoding only for lng 70-136 and lat 2-54 (inclusive). */
export function inGeocodeRange(p: { lng: number; lat: number }): boolean {
  const { lng, lat } = p
  if (!Number.isFinite(lng) || !Number.isFinite(lat)) return false
  return lng >= GEOCODE_RANGE.lng[0] && lng <= GEOCODE_RANGE.lng[1] && lat >= GEOCODE_RANGE.lat[0] && lat <= GEOCODE_RANGE.lat[1]
}

/** What the n-th successful poll (1-based) does beyond moving the self-location marker. */
export interface PollStep {
  /** Report the position to the team (/api/user/location/save). */
  report: boolean
  /** Look its address up first. */
  geocode: boolean
}

export function pollStep(n: number, loggedIn: boolean, p: { lng: number; lat: number }): PollStep {
  const due = loggedIn && n > 0 && n % GEOCODE_EVERY_N_POLLS === 0
  return { report: due, geocode: due && inGeocodeRange(p) }
}
