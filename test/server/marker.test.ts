/** /api/marker/*: save with the shared geometry, style and field rules, the marker limit, delete, reads, search. */
import { ErrCode } from '../../types/api'
import type { MarkerType } from '../../types/mapdata'
import { DEFAULT_MARKER_COLOR, DEFAULT_POINT_SIZE, TRIAL_LIMITS } from '../../src/domain/constants'
import { MARKER_NAME_MAX } from '../../src/domain/markers'
import { MAP_MSG, MSG } from '../../src/domain/messages'
import { FILE_URL_MSG } from '../../src/domain/systemMessages'
import { PERM } from '../../src/domain/permissions'
import { inTransaction } from '../../server/src/db/connection'
import { insertMarkers, searchTextOf, type NewMarker } from '../../server/src/db/markers'
import { expectOk, grant, makeLayer, makeMarker, makeTeam, type Team } from './mapdata-fixture'
import { uploadPng } from './upload-fixture'

let team: Team
let points: number
let lines: number
let areas: number
beforeEach(async () => {
  team = await makeTeam()
  points = await makeLayer(team.t, team.owner, '点图层', 1)
  lines = await makeLayer(team.t, team.owner, '线图层', 2)
  areas = await makeLayer(team.t, team.owner, '面图层', 3)
})
afterEach(() => team.t.close())

const call = (path: string, body: object, auth = team.owner) => team.t.call(path, body, auth)
const save = (body: object, auth = team.owner) => call('/api/marker/save', body, auth)
const byIds = async (ids: number[], auth = team.owner) => expectOk(await call('/api/marker/getbyid', { ids }, auth)) as any[]

async function count(table: 'markers' | 'oplog'): Promise<number> {
  const row = await team.t.db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Markers straight into the database (many at once, as import does). */
async function insertDirectly(layerId: number, n: number, at = { lng: 116.4, lat: 39.9 }) {
  const now = team.t.clock.now().toISOString()
  const rows: NewMarker[] = Array.from({ length: n }, (_, i) => ({
    group_id: team.groupId,
    layer_id: layerId,
    name: `批量${i}`,
    type: 0,
    points: `${at.lng},${at.lat}`,
    style: '{}',
    width: 32,
    radius: 0,
    sort: 0,
    fields: '{}',
    search_text: searchTextOf(`批量${i}`, {}),
    min_lng: at.lng,
    min_lat: at.lat,
    max_lng: at.lng,
    max_lat: at.lat,
    creator_id: team.owner.userid as number,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  }))
  await inTransaction(team.t.db, (trx) => insertMarkers(trx, rows))
}

describe('/api/marker/save (create)', () => {
  it('should create a point with the SPEC 9 defaults and answer it as getbyid shows it', async () => {
    const { t, owner } = team
    const saved = expectOk(await save({ layer_id: points, name: ' 1号井 ', type: 0, points: ' 116.3974280 , 39.909230 ' }))
    expect(saved).toEqual({
      id: expect.any(Number),
      layer_id: points,
      name: '1号井',
      type: 0,
      points: '116.397428,39.90923',
      style: { color: DEFAULT_MARKER_COLOR, size: DEFAULT_POINT_SIZE },
      width: DEFAULT_POINT_SIZE,
      radius: 0,
      sort: 0,
      fields: {},
      creator_id: owner.userid,
      creator_name: '队长',
      rev: 1,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    })
    expect(await byIds([saved.id])).toEqual([saved])
  })

  it.each([
    ['a point', 0, 'points', '116.4,39.9', 0],
    ['a solid line', 1, 'lines', '116.4,39.9|116.5,39.95', 0],
    ['a dashed line', 2, 'lines', '116.4,39.9|116.5,39.95|116.6,39.9', 0],
    ['a polygon', 3, 'areas', '116.4,39.9|116.5,39.95|116.6,39.9', 0],
    ['a rectangle', 4, 'areas', '116.4,39.9|116.5,39.95', 0],
    ['a circle', 5, 'areas', '116.4,39.9', 250],
    ['a dashed multi-part polygon', 6, 'areas', '116.4,39.9|116.5,39.95|116.6,39.9;117.4,39.9|117.5,39.95|117.6,39.9', 0],
  ])('should save %s in a layer of its kind', async (_what, type, layer, pts, radius) => {
    const layer_id = { points, lines, areas }[layer as 'points' | 'lines' | 'areas']
    const saved = expectOk(await save({ layer_id, name: '标注', type, points: pts, radius }))
    expect(saved).toMatchObject({ type, points: pts, radius })
    expect(saved.style.dashed ?? false).toBe(type === 2 || type === 6)
  })

  it.each([
    ['a point in a line layer', 'lines', 0, '116.4,39.9'],
    ['a line in an area layer', 'areas', 1, '116.4,39.9|116.5,39.95'],
    ['a polygon in a point layer', 'points', 3, '116.4,39.9|116.5,39.95|116.6,39.9'],
    ['a circle in a line layer', 'lines', 5, '116.4,39.9'],
  ])('should refuse %s and write nothing', async (_what, layer, type, pts) => {
    const layer_id = { points, lines, areas }[layer as 'points' | 'lines' | 'areas']
    expect(await save({ layer_id, name: '标注', type, points: pts, radius: 10 })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.markerKindMismatch })
    expect(await count('markers')).toBe(0)
  })

  it('should refuse markers in a folder', async () => {
    const folder = await makeLayer(team.t, team.owner, '文件夹', 0)
    expect(await save({ layer_id: folder, name: '标注', type: 0, points: '116.4,39.9' })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.folderCannotHoldMarkers })
    expect(await count('markers')).toBe(0)
  })

  it.each([
    ['no points', 0, '', 0, MAP_MSG.pointsRequired],
    ['a point with two vertices', 0, '116.4,39.9|116.5,39.9', 0, MAP_MSG.pointNeedsOne],
    ['a vertex that is not a number', 0, '116.4,abc', 0, MAP_MSG.vertexInvalid(1)],
    ['a NaN vertex', 0, 'NaN,39.9', 0, MAP_MSG.vertexInvalid(1)],
    ['an empty vertex', 1, '116.4,39.9||116.5,39.9', 0, MAP_MSG.vertexInvalid(2)],
    ['a longitude out of range', 0, '190,39.9', 0, MAP_MSG.lngRange(1)],
    ['a latitude out of range', 0, '116.4,-91', 0, MAP_MSG.latRange(1)],
    ['a line with one vertex', 1, '116.4,39.9', 0, MAP_MSG.lineNeedsTwo],
    ['a polygon with two vertices', 3, '116.4,39.9|116.5,39.9', 0, MAP_MSG.polygonNeedsThree],
    ['a rectangle with three corners', 4, '116.4,39.9|116.5,39.95|116.6,39.9', 0, MAP_MSG.rectangleNeedsTwo],
    ['a flat rectangle', 4, '116.4,39.9|116.5,39.9', 0, MAP_MSG.rectangleDegenerate],
    ['a circle without a radius', 5, '116.4,39.9', 0, MAP_MSG.circleNeedsRadius],
    ['a multi-part polygon with a short part', 6, '116.4,39.9|116.5,39.95|116.6,39.9;117.4,39.9|117.5,39.95', 0, MAP_MSG.multiPartNeedsThree(2)],
    ['an unknown kind', 7, '116.4,39.9', 0, MAP_MSG.markerTypeInvalid],
  ])('should refuse %s with its message and write nothing', async (_what, type, pts, radius, message) => {
    const layer_id = type === 0 ? points : type <= 2 ? lines : areas
    expect(await save({ layer_id, name: '标注', type, points: pts, radius })).toMatchObject({ status: 200, errcode: ErrCode.VALIDATION, errmsg: message })
    expect(await count('markers')).toBe(0)
    expect(await team.t.db.kysely.selectFrom('oplog').selectAll().where('entity', '=', 'marker').execute()).toEqual([])
  })

  it.each([
    ['missing', {}, MAP_MSG.markerNameRequired],
    ['blank', { name: '  ' }, MAP_MSG.markerNameRequired],
    ['too long', { name: '名'.repeat(MARKER_NAME_MAX + 1) }, MAP_MSG.markerNameTooLong(MARKER_NAME_MAX)],
  ])('should refuse a name that is %s', async (_what, over, message) => {
    expect(await save({ layer_id: points, type: 0, points: '116.4,39.9', name: undefined, ...over })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: message })
    expect(await count('markers')).toBe(0)
  })

  it('should clean the style: known keys kept and normalised, unknown keys dropped, defaults for what is missing', async () => {
    const saved = expectOk(await save({ layer_id: areas, name: '面', type: 3, points: '116.4,39.9|116.5,39.95|116.6,39.9', style: { color: '#ff0000', opacity: 7, evil: '<script>', size: 3.6 } }))
    expect(saved.style).toEqual({ color: '#FF0000', fill_color: DEFAULT_MARKER_COLOR, fill_opacity: 0.2, opacity: 1, size: 4 })
    expect(saved.width).toBe(2)
  })

  it('should keep an icon uploaded to the app and refuse any other icon value, writing nothing', async () => {
    const icon = await uploadPng(team.t, team.owner)
    const saved = expectOk(await save({ layer_id: points, name: '阀门', type: 0, points: '116.4,39.9', style: { icon } }))
    expect(saved.style.icon).toBe(icon)
    for (const bad of ['javascript:alert(1)', 'https://tracker.example.com/p.gif', '//tracker.example.com/p.gif', 'data:image/gif;base64,R0lGOD', '/files/1/valve.png', 7]) {
      expect(await save({ layer_id: points, name: '坏图标', type: 0, points: '116.4,39.9', style: { icon: bad } })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: FILE_URL_MSG.icon })
      expect(await save({ id: saved.id, layer_id: points, name: '阀门', type: 0, points: '116.4,39.9', style: { icon: bad } })).toMatchObject({
        errcode: ErrCode.VALIDATION,
        errmsg: FILE_URL_MSG.icon,
      })
    }
    expect(await count('markers')).toBe(1)
    expect((await byIds([saved.id]))[0].style.icon).toBe(icon)
    // No icon at all is the default pin.
    expect(expectOk(await save({ id: saved.id, layer_id: points, name: '阀门', type: 0, points: '116.4,39.9', style: { icon: '' } })).style.icon).toBeUndefined()
  })

  it('should keep the custom field values the layer defines, checked', async () => {
    const field = expectOk(await call('/api/layer/field/save', { layer_id: points, name: '深度', kind: 'number', required: true }))
    expect(await save({ layer_id: points, name: '井', type: 0, points: '116.4,39.9', fields: { [field.id]: 'deep' } })).toMatchObject({
      errcode: ErrCode.VALIDATION,
      errmsg: MAP_MSG.fieldNumber('深度'),
    })
    expect(await count('markers')).toBe(0)
    const saved = expectOk(await save({ layer_id: points, name: '井', type: 0, points: '116.4,39.9', fields: { [field.id]: '12.5', 999: 'dropped' } }))
    expect(saved.fields).toEqual({ [field.id]: 12.5 })
  })
})

describe('the marker limit', () => {
  it('should stop a trial group at 300 markers with the upgrade message and write nothing more', async () => {
    await insertDirectly(points, TRIAL_LIMITS.marker_limit - 1)
    expectOk(await save({ layer_id: points, name: '第300个', type: 0, points: '116.4,39.9' }))
    expect(await save({ layer_id: points, name: '第301个', type: 0, points: '116.4,39.9' })).toMatchObject({
      status: 200,
      errcode: ErrCode.LIMIT_REACHED,
      errmsg: MAP_MSG.markerLimit(300),
    })
    expect(await count('markers')).toBe(300)
  })

  it('should count only live markers and let an update through at the limit', async () => {
    await insertDirectly(points, TRIAL_LIMITS.marker_limit - 1)
    const last = await makeMarker(team.t, team.owner, points)
    expectOk(await save({ id: last, layer_id: points, name: '改名', type: 0, points: '116.5,39.9' }))
    expectOk(await call('/api/marker/delete', { id: last }))
    expectOk(await save({ layer_id: points, name: '补上', type: 0, points: '116.4,39.9' }))
  })

  it('should follow the group’s own limit', async () => {
    await team.t.db.kysely.updateTable('groups').set({ marker_limit: 1 }).where('id', '=', team.groupId).execute()
    await makeMarker(team.t, team.owner, points)
    expect(await save({ layer_id: lines, name: '线', type: 1, points: '116.4,39.9|116.5,39.9' })).toMatchObject({ errcode: ErrCode.LIMIT_REACHED, errmsg: MAP_MSG.markerLimit(1) })
  })
})

describe('/api/marker/save (update)', () => {
  it('should change a marker and keep what the body leaves out', async () => {
    const { t } = team
    const field = expectOk(await call('/api/layer/field/save', { layer_id: points, name: '备注', kind: 'text' }))
    const created = expectOk(await save({ layer_id: points, name: '井', type: 0, points: '116.4,39.9', style: { color: '#00ff00' }, sort: 3, fields: { [field.id]: '甜水' } }))
    t.clock.advance(60_000)
    const updated = expectOk(await save({ id: created.id, layer_id: points, name: '新井', type: 0, points: '116.5,39.95' }))
    expect(updated).toEqual({ ...created, name: '新井', points: '116.5,39.95', updated_at: t.clock.now().toISOString(), rev: 2 })
    expect(await byIds([created.id])).toEqual([updated])
  })

  it('should move a marker to another layer of its kind, not to one of another kind', async () => {
    const other = await makeLayer(team.t, team.owner, '另一个点图层', 1)
    const id = await makeMarker(team.t, team.owner, points)
    expect(expectOk(await save({ id, layer_id: other, name: '标注', type: 0, points: '116.4,39.9' })).layer_id).toBe(other)
    expect(await save({ id, layer_id: lines, name: '标注', type: 0, points: '116.4,39.9' })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.markerKindMismatch })
    expect((await byIds([id]))[0].layer_id).toBe(other)
  })

  it('should refuse invalid geometry on update and leave the marker as it was', async () => {
    const id = await makeMarker(team.t, team.owner, lines, { type: 1, points: '116.4,39.9|116.5,39.9' })
    const before = await byIds([id])
    expect(await save({ id, layer_id: lines, name: '线', type: 1, points: '116.4,39.9' })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.lineNeedsTwo })
    expect(await byIds([id])).toEqual(before)
  })

  it("should keep an area's holes through a save, as the points codec writes them (SPEC 3)", async () => {
    const withHole = '116.4,39.9|116.5,39.9|116.5,40|116.4,40#116.42,39.92|116.48,39.92|116.45,39.98'
    const created = expectOk(await save({ layer_id: areas, name: '试验田', type: 3, points: withHole }))
    expect(created.points).toBe(withHole)
    const moved = '116.41,39.9|116.5,39.9|116.5,40|116.4,40#116.42,39.92|116.48,39.92|116.45,39.98'
    expect(expectOk(await save({ id: created.id, layer_id: areas, name: '试验田', type: 3, points: moved, rev: created.rev })).points).toBe(moved)
    expect((await byIds([created.id]))[0].points).toBe(moved)
  })

  it('should answer NOT_FOUND for an unknown or deleted marker', async () => {
    const id = await makeMarker(team.t, team.owner, points)
    expectOk(await call('/api/marker/delete', { id }))
    for (const unknown of [id, 999_999]) {
      expect(await save({ id: unknown, layer_id: points, name: 'x', type: 0, points: '116.4,39.9' })).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: MSG.notFound })
    }
  })
})

describe('/api/marker/delete', () => {
  it('should soft-delete a marker so that no read returns it', async () => {
    const { t } = team
    const id = await makeMarker(t, team.owner, points, { name: '要删的' })
    const kept = await makeMarker(t, team.owner, points)
    expect(expectOk(await call('/api/marker/delete', { id }))).toBeNull()
    expect((await byIds([id, kept])).map((m) => m.id)).toEqual([kept])
    expect(expectOk(await call('/api/marker/getlist', { layer_ids: [points], pageindex: 1, pagesize: 10 })).total).toBe(1)
    expect(expectOk(await call('/api/marker/search', { kw: '要删' })).total).toBe(0)
    expect(expectOk(await call('/api/marker/getlist/ids', { ids: [points] })).map((s: any) => s.id)).toEqual([kept])
    const row = await t.db.kysely.selectFrom('markers').select('deleted_at').where('id', '=', id).executeTakeFirstOrThrow()
    expect(row.deleted_at).toBe(t.clock.now().toISOString())
    expect(await call('/api/marker/delete', { id })).toMatchObject({ errcode: ErrCode.NOT_FOUND })
  })
})

describe('/api/marker/getbyid and /api/marker/getlist/ids', () => {
  it('should answer the markers with the given ids by id and leave out unknown ones', async () => {
    const a = await makeMarker(team.t, team.owner, points)
    const b = await makeMarker(team.t, team.owner, lines, { type: 1, points: '116.4,39.9|116.5,39.9' })
    expect((await byIds([b, 999_999, a])).map((m) => m.id)).toEqual([a, b])
    expect(await byIds([])).toEqual([])
  })

  it('should list id, layer and last change of the markers in the given layers', async () => {
    const { t } = team
    const first = t.clock.now().toISOString()
    const a = await makeMarker(t, team.owner, points)
    t.clock.advance(1000)
    const b = await makeMarker(t, team.owner, lines, { type: 1, points: '116.4,39.9|116.5,39.9' })
    await makeMarker(t, team.owner, areas, { type: 5, radius: 10 })
    expect(expectOk(await call('/api/marker/getlist/ids', { ids: [lines, points] }))).toEqual([
      { id: a, layer_id: points, updated_at: first },
      { id: b, layer_id: lines, updated_at: t.clock.now().toISOString() },
    ])
  })
})

describe('/api/marker/search', () => {
  const search = async (body: object, auth = team.owner) => expectOk(await call('/api/marker/search', body, auth))
  const names = async (body: object, auth = team.owner) => (await search(body, auth)).list.map((m: any) => m.name)

  it('should find markers by a keyword in the name, case-insensitively', async () => {
    await makeMarker(team.t, team.owner, points, { name: '中石化加油站' })
    await makeMarker(team.t, team.owner, points, { name: 'Shell Station' })
    await makeMarker(team.t, team.owner, points, { name: '学校' })
    expect(await names({ kw: '加油' })).toEqual(['中石化加油站'])
    expect(await names({ kw: 'shell' })).toEqual(['Shell Station'])
    expect(await search({ kw: '加油' })).toMatchObject({ total: 1 })
  })

  it('should treat % and _ in the keyword as themselves', async () => {
    await makeMarker(team.t, team.owner, points, { name: '100%达标' })
    await makeMarker(team.t, team.owner, points, { name: 'a_b' })
    await makeMarker(team.t, team.owner, points, { name: 'axb' })
    expect(await names({ kw: '%' })).toEqual(['100%达标'])
    expect(await names({ kw: 'a_b' })).toEqual(['a_b'])
  })

  it('should find markers by a custom field value', async () => {
    const field = expectOk(await call('/api/layer/field/save', { layer_id: points, name: '负责人', kind: 'text' }))
    await makeMarker(team.t, team.owner, points, { name: '一号', fields: { [field.id]: '王建国' } })
    await makeMarker(team.t, team.owner, points, { name: '二号' })
    expect(await names({ kw: '建国' })).toEqual(['一号'])
  })

  it('should find markers by the text of their notes', async () => {
    const id = await makeMarker(team.t, team.owner, points, { name: '一号' })
    await makeMarker(team.t, team.owner, points, { name: '二号' })
    expectOk(await call('/api/marker/note/save', { marker_id: id, content: '水泵已更换' }))
    expect(await names({ kw: '水泵' })).toEqual(['一号'])
  })

  it('should find markers whose bounds meet a box, alone or with a keyword', async () => {
    const { t, owner } = team
    await makeMarker(t, owner, points, { name: '天安门', points: '116.397428,39.90923' })
    await makeMarker(t, owner, points, { name: '上海站', points: '121.455708,31.249574' })
    await makeMarker(t, owner, lines, { name: '跨城线', type: 1, points: '115.0,39.0|121.0,31.0' })
    await makeMarker(t, owner, areas, { name: '北京圆', type: 5, points: '116.2,39.9', radius: 20_000 })
    const beijing = [116.3, 39.8, 116.5, 40.0]
    expect(await names({ bbox: beijing })).toEqual(['天安门', '北京圆'])
    expect(await names({ bbox: beijing, kw: '圆' })).toEqual(['北京圆'])
    expect(await names({ bbox: [117, 35, 118, 36] })).toEqual(['跨城线'])
    expect(await names({ bbox: [0, 0, 1, 1] })).toEqual([])
  })

  it('should search only the given layers and page the results', async () => {
    for (let i = 0; i < 5; i++) await makeMarker(team.t, team.owner, points, { name: `网点${i}` })
    await makeMarker(team.t, team.owner, lines, { name: '网点线', type: 1, points: '116.4,39.9|116.5,39.9' })
    expect(await names({ kw: '网点', layer_ids: [lines] })).toEqual(['网点线'])
    const page2 = await search({ kw: '网点', pageindex: 2, pagesize: 2 })
    expect(page2.total).toBe(6)
    expect(page2.list.map((m: any) => m.name)).toEqual(['网点2', '网点3'])
  })

  it.each([
    ['a box with its corners swapped', { bbox: [117, 40, 116, 39] }],
    ['a box of three numbers', { bbox: [116, 39, 117] }],
    ['a box beyond the poles', { bbox: [116, -95, 117, 39] }],
  ])('should refuse %s', async (_what, body) => {
    expect(await call('/api/marker/search', body)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.bboxInvalid })
  })
})

describe('marker permission decisions for a plain member', () => {
  const point = { name: '标注', type: 0 as MarkerType, points: '116.4,39.9' }

  it('should let a member with no permission on the layer read and change nothing', async () => {
    const id = await makeMarker(team.t, team.owner, points)
    const { member } = team
    expect(expectOk(await call('/api/marker/getlist', { layer_ids: [points], pageindex: 1, pagesize: 10 }, member))).toEqual({ list: [], total: 0 })
    expect(await byIds([id], member)).toEqual([])
    expect(expectOk(await call('/api/marker/search', { kw: '标注' }, member)).total).toBe(0)
    expect(expectOk(await call('/api/marker/getlist/ids', { ids: [points] }, member))).toEqual([])
    expect(await save({ layer_id: points, ...point }, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    expect(await save({ id, layer_id: points, ...point, name: '改' }, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    expect(await call('/api/marker/delete', { id }, member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    expect((await byIds([id]))[0].name).toBe('标注')
  })

  it('should let any permission on a layer read its markers, and only marker_add add to it', async () => {
    const id = await makeMarker(team.t, team.owner, points)
    await grant(team, points, team.member, [PERM.LAYER_DATA_LIST])
    expect(expectOk(await call('/api/marker/getlist', { layer_ids: [points], pageindex: 1, pagesize: 10 }, team.member)).total).toBe(1)
    expect((await byIds([id], team.member)).map((m) => m.id)).toEqual([id])
    expect(await save({ layer_id: points, ...point }, team.member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })

    await grant(team, points, team.member, [PERM.MARKER_ADD])
    expect(expectOk(await save({ layer_id: points, ...point }, team.member))).toMatchObject({ creator_id: team.member.userid, creator_name: '队员' })
  })

  it('should need marker_edit to change and marker_delete to delete', async () => {
    const id = await makeMarker(team.t, team.owner, points)
    await grant(team, points, team.member, [PERM.MARKER_ADD])
    expect(await save({ id, layer_id: points, ...point, name: '改' }, team.member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    expect(await call('/api/marker/delete', { id }, team.member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    await grant(team, points, team.member, [PERM.MARKER_EDIT, PERM.MARKER_DELETE])
    expect(expectOk(await save({ id, layer_id: points, ...point, name: '改' }, team.member)).name).toBe('改')
    expectOk(await call('/api/marker/delete', { id }, team.member))
  })

  it('should need marker_add on the layer a marker moves to', async () => {
    const other = await makeLayer(team.t, team.owner, '另一个', 1)
    const id = await makeMarker(team.t, team.owner, points)
    await grant(team, points, team.member, [PERM.MARKER_EDIT])
    await grant(team, other, team.member, [PERM.LAYER_DATA_LIST])
    expect(await save({ id, layer_id: other, ...point }, team.member)).toMatchObject({ errcode: ErrCode.FORBIDDEN })
    await grant(team, other, team.member, [PERM.MARKER_ADD])
    expect(expectOk(await save({ id, layer_id: other, ...point }, team.member)).layer_id).toBe(other)
  })

  it('should search a box only in layers where the member holds marker_range_search', async () => {
    await makeMarker(team.t, team.owner, points, { name: '点' })
    await grant(team, points, team.member, [PERM.LAYER_DATA_LIST])
    const box = { bbox: [116, 39, 117, 40] }
    expect(expectOk(await call('/api/marker/search', box, team.member)).total).toBe(0)
    expect(expectOk(await call('/api/marker/search', { kw: '点' }, team.member)).total).toBe(1)
    await grant(team, points, team.member, [PERM.MARKER_RANGE_SEARCH])
    expect(expectOk(await call('/api/marker/search', box, team.member)).total).toBe(1)
  })
})
