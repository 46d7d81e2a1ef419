/** /api/oplog/*: the operation log, newest first with filters, and restoring deletes from it. */
import { ErrCode } from '../../types/api'
import { MAP_MSG, TEAM_UI_MSG } from '../../src/domain/messages'
import { PERM } from '../../src/domain/permissions'
import { expectOk, grant, makeLayer, makeMarker, makeTeam, setMarkerLimit, type Team } from './mapdata-fixture'

let team: Team
beforeEach(async () => {
  team = await makeTeam()
})
afterEach(() => team.t.close())

const log = async (filter: object = {}) => expectOk(await team.t.call('/api/oplog/getlist', filter, team.owner))
const deleteOpOf = async (entity: string, entityId: number) => (await log({ entity, action: 'delete' })).list.find((l: any) => l.entity_id === entityId)
const liveMarkerIds = async (layerIds: number[]) => expectOk(await team.t.call('/api/marker/getlist', { layer_ids: layerIds, pageindex: 1, pagesize: 5000 }, team.owner)).list.map((m: any) => m.id)

describe('/api/oplog/getlist', () => {
  it('should list changes newest first with who, when, what and before/after', async () => {
    const { t, owner } = team
    const layerId = await makeLayer(t, owner, '水井')
    t.clock.advance(1000)
    const markerId = await makeMarker(t, owner, layerId, { name: '1号井' })
    const page = await log()
    expect(page.total).toBe(2)
    expect(page.list[0]).toEqual({
      id: expect.any(Number),
      at: t.clock.now().toISOString(),
      user_id: owner.userid,
      user_name: '队长',
      entity: 'marker',
      entity_id: markerId,
      action: 'create',
      name: '1号井',
      before: null,
      after: expect.objectContaining({ id: markerId, name: '1号井', layer_id: layerId }),
      restorable: false,
    })
    expect(page.list[1]).toMatchObject({ entity: 'layer', entity_id: layerId, action: 'create', name: '水井' })
  })

  it('should filter by entity, action, user and keyword and page the result', async () => {
    const { t, owner, member } = team
    const layerId = await makeLayer(t, owner, '水井')
    await grant(team, layerId, member, [PERM.MARKER_ADD])
    for (let i = 1; i <= 5; i++) await makeMarker(t, owner, layerId, { name: `井${i}` })
    const byMember = await makeMarker(t, member, layerId, { name: '泵站' })
    expect((await log({ entity: 'layer' })).total).toBe(1)
    expect((await log({ action: 'create', entity: 'marker' })).total).toBe(6)
    expect((await log({ user_id: member.userid })).list.map((l: any) => l.entity_id)).toEqual([byMember])
    expect((await log({ kw: '泵' })).list.map((l: any) => l.name)).toEqual(['泵站'])
    expect((await log({ kw: '%' })).total).toBe(0)
    const second = await log({ entity: 'marker', pageindex: 2, pagesize: 4 })
    expect(second).toMatchObject({ total: 6 })
    expect(second.list.map((l: any) => l.name)).toEqual(['井2', '井1'])
  })

  it('should refuse a plain member, even one with permissions on layers', async () => {
    const { t, owner, member } = team
    const layerId = await makeLayer(t, owner, '水井')
    await grant(team, layerId, member, [PERM.LAYER_LOG, PERM.MARKER_ADD])
    expect(await t.call('/api/oplog/getlist', {}, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: TEAM_UI_MSG.moduleMissing('日志') })
  })

  it("should need the log module and the oplog permission together, as the app's menu and page do", async () => {
    const { t, owner, member } = team
    const role = async (module_ids: string[]) => {
      const id = expectOk(await t.call('/api/role/save', { name: `日志${module_ids.length}` }, owner)).id
      expectOk(await t.call('/api/role/save/module', { role_id: id, module_ids }, owner))
      expectOk(await t.call('/api/role/save/join', { role_id: id, user_ids: [member.userid] }, owner))
      return id
    }
    const only = await role([PERM.MODULE_LOG])
    expect(await t.call('/api/oplog/getlist', {}, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: TEAM_UI_MSG.actionMissing('操作日志') })
    expectOk(await t.call('/api/role/save/module', { role_id: only, module_ids: [PERM.OPLOG] }, owner))
    expect(await t.call('/api/oplog/getlist', {}, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: TEAM_UI_MSG.moduleMissing('日志') })
    expectOk(await t.call('/api/role/save/module', { role_id: only, module_ids: [PERM.MODULE_LOG, PERM.OPLOG] }, owner))
    expect((await t.call('/api/oplog/getlist', {}, member)).errcode).toBe(ErrCode.OK)
  })

  it("should show another group nothing of this group's log", async () => {
    const { t, owner, outsider } = team
    await makeLayer(t, owner, '水井')
    expect(expectOk(await t.call('/api/oplog/getlist', {}, outsider))).toEqual({ list: [], total: 0 })
  })

  it('should refuse unknown filters and oversized pages', async () => {
    expect((await team.t.call('/api/oplog/getlist', { entity: 'user' }, team.owner)).errcode).toBe(ErrCode.VALIDATION)
    expect((await team.t.call('/api/oplog/getlist', { pagesize: 100000 }, team.owner)).errcode).toBe(ErrCode.VALIDATION)
  })
})

describe('/api/oplog/restore', () => {
  it('should restore a deleted marker once, log the restore and end the delete being restorable', async () => {
    const { t, owner } = team
    const layerId = await makeLayer(t, owner, '水井')
    const markerId = await makeMarker(t, owner, layerId)
    expectOk(await t.call('/api/marker/delete', { id: markerId }, owner))
    const op = await deleteOpOf('marker', markerId)
    expect(op.restorable).toBe(true)
    expect(expectOk(await t.call('/api/oplog/restore', { id: op.id }, owner))).toBeNull()
    expect(await liveMarkerIds([layerId])).toEqual([markerId])
    expect((await log()).list[0]).toMatchObject({ entity: 'marker', entity_id: markerId, action: 'restore' })
    expect((await deleteOpOf('marker', markerId)).restorable).toBe(false)
    expect(await t.call('/api/oplog/restore', { id: op.id }, owner)).toMatchObject({ errcode: ErrCode.CONFLICT, errmsg: MAP_MSG.restoreNotPossible })
  })

  it('should only let the latest delete of a marker be restored', async () => {
    const { t, owner } = team
    const layerId = await makeLayer(t, owner, '水井')
    const markerId = await makeMarker(t, owner, layerId)
    expectOk(await t.call('/api/marker/delete', { id: markerId }, owner))
    const first = await deleteOpOf('marker', markerId)
    expectOk(await t.call('/api/oplog/restore', { id: first.id }, owner))
    t.clock.advance(1000)
    expectOk(await t.call('/api/marker/delete', { id: markerId }, owner))
    const deletes = (await log({ entity: 'marker', action: 'delete' })).list
    expect(deletes.map((l: any) => l.restorable)).toEqual([true, false])
    expect((await t.call('/api/oplog/restore', { id: first.id }, owner)).errcode).toBe(ErrCode.CONFLICT)
  })

  it('should hold the marker limit when restoring', async () => {
    const { t, owner } = team
    const layerId = await makeLayer(t, owner, '水井')
    await setMarkerLimit(team, 1)
    const markerId = await makeMarker(t, owner, layerId)
    expectOk(await t.call('/api/marker/delete', { id: markerId }, owner))
    await makeMarker(t, owner, layerId, { name: '新的' })
    const op = await deleteOpOf('marker', markerId)
    expect(await t.call('/api/oplog/restore', { id: op.id }, owner)).toMatchObject({ errcode: ErrCode.LIMIT_REACHED, errmsg: MAP_MSG.markerLimit(1) })
    expect(await liveMarkerIds([layerId])).toHaveLength(1)
  })

  it('should restore a folder with the layers and markers deleted with it, not those deleted before', async () => {
    const { t, owner } = team
    const folder = await makeLayer(t, owner, '片区', 0)
    const inner = await makeLayer(t, owner, '水井', 1, folder)
    const kept = await makeMarker(t, owner, inner, { name: '留' })
    const earlier = await makeMarker(t, owner, inner, { name: '早删' })
    expectOk(await t.call('/api/marker/delete', { id: earlier }, owner))
    t.clock.advance(1000)
    expect(expectOk(await t.call('/api/layer/delete', { id: folder }, owner))).toEqual({ layers: 1, markers: 1 })
    const op = await deleteOpOf('layer', folder)
    expectOk(await t.call('/api/oplog/restore', { id: op.id }, owner))
    const layers = expectOk(await t.call('/api/layer/getlist', {}, owner)).map((l: any) => l.id)
    expect(layers.sort()).toEqual([folder, inner].sort())
    expect(await liveMarkerIds([inner])).toEqual([kept])
  })

  it('should restore a note only while its marker lives', async () => {
    const { t, owner } = team
    const layerId = await makeLayer(t, owner, '水井')
    const markerId = await makeMarker(t, owner, layerId)
    const note = expectOk(await t.call('/api/marker/note/save', { marker_id: markerId, content: '水位低' }, owner))
    expectOk(await t.call('/api/marker/note/delete', { ids: [note.id] }, owner))
    const op = await deleteOpOf('note', note.id)
    expectOk(await t.call('/api/marker/delete', { id: markerId }, owner))
    expect(await t.call('/api/oplog/restore', { id: op.id }, owner)).toMatchObject({ errcode: ErrCode.CONFLICT, errmsg: MAP_MSG.restoreNotPossible })
    expectOk(await t.call('/api/oplog/restore', { id: (await deleteOpOf('marker', markerId)).id }, owner))
    expectOk(await t.call('/api/oplog/restore', { id: op.id }, owner))
    expect(expectOk(await t.call('/api/marker/note/getlist', { markerid: markerId }, owner))).toMatchObject([{ id: note.id, content: '水位低' }])
    expect((await log({ entity: 'note' })).list[0]).toMatchObject({ action: 'restore', entity_id: note.id })
  })

  it('should restore a field unless a live field has taken its name', async () => {
    const { t, owner } = team
    const layerId = await makeLayer(t, owner, '水井')
    const field = expectOk(await t.call('/api/layer/field/save', { layer_id: layerId, name: '深度', kind: 'number' }, owner))
    const markerId = await makeMarker(t, owner, layerId, { fields: { [field.id]: 3 } })
    expectOk(await t.call('/api/layer/field/delete', { id: field.id }, owner))
    const op = await deleteOpOf('field', field.id)
    const usurper = expectOk(await t.call('/api/layer/field/save', { layer_id: layerId, name: '深度', kind: 'text' }, owner))
    expect(await t.call('/api/oplog/restore', { id: op.id }, owner)).toMatchObject({ errcode: ErrCode.CONFLICT, errmsg: MAP_MSG.fieldNameDuplicate })
    expectOk(await t.call('/api/layer/field/delete', { id: usurper.id }, owner))
    expectOk(await t.call('/api/oplog/restore', { id: op.id }, owner))
    expect(expectOk(await t.call('/api/layer/field/getlist', { layer_id: layerId }, owner)).map((f: any) => f.id)).toEqual([field.id])
    const [marker] = expectOk(await t.call('/api/marker/getbyid', { ids: [markerId] }, owner))
    expect(marker.fields).toEqual({ [field.id]: 3 })
  })

  it('should refuse to restore what is not a delete', async () => {
    const { t, owner } = team
    await makeLayer(t, owner, '水井')
    const [create] = (await log()).list
    expect(await t.call('/api/oplog/restore', { id: create.id }, owner)).toMatchObject({ errcode: ErrCode.CONFLICT, errmsg: MAP_MSG.restoreNotPossible })
  })

  it('should refuse a plain member and another group, and restore nothing', async () => {
    const { t, owner, member, outsider } = team
    const layerId = await makeLayer(t, owner, '水井')
    const markerId = await makeMarker(t, owner, layerId)
    await grant(team, layerId, member, [PERM.LAYER_LOG, PERM.MARKER_DELETE])
    expectOk(await t.call('/api/marker/delete', { id: markerId }, owner))
    const op = await deleteOpOf('marker', markerId)
    expect(await t.call('/api/oplog/restore', { id: op.id }, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    expect(await t.call('/api/oplog/restore', { id: op.id }, outsider)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
    expect(await liveMarkerIds([layerId])).toEqual([])
  })
})
