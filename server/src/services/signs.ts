/**
 * Check-ins (SignApi in types/signs.ts). The rules are src/domain/sign.ts's; this file
 * decides from the server's own figures, never the client's:
 * - /ticket measures the caller's position to the target (a marker the caller may read, a task of
 *   the group, or none) against the radius of system_config.sign_radius, and issues a ticket: the
 *   fields, a random nonce and an expiry, with an HMAC-SHA256 of the canonical ticket under a server
 *   secret (kept like the share-proof secret: SHARE_SECRET when configured, derived for this
 *   purpose, else a random one stored once in server_secrets under its own name). The code painted on
 *   the photos is the first 8 hex characters of another HMAC of the same fields.
 * - /save accepts a ticket once (the unique nonce), only from the member and group it was issued to,
 *   before it expires on the server clock; each photo must be an upload of the group, whose file is
 *   read and hashed (SHA-256); the record is signed with an HMAC over its canonical form.
 * - Reading re-checks every record it returns against its signature, recomputed from the row (the
 *   photos' hashes, taken from the files at check-in, are part of it), so an edited row reads
 *   'record'. The photo files themselves are read and hashed again only on demand, for one record
 *   (/getbyid, a task's proofs), where a replaced or missing file reads 'photo': a list page never
 *   reads its records' photos.
 * - Everyone sees their own check-ins; managers and holders of the group-level sign_list see all of
 *   the group's. Another member's record without that, another group's, an unknown id: NOT_FOUND alike.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import { ErrCode, type Paged } from '../../../types/api'
import type { MarkerType } from '../../../types/mapdata'
import type { SignListRequest, SignRecord, SignSaveRequest, SignTarget, SignTicket, SignTicketRequest, SignVerifyFailure } from '../../../types/signs'
import { PERM, canInGroup } from '../../../src/domain/permissions'
import {
  SIGN_CODE_LENGTH,
  SIGN_LIST_PAGE_DEFAULT,
  SIGN_PHOTOS_MAX,
  SIGN_TICKET_TTL_S,
  checkSignDistance,
  checkSignPosition,
  isTicketExpired,
  markerSignPoint,
  signPosition,
  signRadius,
  signRecordCanonical,
  signTicketCanonical,
  signTimeRange,
  taskPlacePoint,
  ticketExpiry,
  type SignRecordFields,
  type SignTicketFields,
} from '../../../src/domain/sign'
import { SIGN_MSG } from '../../../src/domain/signMessages'
import type { Clock } from '../clock'
import type { Database, Executor } from '../db/connection'
import { findMarker, markersByIds, nicknamesOf } from '../db/markers'
import { secretNamed } from '../db/server-secrets'
import { deleteSignsOfGroups, findSign, insertSignOnce, signNonceUsed, signsByIds, signsOfGroup, taskTargetOf, uploadsOfGroupWithUrls, type SignRow } from '../db/signs'
import { getSystemConfig } from '../db/system-config'
import { fail } from '../envelope'
import type { Caller } from '../auth'
import { mapCaller, usableLayerIds, type MapCaller } from './permissions'
import { isStorageKey, type FileStorage } from './storage'
import { parsePhotos, presentSign, targetOfRow } from '../presenters/sign'
import { requireTaskCheckIn, type TaskProofs } from './tasks'

/** What every check-in call works with. */
export interface SignEnv {
  db: Database
  /** Where uploaded photos live (the app's file storage, the one uploads go to). */
  storage: FileStorage
  /** The key of tickets, codes and record signatures (signSecretSource). */
  secret: () => Promise<string>
  clock: Clock
}

/** What the check-in calls of this app work with (the task calls use the same to show a task's proof). */
export function signEnvOf(deps: { db: Database; shareSecret?: string; clock: Clock }, storage: FileStorage): SignEnv {
  return { db: deps.db, storage, secret: signSecretSource(deps.db.kysely, deps.shareSecret, deps.clock), clock: deps.clock }
}

/**
 * Where the check-in key comes from: derived for this purpose from the configured secret
 * (SHARE_SECRET), else a random one generated once and kept in server_secrets as 'sign_record'.
 */
export function signSecretSource(db: Executor, configured: string | undefined, clock: { now(): Date }): () => Promise<string> {
  let secret: Promise<string> | undefined
  return () => {
    if (configured) return Promise.resolve(createHmac('sha256', configured).update('teammap sign record key').digest('base64url'))
    secret ??= secretNamed(db, 'sign_record', randomBytes(32).toString('base64url'), clock.now().toISOString()).catch((err) => {
      secret = undefined
      throw err
    })
    return secret
  }
}

// ---------------------------------------------------------------------------------------------
// Tickets

function hmac(secret: string, text: string): Buffer {
  return createHmac('sha256', secret).update(text).digest()
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The code painted on the photos: the first 8 hex characters, upper case, of an HMAC of the ticket's fields. */
export function ticketCode(secret: string, fields: SignTicketFields): string {
  return hmac(secret, `code\n${signTicketCanonical(fields)}`)
    .toString('hex')
    .slice(0, SIGN_CODE_LENGTH)
    .toUpperCase()
}

/** '<fields as base64url JSON>.<HMAC of the canonical ticket, base64url>' */
export function encodeTicket(secret: string, fields: SignTicketFields): string {
  return `${Buffer.from(JSON.stringify(fields)).toString('base64url')}.${hmac(secret, signTicketCanonical(fields)).toString('base64url')}`
}

const nullableId = z.number().int().positive().nullable()
const nullableCoord = z.number().finite().nullable()
const ticketFieldsSchema = z.object({
  nonce: z.string().min(16).max(64),
  user_id: z.number().int().positive(),
  group_id: z.number().int().positive(),
  time: z.string().max(40),
  expires_at: z.string().max(40),
  lng: z.number().finite(),
  lat: z.number().finite(),
  target: z.object({
    kind: z.enum(['marker', 'task', 'free']),
    marker_id: nullableId,
    task_id: nullableId,
    name: z.string().max(1000),
    lng: nullableCoord,
    lat: nullableCoord,
  }),
  distance: z.number().int().nonnegative().nullable(),
  radius: z.number().int().positive(),
})

/** The fields of a ticket this server signed and nobody changed since; null for anything else. */
export function decodeTicket(secret: string, ticket: string): SignTicketFields | null {
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(ticket)
  if (!match) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8'))
  } catch {
    return null
  }
  const fields = ticketFieldsSchema.safeParse(parsed)
  if (!fields.success) return null
  // Compared as text: base64url's spare bits must not let another spelling of the same ticket through.
  const expected = hmac(secret, signTicketCanonical(fields.data)).toString('base64url')
  if (!sameBytes(Buffer.from(expected), Buffer.from(match[2]))) return null
  return Buffer.from(JSON.stringify(parsed)).toString('base64url') === match[1] ? fields.data : null
}

const FREE_TARGET: SignTarget = { kind: 'free', marker_id: null, task_id: null, name: '', lng: null, lat: null }

/** The target of a check-in; NOT_FOUND / VALIDATION for a marker or task that cannot be checked in at. */
export async function resolveTarget(db: Executor, who: MapCaller, input: { marker_id?: number; task_id?: number }): Promise<SignTarget> {
  if (input.marker_id !== undefined && input.task_id !== undefined) throw fail(ErrCode.VALIDATION, SIGN_MSG.targetTwice)
  if (input.marker_id !== undefined) {
    // The map-data visibility of /api/marker/getbyid: a live marker on a layer the caller may read.
    const [marker] = await markersByIds(db, who.groupId, [input.marker_id], await usableLayerIds(db, who))
    if (!marker) throw fail(ErrCode.NOT_FOUND, SIGN_MSG.markerNotFound)
    const at = markerSignPoint(marker.type as MarkerType, marker.points)
    if (!at) throw fail(ErrCode.VALIDATION, SIGN_MSG.markerNoPosition)
    return { kind: 'marker', marker_id: marker.id, task_id: null, name: marker.name, lng: at.lng, lat: at.lat }
  }
  if (input.task_id !== undefined) {
    const task = await taskTargetOf(db, who.groupId, input.task_id)
    if (!task) throw fail(ErrCode.NOT_FOUND, SIGN_MSG.taskNotFound)
    // Only those who may complete the task check in for it (services/tasks.ts decides).
    await requireTaskCheckIn(db, who, task.id)
    if (task.state === 'done') throw fail(ErrCode.VALIDATION, SIGN_MSG.taskDone)
    const base = { kind: 'task' as const, task_id: task.id }
    // The task's marker as it is now (the task tells its assignees where it is, whatever layers they read).
    const marker = task.marker_id !== null ? await findMarker(db, who.groupId, task.marker_id) : undefined
    const markerAt = marker ? markerSignPoint(marker.type as MarkerType, marker.points) : null
    if (marker && markerAt) return { ...base, marker_id: marker.id, name: marker.name, lng: markerAt.lng, lat: markerAt.lat }
    const placeAt = taskPlacePoint(task)
    if (placeAt) return { ...base, marker_id: null, name: task.place_name || task.title, lng: placeAt.lng, lat: placeAt.lat }
    // Neither a marker nor a place: the task is done wherever its assignee is.
    return { ...base, marker_id: null, name: task.title, lng: null, lat: null }
  }
  return FREE_TARGET
}

/** The group's sign radius in metres (system_config.sign_radius, SPEC 9 default 300). */
export async function radiusInForce(db: Executor): Promise<number> {
  return signRadius((await getSystemConfig(db)).sign_radius)
}

async function nicknameOf(db: Executor, userId: number): Promise<string> {
  return (await nicknamesOf(db, [userId])).get(userId) ?? ''
}

/** Checks the position against the target and the radius and issues the ticket; nothing is stored. */
export async function issueTicket(env: SignEnv, caller: Caller, input: SignTicketRequest): Promise<SignTicket> {
  const who = await mapCaller(env.db.kysely, caller)
  const db = env.db.kysely
  const problem = checkSignPosition(input)
  if (problem) throw fail(ErrCode.VALIDATION, problem)
  const position = signPosition(input)
  const target = await resolveTarget(db, who, input)
  const radius = await radiusInForce(db)
  const check = checkSignDistance(position, target, radius)
  if (!check.ok) throw fail(ErrCode.VALIDATION, check.error)
  const now = env.clock.now()
  const fields: SignTicketFields = {
    nonce: randomBytes(16).toString('base64url'),
    user_id: who.userId,
    group_id: who.groupId,
    time: now.toISOString(),
    expires_at: ticketExpiry(now).toISOString(),
    lng: position.lng,
    lat: position.lat,
    target,
    distance: check.distance,
    radius,
  }
  const secret = await env.secret()
  return {
    ticket: encodeTicket(secret, fields),
    time: fields.time,
    expires_at: fields.expires_at,
    code: ticketCode(secret, fields),
    user: { id: who.userId, nickname: await nicknameOf(db, who.userId) },
    lng: fields.lng,
    lat: fields.lat,
    target,
    distance: fields.distance,
    radius,
  }
}

// ---------------------------------------------------------------------------------------------
// Records

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

/** The storage key of an upload's url ('/files/<key>'), or null. */
function keyOfUrl(url: string): string | null {
  const key = url.startsWith('/files/') ? url.slice('/files/'.length) : ''
  return isStorageKey(key) ? key : null
}

/** The signed fields as the row holds them now. */
function recordFieldsOfRow(row: SignRow): SignRecordFields {
  return {
    group_id: row.group_id,
    user_id: row.user_id,
    nonce: row.nonce,
    code: row.code,
    time: row.time,
    lng: row.lng,
    lat: row.lat,
    addr: row.addr,
    target: targetOfRow(row),
    distance: row.distance,
    radius: row.radius,
    photos: parsePhotos(row.photos),
    remark: row.remark,
  }
}

export function recordSignature(secret: string, fields: SignRecordFields): string {
  return hmac(secret, signRecordCanonical(fields)).toString('hex')
}

async function inPool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await work(items[i])
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}

/** Files read at once while verifying a page. */
const HASH_CONCURRENCY = 4

/**
 * Why the row no longer holds: its fields changed ('record') or, when `photos` asks for the files
 * to be read, a photo file changed or went ('photo'); null when it holds.
 */
async function verifyRow(storage: FileStorage, secret: string, row: SignRow, photos: boolean): Promise<SignVerifyFailure | null> {
  const fields = recordFieldsOfRow(row)
  if (!sameBytes(Buffer.from(recordSignature(secret, fields)), Buffer.from(row.signature))) return 'record'
  if (!photos) return null
  const intact = await inPool(fields.photos, HASH_CONCURRENCY, async (p) => {
    const key = keyOfUrl(p.url)
    const data = key ? await storage.get(key) : null
    return !!data && sha256(data) === p.sha256
  })
  return intact.every(Boolean) ? null : 'photo'
}

/** The rows as records, each verified again (the signature; the photo files too with `photos`), in the rows' order. */
export async function presentSignRows(env: Pick<SignEnv, 'db' | 'storage' | 'secret'>, rows: SignRow[], photos: boolean): Promise<SignRecord[]> {
  if (rows.length === 0) return []
  const [names, secret] = await Promise.all([
    nicknamesOf(
      env.db.kysely,
      rows.map((r) => r.user_id),
    ),
    env.secret(),
  ])
  const failures = await inPool(rows, HASH_CONCURRENCY, (row) => verifyRow(env.storage, secret, row, photos))
  return rows.map((row, i) => presentSign(row, names.get(row.user_id) ?? '', failures[i]))
}

/** Check-ins of the group by id, verified, without a permission check (the task slice shows a task's proof to whoever sees the task). */
export async function signRecordsByIds(env: Pick<SignEnv, 'db' | 'storage' | 'secret'>, groupId: number, ids: number[]): Promise<Map<number, SignRecord>> {
  const records = await presentSignRows(env, await signsByIds(env.db.kysely, groupId, [...new Set(ids)]), true)
  return new Map(records.map((r) => [r.id, r]))
}

/** signRecordsByIds as the task slice asks for a task's proof (services/tasks.ts TaskProofs). */
export function signProofs(env: Pick<SignEnv, 'db' | 'storage' | 'secret'>): TaskProofs {
  return (groupId, signIds) => signRecordsByIds(env, groupId, signIds)
}

/** Each photo: an upload of the caller's group, read from storage and hashed; VALIDATION otherwise. */
async function hashPhotos(env: SignEnv, who: MapCaller, urls: string[]): Promise<{ url: string; sha256: string }[]> {
  if (urls.length > SIGN_PHOTOS_MAX) throw fail(ErrCode.VALIDATION, SIGN_MSG.photosTooMany(SIGN_PHOTOS_MAX))
  if (new Set(urls).size !== urls.length) throw fail(ErrCode.VALIDATION, SIGN_MSG.photoDuplicate)
  const uploads = new Map((await uploadsOfGroupWithUrls(env.db.kysely, who.groupId, urls)).map((u) => [u.url, u.path]))
  if (urls.some((url) => !uploads.has(url))) throw fail(ErrCode.VALIDATION, SIGN_MSG.photoNotOfGroup)
  const hashes = await inPool(urls, HASH_CONCURRENCY, async (url) => {
    const data = await env.storage.get(uploads.get(url) as string)
    return data ? sha256(data) : null
  })
  if (hashes.some((h) => h === null)) throw fail(ErrCode.VALIDATION, SIGN_MSG.photoMissing)
  return urls.map((url, i) => ({ url, sha256: hashes[i] as string }))
}

/** Stores the check-in of a valid, unexpired, unused ticket of the caller; nothing is written when a rule says no. */
export async function saveSign(env: SignEnv, caller: Caller, input: SignSaveRequest): Promise<SignRecord> {
  const who = await mapCaller(env.db.kysely, caller)
  const secret = await env.secret()
  const ticket = decodeTicket(secret, input.ticket)
  if (!ticket) throw fail(ErrCode.VALIDATION, SIGN_MSG.ticketInvalid)
  if (ticket.user_id !== who.userId || ticket.group_id !== who.groupId) throw fail(ErrCode.FORBIDDEN, SIGN_MSG.ticketNotYours)
  const now = env.clock.now()
  if (isTicketExpired(ticket.expires_at, now)) throw fail(ErrCode.EXPIRED, SIGN_MSG.ticketExpired(SIGN_TICKET_TTL_S / 60))
  const db = env.db.kysely
  if (await signNonceUsed(db, ticket.nonce)) throw fail(ErrCode.CONFLICT, SIGN_MSG.ticketUsed)
  const photos = await hashPhotos(env, who, input.photos)
  const fields: SignRecordFields = {
    group_id: who.groupId,
    user_id: who.userId,
    nonce: ticket.nonce,
    code: ticketCode(secret, ticket),
    time: ticket.time,
    lng: ticket.lng,
    lat: ticket.lat,
    addr: input.addr,
    target: ticket.target,
    distance: ticket.distance,
    radius: ticket.radius,
    photos,
    remark: input.remark ?? '',
  }
  const row = await insertSignOnce(db, {
    group_id: fields.group_id,
    user_id: fields.user_id,
    nonce: fields.nonce,
    code: fields.code,
    target_kind: fields.target.kind,
    marker_id: fields.target.marker_id,
    task_id: fields.target.task_id,
    target_name: fields.target.name,
    target_lng: fields.target.lng,
    target_lat: fields.target.lat,
    lng: fields.lng,
    lat: fields.lat,
    addr: fields.addr,
    distance: fields.distance,
    radius: fields.radius,
    photos: JSON.stringify(photos),
    remark: fields.remark,
    time: fields.time,
    created_at: now.toISOString(),
    signature: recordSignature(secret, fields),
  })
  // Another save of the same ticket got there first (the unique nonce).
  if (!row) throw fail(ErrCode.CONFLICT, SIGN_MSG.ticketUsed)
  // Just hashed and signed: it holds.
  return presentSign(row, await nicknameOf(db, who.userId), null)
}

/** Every check-in of the group: managers and holders of the group-level sign_list. */
export function seesAllSigns(who: MapCaller): boolean {
  return canInGroup(who.actor, PERM.SIGN_LIST)
}

/** The check-ins the caller asks for and may see, newest first, each verified. */
export async function listSigns(env: SignEnv, caller: Caller, req: SignListRequest): Promise<Paged<SignRecord>> {
  const who = await mapCaller(env.db.kysely, caller)
  const all = req.scope === 'all'
  if (all && !seesAllSigns(who)) throw fail(ErrCode.FORBIDDEN, SIGN_MSG.listForbidden)
  if (!all && req.user_id !== undefined && req.user_id !== who.userId) throw fail(ErrCode.FORBIDDEN, SIGN_MSG.listForbidden)
  const range = signTimeRange(req.date_from, req.date_to)
  if (!range.ok) throw fail(ErrCode.VALIDATION, range.error)
  const { rows, total } = await signsOfGroup(
    env.db.kysely,
    who.groupId,
    {
      user_id: all ? req.user_id : who.userId,
      marker_id: req.marker_id,
      task_id: req.task_id,
      from: range.from ?? undefined,
      before: range.before ?? undefined,
    },
    { pageindex: req.pageindex ?? 1, pagesize: req.pagesize ?? SIGN_LIST_PAGE_DEFAULT },
  )
  // A page of up to 100 records with up to SIGN_PHOTOS_MAX photos each: their files are not read here.
  return { list: await presentSignRows(env, rows, false), total }
}

/** One check-in: the caller's own, or any of the group's for those who see all; NOT_FOUND otherwise. */
export async function getSign(env: SignEnv, caller: Caller, id: number): Promise<SignRecord> {
  const who = await mapCaller(env.db.kysely, caller)
  const row = await findSign(env.db.kysely, who.groupId, id)
  if (!row || (row.user_id !== who.userId && !seesAllSigns(who))) throw fail(ErrCode.NOT_FOUND, SIGN_MSG.notFound)
  return (await presentSignRows(env, [row], true))[0]
}

/** Every check-in of these groups (account deletion; the photos are uploads of the groups, not removed here). */
export async function purgeGroupSigns(trx: Executor, groupIds: number[]): Promise<void> {
  await deleteSignsOfGroups(trx, groupIds)
}
