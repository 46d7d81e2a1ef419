/**
 * The fixed permission catalogue of SPEC 3 and the decisions made from it. The server calls these
 * on every route; the client uses the same answers only to hide what the user cannot do.
 * Departments, department managers and roles are decided in ./teams.ts: callers pass the
 * effective opts on a layer and the effective module ids as `Actor.modules`.
 */
import type { Layer, PermissionItem } from '../../types/mapdata'
import { LAYER_KIND } from './markerKinds'

export const PERM = {
  // modules
  MODULE_MAP: 'module_map',
  MODULE_LOGISTICS: 'module_logistics',
  MODULE_ROUTING: 'module_routing',
  MODULE_DISPATCH: 'module_dispatch',
  MODULE_PRINT: 'module_print',
  MODULE_LOG: 'module_log',
  MODULE_SHARE: 'module_share',
  // layer actions
  LAYER_ADD: 'layer_add',
  LAYER_EDIT: 'layer_edit',
  LAYER_DELETE: 'layer_delete',
  LAYER_SHARE: 'layer_share',
  LAYER_FIELD: 'layer_field',
  LAYER_EXPORT: 'layer_export',
  LAYER_IMPORT: 'layer_import',
  LAYER_LOG: 'layer_log',
  LAYER_DATA_LIST: 'layer_data_list',
  // marker actions
  MARKER_ADD: 'marker_add',
  MARKER_EDIT: 'marker_edit',
  MARKER_DELETE: 'marker_delete',
  MARKER_RANGE_SEARCH: 'marker_range_search',
  // notes
  NOTE_LIST: 'note_list',
  NOTE_ADD: 'note_add',
  NOTE_EDIT: 'note_edit',
  NOTE_DELETE: 'note_delete',
  // sign list
  SIGN_LIST: 'sign_list',
  // routing
  ROUTING_ADD: 'routing_add',
  ROUTING_DELETE: 'routing_delete',
  ROUTING_SHARE: 'routing_share',
  // operation log and tasks
  OPLOG: 'oplog',
  TASK_ADD: 'task_add',
  TASK_DELETE: 'task_delete',
} as const

export type PermissionId = (typeof PERM)[keyof typeof PERM]

export const PERMISSION_CATALOGUE: PermissionItem[] = [
  { id: PERM.MODULE_MAP, name: '地图', group: '模块' },
  { id: PERM.MODULE_LOGISTICS, name: '物流', group: '模块' },
  { id: PERM.MODULE_ROUTING, name: '路线规划', group: '模块' },
  { id: PERM.MODULE_DISPATCH, name: '调度', group: '模块' },
  { id: PERM.MODULE_PRINT, name: '打印', group: '模块' },
  { id: PERM.MODULE_LOG, name: '日志', group: '模块' },
  { id: PERM.MODULE_SHARE, name: '分享', group: '模块' },
  { id: PERM.LAYER_ADD, name: '新建图层', group: '图层' },
  { id: PERM.LAYER_EDIT, name: '编辑图层', group: '图层' },
  { id: PERM.LAYER_DELETE, name: '删除图层', group: '图层' },
  { id: PERM.LAYER_SHARE, name: '分享图层', group: '图层' },
  { id: PERM.LAYER_FIELD, name: '字段管理', group: '图层' },
  { id: PERM.LAYER_EXPORT, name: '导出', group: '图层' },
  { id: PERM.LAYER_IMPORT, name: '导入', group: '图层' },
  { id: PERM.LAYER_LOG, name: '图层日志', group: '图层' },
  { id: PERM.LAYER_DATA_LIST, name: '数据列表', group: '图层' },
  { id: PERM.MARKER_ADD, name: '新增标注', group: '标注' },
  { id: PERM.MARKER_EDIT, name: '编辑标注', group: '标注' },
  { id: PERM.MARKER_DELETE, name: '删除标注', group: '标注' },
  { id: PERM.MARKER_RANGE_SEARCH, name: '范围搜索', group: '标注' },
  { id: PERM.NOTE_LIST, name: '查看备注', group: '备注' },
  { id: PERM.NOTE_ADD, name: '添加备注', group: '备注' },
  { id: PERM.NOTE_EDIT, name: '编辑备注', group: '备注' },
  { id: PERM.NOTE_DELETE, name: '删除备注', group: '备注' },
  { id: PERM.SIGN_LIST, name: '签到列表', group: '签到' },
  { id: PERM.ROUTING_ADD, name: '新建路线', group: '路线' },
  { id: PERM.ROUTING_DELETE, name: '删除路线', group: '路线' },
  { id: PERM.ROUTING_SHARE, name: '分享路线', group: '路线' },
  { id: PERM.OPLOG, name: '操作日志', group: '日志' },
  { id: PERM.TASK_ADD, name: '新建任务', group: '任务' },
  { id: PERM.TASK_DELETE, name: '删除任务', group: '任务' },
]

/** The ids that can be granted on one layer (layer_opts). */
export const LAYER_PERMISSIONS: PermissionId[] = [
  PERM.LAYER_EDIT,
  PERM.LAYER_DELETE,
  PERM.LAYER_SHARE,
  PERM.LAYER_FIELD,
  PERM.LAYER_EXPORT,
  PERM.LAYER_IMPORT,
  PERM.LAYER_LOG,
  PERM.LAYER_DATA_LIST,
  PERM.MARKER_ADD,
  PERM.MARKER_EDIT,
  PERM.MARKER_DELETE,
  PERM.MARKER_RANGE_SEARCH,
  PERM.NOTE_LIST,
  PERM.NOTE_ADD,
  PERM.NOTE_EDIT,
  PERM.NOTE_DELETE,
]

export function isPermissionId(id: string): id is PermissionId {
  return PERMISSION_CATALOGUE.some((p) => p.id === id)
}

/** Who is acting, as far as the group is concerned. */
export interface Actor {
  /** The group's administrator (owner). */
  is_admin: boolean
  /** A group manager (is_manager). */
  is_manager: boolean
  /** The group-level catalogue ids the actor holds (teams.ts effectiveModuleIds); none when left out. */
  modules?: readonly string[]
}

/** Administrators and managers may do everything. */
export function isGroupManager(actor: Actor): boolean {
  return actor.is_admin || actor.is_manager
}

/** The one decision for an action on a layer: manager, or the id among the caller's (effective) layer_opts. */
export function canOnLayer(actor: Actor, layerOpts: readonly string[], perm: PermissionId): boolean {
  return isGroupManager(actor) || layerOpts.includes(perm)
}

/** Group-level actions that are not about one layer (create a top-level layer, the sign list): a manager, or a module id the actor holds through a role. Features behind a module (the log among them) are decided by moduleGate.ts featureRefusal. */
export function canInGroup(actor: Actor, perm: PermissionId): boolean {
  return isGroupManager(actor) || !!actor.modules?.includes(perm)
}

/** The client-side form of the same decision, from what /api/layer/getlist says about the caller. */
export function layerAllows(layer: Pick<Layer, 'manager' | 'layer_opts'>, perm: PermissionId): boolean {
  return layer.manager || layer.layer_opts.includes(perm)
}

/** SPEC 6: layers to add markers to are non-folder layers where the user is manager or holds marker-add. */
export function layersForAddingMarkers<L extends Pick<Layer, 'type' | 'manager' | 'layer_opts'>>(layers: L[]): L[] {
  return layers.filter((l) => l.type !== LAYER_KIND.folder && layerAllows(l, PERM.MARKER_ADD))
}

/** SPEC 2/6: type 1+ (point, line, area) layers the user may share; the server computed the effective permission into each layer. */
export function shareableLayers<L extends Pick<Layer, 'type' | 'manager' | 'layer_opts'>>(layers: L[]): L[] {
  return layers.filter((l) => l.type !== LAYER_KIND.folder && layerAllows(l, PERM.LAYER_SHARE))
}
