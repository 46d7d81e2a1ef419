/**
 * Saved routes (RouteApi in types/routes.ts). The rules are src/domain/routes.ts's (names,
 * stops, straight-line legs); who may do what is decided here from the caller's standing:
 * - every call needs module_routing among the caller's effective modules (teams.ts: a VIP module,
 *   so a free-tier group has none, administrator included); saving needs routing_add, deleting
 *   routing_delete, a route share routing_share (managers hold every enabled id);
 * - managers see and change every route of the group, other members only the routes they created;
 *   any other route (another member's, another group's, an unknown id) is NOT_FOUND alike;
 * - a marker stop must be a live marker on a layer the caller may read; its name and position are
 *   read from the marker when the route is planned or saved (a later move of the marker does not
 *   move a saved route; saving it again does).
 *
 * Legs are measured here, never taken from the client: along roads (driving) or paths (walking)
 * by the map provider when one is configured (AMap's web service, AMAP_WEB_KEY), one request per
 * leg, cached; a leg the provider does not answer falls back to the straight line with an
 * average-speed estimate.
 */
import { ErrCode, type Paged } from '../../../types/api'
import type { RouteLeg, RoutePlan, RouteStop, RouteStopInput, SavedRoute, SharedRoute, TravelMode } from '../../../types/routes'
import type { LngLat } from '../../../src/domain/geo'
import { MSG } from '../../../src/domain/messages'
import { FEATURES } from '../../../src/domain/moduleGate'
import { PERM, type PermissionId } from '../../../src/domain/permissions'
import { ROUTE_MSG } from '../../../src/domain/routeMessages'
import { ROUTES_PER_GROUP_MAX, checkRouteName, checkStops, markerStopPoint, roundCoord, stopName, straightLeg, sumLegs } from '../../../src/domain/routes'
import type { MarkerType } from '../../../types/mapdata'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { layersOfGroup } from '../db/layers'
import { markersByIds, nicknamesOf, type Page } from '../db/markers'
import { countRoutesOfGroup, deleteRoute, deleteRoutesOfGroups, findRoute, insertRoute, routesByIds, routesOfGroup, updateRoute, type RouteRow } from '../db/routes'
import { BusinessError, fail } from '../envelope'
import type { Caller } from '../auth'
import { isManager, mapCaller, requireFeature, shareableLayers, usableLayerIds, type MapCaller } from './permissions'
import { lockGroup } from '../db/groups'
import { routeSharesOfGroup } from '../db/shares'
import { SHARE_BTN } from '../../../src/domain/constants'
import { hasShareFlag } from '../../../src/domain/share'
import { parseJsonArray, presentRoute, sharedRouteOf } from '../presenters/route'

function routeNotFound(): BusinessError {
  return fail(ErrCode.NOT_FOUND, ROUTE_MSG.notFound)
}

// ---------------------------------------------------------------------------------------------
// Measuring legs

/** A leg measured along roads or paths. */
export interface MeasuredLeg {
  distance: number
  duration: number
}

/** A map provider's route planning, one leg at a time. */
export interface LegProvider {
  /** The leg along roads (driving) or paths (walking); null when the provider has no answer for it. */
  measure(mode: TravelMode, from: LngLat, to: LngLat): Promise<MeasuredLeg | null>
}

type Fetch = (url: string, init?: { signal?: AbortSignal }) => Promise<{ ok: boolean; json(): Promise<unknown> }>

/** How long one provider request may take before the leg falls back to the straight line. */
export const PROVIDER_TIMEOUT_MS = 5000
/** Provider requests in flight at once for one route. */
const PROVIDER_CONCURRENCY = 4

const AMAP_DIRECTION_URL: Record<TravelMode, string> = {
  driving: 'https://restapi.amap.com/v3/direction/driving',
  walking: 'https://restapi.amap.com/v3/direction/walking',
}

/** AMap's web service (v3 direction): distance in metres and duration in seconds of its first path, as strings. */
export function amapLegProvider(key: string, fetchImpl: Fetch = fetch as unknown as Fetch, timeoutMs = PROVIDER_TIMEOUT_MS): LegProvider {
  return {
    async measure(mode, from, to) {
      const query = new URLSearchParams({ origin: `${from.lng},${from.lat}`, destination: `${to.lng},${to.lat}`, key, output: 'JSON' })
      if (mode === 'driving') query.set('extensions', 'base')
      try {
        const res = await fetchImpl(`${AMAP_DIRECTION_URL[mode]}?${query}`, { signal: AbortSignal.timeout(timeoutMs) })
        if (!res.ok) return null
        return parseAmapDirection(await res.json())
      } catch {
        return null
      }
    },
  }
}

/** The first path of an AMap direction answer, or null (status other than '1', no path, figures that are not numbers). */
export function parseAmapDirection(body: unknown): MeasuredLeg | null {
  const b = body as { status?: unknown; route?: { paths?: { distance?: unknown; duration?: unknown }[] } } | null
  if (!b || String(b.status) !== '1') return null
  const path = b.route?.paths?.[0]
  const distance = Number(path?.distance)
  const duration = Number(path?.duration)
  if (!path || !Number.isFinite(distance) || !Number.isFinite(duration) || distance < 0 || duration < 0) return null
  return { distance: Math.round(distance), duration: Math.round(duration) }
}

/** Remembers the provider's answers (the edit page asks again on every change); failures are not kept. */
export function cachedLegProvider(inner: LegProvider, maxEntries = 5000): LegProvider {
  const cache = new Map<string, MeasuredLeg>()
  return {
    async measure(mode, from, to) {
      const key = `${mode}|${from.lng},${from.lat}|${to.lng},${to.lat}`
      const hit = cache.get(key)
      if (hit) return hit
      const leg = await inner.measure(mode, from, to)
      if (leg) {
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string)
        cache.set(key, leg)
      }
      return leg
    },
  }
}

/** The provider the environment configures (AMAP_WEB_KEY: an AMap web-service key), or null. */
export function legProviderFromEnv(env: NodeJS.ProcessEnv): LegProvider | null {
  const key = env.AMAP_WEB_KEY?.trim()
  return key ? cachedLegProvider(amapLegProvider(key)) : null
}

async function inPool<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await work(items[i], i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}

/** The legs between consecutive stops: the provider's where it answers, the straight line otherwise. */
export async function measureLegs(provider: LegProvider | null, mode: TravelMode, stops: readonly LngLat[]): Promise<RouteLeg[]> {
  const pairs = stops.slice(1).map((to, i) => [stops[i], to] as const)
  return inPool(pairs, PROVIDER_CONCURRENCY, async ([from, to]) => {
    const measured = provider ? await provider.measure(mode, from, to) : null
    return measured ? { ...measured, source: 'provider' as const } : straightLeg(from, to, mode)
  })
}

// ---------------------------------------------------------------------------------------------
// Who may do what

function holds(who: MapCaller, id: PermissionId): boolean {
  return who.team.modules.includes(id)
}

const ACTION_REFUSED: Partial<Record<PermissionId, string>> = {
  [PERM.ROUTING_ADD]: ROUTE_MSG.addForbidden,
  [PERM.ROUTING_DELETE]: ROUTE_MSG.deleteForbidden,
  [PERM.ROUTING_SHARE]: ROUTE_MSG.shareForbidden,
}

/** module_routing (the tier's and the caller's), then the action when one is given; FORBIDDEN otherwise. */
export function requireRouting(who: MapCaller, action?: PermissionId): void {
  requireFeature(who, FEATURES.routing)
  if (action && !holds(who, action)) throw fail(ErrCode.FORBIDDEN, ACTION_REFUSED[action] ?? MSG.forbidden)
}

/** Managers see every route of the group; others the ones they created. */
function sees(who: MapCaller, row: RouteRow): boolean {
  return isManager(who) || row.creator_id === who.userId
}

async function visibleRoute(db: Executor, who: MapCaller, id: number): Promise<RouteRow> {
  const row = await findRoute(db, who.groupId, id)
  if (!row || !sees(who, row)) throw routeNotFound()
  return row
}

// ---------------------------------------------------------------------------------------------
// Presenting

async function presentRows(db: Executor, rows: RouteRow[]): Promise<SavedRoute[]> {
  const names = await nicknamesOf(
    db,
    rows.map((r) => r.creator_id),
  )
  return rows.map((r) => presentRoute(r, names.get(r.creator_id) ?? ''))
}

// ---------------------------------------------------------------------------------------------
// Stops

/**
 * The stops as saved: marker stops read from live markers the caller may read (NOT_FOUND naming
 * the stop otherwise), map points with their name or their coordinates; then the domain's checks.
 */
export async function resolveStops(db: Executor, who: MapCaller, inputs: readonly RouteStopInput[]): Promise<RouteStop[]> {
  const markerIds = [...new Set(inputs.flatMap((s) => (s.marker_id !== undefined ? [s.marker_id] : [])))]
  const markers = markerIds.length ? await markersByIds(db, who.groupId, markerIds, await usableLayerIds(db, who)) : []
  const byId = new Map(markers.map((m) => [m.id, m]))
  const stops = inputs.map((input, i): RouteStop => {
    if (input.marker_id !== undefined) {
      const marker = byId.get(input.marker_id)
      if (!marker) throw fail(ErrCode.NOT_FOUND, ROUTE_MSG.markerStopMissing(i + 1))
      const at = markerStopPoint(marker.type as MarkerType, marker.points)
      if (!at) throw fail(ErrCode.VALIDATION, `${ROUTE_MSG.stopInvalid(i + 1)}：${ROUTE_MSG.markerNoPosition}`)
      return { marker_id: marker.id, name: stopName(marker.name, at), lng: at.lng, lat: at.lat }
    }
    const at = { lng: roundCoord(input.lng ?? NaN), lat: roundCoord(input.lat ?? NaN) }
    return { marker_id: null, name: stopName(input.name, at), lng: at.lng, lat: at.lat }
  })
  const problem = checkStops(stops)
  if (problem) throw fail(ErrCode.VALIDATION, problem)
  return stops
}

// ---------------------------------------------------------------------------------------------
// Calls

export interface RouteInput {
  id?: number
  name: string
  mode: TravelMode
  stops: RouteStopInput[]
}

/** The routes the caller sees, last changed first; kw matches the name. */
export async function listRoutes(db: Executor, caller: Caller, kw: string | undefined, page: Page): Promise<Paged<SavedRoute>> {
  const who = await mapCaller(db, caller)
  requireRouting(who)
  const { rows, total } = await routesOfGroup(db, who.groupId, { creator_id: isManager(who) ? undefined : who.userId, kw: kw || undefined }, page)
  return { list: await presentRows(db, rows), total }
}

export async function getRoute(db: Executor, caller: Caller, id: number): Promise<SavedRoute> {
  const who = await mapCaller(db, caller)
  requireRouting(who)
  return (await presentRows(db, [await visibleRoute(db, who, id)]))[0]
}

/** Measures the legs through the stops without saving anything. */
export async function planRoute(db: Executor, provider: LegProvider | null, caller: Caller, mode: TravelMode, inputs: RouteStopInput[]): Promise<RoutePlan & { provider: boolean }> {
  const who = await mapCaller(db, caller)
  requireRouting(who)
  const stops = await resolveStops(db, who, inputs)
  const legs = await measureLegs(provider, mode, stops)
  return { mode, stops, legs, ...sumLegs(legs), provider: !!provider }
}

/** Creates or updates a route (the legs measured anew); nothing is written when a rule says no. */
export async function saveRoute(db: Database, provider: LegProvider | null, caller: Caller, input: RouteInput, now: Date): Promise<SavedRoute> {
  const who = await mapCaller(db.kysely, caller)
  requireRouting(who, PERM.ROUTING_ADD)
  const nameProblem = checkRouteName(input.name)
  if (nameProblem) throw fail(ErrCode.VALIDATION, nameProblem)
  const before = input.id !== undefined ? await visibleRoute(db.kysely, who, input.id) : null
  const stops = await resolveStops(db.kysely, who, input.stops)
  if (before) await requireSharesKeepScope(db.kysely, who, before, stops)
  // Measured outside the transaction: provider requests must not hold the database.
  const legs = await measureLegs(provider, input.mode, stops)
  const at = now.toISOString()
  const fields = { name: input.name.trim(), mode: input.mode, stops: JSON.stringify(stops), legs: JSON.stringify(legs), ...sumLegs(legs), updated_at: at }
  const row = await inTransaction(db, async (trx) => {
    if (input.id !== undefined) {
      await visibleRoute(trx, who, input.id)
      return updateRoute(trx, who.groupId, input.id, fields)
    }
    await lockGroup(trx, who.groupId)
    if ((await countRoutesOfGroup(trx, who.groupId)) >= ROUTES_PER_GROUP_MAX) throw fail(ErrCode.LIMIT_REACHED, ROUTE_MSG.tooManyRoutes(ROUTES_PER_GROUP_MAX))
    return insertRoute(trx, { ...fields, group_id: who.groupId, creator_id: who.userId, created_at: at })
  })
  return (await presentRows(db.kysely, [row]))[0]
}

export async function deleteRouteOf(db: Database, caller: Caller, id: number): Promise<void> {
  const who = await mapCaller(db.kysely, caller)
  requireRouting(who, PERM.ROUTING_DELETE)
  await inTransaction(db, async (trx) => {
    await visibleRoute(trx, who, id)
    await deleteRoute(trx, who.groupId, id)
  })
}

/** Every route of these groups (account deletion). */
export async function purgeGroupRoutes(trx: Executor, groupIds: number[]): Promise<void> {
  await deleteRoutesOfGroups(trx, groupIds)
}

// ---------------------------------------------------------------------------------------------
// Route shares (share type 3; services/shares.ts asks these)

function markerIdsOfRows(rows: readonly RouteRow[]): number[] {
  const ids = new Set<number>()
  for (const row of rows) for (const s of parseJsonArray<RouteStop>(row.stops)) if (typeof s.marker_id === 'number') ids.add(s.marker_id)
  return [...ids]
}

/**
 * Refuses (nothing written) unless the caller may share routes and sees every route; with the
 * route markers on (flag 128), the live markers among the stops must lie on layers they may share.
 */
export async function requireShareableRouteIds(db: Executor, who: MapCaller, ids: number[], withMarkers: boolean): Promise<void> {
  requireRouting(who, PERM.ROUTING_SHARE)
  const rows = await routesByIds(db, who.groupId, ids)
  const byId = new Map(rows.map((r) => [r.id, r]))
  for (const id of ids) {
    const row = byId.get(id)
    if (!row || !sees(who, row)) throw routeNotFound()
  }
  if (!withMarkers) return
  const [all, shareable] = await Promise.all([layersOfGroup(db, who.groupId), shareableLayers(db, who)])
  const live = await markersByIds(
    db,
    who.groupId,
    markerIdsOfRows(rows),
    all.map((l) => l.id),
  )
  const allowed = new Set(shareable.map((l) => l.id))
  if (live.some((m) => !allowed.has(m.layer_id))) throw fail(ErrCode.FORBIDDEN, ROUTE_MSG.shareMarkersForbidden)
}

/**
 * A route shared with its stop markers (flag 128) serves every marker its stops are taken from: an
 * edit that adds a stop from a layer the editor may not share would widen the share after the fact,
 * so it is refused (FORBIDDEN, nothing written) while such a share exists. Stops kept from before
 * pass: they were shared already.
 */
async function requireSharesKeepScope(db: Executor, who: MapCaller, before: RouteRow, stops: readonly RouteStop[]): Promise<void> {
  const had = new Set(markerIdsOfRows([before]))
  const added = [...new Set(stops.flatMap((s) => (typeof s.marker_id === 'number' && !had.has(s.marker_id) ? [s.marker_id] : [])))]
  if (added.length === 0) return
  const shares = (await routeSharesOfGroup(db, who.groupId)).filter((row) => hasShareFlag(row.show_btn, SHARE_BTN.ROUTE_MARKERS) && parseJsonArray<number>(row.data_ids).includes(before.id))
  if (shares.length === 0) return
  const [all, shareable] = await Promise.all([layersOfGroup(db, who.groupId), shareableLayers(db, who)])
  const allowed = new Set(shareable.map((l) => l.id))
  const live = await markersByIds(
    db,
    who.groupId,
    added,
    all.map((l) => l.id),
  )
  if (live.some((m) => !allowed.has(m.layer_id))) throw fail(ErrCode.FORBIDDEN, ROUTE_MSG.sharedRouteMarkerForbidden)
}

/** The markers the stops of these routes were taken from (a route share's route markers). */
export async function routeStopMarkerIds(db: Executor, groupId: number, routeIds: number[]): Promise<number[]> {
  return markerIdsOfRows(await routesByIds(db, groupId, routeIds))
}

/** The routes of a share that still exist, in the share's order, without their creator. */
export async function routesOfShare(db: Executor, groupId: number, routeIds: number[]): Promise<SharedRoute[]> {
  const byId = new Map((await routesByIds(db, groupId, routeIds)).map((r) => [r.id, r]))
  return routeIds.flatMap((id) => {
    const row = byId.get(id)
    return row ? [sharedRouteOf(row)] : []
  })
}
