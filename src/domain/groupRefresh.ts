/**
 * The group data refresh decision (SPEC 4 "Group data refresh", every 10 s while logged in): what
 * counts as a change of the user's standing in the group, and whether the layer list changed.
 */
import type { UserInfo } from '../../types/entities'
import type { Layer } from '../../types/mapdata'

type Standing = Pick<UserInfo, 'select_groupid' | 'level' | 'vip_exp' | 'modules'> & { group_vip?: UserInfo['group_vip'] }

/**
 * True when the selected group, the module count, the level or the VIP expiry changed, or a module
 * is new (the same count with a different module counts as new).
 */
export function standingChanged(before: Standing, after: Standing): boolean {
  if (before.select_groupid !== after.select_groupid) return true
  if (before.level !== after.level) return true
  if ((before.vip_exp ?? null) !== (after.vip_exp ?? null)) return true
  if ((before.group_vip?.group_vip_exp ?? null) !== (after.group_vip?.group_vip_exp ?? null)) return true
  const had = new Set((before.modules ?? []).map((m) => m.id))
  const has = after.modules ?? []
  if (had.size !== has.length) return true
  return has.some((m) => !had.has(m.id))
}

/** What of a layer list the map shows and allows (marker counts left out: they change with every edit). */
export function layerListKey(layers: readonly Layer[]): string {
  return JSON.stringify(layers.map((l) => [l.id, l.name, l.parent_id, l.type, l.show, l.manager, [...l.layer_opts].sort(), l.sort] as const).sort((a, b) => a[0] - b[0]))
}
