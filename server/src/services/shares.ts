/**
 * Share links (SPEC 3 "Share", 5, 6, 7, 9). The rules are src/domain/share.ts's (form
 * validation, expiry by the China day, the display mask) and permissions.ts's (who may share which
 * layer); this module applies them to the database.
 *
 * Decisions where the brief left room:
 * - Saving, listing and deleting shares need the share module (the app hides every share entry
 *   without it); opening a link does not: a share made while the module was held keeps working.
 * - A share belongs to its group, not to its creator: it keeps working when the creator leaves the
 *   group, loses layer_share on the layer, or deletes their account (the op_user nickname is then
 *   empty). It dies when it is deleted (hard delete: the row goes) or when its group no longer
 *   exists. A layer share shows the shared layers that are still live; a marker share the shared
 *   markers that are still live (wherever they have moved within the group); a route share (issue
 *   8, services/routes.ts) its routes that still exist (/api/route/get/share) and, with the route
 *   markers on (flag 128), the live markers its stops were taken from and their layers.
 * - Password: trimmed (as the form checks it), stored as scrypt(pwd, 16-byte salt) per share.
 *   Checking it inserts the try first and counts it with the client's others in the window, so
 *   that concurrent tries (several processes) cannot pass the wait together; a right password or
 *   a try refused by the wait is removed again (only wrong passwords count). Tries count per share
 *   and client address only: a share-wide limit would let one attacker lock every viewer out.
 * - A proof is `<expiry ms>.<base64url HMAC-SHA256(secret, share id, salt, expiry)>`: it is worth
 *   nothing for another share, and a new password would void it.
 * - check/pwd on a share without a password returns a proof at once (nothing to guess).
 */
import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'
import { ErrCode, type MarkerPageFormat, type Paged } from '../../../types/api'
import type { Share, ShareKind, ShareMeta, SharedLayer, SharedMapStyle } from '../../../types/share'
import type { SharedRoute } from '../../../types/routes'
import { SHARE_BTN } from '../../../src/domain/constants'
import { MSG } from '../../../src/domain/messages'
import { FEATURES } from '../../../src/domain/moduleGate'
import { SHARE_MSG } from '../../../src/domain/shareMessages'
import { SHARE_KIND, checkShareForm, hasShareFlag, isShareExpired, shanghaiDate } from '../../../src/domain/share'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { findGroupById } from '../db/groups'
import { layersOfGroup, type LayerRow } from '../db/layers'
import { markersByIds, nicknamesOf, pageOfMarkerRecords, pageOfMarkersJson, pageOfMarkersWithIds, sharedMarkerLayerIds, type Page } from '../db/markers'
import { secretNamed } from '../db/server-secrets'
import { deleteTriesBefore, deleteTriesOfShares, deleteTry, insertTry, triesOfClientBefore } from '../db/share-pwd-tries'
import { RATE_MSG } from '../../../src/domain/consentMessages'
import { deleteShare, deleteSharesOfGroups, findShare, insertShare, shareIdsOfGroups, sharesOfGroup, type ShareRow } from '../db/shares'
import { findStyleOf, stylesOfLayers } from '../db/title-styles'
import type { GroupRow } from '../db/schema'
import { BusinessError, fail } from '../envelope'
import { presentMarkerColumns, presentMarkers } from '../presenters/mapdata'
import { encodeMarkerColumns } from '../../../src/domain/markerColumns'
import { isFolder } from '../../../src/domain/markerKinds'
import { presentShare, presentShareMeta, presentSharedLayer, shareDataIds } from '../presenters/shares'
import { DEFAULT_TITLE_STYLE } from './title-style'
import type { MarkerPage } from './markers'
import type { Caller } from '../auth'
import { isManager, mapCaller, requireFeature, shareableLayers, type MapCaller } from './permissions'
import { requireShareableRouteIds, routeStopMarkerIds, routesOfShare } from './routes'

/** 12 random bytes: 16 URL-safe characters (DESIGN 9: at least 10, not enumerable). */
const SHARE_ID_BYTES = 12
/** How long a password proof is worth. */
export const SHARE_PROOF_TTL_MS = 2 * 3600_000
/** How long a wrong password try is remembered. */
export const SHARE_PWD_WINDOW_MS = 24 * 3600_000
/** Wrong tries on one share from one client address before each further try has to wait. */
export const SHARE_PWD_FREE_TRIES = 5
/** The wait before the first try beyond the free ones; each further wrong try doubles it. */
export const SHARE_PWD_FIRST_DELAY_MS = 30_000
/** The longest wait: about 24 guesses a day from one address once there. */
export const SHARE_PWD_MAX_DELAY_MS = 3600_000

/**
 * How long a client must wait after its latest wrong try, having made `wrong` of them: nothing for
 * the free tries, then a delay that doubles with each (counted per share and client address, so
 * that one attacker slows only themself, never the share's other viewers).
 */
export function sharePwdDelayMs(wrong: number): number {
  if (wrong < SHARE_PWD_FREE_TRIES) return 0
  return Math.min(SHARE_PWD_FIRST_DELAY_MS * 2 ** (wrong - SHARE_PWD_FREE_TRIES), SHARE_PWD_MAX_DELAY_MS)
}

const SCRYPT_KEY_BYTES = 32
const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>

export interface ShareInput {
  name: string
  show_btn: number
  need_pwd: boolean
  pwd?: string
  /** null or absent: no expiry (the switch is off); a string: the switch is on. */
  exp?: string | null
  data_ids: number[]
  type: ShareKind
  style?: SharedMapStyle | null
}

function shareNotFound(): BusinessError {
  return fail(ErrCode.NOT_FOUND, SHARE_MSG.notFound)
}

async function hashPassword(pwd: string, salt: Buffer): Promise<Buffer> {
  return scryptAsync(pwd, salt, SCRYPT_KEY_BYTES)
}

// ---------------------------------------------------------------------------------------------
// Creating, listing and deleting (members of the group)

/** Refuses (nothing written) unless every id is a live non-folder layer of the caller's group that they may share. */
async function requireShareableLayerIds(db: Executor, who: MapCaller, ids: number[]): Promise<void> {
  const [all, shareable] = await Promise.all([layersOfGroup(db, who.groupId), shareableLayers(db, who)])
  const byId = new Map(all.map((l) => [l.id, l]))
  const allowed = new Set(shareable.map((l) => l.id))
  for (const id of ids) {
    const layer = byId.get(id)
    if (!layer) throw fail(ErrCode.NOT_FOUND, MSG.notFound)
    if (isFolder(layer.type)) throw fail(ErrCode.VALIDATION, SHARE_MSG.folderNotShareable)
    if (!allowed.has(id)) throw fail(ErrCode.FORBIDDEN, SHARE_MSG.layerNotShareable)
  }
}

/** Refuses unless every id is a live marker of the caller's group on a layer they may share. */
async function requireShareableMarkerIds(db: Executor, who: MapCaller, ids: number[]): Promise<void> {
  const [all, shareable] = await Promise.all([layersOfGroup(db, who.groupId), shareableLayers(db, who)])
  const found = await markersByIds(
    db,
    who.groupId,
    ids,
    all.map((l) => l.id),
  )
  if (found.length !== ids.length) throw fail(ErrCode.NOT_FOUND, MSG.notFound)
  const allowed = new Set(shareable.map((l) => l.id))
  if (found.some((m) => !allowed.has(m.layer_id))) throw fail(ErrCode.FORBIDDEN, SHARE_MSG.markerNotShareable)
}

/** Creates a share of the caller's group and returns its id: the share module first, then what may be shared. */
export async function saveShare(db: Database, caller: Caller, input: ShareInput, now: Date): Promise<string> {
  const who = await mapCaller(db.kysely, caller)
  requireFeature(who, FEATURES.share)
  const useExp = input.exp !== undefined && input.exp !== null
  const problem = checkShareForm({ name: input.name, data_ids: input.data_ids, need_pwd: input.need_pwd, pwd: input.pwd ?? '', use_exp: useExp, exp: input.exp ?? '' }, shanghaiDate(now))
  if (problem) throw fail(ErrCode.VALIDATION, problem)
  const withStyle = hasShareFlag(input.show_btn, SHARE_BTN.MAP_STYLE)
  if (withStyle && !input.style) throw fail(ErrCode.VALIDATION, SHARE_MSG.styleInvalid)

  const pwd = input.need_pwd ? (input.pwd ?? '').trim() : ''
  const salt = input.need_pwd ? randomBytes(16) : null
  const hash = salt ? await hashPassword(pwd, salt) : null
  const id = randomBytes(SHARE_ID_BYTES).toString('base64url')

  return inTransaction(db, async (trx) => {
    if (input.type === SHARE_KIND.layer) await requireShareableLayerIds(trx, who, input.data_ids)
    else if (input.type === SHARE_KIND.marker) await requireShareableMarkerIds(trx, who, input.data_ids)
    else await requireShareableRouteIds(trx, who, input.data_ids, hasShareFlag(input.show_btn, SHARE_BTN.ROUTE_MARKERS))
    await insertShare(trx, {
      id,
      group_id: who.groupId,
      op_user_id: who.userId,
      name: input.name.trim(),
      type: input.type,
      show_btn: input.show_btn,
      need_pwd: input.need_pwd ? 1 : 0,
      pwd_hash: hash ? hash.toString('hex') : null,
      pwd_salt: salt ? salt.toString('hex') : null,
      exp: useExp ? input.exp! : null,
      data_ids: JSON.stringify(input.data_ids),
      style: withStyle ? JSON.stringify(input.style) : null,
      created_at: now.toISOString(),
    })
    return id
  })
}

export interface ShareListQuery {
  op_userid?: number
  type?: ShareKind
}

/** The group's shares, newest first: managers all (op_userid filters), others only their own. */
export async function listShares(db: Executor, caller: Caller, query: ShareListQuery, page: Page, now: Date): Promise<Paged<Share>> {
  const who = await mapCaller(db, caller)
  requireFeature(who, FEATURES.share)
  const opUserId = isManager(who) ? query.op_userid : who.userId
  const { rows, total } = await sharesOfGroup(db, who.groupId, { op_user_id: opUserId, type: query.type }, page)
  const names = await nicknamesOf(
    db,
    rows.map((r) => r.op_user_id),
  )
  return { list: rows.map((r) => presentShare(r, names.get(r.op_user_id) ?? '', now)), total }
}

/** The creator or a manager deletes a share of the group; the link stops working at once. */
export async function deleteShareOf(db: Database, caller: Caller, id: string): Promise<void> {
  const who = await mapCaller(db.kysely, caller)
  requireFeature(who, FEATURES.share)
  await inTransaction(db, async (trx) => {
    const row = await findShare(trx, id)
    if (!row || row.group_id !== who.groupId) throw shareNotFound()
    if (row.op_user_id !== who.userId && !isManager(who)) throw fail(ErrCode.FORBIDDEN, MSG.forbidden)
    await deleteShare(trx, id)
    await deleteTriesOfShares(trx, [id])
  })
}

/** Every share of these groups and their password tries (account deletion). */
export async function purgeGroupShares(trx: Executor, groupIds: number[]): Promise<void> {
  await deleteTriesOfShares(trx, await shareIdsOfGroups(trx, groupIds))
  await deleteSharesOfGroups(trx, groupIds)
}

// ---------------------------------------------------------------------------------------------
// The public side (anybody holding the link)

export interface LiveShare {
  row: ShareRow
  group: GroupRow
}

/** A share that exists, whose group exists, and that has not expired; NOT_FOUND or EXPIRED otherwise. */
export async function liveShare(db: Executor, id: string, now: Date): Promise<LiveShare> {
  const row = await findShare(db, id)
  if (!row) throw shareNotFound()
  const group = await findGroupById(db, row.group_id)
  if (!group) throw shareNotFound()
  if (isShareExpired(row.exp, now)) throw fail(ErrCode.EXPIRED, SHARE_MSG.expired)
  return { row, group }
}

export async function shareMeta(db: Executor, id: string, now: Date): Promise<ShareMeta> {
  const { row, group } = await liveShare(db, id, now)
  const names = await nicknamesOf(db, [row.op_user_id])
  return presentShareMeta(row, group.name, names.get(row.op_user_id) ?? '', now)
}

/** Where the key that signs proofs comes from: the configured secret, else one generated once and kept in the database. */
export function shareSecretSource(db: Executor, configured: string | undefined, clock: { now(): Date }): () => Promise<string> {
  let secret: Promise<string> | undefined
  return () => {
    if (configured) return Promise.resolve(configured)
    secret ??= secretNamed(db, 'share_proof', randomBytes(32).toString('base64url'), clock.now().toISOString()).catch((err) => {
      secret = undefined
      throw err
    })
    return secret
  }
}

function proofSignature(secret: string, row: ShareRow, expiresMs: number): string {
  return createHmac('sha256', secret)
    .update(`share-proof\n${row.id}\n${row.pwd_salt ?? ''}\n${expiresMs}`)
    .digest('base64url')
}

export function makeProof(secret: string, row: ShareRow, now: Date): { proof: string; expires_at: string } {
  const expiresMs = now.getTime() + SHARE_PROOF_TTL_MS
  return { proof: `${expiresMs}.${proofSignature(secret, row, expiresMs)}`, expires_at: new Date(expiresMs).toISOString() }
}

/** The proof was signed for this share and has not lapsed. */
export function proofHolds(secret: string, row: ShareRow, proof: string | undefined, now: Date): boolean {
  if (!proof) return false
  const match = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(proof)
  if (!match) return false
  const expiresMs = Number(match[1])
  if (!(expiresMs > now.getTime())) return false
  const expected = Buffer.from(proofSignature(secret, row, expiresMs))
  const given = Buffer.from(match[2])
  return expected.length === given.length && timingSafeEqual(expected, given)
}

/** The client's address as the tries table keeps it. */
function clientKey(ip: string): string {
  return createHash('sha256').update(ip).digest('hex')
}

/**
 * Checks a share's password and returns a proof for this share. Wrong: VALIDATION; from a client
 * address that has tried wrong too often, before its wait is over: RATE_LIMITED with the seconds
 * left (sharePwdDelayMs), the right password included.
 */
export async function checkSharePassword(db: Executor, secret: () => Promise<string>, id: string, pwd: string, ip: string, now: Date): Promise<{ proof: string; expires_at: string }> {
  const { row } = await liveShare(db, id, now)
  if (row.need_pwd !== 1 || !row.pwd_hash || !row.pwd_salt) return makeProof(await secret(), row, now)

  const since = new Date(now.getTime() - SHARE_PWD_WINDOW_MS).toISOString()
  const client = clientKey(ip)
  await deleteTriesBefore(db, since)
  const seq = await insertTry(db, row.id, client, now.toISOString())
  const earlier = await triesOfClientBefore(db, row.id, client, seq, since)
  const waitMs = earlier.last ? Date.parse(earlier.last) + sharePwdDelayMs(earlier.count) - now.getTime() : 0
  if (waitMs > 0) {
    await deleteTry(db, seq)
    throw fail(ErrCode.RATE_LIMITED, RATE_MSG.sharePwdWait(Math.ceil(waitMs / 1000)))
  }
  const expected = Buffer.from(row.pwd_hash, 'hex')
  const given = await hashPassword(pwd.trim(), Buffer.from(row.pwd_salt, 'hex'))
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw fail(ErrCode.VALIDATION, SHARE_MSG.pwdWrong)
  await deleteTry(db, seq)
  return makeProof(await secret(), row, now)
}

/** A live share whose password (if any) the caller has proved; FORBIDDEN with pwdNeeded otherwise. */
export async function openShare(db: Executor, secret: () => Promise<string>, id: string, proof: string | undefined, now: Date): Promise<LiveShare> {
  const share = await liveShare(db, id, now)
  if (share.row.need_pwd === 1 && !proofHolds(await secret(), share.row, proof, now)) throw fail(ErrCode.FORBIDDEN, SHARE_MSG.pwdNeeded)
  return share
}

/**
 * The markers a share shows by id: a marker share its markers; a route share with the route
 * markers on (flag 128) the markers its routes' stops were taken from, otherwise none; null for a
 * layer share (everything in its layers).
 */
async function markerIdsOfShare(db: Executor, row: ShareRow): Promise<number[] | null> {
  if (row.type === SHARE_KIND.layer) return null
  if (row.type === SHARE_KIND.marker) return shareDataIds(row)
  return hasShareFlag(row.show_btn, SHARE_BTN.ROUTE_MARKERS) ? routeStopMarkerIds(db, row.group_id, shareDataIds(row)) : []
}

/**
 * The live non-folder layers a share shows, in display order: a layer share its layers, a marker
 * or route share the layers holding its live markers; `layerIds` only narrows.
 */
async function layersOfShare(db: Executor, row: ShareRow, layerIds: number[] | undefined): Promise<LayerRow[]> {
  const layers = (await layersOfGroup(db, row.group_id)).filter((l) => !isFolder(l.type))
  const markerIds = await markerIdsOfShare(db, row)
  const shown = new Set(markerIds === null ? shareDataIds(row) : await sharedMarkerLayerIds(db, row.group_id, markerIds))
  const narrow = layerIds ? new Set(layerIds) : null
  return layers.filter((l) => shown.has(l.id) && (!narrow || narrow.has(l.id)))
}

export async function sharedLayers(db: Executor, share: LiveShare, layerIds: number[] | undefined): Promise<SharedLayer[]> {
  const layers = await layersOfShare(db, share.row, layerIds)
  const groupId = share.row.group_id
  const [own, fallback] = await Promise.all([
    stylesOfLayers(
      db,
      groupId,
      layers.map((l) => l.id),
    ),
    findStyleOf(db, groupId, null),
  ])
  const styleOf = new Map(own.map((s) => [s.layer_id, s]))
  const base = fallback ?? DEFAULT_TITLE_STYLE
  return layers.map((l) => {
    const s = styleOf.get(l.id) ?? base
    return presentSharedLayer(l, { font_size: s.font_size, color: s.color, bg_color: s.bg_color, padding: s.padding, border_weight: s.border_weight, border_color: s.border_color })
  })
}

export interface SharedMarkerQuery {
  marker_ids?: number[]
  layer_ids?: number[]
}

/**
 * One page of the share's live markers (ordered by layer, then id) and their count, as JSON bytes of
 * the SPEC list or in columns (types/api.ts MarkerColumnsPage); marker_ids and layer_ids only narrow.
 */
export async function sharedMarkersPage(db: Executor, share: LiveShare, query: SharedMarkerQuery, page: Page, format?: MarkerPageFormat): Promise<MarkerPage> {
  const layers = await layersOfShare(db, share.row, query.layer_ids)
  const layerIds = layers.map((l) => l.id)
  const groupId = share.row.group_id
  if (share.row.type === SHARE_KIND.layer && !query.marker_ids) {
    const total = layers.reduce((sum, l) => sum + l.marker_count, 0)
    if (format === 'columns') {
      const { rows } = await pageOfMarkerRecords(db, groupId, layerIds, page)
      return { columns: presentMarkerColumns(rows, new Map(), total, { hideCreator: true }) }
    }
    return { listJson: await pageOfMarkersJson(db, groupId, layerIds, page, { hideCreator: true }), total }
  }
  let ids = await markerIdsOfShare(db, share.row)
  if (query.marker_ids) {
    const wanted = new Set(query.marker_ids)
    ids = ids ? ids.filter((id) => wanted.has(id)) : query.marker_ids
  }
  const { rows, total } = await pageOfMarkersWithIds(db, groupId, ids ?? [], layerIds, page)
  // A public share does not tell strangers who in the team made each marker, nor the creating phone's id.
  const list = presentMarkers(
    rows.map((r) => ({ ...r, client_id: null })),
    new Map(),
  ).map((m) => ({ ...m, creator_id: 0, creator_name: '' }))
  return format === 'columns' ? { columns: encodeMarkerColumns(list, total) } : { listJson: Buffer.from(JSON.stringify(list)), total }
}

/** /api/layer/get/share: the share opened (its password proof when it has one), then its layers. */
export async function layersOfOpenedShare(db: Executor, secret: () => Promise<string>, id: string, proof: string | undefined, layerIds: number[] | undefined, now: Date): Promise<SharedLayer[]> {
  return sharedLayers(db, await openShare(db, secret, id, proof, now), layerIds)
}

/** /api/marker/get/share: the share opened (its password proof when it has one), then one page of its markers. */
export async function markersOfOpenedShare(
  db: Executor,
  secret: () => Promise<string>,
  id: string,
  proof: string | undefined,
  query: SharedMarkerQuery,
  page: Page,
  now: Date,
  format?: MarkerPageFormat,
): Promise<MarkerPage> {
  return sharedMarkersPage(db, await openShare(db, secret, id, proof, now), query, page, format)
}

/** /api/route/get/share: the share opened (its password proof when it has one), then its routes; none when it is not a route share. */
export async function routesOfOpenedShare(db: Executor, secret: () => Promise<string>, id: string, proof: string | undefined, now: Date): Promise<SharedRoute[]> {
  const share = await openShare(db, secret, id, proof, now)
  if (share.row.type !== SHARE_KIND.route) return []
  return routesOfShare(db, share.row.group_id, shareDataIds(share.row))
}
