import { MAP_MSG, MAP_UI_MSG } from '../../src/domain/messages'
import { PERM } from '../../src/domain/permissions'
import { fail, ok } from '../support/fakes'
import { buildLayer, buildMarker, signedInRoot } from '../support/mapBuilders'

const folder = buildLayer({ id: 1, name: '工程', type: 0, marker_count: 7 })
const sub = buildLayer({ id: 2, name: '道路', type: 0, parent_id: 1, marker_count: 5 })
const roads = buildLayer({ id: 3, name: '主路', type: 2, parent_id: 2, marker_count: 5, show: true })
const border = buildLayer({ id: 4, name: '边界', type: 3, parent_id: 1, marker_count: 2, show: false })
const clients = buildLayer({ id: 5, name: '客户', type: 1, marker_count: 10, show: true, is_default: true })
const LAYERS = [folder, sub, roads, border, clients]

const emptyPage = () => ok({ list: [], total: 0 })

describe('LayerStore (layers in folders)', () => {
  it('loads the flat list as a tree and draws only roots until a folder opens', async () => {
    const { root } = await signedInRoot({ '/api/layer/getlist': () => ok(LAYERS) })
    expect(await root.layers.load()).toBe(true)
    expect(root.layers.rows.map((r) => r.layer.name)).toEqual(['工程', '客户'])
    root.layers.toggleOpen(1)
    expect(root.layers.rows.map((r) => r.layer.name)).toEqual(['工程', '道路', '边界', '客户'])
    expect(root.layers.pathLabel(3)).toBe('工程 / 道路 / 主路')
  })

  it('keeps the open folders on the phone across restarts', async () => {
    const first = await signedInRoot({ '/api/layer/getlist': () => ok(LAYERS) })
    await first.root.layers.load()
    first.root.layers.toggleOpen(1)
    first.root.layers.toggleOpen(2)
    expect(JSON.parse(first.storage.get('open_folder_ids')!)).toEqual([1, 2])
    first.root.layers.toggleOpen(2)
    expect(JSON.parse(first.storage.get('open_folder_ids')!)).toEqual([1])

    const again = await signedInRoot({ '/api/layer/getlist': () => ok(LAYERS) }, { storage: first.storage.dump() })
    await again.root.layers.load()
    expect(again.root.layers.rows.map((r) => r.layer.name)).toEqual(['工程', '道路', '边界', '客户'])
  })

  it('shows and hides a layer through /api/layer/setting/show and loads or drops its markers', async () => {
    const { root, calls } = await signedInRoot({
      '/api/layer/getlist': () => ok(LAYERS),
      '/api/layer/setting/show': () => ok(null),
      '/api/marker/getlist': (body) => ok({ list: body.layer_ids.includes(4) ? [buildMarker({ layer_id: 4, type: 3, points: '1,1|2,1|2,2' })] : [], total: 1 }),
    })
    await root.layers.load()
    expect(await root.layers.setShown(4, true)).toBe(true)
    expect(calls.find((c) => c.path === '/api/layer/setting/show')?.body).toMatchObject({ ids: [4], show: true })
    expect(root.layers.byId.get(4)?.show).toBe(true)
    expect(root.markers.loadedCount(4)).toBe(1)
    expect(await root.layers.setShown(4, false)).toBe(true)
    expect(root.layers.byId.get(4)?.show).toBe(false)
    expect(root.markers.loadedCount(4)).toBeUndefined()
  })

  it("turns every layer in a folder on or off with the folder's switch", async () => {
    const { root, calls } = await signedInRoot({ '/api/layer/getlist': () => ok(LAYERS), '/api/layer/setting/show': () => ok(null), '/api/marker/getlist': emptyPage })
    await root.layers.load()
    expect(root.layers.isShown(1)).toBe(true)
    await root.layers.setShown(1, false)
    expect(calls.at(-1)?.body.ids.sort()).toEqual([1, 2, 3, 4])
    expect(root.layers.isShown(1)).toBe(false)
    expect(root.layers.shownLayerIds).toEqual([5])
  })

  it('puts the switch back when the server refuses to persist it', async () => {
    const { root } = await signedInRoot({ '/api/layer/getlist': () => ok(LAYERS), '/api/layer/setting/show': () => fail(1003, '没有权限执行此操作') })
    await root.layers.load()
    expect(await root.layers.setShown(5, false)).toBe(false)
    expect(root.layers.byId.get(5)?.show).toBe(true)
    expect(root.app.currentNotice?.text).toBe('没有权限执行此操作')
  })

  it('creates folders and layers inside a folder, checking the name first', async () => {
    let id = 50
    const { root, calls } = await signedInRoot({
      '/api/layer/getlist': () => ok(LAYERS),
      '/api/layer/save': (body) => ok(buildLayer({ id: ++id, name: body.name, parent_id: body.parent_id, type: body.type })),
    })
    await root.layers.load()
    expect(await root.layers.createFolder(0, '  ')).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.layerNameRequired)
    expect(await root.layers.createLayer(0, '很'.repeat(31), 1)).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.layerNameTooLong(30))
    expect(await root.layers.createLayer(5, '不行', 1)).toBeUndefined()
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.parentMustBeFolder)
    expect(calls.filter((c) => c.path === '/api/layer/save')).toHaveLength(0)

    const made = await root.layers.createLayer(2, ' 井盖 ', 1)
    expect(made).toMatchObject({ name: '井盖', parent_id: 2, type: 1 })
    expect(calls.at(-1)?.body).toMatchObject({ name: '井盖', parent_id: 2, type: 1 })
    // The folder it went into opens so that the user sees it.
    expect(root.layers.openIds).toContain(2)
  })

  it("keeps an empty folder's switch on until it is switched off", async () => {
    const empty = buildLayer({ id: 9, name: '空文件夹', type: 0, show: true })
    const { root } = await signedInRoot({ '/api/layer/getlist': () => ok([...LAYERS, empty]), '/api/layer/setting/show': () => ok(null) })
    await root.layers.load()
    expect(root.layers.isShown(9)).toBe(true)
    await root.layers.setShown(9, false)
    expect(root.layers.isShown(9)).toBe(false)
    // A folder with layers still follows them.
    expect(root.layers.isShown(2)).toBe(true)
  })

  it('marks the default layer of a kind only where the kind has more than one layer', async () => {
    const roads2 = buildLayer({ id: 6, name: '支路', type: 2, is_default: false })
    const mainDefault = { ...roads, is_default: true }
    const { root } = await signedInRoot({ '/api/layer/getlist': () => ok([folder, sub, mainDefault, border, clients, roads2]) })
    await root.layers.load()
    // 客户 is the only point layer: where else would points go.
    expect(root.layers.showsDefaultBadge(5)).toBe(false)
    expect(root.layers.showsDefaultBadge(3)).toBe(true)
    expect(root.layers.showsDefaultBadge(6)).toBe(false)
    expect(root.layers.showsDefaultBadge(1)).toBe(false)
  })

  it('renames, and moves only into a folder that is not below itself', async () => {
    const { root, calls } = await signedInRoot({
      '/api/layer/getlist': () => ok(LAYERS),
      '/api/layer/save': (body) => ok({ ...LAYERS.find((l) => l.id === body.id)!, ...body }),
    })
    await root.layers.load()
    expect(await root.layers.rename(5, '重要客户')).toBe(true)
    expect(root.layers.byId.get(5)?.name).toBe('重要客户')
    expect(await root.layers.move(1, 2)).toBe(false)
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.cannotMoveIntoItself)
    expect(await root.layers.move(5, 3)).toBe(false)
    expect(root.app.currentNotice?.text).toBe(MAP_MSG.parentMustBeFolder)
    expect(await root.layers.move(5, 2)).toBe(true)
    expect(calls.at(-1)?.body).toMatchObject({ id: 5, parent_id: 2, name: '重要客户' })
    expect(root.layers.pathLabel(5)).toBe('工程 / 道路 / 重要客户')
    expect(root.layers.moveTargets(2).map((r) => r.layer.id)).toEqual([1])
  })

  it('confirms a folder delete with the counts from the tree, then deletes everything in it', async () => {
    let list = LAYERS
    const { root, calls } = await signedInRoot({
      '/api/layer/getlist': () => ok(list),
      '/api/layer/delete': () => {
        list = [clients]
        return ok({ layers: 3, markers: 7 })
      },
      '/api/marker/getlist': emptyPage,
    })
    await root.layers.load()
    expect(root.layers.deleteImpact(1)).toMatchObject({ layers: 3, markers: 7, needsConfirm: true })
    expect(root.layers.deleteConfirmText(1)).toBe(MAP_MSG.deleteFolderConfirm(3, 7))
    expect(root.layers.deleteConfirmText(5)).toBe(MAP_UI_MSG.deleteLayerConfirm('客户'))
    root.layers.toggleOpen(1)
    expect(await root.layers.remove(1)).toBe(true)
    expect(calls.find((c) => c.path === '/api/layer/delete')?.body).toMatchObject({ id: 1 })
    expect(root.layers.layers.map((l) => l.id)).toEqual([5])
    expect(root.layers.openIds).not.toContain(1)
  })

  it('counts the markers this phone loaded when confirming a delete', async () => {
    const { root } = await signedInRoot({
      '/api/layer/getlist': () => ok(LAYERS),
      '/api/marker/getlist': (body) => ok({ list: body.layer_ids.includes(3) ? [1, 2, 3].map(() => buildMarker({ layer_id: 3, type: 1, points: '1,1|2,2' })) : [], total: 3 }),
    })
    await root.layers.load()
    await root.markers.loadShown()
    expect(root.layers.deleteImpact(1).markers).toBe(3 + 2)
    expect(root.layers.markerCount(1)).toBe(5)
  })

  it('sets the default layer of a kind', async () => {
    const other = buildLayer({ id: 6, name: '供应商', type: 1 })
    const { root } = await signedInRoot({ '/api/layer/getlist': () => ok([...LAYERS, other]), '/api/layer/setting/default': () => ok(null) })
    await root.layers.load()
    expect(await root.layers.setDefault(6)).toBe(true)
    expect(root.layers.byId.get(6)?.is_default).toBe(true)
    expect(root.layers.byId.get(5)?.is_default).toBe(false)
  })

  it('offers only non-folder layers where the user may add markers, per kind (SPEC 6)', async () => {
    const readOnly = buildLayer({ id: 7, name: '只读', type: 1, manager: false, layer_opts: [] })
    const granted = buildLayer({ id: 8, name: '授权', type: 1, manager: false, layer_opts: [PERM.MARKER_ADD] })
    const { root } = await signedInRoot({ '/api/layer/getlist': () => ok([...LAYERS, readOnly, granted]) }, { admin: false })
    await root.layers.load()
    expect(root.layers.addableFor(0).map((l) => l.id)).toEqual([5, 8])
    expect(root.layers.addableFor(1).map((l) => l.id)).toEqual([3])
    expect(root.layers.addableFor(4).map((l) => l.id)).toEqual([4])
  })

  it('lists the layers whose fields the user may manage, without folders, in tree order (the /fields picker)', async () => {
    const readOnly = buildLayer({ id: 7, name: '只读', type: 1, manager: false, layer_opts: [PERM.MARKER_ADD] })
    const granted = buildLayer({ id: 8, name: '授权', type: 1, manager: false, layer_opts: [PERM.LAYER_FIELD] })
    const { root } = await signedInRoot({ '/api/layer/getlist': () => ok([...LAYERS, readOnly, granted]) }, { admin: false })
    await root.layers.load()
    // Folders closed in the panel do not hide their layers here.
    expect(root.layers.fieldLayers.map((l) => l.id)).toEqual([3, 4, 5, 8])
  })

  it('remembers the last layer per kind (spot, line, plane) on the phone, falling back to the default', async () => {
    const other = buildLayer({ id: 6, name: '供应商', type: 1 })
    const first = await signedInRoot({ '/api/layer/getlist': () => ok([...LAYERS, other]) })
    await first.root.layers.load()
    expect(first.root.layers.layerFor(0)?.id).toBe(5)
    first.root.layers.rememberLayer(0, 6)
    first.root.layers.rememberLayer(2, 3)
    expect(JSON.parse(first.storage.get('last_layer_ids')!)).toEqual({ spot: 6, line: 3 })
    const again = await signedInRoot({ '/api/layer/getlist': () => ok([...LAYERS, other]) }, { storage: first.storage.dump() })
    await again.root.layers.load()
    expect(again.root.layers.layerFor(0)?.id).toBe(6)
    expect(again.root.layers.layerFor(1)?.id).toBe(3)
  })

  it('gives a layer its own title style, else the group default, else SPEC 9 font size 14', async () => {
    const { root, calls } = await signedInRoot({
      '/api/system/title/style/getlist': () => ok([{ id: 1, layer_id: null, font_size: 16, color: '#000000', bg_color: '#FFFFFF', padding: 2, border_weight: 0, border_color: '#000000' }]),
      '/api/system/title/style/save': (body) => ok({ ...body, id: 9 }),
    })
    expect(root.layers.titleStyleFor(5).font_size).toBe(14)
    await root.layers.loadTitleStyles()
    expect(root.layers.titleStyleFor(5).font_size).toBe(16)
    expect(await root.layers.saveTitleStyle(5, { ...root.layers.titleStyleFor(5), font_size: 20 })).toBe(true)
    expect(calls.at(-1)?.body).toMatchObject({ layer_id: 5, font_size: 20 })
    expect(root.layers.titleStyleFor(5).font_size).toBe(20)
    expect(root.layers.titleStyleFor(3).font_size).toBe(16)
  })

  it('forgets the map data of the previous user on logout', async () => {
    const { root } = await signedInRoot({ '/api/layer/getlist': () => ok(LAYERS), '/api/user/logout': () => ok(null) })
    await root.layers.load()
    await root.session.logout()
    expect(root.layers.layers).toEqual([])
  })
})
