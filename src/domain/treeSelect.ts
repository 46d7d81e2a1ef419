/**
 * Tree selection (SPEC 4 "Tree selection", SPEC 6/8 mandatory items), one pure reducer used by the
 * role, department and share pickers:
 * - ticking a node ticks all its descendants, and its ancestors;
 * - unticking a node removes it and its descendants (ancestors stay ticked);
 * - mandatory items are always ticked; unticking one (or a node above one) is refused with
 *   '{item}必须授权，无法取消' and changes nothing;
 * - select all ticks everything; invert flips every node, then keeps mandatory items and the
 *   ancestors of ticked nodes ticked so that the result obeys the same rules.
 */
import { TEAM_UI_MSG } from './messages'

export type TreeId = string | number

export interface TreeSelectNode {
  id: TreeId
  /** null / undefined / 0 / '' for a root. */
  parentId?: TreeId | null
  name: string
  mandatory?: boolean
}

export type TreeSelectAction = { type: 'toggle'; id: TreeId } | { type: 'selectAll' } | { type: 'invert' } | { type: 'clear' }

export interface TreeSelectResult {
  checked: TreeId[]
  /** Set when the action was refused (a mandatory item); `checked` is then unchanged. */
  warning: string | null
}

interface Index {
  byId: Map<TreeId, TreeSelectNode>
  children: Map<TreeId, TreeSelectNode[]>
}

function indexOf(nodes: readonly TreeSelectNode[]): Index {
  const byId = new Map(nodes.map((n) => [n.id, n]))
  const children = new Map<TreeId, TreeSelectNode[]>()
  for (const n of nodes) {
    const p = parentOf(n, byId)
    if (p === null) continue
    const list = children.get(p) ?? []
    list.push(n)
    children.set(p, list)
  }
  return { byId, children }
}

/** The parent id when it names another node of the tree, else null (a root). */
function parentOf(n: TreeSelectNode, byId: Map<TreeId, TreeSelectNode>): TreeId | null {
  const p = n.parentId
  return p !== undefined && p !== null && p !== n.id && byId.has(p) ? p : null
}

/** The node and everything below it (cycle-safe). */
export function subtreeIds(nodes: readonly TreeSelectNode[], id: TreeId): TreeId[] {
  return subtree(indexOf(nodes), id)
}

function subtree(ix: Index, id: TreeId): TreeId[] {
  const out: TreeId[] = []
  const seen = new Set<TreeId>()
  const stack = [id]
  while (stack.length) {
    const cur = stack.pop()!
    if (seen.has(cur) || !ix.byId.has(cur)) continue
    seen.add(cur)
    out.push(cur)
    for (const c of ix.children.get(cur) ?? []) stack.push(c.id)
  }
  return out
}

function ancestors(ix: Index, id: TreeId): TreeId[] {
  const out: TreeId[] = []
  const seen = new Set<TreeId>([id])
  let cur = ix.byId.get(id)
  while (cur) {
    const p = parentOf(cur, ix.byId)
    if (p === null || seen.has(p)) break
    seen.add(p)
    out.push(p)
    cur = ix.byId.get(p)
  }
  return out
}

/** Mandatory items ticked, and every ancestor of a ticked node ticked; ids not in the tree dropped. Keeps tree order. */
export function normalizeChecked(nodes: readonly TreeSelectNode[], checked: Iterable<TreeId>): TreeId[] {
  return closeOver(indexOf(nodes), nodes, new Set(checked))
}

function closeOver(ix: Index, nodes: readonly TreeSelectNode[], set: Set<TreeId>): TreeId[] {
  for (const n of nodes) if (n.mandatory) set.add(n.id)
  for (const id of [...set]) {
    if (!ix.byId.has(id)) continue
    for (const a of ancestors(ix, id)) set.add(a)
  }
  return nodes.filter((n) => set.has(n.id)).map((n) => n.id)
}

export function treeSelect(nodes: readonly TreeSelectNode[], checked: readonly TreeId[], action: TreeSelectAction): TreeSelectResult {
  const ix = indexOf(nodes)
  const current = new Set(checked)
  switch (action.type) {
    case 'selectAll':
      return { checked: nodes.map((n) => n.id), warning: null }
    case 'clear': {
      return { checked: closeOver(ix, nodes, new Set()), warning: null }
    }
    case 'invert': {
      const flipped = new Set(nodes.filter((n) => !current.has(n.id)).map((n) => n.id))
      return { checked: closeOver(ix, nodes, flipped), warning: null }
    }
    case 'toggle': {
      if (!ix.byId.has(action.id)) return { checked: normalizeChecked(nodes, checked), warning: null }
      const below = subtree(ix, action.id)
      if (current.has(action.id)) {
        const locked = below.map((id) => ix.byId.get(id)!).find((n) => n.mandatory)
        if (locked) return { checked: normalizeChecked(nodes, checked), warning: TEAM_UI_MSG.mandatory(locked.name) }
        for (const id of below) current.delete(id)
        return { checked: closeOver(ix, nodes, current), warning: null }
      }
      for (const id of below) current.add(id)
      return { checked: closeOver(ix, nodes, current), warning: null }
    }
  }
}

/** How a node shows: ticked, partly (some but not all of its subtree ticked) or not. */
export function tickState(nodes: readonly TreeSelectNode[], checked: readonly TreeId[], id: TreeId): 'all' | 'some' | 'none' {
  const set = new Set(checked)
  const below = subtreeIds(nodes, id)
  const n = below.filter((x) => set.has(x)).length
  if (n === 0) return 'none'
  return n === below.length ? 'all' : 'some'
}

/** Depth of each node (roots 0), for indenting a flat rendering of the tree. */
export function depthOf(nodes: readonly TreeSelectNode[]): Map<TreeId, number> {
  const ix = indexOf(nodes)
  return new Map(nodes.map((n) => [n.id, ancestors(ix, n.id).length]))
}

/** The nodes in depth-first tree order (children after their parent, siblings in input order). */
export function treeOrder(nodes: readonly TreeSelectNode[]): TreeSelectNode[] {
  const ix = indexOf(nodes)
  const out: TreeSelectNode[] = []
  const seen = new Set<TreeId>()
  const visit = (n: TreeSelectNode) => {
    if (seen.has(n.id)) return
    seen.add(n.id)
    out.push(n)
    for (const c of ix.children.get(n.id) ?? []) visit(c)
  }
  for (const n of nodes) if (parentOf(n, ix.byId) === null) visit(n)
  // Nodes only reachable through a cycle: still listed once.
  for (const n of nodes) visit(n)
  return out
}
