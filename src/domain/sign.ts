/**
 * Check-in (sign) rules (types/signs.ts), pure and shared by the check-in sheet and the
 * server: the ticket's lifetime and the photo and remark limits, the group's sign radius, the point
 * a target is measured to, the great-circle distance and the in-radius decision, the position check,
 * Shanghai calendar days of the list's date filter, and the canonical strings of a ticket and of a
 * record that the server signs with its secret (one rule, tested once).
 */
import type { MarkerType } from '../../types/mapdata'
import type { SignRecord, SignTarget } from '../../types/signs'
import { DEFAULT_SYSTEM_CONFIG } from './constants'
import { distanceMeters, type LngLat } from './geo'
import { isZeroPoint } from './points'
import { markerStopPoint, roundCoord } from './routes'
import { SIGN_MSG } from './signMessages'

/** A ticket is accepted by /api/sign/save for this many seconds after it was issued. */
export const SIGN_TICKET_TTL_S = 600
/** Photos per check-in. */
export const SIGN_PHOTOS_MAX = 9
/** Remark length limit (characters). */
export const SIGN_REMARK_MAX = 200
/** Address length limit (characters; reverse geocoding gives far less). */
export const SIGN_ADDR_MAX = 200
/** SPEC 9: system_config.sign_radius defaults to 300 metres. */
export const SIGN_RADIUS_DEFAULT: number = DEFAULT_SYSTEM_CONFIG.sign_radius
/** The code painted on the photos: 8 upper-case hex characters. */
export const SIGN_CODE_LENGTH = 8
/** Records per page of the sign list (each page re-hashes its photos). */
export const SIGN_LIST_PAGE_MAX = 50
export const SIGN_LIST_PAGE_DEFAULT = 20

/** The radius in force: the configured one when it is a positive number of metres, the default otherwise. */
export function signRadius(configured: unknown): number {
  return typeof configured === 'number' && Number.isFinite(configured) && configured > 0 ? Math.round(configured) : SIGN_RADIUS_DEFAULT
}

/** The caller's position is a real place: finite, within the coordinate ranges, not 0. */
export function checkSignPosition(p: LngLat): string | null {
  const valid = Number.isFinite(p.lng) && Number.isFinite(p.lat) && p.lng >= -180 && p.lng <= 180 && p.lat >= -90 && p.lat <= 90 && !isZeroPoint(p)
  return valid ? null : SIGN_MSG.positionInvalid
}

/** A position as kept: seven decimals (about a centimetre), as the points codec writes them. */
export function signPosition(p: LngLat): LngLat {
  return { lng: roundCoord(p.lng), lat: roundCoord(p.lat) }
}

/**
 * The point a marker is measured to: a point's position, a circle's centre, the centre of the
 * bounds of other shapes (the same point a route stops at); null when it has no usable geometry.
 */
export function markerSignPoint(type: MarkerType, points: string): LngLat | null {
  return markerStopPoint(type, points)
}

/** A task's place (all three columns or none); null when it has none or it lies at 0. */
export function taskPlacePoint(task: { place_lng: number | null; place_lat: number | null }): LngLat | null {
  if (task.place_lng === null || task.place_lat === null) return null
  const p = { lng: task.place_lng, lat: task.place_lat }
  return checkSignPosition(p) ? null : signPosition(p)
}

/** The point of a target, or null for a check-in with no place to be measured to. */
export function targetPoint(target: Pick<SignTarget, 'lng' | 'lat'>): LngLat | null {
  return target.lng === null || target.lat === null ? null : { lng: target.lng, lat: target.lat }
}

/** Great-circle metres from the position to the point, rounded to 1 m (what the ticket shows and the decision uses). */
export function signDistance(from: LngLat, to: LngLat): number {
  return Math.round(distanceMeters(from, to))
}

/** Within the radius: a distance of exactly the radius is in. */
export function withinRadius(distance: number, radius: number): boolean {
  return distance <= radius
}

export type SignDistanceCheck = { ok: true; distance: number | null } | { ok: false; distance: number; error: string }

/** The distance to the target (null when it has no point) and whether the position may check in there. */
export function checkSignDistance(position: LngLat, target: Pick<SignTarget, 'lng' | 'lat'>, radius: number): SignDistanceCheck {
  const point = targetPoint(target)
  if (!point) return { ok: true, distance: null }
  const distance = signDistance(position, point)
  return withinRadius(distance, radius) ? { ok: true, distance } : { ok: false, distance, error: SIGN_MSG.outOfRange(distance, radius) }
}

/** When a ticket issued at `time` stops being accepted. */
export function ticketExpiry(time: Date): Date {
  return new Date(time.getTime() + SIGN_TICKET_TTL_S * 1000)
}

/** Expired once the server clock reaches expires_at. */
export function isTicketExpired(expiresAt: string, now: Date): boolean {
  const at = Date.parse(expiresAt)
  return !Number.isFinite(at) || now.getTime() >= at
}

export function isSignCode(code: string): boolean {
  return new RegExp(`^[0-9A-F]{${SIGN_CODE_LENGTH}}$`).test(code)
}

// ---------------------------------------------------------------------------------------------
// What the server signs

/** The fields of a ticket, all of which its HMAC covers. */
export interface SignTicketFields {
  nonce: string
  user_id: number
  group_id: number
  /** ISO 8601, the server's time at issue. */
  time: string
  expires_at: string
  lng: number
  lat: number
  target: SignTarget
  distance: number | null
  radius: number
}

/** The fields of a stored check-in that its signature covers (not the nickname: people rename themselves). */
export interface SignRecordFields {
  group_id: number
  user_id: number
  nonce: string
  code: string
  time: string
  lng: number
  lat: number
  addr: string
  target: SignTarget
  distance: number | null
  radius: number
  photos: { url: string; sha256: string }[]
  remark: string
}

function targetParts(t: SignTarget): unknown[] {
  return [t.kind, t.marker_id, t.task_id, t.name, t.lng, t.lat]
}

/**
 * The string a ticket's HMAC is computed over: a JSON array in a fixed order (unambiguous whatever
 * the names contain; numbers in JavaScript's shortest round-trip form), tagged with its purpose and
 * version so that it can never be mistaken for a record's.
 */
export function signTicketCanonical(f: SignTicketFields): string {
  return JSON.stringify(['sign-ticket', 1, f.nonce, f.user_id, f.group_id, f.time, f.expires_at, f.lng, f.lat, ...targetParts(f.target), f.distance, f.radius])
}

/** The string a record's signature is computed over (same form as the ticket's, another tag). */
export function signRecordCanonical(f: SignRecordFields): string {
  return JSON.stringify([
    'sign-record',
    1,
    f.group_id,
    f.user_id,
    f.nonce,
    f.code,
    f.time,
    f.lng,
    f.lat,
    f.addr,
    ...targetParts(f.target),
    f.distance,
    f.radius,
    f.photos.map((p) => [p.url, p.sha256]),
    f.remark,
  ])
}

// ---------------------------------------------------------------------------------------------
// The list

/** The instant a Shanghai calendar day 'YYYY-MM-DD' begins, ISO 8601; null for anything that is not a real day. */
export function shanghaiDayStartIso(day: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!m) return null
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const utc = Date.UTC(y, mo - 1, d)
  const check = new Date(utc)
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null
  return new Date(utc - 8 * 3600_000).toISOString()
}

/** The next calendar day of a valid 'YYYY-MM-DD'. */
function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10)
}

export type SignTimeRange = { ok: true; from: string | null; before: string | null } | { ok: false; error: string }

/**
 * The list's date filter as instants: from the start of date_from (Shanghai) up to, not including,
 * the start of the day after date_to; both inclusive days, either may be absent.
 */
export function signTimeRange(dateFrom?: string | null, dateTo?: string | null): SignTimeRange {
  const from = dateFrom ? shanghaiDayStartIso(dateFrom) : null
  const to = dateTo ? shanghaiDayStartIso(dateTo) : null
  if ((dateFrom && !from) || (dateTo && !to)) return { ok: false, error: SIGN_MSG.dateInvalid }
  if (dateFrom && dateTo && dateFrom > dateTo) return { ok: false, error: SIGN_MSG.dateRange }
  return { ok: true, from, before: dateTo ? shanghaiDayStartIso(nextDay(dateTo)) : null }
}

/** The verification badge of a record: '已校验', or '校验失败：<why>'. */
export function signVerifyLabel(record: Pick<SignRecord, 'verified' | 'verify_failure'>): string {
  if (record.verified) return SIGN_MSG.verified
  return `${SIGN_MSG.verifyFailed}：${record.verify_failure === 'photo' ? SIGN_MSG.verifyPhoto : SIGN_MSG.verifyRecord}`
}

/** The name shown for a record's target: the marker's or task's, '自由签到' for none. */
export function signTargetLabel(target: Pick<SignTarget, 'kind' | 'name'>): string {
  return target.name || SIGN_MSG.freeTarget
}
