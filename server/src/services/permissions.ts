/**
 * The one place that decides what a caller may do with map data, using the decisions of
 * src/domain/permissions.ts: the group administrator (owner) and managers may do everything;
 * other members need the permission id among their opts on the layer (layer_auth). Any opt on a
 * layer lets a member see it and read its markers.
 *
 * Everything is scoped to the caller's selected group: a layer of another group is NOT_FOUND,
 * exactly like an unknown id, so that ids of other groups cannot be probed.
 */
import { ErrCode } from '../../../types/api'
import { MSG } from '../../../src/domain/messages'
import { LAYER_PERMISSIONS, canOnLayer, isGroupManager, type Actor, type PermissionId } from '../../../src/domain/permissions'
import type { Caller } from '../auth'
import type { Executor } from '../db/connection'
import { findGroupById } from '../db/groups'
import { findJoin } from '../db/joins'
import { optsOfMember, optsOnLayer } from '../db/layer-auth'
import { findLayer, layersOfGroup, type LayerRow } from '../db/layers'
import type { GroupRow } from '../db/schema'
import { findUserById } from '../db/users'
import { BusinessError, UnauthorizedError } from '../envelope'

/** The caller as map data sees them: their selected group and their standing in it. */
export interface MapCaller {
  userId: number
  groupId: number
  group: GroupRow
  actor: Actor
}

/** The caller's selected group and standing; NOT_FOUND without a group, FORBIDDEN when no longer a member. */
export async function mapCaller(db: Executor, caller: Caller | MapCaller): Promise<MapCaller> {
  if ('groupId' in caller) return caller
  const user = await findUserById(db, caller.userId)
  if (!user) throw new UnauthorizedError()
  const group = user.select_groupid ? await findGroupById(db, user.select_groupid) : undefined
  if (!group) throw new BusinessError(ErrCode.NOT_FOUND, MSG.noGroup)
  const join = await findJoin(db, group.id, user.id)
  if (!join) throw new BusinessError(ErrCode.FORBIDDEN, MSG.forbidden)
  return { userId: user.id, groupId: group.id, group, actor: { is_admin: group.owner_id === user.id, is_manager: join.is_manager === 1 } }
}

export function isManager(who: MapCaller): boolean {
  return isGroupManager(who.actor)
}

/** Managers hold every layer permission; others what layer_auth grants them. */
export function effectiveOpts(who: MapCaller, opts: readonly string[]): string[] {
  return isManager(who) ? [...LAYER_PERMISSIONS] : [...opts]
}

/** Seeing a layer and reading its markers: a manager, or any opt on the layer. */
export function canRead(who: MapCaller, opts: readonly string[]): boolean {
  return isManager(who) || opts.length > 0
}

export function forbidden(): BusinessError {
  return new BusinessError(ErrCode.FORBIDDEN, MSG.forbidden)
}

export function notFound(): BusinessError {
  return new BusinessError(ErrCode.NOT_FOUND, MSG.notFound)
}

export function requireManager(who: MapCaller): void {
  if (!isManager(who)) throw forbidden()
}

export interface LayerAccess {
  layer: LayerRow
  /** The caller's own opts on the layer (from layer_auth; managers may hold none and still do everything). */
  opts: string[]
  /** Administrator or group manager. */
  manager: boolean
  caller: MapCaller
}

/** A live layer of the caller's group that they may see; NOT_FOUND or FORBIDDEN otherwise. */
export async function layerAccess(db: Executor, caller: Caller | MapCaller, layerId: number): Promise<LayerAccess> {
  const who = await mapCaller(db, caller)
  const layer = await findLayer(db, who.groupId, layerId)
  if (!layer) throw notFound()
  const opts = await optsOnLayer(db, who.groupId, layerId, who.userId)
  if (!canRead(who, opts)) throw forbidden()
  return { layer, opts, manager: isManager(who), caller: who }
}

/** layerAccess, and the caller may do `perm` on the layer (canOnLayer); FORBIDDEN otherwise. */
export async function requireOnLayer(db: Executor, caller: Caller | MapCaller, layerId: number, perm: PermissionId): Promise<LayerAccess> {
  const access = await layerAccess(db, caller, layerId)
  if (!canOnLayer(access.caller.actor, access.opts, perm)) throw forbidden()
  return access
}

export interface VisibleLayer {
  layer: LayerRow
  opts: string[]
}

/** The group's live layers the caller may see, in display order, with the caller's opts on each. */
export async function visibleLayers(db: Executor, who: MapCaller): Promise<VisibleLayer[]> {
  const [layers, optsByLayer] = await Promise.all([layersOfGroup(db, who.groupId), optsOfMember(db, who.groupId, who.userId)])
  return layers.map((layer) => ({ layer, opts: optsByLayer.get(layer.id) ?? [] })).filter((v) => canRead(who, v.opts))
}

/**
 * The ids of the caller's visible non-folder layers (holding markers) on which they may `perm`
 * (or read, without one), limited to `wanted` when given. Ids the caller cannot use are left out.
 */
export async function usableLayerIds(db: Executor, who: MapCaller, wanted?: readonly number[], perm?: PermissionId): Promise<number[]> {
  const wantedSet = wanted ? new Set(wanted) : null
  return (await visibleLayers(db, who))
    .filter((v) => v.layer.type !== 0 && (!wantedSet || wantedSet.has(v.layer.id)) && (!perm || canOnLayer(who.actor, v.opts, perm)))
    .map((v) => v.layer.id)
}
