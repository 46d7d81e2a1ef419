/**
 * Modules gate the menus, pages and calls (SPEC 3 "modules", SPEC 6 "roles grant modules"):
 * a user without a feature's module does not see its menu entry, opening its address directly
 * shows a clear message instead of the page, and the server refuses the calls behind it with the
 * same message (server/src/services/permissions.ts requireFeature). Both sides decide from the
 * effective catalogue ids (teams.ts effectiveModuleIds: the tier's modules, the roles', and every
 * enabled id for administrators and group managers), which the user info lists as `modules`.
 */
import { TEAM_UI_MSG } from './messages'
import { PERM, PERMISSION_CATALOGUE, type PermissionId } from './permissions'
import { enabledCatalogueIds } from './teams'

/** A feature behind a module: the module, and the group action the feature needs within it, when it needs one. */
export interface FeatureGate {
  module: PermissionId
  action?: PermissionId
}

/** The features whose pages and calls are gated. Logistics gates no page or call (yet). */
export const FEATURES = {
  /** /route pages, /api/route/* for members (not the public route share). */
  routing: { module: PERM.MODULE_ROUTING },
  /** The task tabs, /task/add, /api/task/*. */
  dispatch: { module: PERM.MODULE_DISPATCH },
  /** Every share entry, /share/management, /api/share/save, /api/share/getlist/group, /api/share/delete. */
  share: { module: PERM.MODULE_SHARE },
  /**
   * The group's operation log (/oplog, /api/oplog/*): the log module opens the feature, and the
   * oplog id is the permission to read the whole group's log within it, as routing_add is within
   * routing. Both are needed; administrators and managers hold both.
   */
  log: { module: PERM.MODULE_LOG, action: PERM.OPLOG },
  /** The 打印 entries (map tools, layer menu, route and task detail), /print, /api/print/*. */
  print: { module: PERM.MODULE_PRINT },
} as const satisfies Record<string, FeatureGate>

/** The feature each gated route needs (routes not listed need none beyond signing in). */
export const ROUTE_FEATURES: Readonly<Record<string, FeatureGate>> = {
  '/route': FEATURES.routing,
  '/route/add': FEATURES.routing,
  // /task is not blocked: its 签到记录 tab works without the module, its task tabs say what is missing.
  '/task/add': FEATURES.dispatch,
  '/share/management': FEATURES.share,
  '/oplog': FEATURES.log,
  '/print': FEATURES.print,
}

export function moduleName(id: string): string {
  return PERMISSION_CATALOGUE.find((p) => p.id === id)?.name ?? id
}

type Held = readonly (string | { id: string })[] | undefined

function heldIds(held: Held): string[] {
  return (held ?? []).map((m) => (typeof m === 'string' ? m : m.id))
}

/** Whether the user holds the id (user info `modules`, filled by the server from tier, roles and standing). */
export function holdsModule(modules: Held, id: string): boolean {
  return heldIds(modules).includes(id)
}

/**
 * The one decision for a gated feature: why the holder of these effective catalogue ids may not
 * use it, or null when they may. A VIP module the tier locks says so (no role can grant it); a
 * module the roles do not grant, or the action within it, says whom to ask.
 */
export function featureRefusal(gate: FeatureGate, held: Held, level: number): string | null {
  const ids = heldIds(held)
  if (!ids.includes(gate.module)) {
    const name = moduleName(gate.module)
    return enabledCatalogueIds(level).includes(gate.module) ? TEAM_UI_MSG.moduleMissing(name) : TEAM_UI_MSG.moduleLocked(name)
  }
  if (gate.action && !ids.includes(gate.action)) return TEAM_UI_MSG.actionMissing(moduleName(gate.action))
  return null
}

/** Whether the menu entries of the feature show (its calls work). */
export function featureOpen(gate: FeatureGate, held: Held): boolean {
  const ids = heldIds(held)
  return ids.includes(gate.module) && (!gate.action || ids.includes(gate.action))
}

/** The message shown instead of a page the user's modules do not open, or null when it opens. */
export function moduleBlock(path: string, modules: Held, level: number): string | null {
  const gate = ROUTE_FEATURES[path]
  return gate ? featureRefusal(gate, modules, level) : null
}

/**
 * How a VIP feature's menu entry shows: 'open' (it works), 'vip' (the tier locks the module: the
 * entry shows with the VIP mark and offers the membership instead), or 'hidden' (the tier has it but
 * the user's roles do not grant it: nothing to buy, so nothing to show).
 */
export function featureOffer(gate: FeatureGate, held: Held, level: number): 'open' | 'vip' | 'hidden' {
  if (featureOpen(gate, held)) return 'open'
  return enabledCatalogueIds(level).includes(gate.module) ? 'hidden' : 'vip'
}

/** Whether a gated page is refused because the tier locks its module (the refusal then offers the membership). */
export function routeLockedByTier(path: string, modules: Held, level: number): boolean {
  const gate = ROUTE_FEATURES[path]
  return !!gate && featureOffer(gate, modules, level) === 'vip'
}
