/**
 * The user's map preferences (settings page) as pure rules: whether cluster badges show
 * their counts, and the draw list without those counts.
 */
import type { DrawList } from './mapDraw'

/** The user's own choice wins; without one the team's system config decides (SPEC 3). */
export function clusterCountShown(userChoice: boolean | null | undefined, systemDefault: boolean): boolean {
  return typeof userChoice === 'boolean' ? userChoice : systemDefault
}

// One answer per draw list: the map gets the same object until the list changes (renderers diff by identity).
const countless = new WeakMap<DrawList, DrawList>()

/** The same draw list with empty cluster badges (the badge still shows, and still zooms in when tapped). */
export function withoutClusterCounts(list: DrawList): DrawList {
  if (!list.clusters.length) return list
  let out = countless.get(list)
  if (!out) {
    out = { ...list, clusters: list.clusters.map((c) => ({ ...c, label: '' })) }
    countless.set(list, out)
  }
  return out
}
