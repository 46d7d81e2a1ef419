/**
 * Check-in ("sign"): a member checks in at their current position, at a marker of the
 * group, at a task's place, or at a free location, with photos taken by the watermark camera.
 *
 * The server decides, never the client:
 * - Distance: with a target (a marker, or a task with a marker or a place), the position must be
 *   within the group's sign radius (system_config.sign_radius, default 300 m) of the target, measured
 *   on the server (great-circle distance, GCJ-02 coordinates as stored); otherwise the ticket is
 *   refused. A free check-in (no target) has no distance.
 * - Time: the time of a check-in is the server's time when the ticket was issued; the ticket is valid
 *   for SIGN_TICKET_TTL_S seconds (src/domain/sign.ts), after which saving is refused.
 * - Tamper evidence: the ticket carries a short code (8 characters, upper-case hex) derived from an
 *   HMAC of the ticket's fields with a server secret. The watermark camera paints time, place, user
 *   and that code onto the photo. On save the server records the SHA-256 of every photo file and an
 *   HMAC signature over the whole record (user, group, time, position, address, target, distance,
 *   photo hashes, code). Listing re-checks both: a record edited in the database, or a photo file
 *   replaced on the server, reads `verified: false` with the reason.
 *
 * Who sees what (SPEC 3 "sign list"): managers and holders of the group-level sign_list permission
 * see every check-in of the group (scope 'all'); everyone sees their own (scope 'mine', the default).
 * Checking in needs no module: every member may.
 */
import type { Paged } from './api'

/** What a check-in is at. */
export interface SignTargetInput {
  /** A marker of the group the caller may see. */
  marker_id?: number
  /** A task the caller may complete (tasks): its marker or place is the target, when it has one. */
  task_id?: number
}

export interface SignTarget {
  kind: 'marker' | 'task' | 'free'
  marker_id: number | null
  task_id: number | null
  /** The marker's or task place's name; '' for a free check-in. */
  name: string
  /** The point the distance is measured to (a point marker's position; other shapes: their centre); null when free. */
  lng: number | null
  lat: number | null
}

export interface SignTicketRequest extends SignTargetInput {
  /** The caller's position, GCJ-02. */
  lng: number
  lat: number
}

/** Issued by /api/sign/ticket: what the watermark shows, and what /api/sign/save must bring back. */
export interface SignTicket {
  /** Opaque, signed by the server; send it back unchanged to /api/sign/save. */
  ticket: string
  /** The check-in's time (server clock), ISO 8601. */
  time: string
  /** When the ticket stops being accepted, ISO 8601. */
  expires_at: string
  /** 8 upper-case hex characters painted on the photo; it identifies the record in the sign list. */
  code: string
  user: { id: number; nickname: string }
  lng: number
  lat: number
  target: SignTarget
  /** Metres from the target (rounded to 1 m); null for a free check-in. */
  distance: number | null
  /** The group's sign radius in metres when the ticket was issued. */
  radius: number
}

export interface SignSaveRequest {
  ticket: string
  /** Reverse-geocoded address ('' when none could be had). */
  addr: string
  /** Urls returned by /api/system/upload (type 'sign') of this group: at most SIGN_PHOTOS_MAX. */
  photos: string[]
  remark?: string
}

export type SignVerifyFailure = 'record' | 'photo'

export interface SignRecord {
  id: number
  code: string
  user: { id: number; nickname: string }
  /** ISO 8601, the ticket's time. */
  time: string
  lng: number
  lat: number
  addr: string
  target: SignTarget
  distance: number | null
  radius: number
  photos: { url: string; sha256: string }[]
  remark: string
  /** The signature still matches (it covers the photos' hashes taken at check-in); read alone (getbyid), every photo file's hash too. */
  verified: boolean
  /** Why not, when not verified: the record's fields changed ('record') or a photo file changed or is missing ('photo'). */
  verify_failure: SignVerifyFailure | null
}

export interface SignListRequest {
  /** 'mine' (default) or 'all' (managers and sign_list holders only; FORBIDDEN otherwise). */
  scope?: 'mine' | 'all'
  user_id?: number
  marker_id?: number
  task_id?: number
  /** Shanghai calendar days, 'YYYY-MM-DD', inclusive. */
  date_from?: string
  date_to?: string
  pageindex?: number
  pagesize?: number
}

export interface SignApi {
  /** Checks the position against the target and the radius; issues the ticket the watermark shows. */
  '/api/sign/ticket': { req: SignTicketRequest; res: SignTicket }
  /** Stores the check-in of a valid, unexpired, unused ticket of the caller (a ticket saves once). */
  '/api/sign/save': { req: SignSaveRequest; res: SignRecord }
  /** Newest first. */
  '/api/sign/getlist': { req: SignListRequest; res: Paged<SignRecord> }
  '/api/sign/getbyid': { req: { id: number }; res: SignRecord }
}
