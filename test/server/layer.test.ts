/** /api/layer/* and /api/module/getlist/layer: the folder tree, its changes, show flags and permissions. */
import { ErrCode } from '../../types/api'
import { LAYER_NAME_MAX } from '../../src/domain/markers'
import { MAP_MSG, MSG } from '../../src/domain/messages'
import { LAYER_PERMISSIONS, PERM } from '../../src/domain/permissions'
import { expectOk, grant, makeLayer, makeMarker, makeTeam, type Team } from './mapdata-fixture'

let team: Team
beforeEach(async () => {
  team = await makeTeam()
})
afterEach(() => team.t.close())

const call = (path: string, body: object, auth = team.owner) => team.t.call(path, body, auth)
const layers = async (auth = team.owner) => expectOk(await call('/api/layer/getlist', {}, auth)) as any[]
const layerById = async (id: number, auth = team.owner) => (await layers(auth)).find((l) => l.id === id)

async function liveLayerCount(): Promise<number> {
  const row = await team.t.db.kysely
    .selectFrom('layers')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** layers.marker_count against a real count of live markers, for every layer. */
async function expectCountsKept() {
  const kept = await team.t.db.kysely.selectFrom('layers').select(['id', 'marker_count']).execute()
  for (const layer of kept) {
    const real = await team.t.db.kysely
      .selectFrom('markers')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('layer_id', '=', layer.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow()
    expect({ id: layer.id, count: layer.marker_count }).toEqual({ id: layer.id, count: Number(real.n) })
  }
}

describe('/api/layer/getlist', () => {
  it('should list nothing for a new group', async () => {
    expect(await layers()).toEqual([])
  })

  it('should describe each layer to a manager: counts, show, manager, every layer permission and the default', async () => {
    const { t } = team
    const folder = await makeLayer(t, team.owner, '片区', 0)
    const wells = await makeLayer(t, team.owner, '水井', 1, folder)
    await makeMarker(t, team.owner, wells)
    await makeMarker(t, team.owner, wells)
    expect(await layers()).toEqual([
      {
        id: folder,
        name: '片区',
        parent_id: 0,
        type: 0,
        marker_count: 2,
        show: true,
        manager: true,
        layer_opts: LAYER_PERMISSIONS,
        sort: 0,
        is_default: false,
        rev: 1,
        created_at: t.clock.now().toISOString(),
        updated_at: t.clock.now().toISOString(),
      },
      expect.objectContaining({ id: wells, parent_id: folder, type: 1, marker_count: 2, is_default: true }),
    ])
  })

  it('should list layers in sort order, then by id', async () => {
    const b = expectOk(await call('/api/layer/save', { name: 'B', type: 1, sort: 2 })).id
    const a = expectOk(await call('/api/layer/save', { name: 'A', type: 1, sort: 1 })).id
    const c = expectOk(await call('/api/layer/save', { name: 'C', type: 1, sort: 2 })).id
    expect((await layers()).map((l) => l.id)).toEqual([a, b, c])
  })
})

describe('/api/layer/save', () => {
  it('should create a layer and answer it as getlist shows it', async () => {
    const saved = expectOk(await call('/api/layer/save', { name: ' 水井 ', type: 1 }))
    expect(saved).toMatchObject({ name: '水井', type: 1, parent_id: 0, marker_count: 0, show: true, manager: true, is_default: true })
    expect(await layerById(saved.id)).toEqual(saved)
  })

  it('should make the first layer of each kind the default and leave later ones as they are', async () => {
    const first = expectOk(await call('/api/layer/save', { name: '点1', type: 1 }))
    const second = expectOk(await call('/api/layer/save', { name: '点2', type: 1 }))
    const line = expectOk(await call('/api/layer/save', { name: '线', type: 2 }))
    const folder = expectOk(await call('/api/layer/save', { name: '夹', type: 0 }))
    expect([first.is_default, second.is_default, line.is_default, folder.is_default]).toEqual([true, false, true, false])
  })

  it.each([
    ['missing', { type: 1 }, MAP_MSG.layerNameRequired],
    ['blank', { name: '   ', type: 1 }, MAP_MSG.layerNameRequired],
    ['too long', { name: '层'.repeat(LAYER_NAME_MAX + 1), type: 1 }, MAP_MSG.layerNameTooLong(LAYER_NAME_MAX)],
    ['without a type', { name: '水井' }, MAP_MSG.layerTypeRequired],
    ['of an unknown type', { name: '水井', type: 4 }, MAP_MSG.layerTypeRequired],
  ])('should refuse a layer whose name is %s and write nothing', async (_what, body, message) => {
    expect(await call('/api/layer/save', body)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: message })
    expect(await liveLayerCount()).toBe(0)
  })

  it('should accept a name of exactly 30 characters', async () => {
    expect(expectOk(await call('/api/layer/save', { name: '层'.repeat(LAYER_NAME_MAX), type: 1 })).name).toHaveLength(LAYER_NAME_MAX)
  })

  it('should nest folders to any depth and count the markers of everything below a folder', async () => {
    const { t } = team
    let parent = 0
    const chain: number[] = []
    for (let depth = 0; depth < 6; depth++) {
      parent = await makeLayer(t, team.owner, `第${depth + 1}层`, 0, parent)
      chain.push(parent)
    }
    const deep = await makeLayer(t, team.owner, '最深的图层', 1, parent)
    const side = await makeLayer(t, team.owner, '旁边的图层', 1, chain[2])
    await makeMarker(t, team.owner, deep)
    await makeMarker(t, team.owner, side)
    await makeMarker(t, team.owner, side)
    const byId = new Map((await layers()).map((l) => [l.id, l]))
    expect(chain.map((id) => byId.get(id).marker_count)).toEqual([3, 3, 3, 1, 1, 1])
    expect(byId.get(deep)).toMatchObject({ parent_id: chain[5], marker_count: 1 })
  })

  it('should only put layers into a folder of the same group', async () => {
    const { t } = team
    const layer = await makeLayer(t, team.owner, '水井', 1)
    const theirFolder = await makeLayer(t, team.outsider, '别人的文件夹', 0)
    for (const parent_id of [layer, theirFolder, 999_999]) {
      expect(await call('/api/layer/save', { name: '新图层', type: 1, parent_id })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.parentMustBeFolder })
    }
    expect((await layers()).map((l) => l.id)).toEqual([layer])
  })

  it('should rename, re-sort and move a layer between folders and to the root', async () => {
    const { t } = team
    const a = await makeLayer(t, team.owner, 'A', 0)
    const b = await makeLayer(t, team.owner, 'B', 0)
    const layer = await makeLayer(t, team.owner, '水井', 1, a)
    t.clock.advance(1000)
    const moved = expectOk(await call('/api/layer/save', { id: layer, name: '新水井', parent_id: b, sort: 5 }))
    expect(moved).toMatchObject({ id: layer, name: '新水井', parent_id: b, sort: 5, type: 1, updated_at: t.clock.now().toISOString() })
    expect(expectOk(await call('/api/layer/save', { id: layer, name: '新水井', parent_id: 0 })).parent_id).toBe(0)
    // parent_id left out: the layer stays where it is.
    expect(expectOk(await call('/api/layer/save', { id: layer, name: '改名' }))).toMatchObject({ parent_id: 0, sort: 5 })
  })

  it('should not move a folder into itself or anything below it', async () => {
    const { t } = team
    const top = await makeLayer(t, team.owner, '顶层', 0)
    const middle = await makeLayer(t, team.owner, '中层', 0, top)
    const bottom = await makeLayer(t, team.owner, '底层', 0, middle)
    for (const parent_id of [top, middle, bottom]) {
      expect(await call('/api/layer/save', { id: top, name: '顶层', parent_id })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.cannotMoveIntoItself })
    }
    expect((await layerById(top)).parent_id).toBe(0)
  })

  it('should change the type of an empty layer but not of one that holds markers', async () => {
    const { t } = team
    const layer = await makeLayer(t, team.owner, '图层', 1)
    expect(expectOk(await call('/api/layer/save', { id: layer, name: '图层', type: 2 })).type).toBe(2)
    await makeMarker(t, team.owner, layer, { type: 1, points: '116.1,39.1|116.2,39.2' })
    expect(await call('/api/layer/save', { id: layer, name: '图层', type: 3 })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.layerTypeLocked })
    expect((await layerById(layer)).type).toBe(2)
  })

  it('should not turn a folder with layers in it into a layer', async () => {
    const { t } = team
    const folder = await makeLayer(t, team.owner, '文件夹', 0)
    await makeLayer(t, team.owner, '图层', 1, folder)
    expect(await call('/api/layer/save', { id: folder, name: '文件夹', type: 1 })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.folderTypeLocked })
  })

  it('should answer NOT_FOUND for an unknown id', async () => {
    expect(await call('/api/layer/save', { id: 999_999, name: 'x' })).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: MSG.notFound })
  })
})

describe('/api/layer/delete', () => {
  it('should delete a layer with its markers and answer the counts', async () => {
    const { t } = team
    const layer = await makeLayer(t, team.owner, '水井', 1)
    await makeMarker(t, team.owner, layer)
    await makeMarker(t, team.owner, layer)
    expect(expectOk(await call('/api/layer/delete', { id: layer }))).toEqual({ layers: 0, markers: 2 })
    expect(await layers()).toEqual([])
    expect(expectOk(await call('/api/marker/getlist', { layer_ids: [layer], pageindex: 1, pagesize: 5000 }))).toEqual({ list: [], total: 0 })
  })

  it('should delete a folder with every layer, folder and marker below it, all at the same moment', async () => {
    const { t } = team
    const folder = await makeLayer(t, team.owner, '片区', 0)
    const sub = await makeLayer(t, team.owner, '子文件夹', 0, folder)
    const a = await makeLayer(t, team.owner, 'A', 1, folder)
    const b = await makeLayer(t, team.owner, 'B', 2, sub)
    const outside = await makeLayer(t, team.owner, '外面', 1)
    await makeMarker(t, team.owner, a)
    await makeMarker(t, team.owner, b, { type: 1, points: '116.1,39.1|116.2,39.2' })
    await makeMarker(t, team.owner, b, { type: 2, points: '116.1,39.1|116.2,39.2' })
    await makeMarker(t, team.owner, outside)
    t.clock.advance(1000)

    expect(expectOk(await call('/api/layer/delete', { id: folder }))).toEqual({ layers: 3, markers: 3 })

    const at = t.clock.now().toISOString()
    const layerRows = await t.db.kysely.selectFrom('layers').select(['id', 'deleted_at']).orderBy('id').execute()
    expect(layerRows).toEqual([
      { id: folder, deleted_at: at },
      { id: sub, deleted_at: at },
      { id: a, deleted_at: at },
      { id: b, deleted_at: at },
      { id: outside, deleted_at: null },
    ])
    const markerRows = await t.db.kysely.selectFrom('markers').select(['layer_id', 'deleted_at']).orderBy('id').execute()
    expect(markerRows.map((m) => m.deleted_at)).toEqual([at, at, at, null])
    expect((await layers()).map((l) => l.id)).toEqual([outside])
    await expectCountsKept()
  })

  it('should refuse a member who may not delete everything inside the folder, and delete nothing', async () => {
    const { t } = team
    const folder = await makeLayer(t, team.owner, '片区', 0)
    const inside = await makeLayer(t, team.owner, '图层', 1, folder)
    await makeMarker(t, team.owner, inside)
    await grant(team, folder, team.member, [PERM.LAYER_DELETE])
    await grant(team, inside, team.member, [PERM.LAYER_DATA_LIST])
    expect(await call('/api/layer/delete', { id: folder }, team.member)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden })
    expect(await liveLayerCount()).toBe(2)

    await grant(team, inside, team.member, [PERM.LAYER_DATA_LIST, PERM.LAYER_DELETE])
    expect(expectOk(await call('/api/layer/delete', { id: folder }, team.member))).toEqual({ layers: 1, markers: 1 })
    expect(await liveLayerCount()).toBe(0)
  })

  it('should answer NOT_FOUND for a layer that is already deleted', async () => {
    const layer = await makeLayer(team.t, team.owner, '水井', 1)
    expectOk(await call('/api/layer/delete', { id: layer }))
    expect(await call('/api/layer/delete', { id: layer })).toMatchObject({ errcode: ErrCode.NOT_FOUND })
  })
})

describe('/api/layer/setting/default', () => {
  it('should make a layer the default of its kind and the previous default stop being it', async () => {
    const { t } = team
    const first = await makeLayer(t, team.owner, '点1', 1)
    const second = await makeLayer(t, team.owner, '点2', 1)
    const line = await makeLayer(t, team.owner, '线', 2)
    expect(expectOk(await call('/api/layer/setting/default', { id: second }))).toBeNull()
    const byId = new Map((await layers()).map((l) => [l.id, l.is_default]))
    expect([byId.get(first), byId.get(second), byId.get(line)]).toEqual([false, true, true])
  })

  it('should refuse a folder', async () => {
    const folder = await makeLayer(team.t, team.owner, '文件夹', 0)
    expect(await call('/api/layer/setting/default', { id: folder })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.folderCannotBeDefault })
  })

  it('should need layer_edit on the layer from a member', async () => {
    const { t } = team
    await makeLayer(t, team.owner, '点1', 1)
    const second = await makeLayer(t, team.owner, '点2', 1)
    await grant(team, second, team.member, [PERM.LAYER_DATA_LIST])
    expect(await call('/api/layer/setting/default', { id: second }, team.member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    await grant(team, second, team.member, [PERM.LAYER_EDIT])
    expectOk(await call('/api/layer/setting/default', { id: second }, team.member))
    expect((await layerById(second)).is_default).toBe(true)
  })
})

describe('/api/layer/setting/show', () => {
  it('should show every layer by default and keep hiding per user', async () => {
    const { t } = team
    const a = await makeLayer(t, team.owner, 'A', 1)
    const b = await makeLayer(t, team.owner, 'B', 1)
    await grant(team, a, team.member, [PERM.LAYER_DATA_LIST])
    expect(expectOk(await call('/api/layer/setting/show', { ids: [a, b], show: false }))).toBeNull()
    expect((await layers()).map((l) => l.show)).toEqual([false, false])
    expect((await layers(team.member)).map((l) => [l.id, l.show])).toEqual([[a, true]])

    expectOk(await call('/api/layer/setting/show', { ids: [b], show: true }))
    expect((await layers()).map((l) => l.show)).toEqual([false, true])
  })

  it('should refuse ids the caller cannot see and change nothing', async () => {
    const { t } = team
    const a = await makeLayer(t, team.owner, 'A', 1)
    const b = await makeLayer(t, team.owner, 'B', 1)
    await grant(team, a, team.member, [PERM.LAYER_DATA_LIST])
    expect(await call('/api/layer/setting/show', { ids: [a, b], show: false }, team.member)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
    expect((await layers(team.member))[0].show).toBe(true)
  })

  it('should validate its body', async () => {
    expect((await call('/api/layer/setting/show', { ids: 'x', show: false })).errcode).toBe(ErrCode.VALIDATION)
    expect((await call('/api/layer/setting/show', { ids: [1] })).errcode).toBe(ErrCode.VALIDATION)
  })
})

describe('/api/layer/save/auth', () => {
  it('should let a manager grant, change and take away a member’s permission ids on a layer', async () => {
    const { t } = team
    const layer = await makeLayer(t, team.owner, '水井', 1)
    expect(await layers(team.member)).toEqual([])
    const grantOpts = (opts: string[]) => call('/api/layer/save/auth', { layer_id: layer, user_id: team.member.userid, opts })

    expect(expectOk(await grantOpts([PERM.MARKER_ADD, PERM.LAYER_DATA_LIST]))).toBeNull()
    // Kept in catalogue order.
    expect(await layers(team.member)).toEqual([expect.objectContaining({ id: layer, manager: false, layer_opts: [PERM.LAYER_DATA_LIST, PERM.MARKER_ADD] })])

    expectOk(await grantOpts([PERM.MARKER_EDIT]))
    expect((await layers(team.member))[0].layer_opts).toEqual([PERM.MARKER_EDIT])

    expectOk(await grantOpts([]))
    expect(await layers(team.member)).toEqual([])
  })

  it('should refuse ids that are not layer permissions', async () => {
    const layer = await makeLayer(team.t, team.owner, '水井', 1)
    for (const opts of [[PERM.MODULE_MAP], ['anything'], [PERM.LAYER_ADD]]) {
      expect(await call('/api/layer/save/auth', { layer_id: layer, user_id: team.member.userid, opts })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.layerOptsInvalid })
    }
    expect(await layers(team.member)).toEqual([])
  })

  it('should refuse a user who is not a member of the group', async () => {
    const layer = await makeLayer(team.t, team.owner, '水井', 1)
    expect(await call('/api/layer/save/auth', { layer_id: layer, user_id: team.outsider.userid, opts: [PERM.LAYER_DATA_LIST] })).toMatchObject({
      errcode: ErrCode.NOT_FOUND,
      errmsg: MAP_MSG.notGroupMember,
    })
    expect(await team.t.db.kysely.selectFrom('layer_auth').selectAll().execute()).toEqual([])
  })

  it('should be for managers only', async () => {
    const layer = await makeLayer(team.t, team.owner, '水井', 1)
    await grant(team, layer, team.member, LAYER_PERMISSIONS)
    expect(await call('/api/layer/save/auth', { layer_id: layer, user_id: team.member.userid, opts: [] }, team.member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    expect((await layers(team.member))[0].layer_opts).toEqual(LAYER_PERMISSIONS)
  })

  it('should let a group manager who is not the administrator do everything', async () => {
    const { t } = team
    await t.db.kysely
      .updateTable('joins')
      .set({ is_manager: 1 })
      .where('user_id', '=', team.member.userid as number)
      .execute()
    const layer = expectOk(await call('/api/layer/save', { name: '经理的图层', type: 1 }, team.member))
    expect(layer).toMatchObject({ manager: true, layer_opts: LAYER_PERMISSIONS })
    expectOk(await call('/api/layer/save/auth', { layer_id: layer.id, user_id: team.owner.userid, opts: [PERM.LAYER_DATA_LIST] }, team.member))
    expect(expectOk(await call('/api/layer/delete', { id: layer.id }, team.member))).toEqual({ layers: 0, markers: 0 })
  })
})

describe('permission decisions for a plain member', () => {
  it('should show a member only the layers where they hold some permission, with those ids', async () => {
    const { t } = team
    const seen = await makeLayer(t, team.owner, '看得到', 1)
    await makeLayer(t, team.owner, '看不到', 1)
    await grant(team, seen, team.member, [PERM.LAYER_DATA_LIST])
    expect(await layers(team.member)).toEqual([expect.objectContaining({ id: seen, manager: false, layer_opts: [PERM.LAYER_DATA_LIST] })])
  })

  it('should let only managers create at the root', async () => {
    expect(await call('/api/layer/save', { name: '根图层', type: 1 }, team.member)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden })
    expect(await liveLayerCount()).toBe(0)
  })

  it('should let a member with layer_edit on a folder create inside it, holding their folder ids on the new layer', async () => {
    const { t } = team
    const folder = await makeLayer(t, team.owner, '片区', 0)
    await grant(team, folder, team.member, [PERM.LAYER_DATA_LIST])
    expect(await call('/api/layer/save', { name: '我的图层', type: 1, parent_id: folder }, team.member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })

    await grant(team, folder, team.member, [PERM.LAYER_EDIT, PERM.MARKER_ADD])
    const created = expectOk(await call('/api/layer/save', { name: '我的图层', type: 1, parent_id: folder }, team.member))
    expect(created).toMatchObject({ parent_id: folder, manager: false, layer_opts: [PERM.LAYER_EDIT, PERM.MARKER_ADD] })
  })

  it('should need layer_edit to rename or move and layer_delete to delete', async () => {
    const { t } = team
    const layer = await makeLayer(t, team.owner, '水井', 1)
    await grant(team, layer, team.member, [PERM.LAYER_DATA_LIST])
    expect(await call('/api/layer/save', { id: layer, name: '改名' }, team.member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    expect(await call('/api/layer/delete', { id: layer }, team.member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })

    await grant(team, layer, team.member, [PERM.LAYER_EDIT])
    expect(expectOk(await call('/api/layer/save', { id: layer, name: '改名' }, team.member)).name).toBe('改名')
    // Moving to the root is a manager's decision.
    const folder = await makeLayer(t, team.owner, '片区', 0)
    expectOk(await call('/api/layer/save', { id: layer, name: '改名', parent_id: folder }))
    expect(await call('/api/layer/save', { id: layer, name: '改名', parent_id: 0 }, team.member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    expect(await layers(team.member)).toEqual([expect.objectContaining({ id: layer, parent_id: folder })])
  })

  it('should refuse a member who has no permission on the layer at all with FORBIDDEN', async () => {
    const layer = await makeLayer(team.t, team.owner, '水井', 1)
    expect(await call('/api/layer/save', { id: layer, name: '改名' }, team.member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    expect(await call('/api/layer/setting/show', { ids: [layer], show: false }, team.member)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
  })
})

describe('kept marker counts', () => {
  it('should keep every layer’s marker count exact through create, move, delete and folder delete', async () => {
    const { t } = team
    const folder = await makeLayer(t, team.owner, '片区', 0)
    const a = await makeLayer(t, team.owner, 'A', 1, folder)
    const b = await makeLayer(t, team.owner, 'B', 1)
    const m1 = await makeMarker(t, team.owner, a)
    const m2 = await makeMarker(t, team.owner, a)
    await makeMarker(t, team.owner, b)
    expectOk(await call('/api/marker/save', { id: m1, layer_id: b, name: '搬走', type: 0, points: '116.3,39.9' }))
    await expectCountsKept()
    expectOk(await call('/api/marker/delete', { id: m2 }))
    await expectCountsKept()
    expectOk(await call('/api/layer/delete', { id: folder }))
    await expectCountsKept()
    expect((await layerById(b)).marker_count).toBe(2)
  })
})

describe('/api/module/getlist/layer', () => {
  it('should list the permission ids that can be granted on a layer, with names, in catalogue order', async () => {
    const list = expectOk(await call('/api/module/getlist/layer', {}))
    expect(list.map((p: any) => p.id)).toEqual(LAYER_PERMISSIONS)
    expect(list[0]).toEqual({ id: PERM.LAYER_EDIT, name: '编辑图层', group: '图层' })
  })

  it('should require a session', async () => {
    expect((await team.t.call('/api/module/getlist/layer', {})).status).toBe(401)
  })
})
