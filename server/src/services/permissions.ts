/**
 * The one place that decides what a caller may do in their selected group. mapCaller loads the
 * caller's standing once per call (the TeamContext: administrator or group manager, department,
 * managed departments, the group's department tree and department layer grants, role modules) and
 * every decision below is made from it by the pure rules of src/domain/teams.ts and
 * src/domain/permissions.ts:
 * - the administrator (owner) and group managers may do everything;
 * - a department manager acts fully on the layers of the departments they manage and of those
 *   departments' descendants;
 * - other members hold, on a layer, their own layer_auth opts plus what their department and its
 *   ancestors were granted (department_layer_auth); any opt lets them see the layer and read its
 *   markers;
 * - group-level actions that are not about one layer (layer_add at the root) need a manager or
 *   the id among the member's role modules (Actor.modules);
 * - the calls behind a module (share, log, routing, dispatch: moduleGate.ts FEATURES) need the
 *   module among the caller's effective ids, and the feature's action when it has one, whatever
 *   the caller holds on layers; they are refused with the message the app shows on the feature's
 *   page. Administrators and managers hold every module the tier enables, and nobody holds a VIP
 *   module on the free tier.
 *
 * Everything is scoped to the caller's selected group: a layer of another group is NOT_FOUND,
 * exactly like an unknown id, so that ids of other groups cannot be probed. A caller who is no
 * longer a member of their selected group (removed, quit) is FORBIDDEN at once.
 */
import { ErrCode } from '../../../types/api'
import { MSG } from '../../../src/domain/messages'
import { featureRefusal, type FeatureGate } from '../../../src/domain/moduleGate'
import { canInGroup, canOnLayer, isGroupManager, type Actor, type PermissionId } from '../../../src/domain/permissions'
import { authorityDepartmentIds, effectiveModuleIds, layerAuthority, managedLayerIds, shareableLayerIds, type LayerAuthority, type TeamMember, type TeamStructure } from '../../../src/domain/teams'
import { isFolder } from '../../../src/domain/markerKinds'
import type { Caller } from '../auth'
import type { Executor } from '../db/connection'
import { departmentIdsManagedBy } from '../db/department-managers'
import { departmentGrantsOfGroup } from '../db/department-layer-auth'
import { departmentsOfGroup } from '../db/departments'
import { findGroupById } from '../db/groups'
import { findJoin } from '../db/joins'
import { optsOfMember, optsOnLayer } from '../db/layer-auth'
import { findLayer, layersOfGroup, type LayerRow } from '../db/layers'
import { moduleIdsOfUser } from '../db/role-modules'
import type { GroupRow, JoinRow } from '../db/schema'
import { StandingCache } from '../db/standing-cache'
import { findUserById } from '../db/users'
import { BusinessError, UnauthorizedError } from '../envelope'

/** The caller's standing in their selected group, loaded once per call. */
export interface TeamContext {
  join: JoinRow
  member: TeamMember
  structure: TeamStructure
  authority: LayerAuthority
  /** The catalogue ids the caller holds at the group's level (effectiveModuleIds). */
  modules: string[]
  /** Departments under the caller's authority as a department manager (managed ones and everything below). */
  authorityDepartmentIds: Set<number>
  /** Layers the caller acts on fully as a department manager. */
  managedLayerIds: Set<number>
}

/** The caller as map data sees them: their selected group and their standing in it. */
export interface MapCaller {
  userId: number
  groupId: number
  group: GroupRow
  actor: Actor
  team: TeamContext
}

/** Loads the member's standing in the group (one query per table, run once per call). */
export async function loadTeamContext(db: Executor, group: GroupRow, join: JoinRow): Promise<TeamContext> {
  const [departments, grants, managed, roleModules] = await Promise.all([
    departmentsOfGroup(db, group.id),
    departmentGrantsOfGroup(db, group.id),
    departmentIdsManagedBy(db, group.id, join.user_id),
    moduleIdsOfUser(db, group.id, join.user_id),
  ])
  const member: TeamMember = {
    is_admin: group.owner_id === join.user_id,
    is_manager: join.is_manager === 1,
    department_id: join.department_id,
    managed_department_ids: managed,
    role_module_ids: roleModules,
  }
  const structure: TeamStructure = { departments, grants }
  return {
    join,
    member,
    structure,
    authority: layerAuthority(member, structure),
    modules: effectiveModuleIds(member, group.level),
    authorityDepartmentIds: new Set(authorityDepartmentIds(departments, managed)),
    managedLayerIds: managedLayerIds(structure, managed),
  }
}

// Shared by the requests of one user: nothing may change a MapCaller once made. A refusal is not kept.
const standings = new StandingCache<number, MapCaller>()

/** The caller's selected group and standing; NOT_FOUND without a group, FORBIDDEN when no longer a member. */
export async function mapCaller(db: Executor, caller: Caller | MapCaller): Promise<MapCaller> {
  if ('groupId' in caller) return caller
  return standings.get(db, caller.userId, () => loadMapCaller(db, caller))
}

async function loadMapCaller(db: Executor, caller: Caller): Promise<MapCaller> {
  const user = await findUserById(db, caller.userId)
  if (!user) throw new UnauthorizedError()
  return callerInGroup(db, user.id, user.select_groupid)
}

/**
 * The user's standing in one given group (not cached), whichever group they have selected now: a
 * sync socket keeps the permissions of the group it said hello for. NOT_FOUND without the group,
 * FORBIDDEN when not a member of it.
 */
export async function callerInGroup(db: Executor, userId: number, groupId: number): Promise<MapCaller> {
  const user = { id: userId }
  const group = groupId ? await findGroupById(db, groupId) : undefined
  if (!group) throw new BusinessError(ErrCode.NOT_FOUND, MSG.noGroup)
  const join = await findJoin(db, group.id, user.id)
  if (!join) throw forbidden()
  const team = await loadTeamContext(db, group, join)
  return {
    userId: user.id,
    groupId: group.id,
    group,
    actor: { is_admin: team.member.is_admin, is_manager: team.member.is_manager, modules: team.modules },
    team,
  }
}

/** The same caller with their standing loaded again (after a change within the call to what it is made of, e.g. department grants). */
export async function reloadCaller(db: Executor, who: MapCaller): Promise<MapCaller> {
  const team = await loadTeamContext(db, who.group, who.team.join)
  return { ...who, actor: { ...who.actor, modules: team.modules }, team }
}

/** The administrator or a group manager. */
export function isManager(who: MapCaller): boolean {
  return isGroupManager(who.actor)
}

export function isAdministrator(who: MapCaller): boolean {
  return who.actor.is_admin
}

/** Manages at least one department of the group. */
export function isDepartmentManager(who: MapCaller): boolean {
  return who.team.authorityDepartmentIds.size > 0
}

/** Acts fully on the layer: a manager, or the layer is within the caller's department-manager authority. */
export function managesLayer(who: MapCaller, layerId: number): boolean {
  return who.team.authority.isManagerOf(layerId)
}

/** The caller's effective permission ids on a layer, given their own layer_auth opts on it. */
export function effectiveOpts(who: MapCaller, layerId: number, ownOpts: readonly string[]): PermissionId[] {
  return who.team.authority.optsOn(layerId, ownOpts)
}

/** Seeing a layer and reading its markers: any effective opt (managers hold them all). */
export function canRead(who: MapCaller, layerId: number, ownOpts: readonly string[]): boolean {
  return effectiveOpts(who, layerId, ownOpts).length > 0
}

export function forbidden(): BusinessError {
  return new BusinessError(ErrCode.FORBIDDEN, MSG.forbidden)
}

export function notFound(): BusinessError {
  return new BusinessError(ErrCode.NOT_FOUND, MSG.notFound)
}

/** Managing the team and group-wide settings: the administrator or a group manager. */
export function requireManager(who: MapCaller): void {
  if (!isManager(who)) throw forbidden()
}

/** The administrator only (setting managers, removing a manager, renaming the group). */
export function requireAdministrator(who: MapCaller): void {
  if (!isAdministrator(who)) throw forbidden()
}

/** A group-level action that is not about one layer: a manager, or the id among the caller's role modules. */
export function requireInGroup(who: MapCaller, perm: PermissionId): void {
  if (!canInGroup(who.actor, perm)) throw forbidden()
}

/** A call behind a feature's module (and its action, when it has one); FORBIDDEN with the page gate's message otherwise. */
export function requireFeature(who: MapCaller, gate: FeatureGate): void {
  const refusal = featureRefusal(gate, who.team.modules, who.group.level)
  if (refusal) throw new BusinessError(ErrCode.FORBIDDEN, refusal)
}

export interface LayerAccess {
  layer: LayerRow
  /** The caller's effective opts on the layer (own, department chain, or all for managers of it). */
  opts: PermissionId[]
  /** Administrator, group manager or department manager of the layer. */
  manager: boolean
  caller: MapCaller
}

/** A live layer of the caller's group that they may see; NOT_FOUND or FORBIDDEN otherwise. */
export async function layerAccess(db: Executor, caller: Caller | MapCaller, layerId: number): Promise<LayerAccess> {
  const who = await mapCaller(db, caller)
  const layer = await findLayer(db, who.groupId, layerId)
  return accessTo(who, layer, layer ? await optsOnLayer(db, who.groupId, layerId, who.userId) : [])
}

/** layerAccess's rule on rows already read: the live layer (undefined when none) and the caller's own opts on it. */
export function accessTo(who: MapCaller, layer: LayerRow | undefined, ownOpts: readonly string[]): LayerAccess {
  if (!layer) throw notFound()
  const opts = effectiveOpts(who, layer.id, ownOpts)
  if (opts.length === 0) throw forbidden()
  return { layer, opts, manager: managesLayer(who, layer.id), caller: who }
}

/** layerAccess, and the caller may do `perm` on the layer (canOnLayer); FORBIDDEN otherwise. */
export async function requireOnLayer(db: Executor, caller: Caller | MapCaller, layerId: number, perm: PermissionId): Promise<LayerAccess> {
  return requirePermission(await layerAccess(db, caller, layerId), perm)
}

/** The access, when it allows `perm` (canOnLayer); FORBIDDEN otherwise. */
export function requirePermission(access: LayerAccess, perm: PermissionId): LayerAccess {
  if (!canOnLayer(access.caller.actor, access.opts, perm)) throw forbidden()
  return access
}

/** The caller's effective opts on every layer of the group, by layer id (a function: layers without a row count too). */
export async function optsResolver(db: Executor, who: MapCaller): Promise<(layerId: number) => PermissionId[]> {
  const own = await optsOfMember(db, who.groupId, who.userId)
  return (layerId) => effectiveOpts(who, layerId, own.get(layerId) ?? [])
}

export interface VisibleLayer {
  layer: LayerRow
  /** Effective opts. */
  opts: PermissionId[]
  /** Administrator, group manager or department manager of the layer. */
  manager: boolean
}

/** The group's live layers the caller may see, in display order, with the caller's effective opts on each. */
export async function visibleLayers(db: Executor, who: MapCaller): Promise<VisibleLayer[]> {
  const [layers, optsOf] = await Promise.all([layersOfGroup(db, who.groupId), optsResolver(db, who)])
  return layers.map((layer) => ({ layer, opts: optsOf(layer.id), manager: managesLayer(who, layer.id) })).filter((v) => v.opts.length > 0)
}

/**
 * The ids of the caller's visible non-folder layers (holding markers) on which they may `perm`
 * (or read, without one), limited to `wanted` when given. Ids the caller cannot use are left out.
 */
export async function usableLayerIds(db: Executor, who: MapCaller, wanted?: readonly number[], perm?: PermissionId): Promise<number[]> {
  const wantedSet = wanted ? new Set(wanted) : null
  return (await visibleLayers(db, who)).filter((v) => !isFolder(v.layer.type) && (!wantedSet || wantedSet.has(v.layer.id)) && (!perm || canOnLayer(who.actor, v.opts, perm))).map((v) => v.layer.id)
}

/**
 * SPEC 6 share visibility (shareableLayerIds): the group's live layers the caller may share, in
 * display order: managers all; a department manager the layers of their departments (and those
 * departments' descendants); others the layers whose effective opts include layer_share.
 */
export async function shareableLayers(db: Executor, who: MapCaller): Promise<LayerRow[]> {
  const [layers, own] = await Promise.all([layersOfGroup(db, who.groupId), optsOfMember(db, who.groupId, who.userId)])
  const ids = new Set(shareableLayerIds(who.team.member, who.team.structure, layers, own))
  return layers.filter((l) => ids.has(l.id))
}
