/**
 * Modules gate the menus and pages (issue 5, SPEC 3 "modules", SPEC 6 "roles grant modules"):
 * a user without a page's module does not see its menu entry, and opening its address directly
 * shows a clear message instead of the page. The server refuses the calls behind it as well.
 */
import { TEAM_UI_MSG } from './messages'
import { PERM, PERMISSION_CATALOGUE } from './permissions'

/** The module each gated route needs (routes not listed need none beyond signing in). */
export const ROUTE_MODULES: Readonly<Record<string, string>> = {
  '/route': PERM.MODULE_ROUTING,
  '/route/add': PERM.MODULE_ROUTING,
  // /task is not blocked: its 签到记录 tab works without the module, its task tabs say what is missing.
  '/task/add': PERM.MODULE_DISPATCH,
  '/share/management': PERM.MODULE_SHARE,
  '/oplog': PERM.MODULE_LOG,
}

export function moduleName(id: string): string {
  return PERMISSION_CATALOGUE.find((p) => p.id === id)?.name ?? id
}

/** Whether the user holds the module (user info `modules`, filled by the server from tier, roles and standing). */
export function holdsModule(modules: readonly { id: string }[] | undefined, id: string): boolean {
  return !!modules?.some((m) => m.id === id)
}

/** The message shown instead of a page the user's modules do not open, or null when it opens. */
export function moduleBlock(path: string, modules: readonly { id: string }[] | undefined): string | null {
  const needed = ROUTE_MODULES[path]
  if (!needed || holdsModule(modules, needed)) return null
  return TEAM_UI_MSG.moduleMissing(moduleName(needed))
}
