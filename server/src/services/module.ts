/**
 * The permission catalogue (SPEC 3): the ids that can be granted on a layer, and
 * the group-level catalogue (modules and group actions) with the selected group's tier applied
 * (SPEC 6: the free tier lists the VIP modules, locked).
 */
import { LAYER_PERMISSIONS, PERMISSION_CATALOGUE } from '../../../src/domain/permissions'
import { catalogueForLevel } from '../../../src/domain/teams'
import type { Caller } from '../auth'
import type { Executor } from '../db/connection'
import { mapCaller } from './permissions'

// The ids that can be granted on one layer, in catalogue order (what the layer permission editor lists).
export function layerPermissionCatalogue() {
  return PERMISSION_CATALOGUE.filter((p) => (LAYER_PERMISSIONS as string[]).includes(p.id))
}

export async function modulesOfType(db: Executor, caller: Caller, type: 1 | 2) {
  const who = await mapCaller(db, caller)
  return catalogueForLevel(who.group.level).filter((m) => m.type === type)
}

export async function groupCatalogue(db: Executor, caller: Caller) {
  const who = await mapCaller(db, caller)
  return catalogueForLevel(who.group.level)
}
