/**
 * Teams (SPEC 1, 3, 6): the group-level catalogue of modules and group actions with the
 * tier applied, the department tree, and what a member may do given their standing (administrator,
 * group manager, department manager), their department and its ancestors' layer grants, and their
 * roles. Pure: the server loads the rows once per call and asks these functions; the client uses
 * the same answers to hide what the user cannot do.
 */
import type { ModuleItem } from '../../types/teams'
import { LAYER_PERMISSIONS, PERM, PERMISSION_CATALOGUE, isGroupManager, type Actor, type PermissionId } from './permissions'

/** Department name length limit. */
export const DEPARTMENT_NAME_MAX = 20
/** Role name length limit. */
export const ROLE_NAME_MAX = 20
/** Invite codes: 8 characters without look-alikes (0/O, 1/I/L), about 40 bits. */
export const INVITE_CODE_LENGTH = 8
export const INVITE_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'

/** Type 1 of the catalogue: feature modules. */
export const MODULE_IDS: readonly PermissionId[] = [PERM.MODULE_MAP, PERM.MODULE_LOGISTICS, PERM.MODULE_ROUTING, PERM.MODULE_DISPATCH, PERM.MODULE_PRINT, PERM.MODULE_LOG, PERM.MODULE_SHARE]

/** Type 2 of the catalogue: group actions that are not about one layer. */
export const GROUP_ACTION_IDS: readonly PermissionId[] = [PERM.LAYER_ADD, PERM.SIGN_LIST, PERM.ROUTING_ADD, PERM.ROUTING_DELETE, PERM.ROUTING_SHARE, PERM.OPLOG, PERM.TASK_ADD, PERM.TASK_DELETE]

/** Modules locked on the free tier (level 0). */
export const VIP_MODULE_IDS: readonly PermissionId[] = [PERM.MODULE_LOGISTICS, PERM.MODULE_ROUTING, PERM.MODULE_DISPATCH, PERM.MODULE_PRINT]

/** Always granted; cannot be unticked. */
export const MANDATORY_MODULE_IDS: readonly PermissionId[] = [PERM.MODULE_MAP]

/** One catalogue entry before the tier is applied. */
export type CatalogueEntry = Omit<ModuleItem, 'enabled'>

function entry(id: PermissionId, type: 1 | 2): CatalogueEntry {
  const item = PERMISSION_CATALOGUE.find((p) => p.id === id)
  return { id, name: item?.name ?? id, type, vip: VIP_MODULE_IDS.includes(id), mandatory: MANDATORY_MODULE_IDS.includes(id) }
}

/** The group-level catalogue: the 7 modules, then the 8 group actions. */
export const GROUP_CATALOGUE: readonly CatalogueEntry[] = [...MODULE_IDS.map((id) => entry(id, 1)), ...GROUP_ACTION_IDS.map((id) => entry(id, 2))]

/** Whether an id belongs to the group-level catalogue (what a role may hold). */
export function isCatalogueId(id: string): boolean {
  return GROUP_CATALOGUE.some((e) => e.id === id)
}

/** SPEC 6: the free tier lists the VIP modules too, locked (enabled false); any paid or trial level enables everything. */
export function catalogueForLevel(level: number): ModuleItem[] {
  return GROUP_CATALOGUE.map((e) => ({ ...e, enabled: !e.vip || level > 0 }))
}

/** The ids of the catalogue usable at this level, in catalogue order. */
export function enabledCatalogueIds(level: number): string[] {
  return catalogueForLevel(level)
    .filter((m) => m.enabled)
    .map((m) => m.id)
}

// ---------------------------------------------------------------------------------------------
// The department tree

export interface DepartmentNode {
  id: number
  /** 0 at the top. */
  parent_id: number
}

function childrenIndex(departments: readonly DepartmentNode[]): Map<number, number[]> {
  const children = new Map<number, number[]>()
  for (const d of departments) {
    const list = children.get(d.parent_id)
    if (list) list.push(d.id)
    else children.set(d.parent_id, [d.id])
  }
  return children
}

/** `id` and every department below it, at any depth; safe against parent loops. */
export function descendantIds(departments: readonly DepartmentNode[], id: number): number[] {
  const children = childrenIndex(departments)
  const out = [id]
  const seen = new Set(out)
  for (let i = 0; i < out.length; i++) {
    for (const child of children.get(out[i]) ?? []) {
      if (seen.has(child)) continue
      seen.add(child)
      out.push(child)
    }
  }
  return out
}

/** `id`, its parent, the parent's parent ... up to the top (unknown parents end the chain); safe against loops. */
export function ancestorIds(departments: readonly DepartmentNode[], id: number): number[] {
  const parentOf = new Map(departments.map((d) => [d.id, d.parent_id]))
  const out = [id]
  const seen = new Set(out)
  let current = parentOf.get(id)
  while (current !== undefined && current !== 0 && !seen.has(current) && parentOf.has(current)) {
    out.push(current)
    seen.add(current)
    current = parentOf.get(current)
  }
  return out
}

/** Moving department `id` under `newParentId` would put it under itself or one of its descendants. */
export function wouldCycle(departments: readonly DepartmentNode[], id: number, newParentId: number): boolean {
  if (newParentId === 0) return false
  return descendantIds(departments, id).includes(newParentId)
}

/** SPEC 6: a department manager's authority extends to child departments: the managed ones and everything below them. */
export function authorityDepartmentIds(departments: readonly DepartmentNode[], managedIds: readonly number[]): number[] {
  const known = new Set(departments.map((d) => d.id))
  const out = new Set<number>()
  for (const id of managedIds) if (known.has(id)) for (const d of descendantIds(departments, id)) out.add(d)
  return [...out]
}

// ---------------------------------------------------------------------------------------------
// What a member may do

/** The permission ids one department holds on one layer (department_layer_auth). */
export interface DepartmentLayerGrant {
  department_id: number
  layer_id: number
  opts: readonly string[]
}

/** The group's departments and their layer grants. */
export interface TeamStructure {
  departments: readonly DepartmentNode[]
  grants: readonly DepartmentLayerGrant[]
}

/** A member's standing in the group. */
export interface TeamMember extends Actor {
  /** 0 when in no department. */
  department_id: number
  /** Departments the member manages directly. */
  managed_department_ids: readonly number[]
  /** Catalogue ids granted by the member's roles. */
  role_module_ids: readonly string[]
}

/** Manages at least one (existing) department. */
export function isDepartmentManager(member: Pick<TeamMember, 'managed_department_ids'>, team: Pick<TeamStructure, 'departments'>): boolean {
  return authorityDepartmentIds(team.departments, member.managed_department_ids).length > 0
}

/** The layers a department manager acts on fully: layer_ids of every department they manage and of those departments' descendants. */
export function managedLayerIds(team: TeamStructure, managedDepartmentIds: readonly number[]): Set<number> {
  const departments = new Set(authorityDepartmentIds(team.departments, managedDepartmentIds))
  return new Set(team.grants.filter((g) => departments.has(g.department_id)).map((g) => g.layer_id))
}

function inCatalogueOrder(ids: Iterable<string>): PermissionId[] {
  const set = new Set(ids)
  return LAYER_PERMISSIONS.filter((p) => set.has(p))
}

/** Union of the opts granted to the department and each of its ancestors (a sub-department is part of its parent), by layer. */
export function departmentOptsByLayer(team: TeamStructure, departmentId: number): Map<number, PermissionId[]> {
  if (!departmentId) return new Map()
  const chain = new Set(ancestorIds(team.departments, departmentId).filter((id) => team.departments.some((d) => d.id === id)))
  const byLayer = new Map<number, Set<string>>()
  for (const g of team.grants) {
    if (!chain.has(g.department_id)) continue
    let set = byLayer.get(g.layer_id)
    if (!set) byLayer.set(g.layer_id, (set = new Set()))
    for (const o of g.opts) set.add(o)
  }
  return new Map([...byLayer].map(([layerId, set]) => [layerId, inCatalogueOrder(set)]))
}

/** A member's authority over layers, computed once from their standing and the group's structure. */
export interface LayerAuthority {
  /** Administrator, group manager, or department manager of the layer: every layer permission on it. */
  isManagerOf(layerId: number): boolean
  /** Effective permission ids on the layer, given the member's own layer_auth opts on it, in catalogue order. */
  optsOn(layerId: number, ownOpts: readonly string[]): PermissionId[]
}

export function layerAuthority(member: TeamMember, team: TeamStructure): LayerAuthority {
  const everything = isGroupManager(member)
  const managed = everything ? new Set<number>() : managedLayerIds(team, member.managed_department_ids)
  const viaDepartment = everything ? new Map<number, PermissionId[]>() : departmentOptsByLayer(team, member.department_id)
  const isManagerOf = (layerId: number) => everything || managed.has(layerId)
  return {
    isManagerOf,
    optsOn(layerId, ownOpts) {
      if (isManagerOf(layerId)) return [...LAYER_PERMISSIONS]
      return inCatalogueOrder([...ownOpts, ...(viaDepartment.get(layerId) ?? [])])
    },
  }
}

/**
 * A member's effective permission ids on one layer: administrator, group manager or department
 * manager of the layer: all of LAYER_PERMISSIONS; otherwise the union of their own opts and their
 * department chain's.
 */
export function effectiveLayerOpts(member: TeamMember, team: TeamStructure, layerId: number, ownOpts: readonly string[]): PermissionId[] {
  return layerAuthority(member, team).optsOn(layerId, ownOpts)
}

/**
 * The catalogue ids a member holds at the group's level, in catalogue order: administrators and
 * managers every enabled id; others module_map plus their roles' ids, restricted to enabled ones.
 */
export function effectiveModuleIds(member: Actor & Pick<TeamMember, 'role_module_ids'>, level: number): string[] {
  const enabled = enabledCatalogueIds(level)
  if (isGroupManager(member)) return enabled
  const held = new Set<string>([...MANDATORY_MODULE_IDS, ...member.role_module_ids])
  return enabled.filter((id) => held.has(id))
}

/** A group-level action (not about one layer): a manager, or the id among the member's effective module ids. */
export function canInTeam(member: Actor & Pick<TeamMember, 'role_module_ids'>, level: number, perm: string): boolean {
  return isGroupManager(member) || effectiveModuleIds(member, level).includes(perm)
}

/**
 * SPEC 6 share visibility, in the order of `layers`: managers all layers; a department manager
 * only their departments' (and descendants') layer_ids; others the layers whose effective opts
 * include layer_share.
 */
export function shareableLayerIds(member: TeamMember, team: TeamStructure, layers: readonly { id: number }[], ownOpts: ReadonlyMap<number, readonly string[]>): number[] {
  if (isGroupManager(member)) return layers.map((l) => l.id)
  if (isDepartmentManager(member, team)) {
    const managed = managedLayerIds(team, member.managed_department_ids)
    return layers.filter((l) => managed.has(l.id)).map((l) => l.id)
  }
  const authority = layerAuthority(member, team)
  return layers.filter((l) => authority.optsOn(l.id, ownOpts.get(l.id) ?? []).includes(PERM.LAYER_SHARE)).map((l) => l.id)
}

// ---------------------------------------------------------------------------------------------
// Invites and the join limit

/** The code in what a person pasted (a tiny module of its own: the session needs it on every page). */
export { parseInviteCode } from './invite'

/** join_limit counts collaborators, the administrator not included (a tiny module of its own: the membership centre counts the same). */
export { collaboratorCount, hasRoomForCollaborator } from './collaborators'
