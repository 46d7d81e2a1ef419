/**
 * Messages between the H5 page and our native host app (SPEC 7 "Host native app messages",
 * SPEC 9 "host messages every 1 s"). Pure: no Taro, no window; the transport lives in
 * src/platform/host.
 *
 * Protocol, version 1. Every message is one JSON envelope `{v: 1, type, id?, data}`:
 * - the page posts Sent messages to the host (open_url, location, start_location,
 *   check_location, open_app_auth_setting, save_img, and our extension `pay`);
 * - the host pushes Received messages (the `*_callback` types) into `window.__teammapHost`,
 *   and the page drains that queue every HOST_POLL_MS (1 s);
 * - a request carries a fresh `id`; the host answers with the matching callback type
 *   (HOST_REPLY_TYPE) and the same `id` in the envelope. Messages the host sends on its own
 *   (order_paid_callback, start_location updates, edit_*_callback) carry no id.
 *
 * Decoding never throws: anything malformed, of another version or of an unknown type is null.
 */
import { HOST_MESSAGE_POLL_MS } from './constants'

/** The protocol version this page speaks; envelopes with another `v` are rejected. */
export const HOST_PROTOCOL_VERSION = 1

/** SPEC 9: the page polls for host messages every 1 s. */
export const HOST_POLL_MS = HOST_MESSAGE_POLL_MS

// ---- Sent (page -> host) ----

/** Open a URL in the host (outside the WebView). */
export interface OpenUrlData {
  url: string
}
/** One position, answered by check_location_callback with lng/lat (or error). */
export type LocationData = Record<string, never>
/** Start continuous updates, delivered as check_location_callback without an id. */
export interface StartLocationData {
  interval_ms: number
}
/** Is location permission granted? Answered by check_location_callback with `allowed`. */
export type CheckLocationData = Record<string, never>
/** Open the system settings page for this app's permissions. */
export type OpenAppAuthSettingData = Record<string, never>
/** Save an image to the photo album: a URL, or base64 data (a data URL or bare base64). */
export type SaveImgData = { url: string; data?: undefined } | { data: string; url?: undefined }
/**
 * Extension to SPEC 7: start a payment in the host (open_url is not a payment channel).
 * Answered by pay_callback.
 */
export interface PayData {
  orderid: number
  order_no: string
  /** In the same unit the order API uses. */
  amount: number
}

/**
 * Extension to SPEC 7 (watermark camera): take photos with the host's camera. Answered by
 * camera_callback with the images (data URLs or URLs the page may read), or `error`.
 */
export interface CameraData {
  /** At most this many photos. */
  count: number
  /** Which camera to open first. */
  facing?: 'back' | 'front'
}

export interface HostSentPayloads {
  open_url: OpenUrlData
  location: LocationData
  start_location: StartLocationData
  check_location: CheckLocationData
  open_app_auth_setting: OpenAppAuthSettingData
  save_img: SaveImgData
  pay: PayData
  camera: CameraData
}
export type HostSent = keyof HostSentPayloads

// ---- Received (host -> page) ----

export interface EditMarkerCallbackData {
  marker_id?: number
}
export interface CameraCallbackData {
  /** URLs or data URLs. */
  images: string[]
  error?: string
}
export interface EditNoteCallbackData {
  note_id?: number
}
/** Unsolicited: the host learnt that this order is paid. */
export interface OrderPaidCallbackData {
  orderid: number
}
export interface PayCallbackData {
  orderid: number
  ok: boolean
  cancelled?: boolean
  message?: string
}
export interface UploadImgCallbackData {
  urls: string[]
  error?: string
}
/**
 * One type answers three requests: `location` (lng, lat, accuracy? or error), `start_location`
 * updates (same fields, no envelope id) and `check_location` (allowed).
 */
export interface CheckLocationCallbackData {
  lng?: number
  lat?: number
  /** Metres. */
  accuracy?: number
  allowed?: boolean
  error?: string
}

export interface HostReceivedPayloads {
  edit_marker_callback: EditMarkerCallbackData
  camera_callback: CameraCallbackData
  edit_note_callback: EditNoteCallbackData
  order_paid_callback: OrderPaidCallbackData
  pay_callback: PayCallbackData
  upload_img_callback: UploadImgCallbackData
  check_location_callback: CheckLocationCallbackData
}
export type HostReceived = keyof HostReceivedPayloads

export type HostPayloads = HostSentPayloads & HostReceivedPayloads
export type HostMessageType = HostSent | HostReceived

/** One message on the wire; narrowing on `type` narrows `data`. */
export type HostEnvelope<T extends HostMessageType = HostMessageType> = T extends HostMessageType ? { v: typeof HOST_PROTOCOL_VERSION; type: T; id?: string; data: HostPayloads[T] } : never

/** Which callback answers a request. Sent types not listed here get no reply. */
export const HOST_REPLY_TYPE = {
  location: 'check_location_callback',
  check_location: 'check_location_callback',
  pay: 'pay_callback',
  camera: 'camera_callback',
} as const satisfies Partial<Record<HostSent, HostReceived>>

export type HostRequestType = keyof typeof HOST_REPLY_TYPE
export type HostReplyType<T extends HostRequestType> = (typeof HOST_REPLY_TYPE)[T]
export type HostReplyData<T extends HostRequestType> = HostReceivedPayloads[HostReplyType<T>]

/** How long a request waits for its reply: a payment waits for the user, a position does not. */
export const HOST_REQUEST_TIMEOUT_MS: Record<HostRequestType, number> = {
  location: 10_000,
  check_location: 10_000,
  pay: 30_000,
  // the user frames and takes the picture
  camera: 120_000,
}

// ---- Validation ----

type Fields = Record<string, unknown>

const isObject = (x: unknown): x is Fields => typeof x === 'object' && x !== null && !Array.isArray(x)
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x)
const isStr = (x: unknown): x is string => typeof x === 'string'
const isStrList = (x: unknown): x is string[] => Array.isArray(x) && x.every(isStr)
const opt = (x: unknown, check: (y: unknown) => boolean) => x === undefined || check(x)
const isBool = (x: unknown): x is boolean => typeof x === 'boolean'
const isEmptyAllowed = () => true

/** Shape checks per type: required fields present, optional fields of the right type when present. */
const VALIDATORS: { [T in HostMessageType]: (d: Fields) => boolean } = {
  open_url: (d) => isStr(d.url) && d.url.length > 0,
  location: isEmptyAllowed,
  start_location: (d) => isNum(d.interval_ms) && d.interval_ms > 0,
  check_location: isEmptyAllowed,
  open_app_auth_setting: isEmptyAllowed,
  save_img: (d) => (isStr(d.url) && d.url.length > 0 && d.data === undefined) || (isStr(d.data) && d.data.length > 0 && d.url === undefined),
  pay: (d) => isNum(d.orderid) && isStr(d.order_no) && isNum(d.amount),
  camera: (d) => isNum(d.count) && d.count > 0 && opt(d.facing, (f) => f === 'back' || f === 'front'),

  edit_marker_callback: (d) => opt(d.marker_id, isNum),
  camera_callback: (d) => isStrList(d.images) && opt(d.error, isStr),
  edit_note_callback: (d) => opt(d.note_id, isNum),
  order_paid_callback: (d) => isNum(d.orderid),
  pay_callback: (d) => isNum(d.orderid) && isBool(d.ok) && opt(d.cancelled, isBool) && opt(d.message, isStr),
  upload_img_callback: (d) => isStrList(d.urls) && opt(d.error, isStr),
  check_location_callback: (d) =>
    // a position comes as a pair
    (d.lng === undefined) === (d.lat === undefined) && opt(d.lng, isNum) && opt(d.lat, isNum) && opt(d.accuracy, isNum) && opt(d.allowed, isBool) && opt(d.error, isStr),
}

// a Record so that adding a Sent type without listing it here fails to compile
const SENT_TYPE_FLAGS: Record<HostSent, true> = {
  open_url: true,
  location: true,
  start_location: true,
  check_location: true,
  open_app_auth_setting: true,
  save_img: true,
  pay: true,
  camera: true,
}
const SENT_TYPES = new Set<string>(Object.keys(SENT_TYPE_FLAGS))

export function isHostMessageType(x: unknown): x is HostMessageType {
  return isStr(x) && Object.prototype.hasOwnProperty.call(VALIDATORS, x)
}
export function isHostSent(x: unknown): x is HostSent {
  return isStr(x) && SENT_TYPES.has(x)
}
export function isHostReceived(x: unknown): x is HostReceived {
  return isHostMessageType(x) && !SENT_TYPES.has(x)
}

// ---- Encoding ----

/** The JSON the other side reads. `id` only on requests and their replies. */
export function encodeHostMessage<T extends HostMessageType>(type: T, data: HostPayloads[T], id?: string): string {
  const envelope: { v: number; type: T; id?: string; data: HostPayloads[T] } = { v: HOST_PROTOCOL_VERSION, type, data }
  if (id !== undefined) envelope.id = id
  return JSON.stringify(envelope)
}

/**
 * A JSON string or an already parsed object -> the envelope, or null when it is not one this page
 * understands (bad JSON, wrong `v`, unknown type, data not an object or of the wrong shape, an id
 * that is not a non-empty string). Never throws.
 *
 * Tolerance: a host that puts the request id inside `data` (`data.id`) instead of the envelope is
 * understood as well; the envelope id wins when both are there.
 */
export function decodeHostMessage(raw: unknown): HostEnvelope | null {
  let value: unknown = raw
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw)
    } catch {
      return null
    }
  }
  if (!isObject(value)) return null
  if (value.v !== HOST_PROTOCOL_VERSION) return null
  const { type, data } = value
  if (!isHostMessageType(type) || !isObject(data)) return null
  let id: unknown = value.id
  if (id === undefined && data.id !== undefined) id = data.id
  if (id !== undefined && !(isStr(id) && id.length > 0)) return null
  if (!VALIDATORS[type](data)) return null
  const envelope = { v: HOST_PROTOCOL_VERSION, type, data } as HostEnvelope
  if (id !== undefined) envelope.id = id as string
  return envelope
}

/** Request ids `${prefix}-1`, `${prefix}-2`, ...: deterministic for tests, unique per page per prefix. */
export function makeRequestIds(prefix: string): () => string {
  let n = 0
  return () => `${prefix}-${++n}`
}
