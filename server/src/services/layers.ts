/**
 * Layers and folders of the caller's group: the list as the caller sees it, create / rename /
 * move / retype, delete (a folder with everything in it), the default layer per kind, per-user
 * show flags and per-member permissions. Every change runs in one transaction with its log entry.
 *
 * Who may create: at the root, managers and members holding layer_add through a role (canInGroup);
 * inside a folder, whoever holds layer_edit on it (effective opts: own, department chain, or a
 * department manager of it). A creator who is not a group manager receives their opts on the folder
 * (every layer permission at the root) on the new layer so that they can see what they made, and
 * the departments granted on the folder receive the same grants on the new layer. Moving needs
 * layer_edit on the layer and on the target folder (the root: layer_add in the group). Deleting
 * needs layer_delete on the layer and on everything below it.
 */
import type { Layer, LayerType } from '../../../types/mapdata'
import { ErrCode } from '../../../types/api'
import { MAP_MSG, TEAM_MSG } from '../../../src/domain/messages'
import { SYNC_CONFLICT_MSG } from '../../../src/domain/syncMessages'
import { LAYER_PERMISSIONS, PERM, canInGroup, canOnLayer } from '../../../src/domain/permissions'
import { isFolder } from '../../../src/domain/markerKinds'
import type { Caller } from '../auth'
import { inTransaction, type Database, type Executor } from '../db/connection'
import { departmentGrantsOfGroup, saveDepartmentOpts } from '../db/department-layer-auth'
import { departmentsOfGroup, findDepartment } from '../db/departments'
import { findJoin, joinsOfGroup } from '../db/joins'
import { deleteAuthOfGroups, saveOpts } from '../db/layer-auth'
import { deleteSettingsOfGroups, hiddenLayerIds, saveShow } from '../db/layer-settings'
import {
  defaultLayerOfType,
  deleteLayersOfGroups,
  deletedLayersOfGroup,
  findLayer,
  findLayerEvenDeleted,
  insertLayer,
  layersOfGroup,
  restoreLayers,
  softDeleteLayers,
  updateLayer,
  type LayerRow,
} from '../db/layers'
import { dropStashedValuesOfGroups } from '../db/field-values'
import { countGroupMarkers, countMarkersDeletedWith, markersDeletedWith, deleteMarkersOfGroups, restoreMarkersDeletedWith, softDeleteMarkersOfLayers } from '../db/markers'
import { deleteOpsOfGroups } from '../db/oplog'
import { deleteChangesOfGroups } from '../db/change-log'
import { BusinessError } from '../envelope'
import { presentLayer } from '../presenters/mapdata'
import { limitsInForce, markerLimitMessage } from './limits'
import { recordLayerOp } from './oplog-entries'
import { markerChange } from './markers'
import { requireRev } from './revisions'
import { logChanges, type ChangeEntry } from './sync'
import { forbidden, isManager, managesLayer, mapCaller, notFound, optsResolver, reloadCaller, requireOnLayer, visibleLayers, type MapCaller } from './permissions'

type TreeRow = Pick<LayerRow, 'id' | 'parent_id' | 'type'>

/** Every layer and folder below `id` among `layers` (not `id` itself); safe against parent loops. */
/** A layer's change log entry (services/sync.ts): its own id is its layer_id. */
function layerChange(row: Pick<LayerRow, 'id' | 'rev'>, op: 'upsert' | 'delete'): ChangeEntry {
  return { kind: 'layer', id: row.id, op, rev: row.rev, layer_id: row.id }
}

export function descendantsIn<L extends TreeRow>(layers: readonly L[], id: number): L[] {
  const children = new Map<number, L[]>()
  for (const l of layers) {
    const list = children.get(l.parent_id)
    if (list) list.push(l)
    else children.set(l.parent_id, [l])
  }
  const out: L[] = []
  const seen = new Set<number>([id])
  const stack = [id]
  while (stack.length) {
    for (const child of children.get(stack.pop()!) ?? []) {
      if (seen.has(child.id)) continue
      seen.add(child.id)
      out.push(child)
      stack.push(child.id)
    }
  }
  return out
}

type CountedRow = TreeRow & Pick<LayerRow, 'marker_count'>

/** Markers in a layer, or for a folder in every layer below it (among `layers`). */
export function markerCountIn(layers: readonly CountedRow[], layer: CountedRow): number {
  if (!isFolder(layer.type)) return layer.marker_count
  return descendantsIn(layers, layer.id).reduce((sum, l) => sum + (isFolder(l.type) ? 0 : l.marker_count), 0)
}

/** The layers the caller may see, each with its marker count (folders: of the visible layers below), show flag and the caller's opts. */
export async function listLayers(db: Executor, caller: Caller | MapCaller): Promise<Layer[]> {
  const who = await mapCaller(db, caller)
  const [visible, hidden] = await Promise.all([visibleLayers(db, who), hiddenLayerIds(db, who.userId)])
  const rows = visible.map((v) => v.layer)
  return visible.map(({ layer, opts, manager }) => presentLayer(layer, { marker_count: markerCountIn(rows, layer), show: !hidden.has(layer.id), manager, layer_opts: opts }))
}

async function describeLayer(db: Executor, who: MapCaller, id: number): Promise<Layer> {
  const layer = (await listLayers(db, who)).find((l) => l.id === id)
  if (!layer) throw notFound()
  return layer
}

/** A layer with the markers in it or below it (what the log records). */
async function snapshot(db: Executor, groupId: number, row: LayerRow): Promise<{ row: LayerRow; markerCount: number }> {
  return { row, markerCount: isFolder(row.type) ? markerCountIn(await layersOfGroup(db, groupId), row) : row.marker_count }
}

export interface LayerInput {
  id?: number
  name: string
  parent_id?: number
  type?: LayerType
  sort?: number
  /** The revision the edit started from (types/sync.ts). */
  rev?: number
}

const LAYER_CONFLICT = { changed: SYNC_CONFLICT_MSG.layerChanged, deleted: SYNC_CONFLICT_MSG.layerDeleted }

/** A stale `rev` is refused with the layer as the caller sees it now (services/revisions.ts). */
function requireLayerRev(trx: Executor, who: MapCaller, id: number, rev: number | undefined): Promise<void> {
  return requireRev(trx, 'layers', who.groupId, id, rev, LAYER_CONFLICT, () => describeLayer(trx, who, id))
}

/** Checks that `parentId` can hold a layer of the caller's and returns the caller's effective opts on it (all at the root). */
async function requireParent(db: Executor, who: MapCaller, parentId: number): Promise<string[]> {
  if (parentId === 0) {
    if (!canInGroup(who.actor, PERM.LAYER_ADD)) throw forbidden()
    return [...LAYER_PERMISSIONS]
  }
  const parent = await findLayer(db, who.groupId, parentId)
  if (!parent || !isFolder(parent.type)) throw new BusinessError(ErrCode.VALIDATION, MAP_MSG.parentMustBeFolder)
  const opts = (await optsResolver(db, who))(parentId)
  if (!canOnLayer(who.actor, opts, PERM.LAYER_EDIT)) throw forbidden()
  return opts
}

/** The departments granted on the folder receive the same grants on a layer made in it. */
async function inheritDepartmentGrants(trx: Executor, groupId: number, parentId: number, layerId: number): Promise<void> {
  if (parentId === 0) return
  for (const g of (await departmentGrantsOfGroup(trx, groupId)).filter((g) => g.layer_id === parentId)) {
    await saveDepartmentOpts(trx, { group_id: groupId, department_id: g.department_id, layer_id: layerId, opts: g.opts })
  }
}

export async function saveLayer(db: Database, caller: Caller | MapCaller, input: LayerInput, now: Date): Promise<Layer> {
  const who = await mapCaller(db.kysely, caller)
  const at = now.toISOString()
  const id = await inTransaction(db, (trx) => (input.id ? updateExistingLayer(trx, who, input.id, input, at) : createLayer(trx, who, input, at)))
  // A new layer may have received department grants from its folder.
  return describeLayer(db.kysely, input.id ? who : await reloadCaller(db.kysely, who), id)
}

/** Makes a layer or folder in a transaction (also for an import's layers of the file's other kinds). */
export async function createLayer(trx: Executor, who: MapCaller, input: LayerInput, at: string): Promise<number> {
  if (input.type === undefined) throw new BusinessError(ErrCode.VALIDATION, MAP_MSG.layerTypeRequired)
  const parentId = input.parent_id ?? 0
  const parentOpts = await requireParent(trx, who, parentId)
  // The first layer of a kind becomes the group's default for that kind.
  const isDefault = !isFolder(input.type) && !(await defaultLayerOfType(trx, who.groupId, input.type))
  const row = await insertLayer(trx, {
    group_id: who.groupId,
    parent_id: parentId,
    name: input.name,
    type: input.type,
    sort: input.sort ?? 0,
    is_default: isDefault ? 1 : 0,
    created_by: who.userId,
    created_at: at,
    updated_at: at,
    deleted_at: null,
  })
  if (!isManager(who)) await saveOpts(trx, { group_id: who.groupId, layer_id: row.id, user_id: who.userId, opts: parentOpts })
  await inheritDepartmentGrants(trx, who.groupId, parentId, row.id)
  await recordLayerOp(trx, who, 'create', null, { row, markerCount: 0 }, at)
  await logChanges(trx, who.groupId, [layerChange(row, 'upsert')], at)
  return row.id
}

async function updateExistingLayer(trx: Executor, who: MapCaller, id: number, input: LayerInput, at: string): Promise<number> {
  await requireLayerRev(trx, who, id, input.rev)
  const { layer } = await requireOnLayer(trx, who, id, PERM.LAYER_EDIT)
  const before = await snapshot(trx, who.groupId, layer)
  const patch: Parameters<typeof updateLayer>[2] = { name: input.name, updated_at: at }
  if (input.sort !== undefined) patch.sort = input.sort
  if (input.type !== undefined && input.type !== layer.type) {
    const all = await layersOfGroup(trx, who.groupId)
    if (isFolder(layer.type) && descendantsIn(all, layer.id).length > 0) throw new BusinessError(ErrCode.VALIDATION, MAP_MSG.folderTypeLocked)
    if (!isFolder(layer.type) && before.markerCount > 0) throw new BusinessError(ErrCode.VALIDATION, MAP_MSG.layerTypeLocked)
    patch.type = input.type
    if (layer.is_default) patch.is_default = 0
  }
  if (input.parent_id !== undefined && input.parent_id !== layer.parent_id) {
    if (input.parent_id === layer.id) throw new BusinessError(ErrCode.VALIDATION, MAP_MSG.cannotMoveIntoItself)
    if (input.parent_id !== 0) {
      const below = descendantsIn(await layersOfGroup(trx, who.groupId), layer.id)
      if (below.some((l) => l.id === input.parent_id)) throw new BusinessError(ErrCode.VALIDATION, MAP_MSG.cannotMoveIntoItself)
    }
    await requireParent(trx, who, input.parent_id)
    patch.parent_id = input.parent_id
  }
  const row = await updateLayer(trx, layer.id, patch)
  await recordLayerOp(trx, who, 'update', before, { row, markerCount: before.markerCount }, at)
  await logChanges(trx, who.groupId, [layerChange(row, 'upsert')], at)
  return row.id
}

/**
 * Deletes a layer, or a folder with every layer, folder and marker below it, in one transaction
 * (soft delete, one log entry for the top; restoring it brings everything back). Answers how many
 * layers and folders below it and how many markers went.
 */
export async function deleteLayer(db: Database, caller: Caller | MapCaller, id: number, now: Date, rev?: number): Promise<{ layers: number; markers: number }> {
  const who = await mapCaller(db.kysely, caller)
  const at = now.toISOString()
  return inTransaction(db, async (trx) => {
    await requireLayerRev(trx, who, id, rev)
    const { layer } = await requireOnLayer(trx, who, id, PERM.LAYER_DELETE)
    const below = descendantsIn(await layersOfGroup(trx, who.groupId), layer.id)
    if (!isManager(who) && below.length > 0) {
      const optsOf = await optsResolver(trx, who)
      if (below.some((l) => !canOnLayer(who.actor, optsOf(l.id), PERM.LAYER_DELETE))) throw forbidden()
    }
    const ids = [layer.id, ...below.map((l) => l.id)]
    const markers = await softDeleteMarkersOfLayers(trx, ids, at)
    await softDeleteLayers(trx, ids, at)
    await recordLayerOp(trx, who, 'delete', { row: layer, markerCount: markers }, null, at)
    // One entry per layer or folder, none per marker: the client drops what a deleted layer held.
    await logChanges(
      trx,
      who.groupId,
      [layer, ...below].map((l) => layerChange({ ...l, rev: l.rev + 1 }, 'delete')),
      at,
    )
    return { layers: below.length, markers }
  })
}

/** Makes a layer the group's default for its kind (the previous default of that kind stops being it). */
export async function setDefaultLayer(db: Database, caller: Caller | MapCaller, id: number, now: Date): Promise<void> {
  const who = await mapCaller(db.kysely, caller)
  const at = now.toISOString()
  await inTransaction(db, async (trx) => {
    const { layer } = await requireOnLayer(trx, who, id, PERM.LAYER_EDIT)
    if (isFolder(layer.type)) throw new BusinessError(ErrCode.VALIDATION, MAP_MSG.folderCannotBeDefault)
    if (layer.is_default === 1) return
    const previous = await defaultLayerOfType(trx, who.groupId, layer.type)
    if (previous) {
      const before = await snapshot(trx, who.groupId, previous)
      const row = await updateLayer(trx, previous.id, { is_default: 0, updated_at: at })
      await recordLayerOp(trx, who, 'update', before, { row, markerCount: before.markerCount }, at)
      await logChanges(trx, who.groupId, [layerChange(row, 'upsert')], at)
    }
    const before = await snapshot(trx, who.groupId, layer)
    const row = await updateLayer(trx, layer.id, { is_default: 1, updated_at: at })
    await recordLayerOp(trx, who, 'update', before, { row, markerCount: before.markerCount }, at)
    await logChanges(trx, who.groupId, [layerChange(row, 'upsert')], at)
  })
}

/** Shows or hides layers on the caller's own map; every id must be a layer the caller sees. */
export async function setLayersShown(db: Database, caller: Caller | MapCaller, ids: number[], show: boolean): Promise<void> {
  const who = await mapCaller(db.kysely, caller)
  await inTransaction(db, async (trx) => {
    const visible = new Set((await visibleLayers(trx, who)).map((v) => v.layer.id))
    if (ids.some((id) => !visible.has(id))) throw notFound()
    await saveShow(trx, who.userId, [...new Set(ids)], show)
  })
}

export type LayerAuthInput = { layer_id: number; opts: string[] } & ({ user_id: number; department_id?: undefined } | { department_id: number; user_id?: undefined })

/**
 * Sets the permission ids a member or a department holds on a layer ([] takes them all away).
 * Group managers: any layer, member and department. A department manager: only layers within
 * their authority, granted to members of, or departments within, the departments under it.
 */
export async function saveLayerAuth(db: Database, caller: Caller | MapCaller, auth: LayerAuthInput, at: Date): Promise<void> {
  const now = at.toISOString()
  const who = await mapCaller(db.kysely, caller)
  const manager = isManager(who)
  if (!manager && who.team.authorityDepartmentIds.size === 0) throw forbidden()
  await inTransaction(db, async (trx) => {
    const layer = await findLayer(trx, who.groupId, auth.layer_id)
    if (!layer) throw notFound()
    if (!managesLayer(who, auth.layer_id)) throw forbidden()
    const opts = LAYER_PERMISSIONS.filter((p) => auth.opts.includes(p))
    if (auth.user_id !== undefined) {
      const join = await findJoin(trx, who.groupId, auth.user_id)
      if (!join) throw new BusinessError(ErrCode.NOT_FOUND, MAP_MSG.notGroupMember)
      if (!manager && !who.team.authorityDepartmentIds.has(join.department_id)) throw forbidden()
      await saveOpts(trx, { group_id: who.groupId, layer_id: auth.layer_id, user_id: auth.user_id, opts })
      await logChanges(trx, who.groupId, [{ ...layerChange(layer, 'upsert'), user_id: auth.user_id }], now)
    } else {
      if (!(await findDepartment(trx, who.groupId, auth.department_id))) throw new BusinessError(ErrCode.NOT_FOUND, TEAM_MSG.departmentNotFound)
      if (!manager && !who.team.authorityDepartmentIds.has(auth.department_id)) throw forbidden()
      await saveDepartmentOpts(trx, { group_id: who.groupId, department_id: auth.department_id, layer_id: auth.layer_id, opts })
      // Members of the department and of those below it hold what it is granted.
      const departments = await departmentsOfGroup(trx, who.groupId)
      const reached = new Set([
        auth.department_id,
        ...descendantsIn(
          departments.map((d) => ({ ...d, type: 0 })),
          auth.department_id,
        ).map((d) => d.id),
      ])
      const members = (await joinsOfGroup(trx, who.groupId)).filter((j) => reached.has(j.department_id))
      await logChanges(
        trx,
        who.groupId,
        members.map((m) => ({ ...layerChange(layer, 'upsert'), user_id: m.user_id })),
        now,
      )
    }
  })
}

/**
 * Brings back a deleted layer with everything deleted with it (for the log's restore; the caller
 * checks the permission). A layer whose folder is gone comes back at the root; a restored default
 * stops being the default when another layer of its kind has become it. Records a 'restore'.
 */
export async function restoreLayer(trx: Executor, who: MapCaller, id: number, now: Date): Promise<{ layers: number; markers: number }> {
  const at = now.toISOString()
  const layer = await findLayerEvenDeleted(trx, who.groupId, id)
  if (!layer || layer.deleted_at === null) throw new BusinessError(ErrCode.CONFLICT, MAP_MSG.restoreNotPossible)
  const deletedAt = layer.deleted_at
  const deletedWith = descendantsIn(await deletedLayersOfGroup(trx, who.groupId), layer.id).filter((l) => l.deleted_at === deletedAt)
  const ids = [layer.id, ...deletedWith.map((l) => l.id)]
  const markers = await countMarkersDeletedWith(trx, ids, deletedAt)
  const limits = limitsInForce(who.group, now)
  if (markers > 0 && (await countGroupMarkers(trx, who.groupId)) + markers > limits.marker_limit) throw new BusinessError(ErrCode.LIMIT_REACHED, markerLimitMessage(limits))
  const patch: Parameters<typeof updateLayer>[2] = { updated_at: at }
  if (layer.parent_id !== 0 && !(await findLayer(trx, who.groupId, layer.parent_id))) patch.parent_id = 0
  if (layer.is_default === 1 && (await defaultLayerOfType(trx, who.groupId, layer.type))) patch.is_default = 0
  const returning = await markersDeletedWith(trx, ids, deletedAt)
  await restoreLayers(trx, ids, at)
  await restoreMarkersDeletedWith(trx, ids, deletedAt, at)
  const row = await updateLayer(trx, layer.id, patch)
  await recordLayerOp(trx, who, 'restore', null, { row, markerCount: markers }, at)
  await logChanges(
    trx,
    who.groupId,
    [layerChange(row, 'upsert'), ...deletedWith.map((l) => layerChange({ ...l, rev: l.rev + 1 }, 'upsert')), ...returning.map((m) => markerChange({ ...m, rev: m.rev + 1 }, 'upsert'))],
    at,
  )
  return { layers: deletedWith.length, markers }
}

/** Removes every piece of map data of these groups for good (account deletion). */
export async function purgeGroupMapData(trx: Executor, groupIds: number[]): Promise<void> {
  await deleteMarkersOfGroups(trx, groupIds)
  await dropStashedValuesOfGroups(trx, groupIds)
  await deleteSettingsOfGroups(trx, groupIds)
  await deleteAuthOfGroups(trx, groupIds)
  await deleteLayersOfGroups(trx, groupIds)
  await deleteOpsOfGroups(trx, groupIds)
  await deleteChangesOfGroups(trx, groupIds)
}
