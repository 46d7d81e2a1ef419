import { depthOf, normalizeChecked, subtreeIds, tickState, treeOrder, treeSelect, type TreeId, type TreeSelectNode } from '../../src/domain/treeSelect'

// 总部 ─┬─ 销售部 ─┬─ 华北组
//       │          └─ 华南组
//       └─ 工程部
// 财务部 (root)
const TREE: TreeSelectNode[] = [
  { id: 1, parentId: 0, name: '总部' },
  { id: 2, parentId: 1, name: '销售部' },
  { id: 3, parentId: 2, name: '华北组' },
  { id: 4, parentId: 2, name: '华南组' },
  { id: 5, parentId: 1, name: '工程部' },
  { id: 6, parentId: 0, name: '财务部' },
]

const sorted = (ids: TreeId[]) => [...ids].sort((a, b) => Number(a) - Number(b))
const toggle = (checked: TreeId[], id: TreeId, nodes = TREE) => treeSelect(nodes, checked, { type: 'toggle', id })

describe('tree selection (SPEC 4: ticking, unticking, mandatory items)', () => {
  it('ticking a node ticks all its descendants', () => {
    expect(sorted(toggle([], 2).checked)).toEqual([1, 2, 3, 4])
  })

  it('ticking a child also ticks its ancestors, and nothing beside them', () => {
    expect(sorted(toggle([], 3).checked)).toEqual([1, 2, 3])
  })

  it('ticking a root leaf ticks only it', () => {
    expect(toggle([], 6).checked).toEqual([6])
  })

  it('unticking a node removes it and its descendants but keeps its ancestors', () => {
    const all = treeSelect(TREE, [], { type: 'selectAll' }).checked
    expect(sorted(toggle(all, 2).checked)).toEqual([1, 5, 6])
  })

  it('unticking a leaf removes only that leaf', () => {
    expect(sorted(toggle([1, 2, 3, 4], 4).checked)).toEqual([1, 2, 3])
  })

  it('unticking the root clears its whole subtree', () => {
    expect(toggle([1, 2, 3, 4, 5, 6], 1).checked).toEqual([6])
  })

  it('ticking then unticking the same node returns to the start for a leaf under ticked ancestors', () => {
    const start = [1, 2, 3]
    expect(sorted(toggle(toggle(start, 4).checked, 4).checked)).toEqual(start)
  })

  it('a mandatory item cannot be unticked and warns "{item}必须授权，无法取消"', () => {
    const nodes = TREE.map((n) => (n.id === 3 ? { ...n, mandatory: true } : n))
    const res = toggle([1, 2, 3], 3, nodes)
    expect(res.warning).toBe('华北组必须授权，无法取消')
    expect(sorted(res.checked)).toEqual([1, 2, 3])
  })

  it('a node above a mandatory item cannot be unticked either, and nothing changes', () => {
    const nodes = TREE.map((n) => (n.id === 3 ? { ...n, mandatory: true } : n))
    const res = toggle([1, 2, 3, 4, 5], 1, nodes)
    expect(res.warning).toBe('华北组必须授权，无法取消')
    expect(sorted(res.checked)).toEqual([1, 2, 3, 4, 5])
  })

  it('mandatory items (and their ancestors) are ticked from the start', () => {
    const nodes = TREE.map((n) => (n.id === 4 ? { ...n, mandatory: true } : n))
    expect(sorted(normalizeChecked(nodes, []))).toEqual([1, 2, 4])
  })

  it('select all ticks every node', () => {
    expect(sorted(treeSelect(TREE, [3], { type: 'selectAll' }).checked)).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('invert of nothing is everything, of everything is nothing', () => {
    expect(sorted(treeSelect(TREE, [], { type: 'invert' }).checked)).toEqual([1, 2, 3, 4, 5, 6])
    expect(treeSelect(TREE, [1, 2, 3, 4, 5, 6], { type: 'invert' }).checked).toEqual([])
  })

  it('invert keeps the rules: a newly ticked child ticks its ancestors again', () => {
    // 1,2,3 ticked; inverted: 4,5,6, and 4 needs 2 and 1 above it.
    expect(sorted(treeSelect(TREE, [1, 2, 3], { type: 'invert' }).checked)).toEqual([1, 2, 4, 5, 6])
  })

  it('invert keeps mandatory items ticked', () => {
    const nodes = TREE.map((n) => (n.id === 6 ? { ...n, mandatory: true } : n))
    expect(sorted(treeSelect(nodes, [1, 2, 3, 4, 5, 6], { type: 'invert' }).checked)).toEqual([6])
  })

  it('clear leaves only mandatory items', () => {
    const nodes = TREE.map((n) => (n.id === 5 ? { ...n, mandatory: true } : n))
    expect(sorted(treeSelect(nodes, [1, 2, 3, 4, 5, 6], { type: 'clear' }).checked)).toEqual([1, 5])
  })

  it('unknown ids are ignored and dropped', () => {
    expect(toggle([99], 42).checked).toEqual([])
  })

  it('works on a flat list (members, modules) where every node is a root', () => {
    const flat: TreeSelectNode[] = [
      { id: 'module_map', name: '地图', mandatory: true },
      { id: 'module_routing', name: '路线规划' },
      { id: 'module_share', name: '分享' },
    ]
    expect(normalizeChecked(flat, [])).toEqual(['module_map'])
    expect(treeSelect(flat, ['module_map'], { type: 'toggle', id: 'module_share' }).checked).toEqual(['module_map', 'module_share'])
    expect(treeSelect(flat, ['module_map'], { type: 'toggle', id: 'module_map' }).warning).toBe('地图必须授权，无法取消')
  })

  it('survives a cycle in the data without looping', () => {
    const cyclic: TreeSelectNode[] = [
      { id: 'a', parentId: 'b', name: 'A' },
      { id: 'b', parentId: 'a', name: 'B' },
    ]
    expect(treeSelect(cyclic, [], { type: 'toggle', id: 'a' }).checked.sort()).toEqual(['a', 'b'])
    expect(
      treeOrder(cyclic)
        .map((n) => n.id)
        .sort(),
    ).toEqual(['a', 'b'])
  })

  it('every sequence of toggles keeps the invariant: each ticked node has its ancestors ticked', () => {
    const parent = new Map(TREE.map((n) => [n.id, n.parentId]))
    let checked: TreeId[] = []
    // A fixed pseudo-random walk over the nodes (deterministic).
    let seed = 7
    for (let i = 0; i < 200; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648
      const id = TREE[seed % TREE.length].id
      checked = toggle(checked, id).checked
      for (const c of checked) {
        const p = parent.get(c)
        if (p) expect(checked).toContain(p)
      }
    }
  })
})

describe('tree rendering helpers', () => {
  it('tick state is all, some or none for a subtree', () => {
    expect(tickState(TREE, [1, 2, 3], 2)).toBe('some')
    expect(tickState(TREE, [1, 2, 3, 4], 2)).toBe('all')
    expect(tickState(TREE, [1], 5)).toBe('none')
  })

  it('subtree ids include the node and all levels below', () => {
    expect(sorted(subtreeIds(TREE, 1))).toEqual([1, 2, 3, 4, 5])
  })

  it('tree order puts children right after their parent, with depths for indenting', () => {
    const shuffled = [TREE[3], TREE[5], TREE[0], TREE[4], TREE[2], TREE[1]]
    expect(treeOrder(shuffled).map((n) => n.id)).toEqual([6, 1, 5, 2, 4, 3])
    expect(depthOf(TREE).get(3)).toBe(2)
    expect(depthOf(TREE).get(6)).toBe(0)
  })
})
