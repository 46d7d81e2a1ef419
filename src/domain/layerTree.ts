/**
 * The folder tree of layers (SPEC 3: layers are organised in folders; folders nest to any
 * depth). Built from the flat list /api/layer/getlist returns. Pure: the layer panel, the stores
 * and the server's delete and move rules use the same answers.
 */
import type { Layer } from '../../types/mapdata'
import { MAP_MSG } from './messages'
import { LAYER_KIND } from './markerKinds'

/** What the tree needs of a layer (tests and the server may pass lighter objects). */
export type TreeLayer = Pick<Layer, 'id' | 'parent_id' | 'type' | 'sort'> & Partial<Pick<Layer, 'name' | 'marker_count' | 'show'>>

export interface LayerNode<L extends TreeLayer = Layer> {
  layer: L
  depth: number
  children: LayerNode<L>[]
}

/** One visible row of the tree as the panel draws it (a flat list is cheap to render on slow phones). */
export interface LayerRow<L extends TreeLayer = Layer> {
  layer: L
  depth: number
  isFolder: boolean
  hasChildren: boolean
  open: boolean
}

export const ROOT_ID = 0

export function isFolder(layer: Pick<TreeLayer, 'type'>): boolean {
  return layer.type === LAYER_KIND.folder
}

function bySortThenId(a: TreeLayer, b: TreeLayer): number {
  return a.sort - b.sort || a.id - b.id
}

/** Children of every parent id, each list in display order (sort, then id). */
export function childrenIndex<L extends TreeLayer>(layers: readonly L[]): Map<number, L[]> {
  const byId = new Map(layers.map((l) => [l.id, l]))
  // A layer whose parent is missing (deleted, or not visible to this user) or whose parent chain
  // loops shows at the root, so that nothing disappears from the panel.
  const reachesRoot = (l: L): boolean => {
    const seen = new Set<number>()
    let cur: L | undefined = l
    while (cur && cur.parent_id !== ROOT_ID) {
      if (seen.has(cur.id)) return false
      seen.add(cur.id)
      cur = byId.get(cur.parent_id)
    }
    return true
  }
  const index = new Map<number, L[]>()
  for (const l of layers) {
    const parent = l.parent_id && byId.has(l.parent_id) && reachesRoot(l) ? l.parent_id : ROOT_ID
    const list = index.get(parent)
    if (list) list.push(l)
    else index.set(parent, [l])
  }
  for (const list of index.values()) list.sort(bySortThenId)
  return index
}

/** The tree of folders and layers; a cycle in parent ids cannot loop (each layer appears once). */
export function buildLayerTree<L extends TreeLayer>(layers: readonly L[]): LayerNode<L>[] {
  const index = childrenIndex(layers)
  const build = (parent: number, depth: number): LayerNode<L>[] => (index.get(parent) ?? []).map((layer) => ({ layer, depth, children: build(layer.id, depth + 1) }))
  return build(ROOT_ID, 0)
}

/** The rows to draw: every root node, and the children of open folders. */
export function visibleRows<L extends TreeLayer>(tree: readonly LayerNode<L>[], openIds: ReadonlySet<number>, forceOpen = false): LayerRow<L>[] {
  const rows: LayerRow<L>[] = []
  const walk = (nodes: readonly LayerNode<L>[]) => {
    for (const n of nodes) {
      const open = isFolder(n.layer) && (forceOpen || openIds.has(n.layer.id))
      rows.push({ layer: n.layer, depth: n.depth, isFolder: isFolder(n.layer), hasChildren: n.children.length > 0, open })
      if (open) walk(n.children)
    }
  }
  walk(tree)
  return rows
}

/** Every layer and folder below `id` (not `id` itself), depth first in display order. */
export function descendantsOf<L extends TreeLayer>(layers: readonly L[], id: number): L[] {
  const index = childrenIndex(layers)
  const out: L[] = []
  const seen = new Set<number>([id])
  const walk = (parent: number) => {
    for (const child of index.get(parent) ?? []) {
      if (seen.has(child.id)) continue
      seen.add(child.id)
      out.push(child)
      walk(child.id)
    }
  }
  walk(id)
  return out
}

export function descendantIds(layers: readonly TreeLayer[], id: number): number[] {
  return descendantsOf(layers, id).map((l) => l.id)
}

/** The folders from the root down to `id`, ending with the layer itself; empty when it is unknown. */
export function pathOf<L extends TreeLayer>(layers: readonly L[], id: number): L[] {
  const byId = new Map(layers.map((l) => [l.id, l]))
  const path: L[] = []
  const seen = new Set<number>()
  let cur = byId.get(id)
  while (cur && !seen.has(cur.id)) {
    seen.add(cur.id)
    path.unshift(cur)
    cur = cur.parent_id ? byId.get(cur.parent_id) : undefined
  }
  return path
}

/** '文件夹 / 子文件夹 / 图层' for showing where a layer lives. */
export function pathLabel(layers: readonly TreeLayer[], id: number, separator = ' / '): string {
  return pathOf(layers, id)
    .map((l) => l.name ?? '')
    .join(separator)
}

/** The ids of all open folders above `id` (to reveal a layer in the panel). */
export function ancestorIds(layers: readonly TreeLayer[], id: number): number[] {
  return pathOf(layers, id)
    .slice(0, -1)
    .map((l) => l.id)
}

export interface DeleteImpact {
  /** Every id that goes: the layer or folder itself and everything below it. */
  ids: number[]
  /** Folders and layers below it (what the confirmation counts as 图层). */
  layers: number
  /** Markers in the layers that go. */
  markers: number
  /** A folder with something in it, or a layer with markers: the user must confirm the count. */
  needsConfirm: boolean
}

/**
 * What deleting a layer or folder removes. Deleting a folder removes everything in it (the server
 * does it in one transaction and the log can restore it); markers are counted on the layers that
 * hold them, from `markerCount` when given (markers loaded on this phone) or the server's counts.
 */
export function deleteImpact(layers: readonly TreeLayer[], id: number, markerCount?: (layerId: number) => number | undefined): DeleteImpact {
  const self = layers.find((l) => l.id === id)
  if (!self) return { ids: [], layers: 0, markers: 0, needsConfirm: false }
  const below = descendantsOf(layers, id)
  const count = (l: TreeLayer) => (isFolder(l) ? 0 : (markerCount?.(l.id) ?? l.marker_count ?? 0))
  const markers = [self, ...below].reduce((sum, l) => sum + count(l), 0)
  return {
    ids: [id, ...below.map((l) => l.id)],
    layers: below.length,
    markers,
    needsConfirm: below.length > 0 || markers > 0,
  }
}

/**
 * Whether `id` may move into `parentId` (ROOT_ID for the top level): the target must be a folder,
 * and not the layer itself or anything below it. Returns the message of the problem, or null.
 */
export function checkMove(layers: readonly TreeLayer[], id: number, parentId: number): string | null {
  if (parentId === ROOT_ID) return null
  if (parentId === id) return MAP_MSG.cannotMoveIntoItself
  const target = layers.find((l) => l.id === parentId)
  if (!target || !isFolder(target)) return MAP_MSG.parentMustBeFolder
  if (descendantIds(layers, id).includes(parentId)) return MAP_MSG.cannotMoveIntoItself
  return null
}

/** The folders `id` may move into, in tree order (the root is always allowed and not listed). */
export function moveTargets<L extends TreeLayer>(layers: readonly L[], id: number): LayerRow<L>[] {
  const all = visibleRows(buildLayerTree(layers), new Set(), true)
  return all.filter((r) => r.isFolder && checkMove(layers, id, r.layer.id) === null)
}

/** The non-folder layers at or below `id` (what a folder's show switch turns on or off). */
export function layersUnder<L extends TreeLayer>(layers: readonly L[], id: number): L[] {
  const self = layers.find((l) => l.id === id)
  if (!self) return []
  return [self, ...descendantsOf(layers, id)].filter((l) => !isFolder(l))
}
