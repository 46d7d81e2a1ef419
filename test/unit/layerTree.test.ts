import { ancestorIds, buildLayerTree, checkMove, deleteImpact, descendantIds, layersUnder, moveTargets, pathLabel, pathOf, visibleRows, type TreeLayer } from '../../src/domain/layerTree'
import { MAP_MSG } from '../../src/domain/messages'

let nextId = 100
function buildLayer(over: Partial<TreeLayer> & { name: string }): TreeLayer {
  nextId += 1
  return { id: nextId, parent_id: 0, type: 1, sort: 0, marker_count: 0, ...over }
}

/**
 * 工程 (folder 1)
 *   道路 (folder 2)
 *     主路 (line layer 3, 5 markers)
 *     深层 (folder 4)
 *       井盖 (point layer 5, 7 markers)
 *   边界 (area layer 6, 2 markers)
 * 客户 (point layer 7, 10 markers)
 */
const LAYERS: TreeLayer[] = [
  { id: 7, parent_id: 0, type: 1, sort: 2, name: '客户', marker_count: 10 },
  { id: 6, parent_id: 1, type: 3, sort: 2, name: '边界', marker_count: 2 },
  { id: 5, parent_id: 4, type: 1, sort: 0, name: '井盖', marker_count: 7 },
  { id: 4, parent_id: 2, type: 0, sort: 1, name: '深层', marker_count: 7 },
  { id: 3, parent_id: 2, type: 2, sort: 0, name: '主路', marker_count: 5 },
  { id: 2, parent_id: 1, type: 0, sort: 1, name: '道路', marker_count: 12 },
  { id: 1, parent_id: 0, type: 0, sort: 1, name: '工程', marker_count: 14 },
]

const names = (rows: { layer: TreeLayer }[]) => rows.map((r) => r.layer.name)

describe('layer tree (folders nest to any depth)', () => {
  it('builds the tree from the flat list, ordered by sort then id', () => {
    const tree = buildLayerTree(LAYERS)
    expect(tree.map((n) => n.layer.name)).toEqual(['工程', '客户'])
    expect(tree[0].children.map((n) => n.layer.name)).toEqual(['道路', '边界'])
    const roads = tree[0].children.find((n) => n.layer.id === 2)!
    expect(roads.depth).toBe(1)
    expect(roads.children.map((n) => n.layer.name)).toEqual(['主路', '深层'])
    expect(roads.children[1].children[0]).toMatchObject({ depth: 3, layer: { name: '井盖' } })
  })

  it('nests deeper than any fixed number of levels', () => {
    const deep: TreeLayer[] = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, parent_id: i, type: i === 49 ? 1 : 0, sort: 0, name: `L${i + 1}` }))
    const rows = visibleRows(buildLayerTree(deep), new Set(deep.map((l) => l.id)))
    expect(rows).toHaveLength(50)
    expect(rows[49]).toMatchObject({ depth: 49, isFolder: false })
  })

  it('shows a layer whose parent is missing, or whose parents loop, at the root instead of losing it', () => {
    const odd: TreeLayer[] = [
      { id: 1, parent_id: 99, type: 1, sort: 0, name: '孤儿' },
      { id: 2, parent_id: 3, type: 0, sort: 0, name: 'A' },
      { id: 3, parent_id: 2, type: 0, sort: 0, name: 'B' },
    ]
    const rows = visibleRows(buildLayerTree(odd), new Set([2, 3]))
    expect(names(rows).sort()).toEqual(['A', 'B', '孤儿'].sort())
  })

  it('draws the children of open folders only', () => {
    const tree = buildLayerTree(LAYERS)
    expect(names(visibleRows(tree, new Set()))).toEqual(['工程', '客户'])
    expect(names(visibleRows(tree, new Set([1])))).toEqual(['工程', '道路', '边界', '客户'])
    // An open folder inside a closed one stays hidden.
    expect(names(visibleRows(tree, new Set([2])))).toEqual(['工程', '客户'])
    const rows = visibleRows(tree, new Set([1, 2]))
    expect(names(rows)).toEqual(['工程', '道路', '主路', '深层', '边界', '客户'])
    expect(rows.find((r) => r.layer.id === 2)).toMatchObject({ isFolder: true, open: true, hasChildren: true, depth: 1 })
    expect(rows.find((r) => r.layer.id === 4)).toMatchObject({ isFolder: true, open: false })
  })

  it('lists every descendant of a folder, and none of a layer', () => {
    expect(descendantIds(LAYERS, 1).sort()).toEqual([2, 3, 4, 5, 6])
    expect(descendantIds(LAYERS, 2).sort()).toEqual([3, 4, 5])
    expect(descendantIds(LAYERS, 7)).toEqual([])
  })

  it('gives the path from the root to a layer', () => {
    expect(pathOf(LAYERS, 5).map((l) => l.id)).toEqual([1, 2, 4, 5])
    expect(pathLabel(LAYERS, 5)).toBe('工程 / 道路 / 深层 / 井盖')
    expect(ancestorIds(LAYERS, 5)).toEqual([1, 2, 4])
    expect(pathOf(LAYERS, 404)).toEqual([])
  })

  it('counts what deleting a folder removes: every folder and layer below it and their markers', () => {
    expect(deleteImpact(LAYERS, 1)).toEqual({ ids: expect.arrayContaining([1, 2, 3, 4, 5, 6]), layers: 5, markers: 14, needsConfirm: true })
    expect(deleteImpact(LAYERS, 2)).toMatchObject({ layers: 3, markers: 12 })
    expect(MAP_MSG.deleteFolderConfirm(5, 14)).toBe('将同时删除其中的5个图层和14个标注，可在操作日志中恢复。确定删除吗？')
  })

  it('counts markers from what this phone loaded when it knows better than the server count', () => {
    const loaded = new Map([[5, 9]])
    expect(deleteImpact(LAYERS, 2, (id) => loaded.get(id)).markers).toBe(5 + 9)
  })

  it('needs no count confirmation for an empty folder or an empty layer', () => {
    const layers = [...LAYERS, { id: 20, parent_id: 0, type: 0 as const, sort: 9, name: '空' }, { id: 21, parent_id: 0, type: 1 as const, sort: 9, name: '空层', marker_count: 0 }]
    expect(deleteImpact(layers, 20)).toMatchObject({ ids: [20], layers: 0, markers: 0, needsConfirm: false })
    expect(deleteImpact(layers, 21)).toMatchObject({ needsConfirm: false })
    expect(deleteImpact(layers, 7)).toMatchObject({ ids: [7], layers: 0, markers: 10, needsConfirm: true })
  })

  it('moves only into a folder that is not the item itself or below it; the root is always allowed', () => {
    expect(checkMove(LAYERS, 5, 0)).toBeNull()
    expect(checkMove(LAYERS, 5, 1)).toBeNull()
    expect(checkMove(LAYERS, 2, 2)).toBe(MAP_MSG.cannotMoveIntoItself)
    expect(checkMove(LAYERS, 1, 4)).toBe(MAP_MSG.cannotMoveIntoItself)
    expect(checkMove(LAYERS, 5, 7)).toBe(MAP_MSG.parentMustBeFolder)
    expect(checkMove(LAYERS, 5, 404)).toBe(MAP_MSG.parentMustBeFolder)
    expect(moveTargets(LAYERS, 2).map((r) => r.layer.id)).toEqual([1])
    expect(moveTargets(LAYERS, 7).map((r) => r.layer.id)).toEqual([1, 2, 4])
  })

  it('finds the layers a folder show switch acts on', () => {
    expect(
      layersUnder(LAYERS, 1)
        .map((l) => l.id)
        .sort(),
    ).toEqual([3, 5, 6])
    expect(layersUnder(LAYERS, 7).map((l) => l.id)).toEqual([7])
  })

  it('accepts light objects from the server (builder)', () => {
    const a = buildLayer({ name: 'a', type: 0 })
    const b = buildLayer({ name: 'b', parent_id: a.id })
    expect(pathLabel([a, b], b.id)).toBe('a / b')
  })
})
