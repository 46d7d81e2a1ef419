/**
 * Cross-group isolation: a user of another group can never read, change or delete anything of this
 * group through any layer or marker call; ids of this group look to them like unknown ids.
 */
import { ErrCode } from '../../types/api'
import { MAP_MSG, MSG } from '../../src/domain/messages'
import { PERM } from '../../src/domain/permissions'
import type { Auth } from './helpers'
import { expectOk, makeLayer, makeMarker, makeTeam, type Team } from './mapdata-fixture'

let team: Team
/** This group's data. */
let folder: number
let layer: number
let secondLayer: number
let marker: number
/** The outsider's own data. */
let theirLayer: number
let theirMarker: number

beforeEach(async () => {
  team = await makeTeam()
  const { t, owner, outsider } = team
  folder = await makeLayer(t, owner, '我们的文件夹', 0)
  layer = await makeLayer(t, owner, '我们的图层', 1, folder)
  secondLayer = await makeLayer(t, owner, '我们的第二个图层', 1)
  marker = await makeMarker(t, owner, layer, { name: '机密井', points: '116.397428,39.90923' })
  theirLayer = await makeLayer(t, outsider, '他们的图层', 1)
  theirMarker = await makeMarker(t, outsider, theirLayer, { name: '他们的井', points: '116.397428,39.90923' })
})
afterEach(() => team.t.close())

/** Everything of this group that a call could read or change. */
async function groupState() {
  const { t, owner, groupId } = team
  const db = t.db.kysely
  return {
    layers: expectOk(await t.call('/api/layer/getlist', {}, owner)),
    markers: expectOk(await t.call('/api/marker/getbyid', { ids: [marker] }, owner)),
    layerRows: await db.selectFrom('layers').selectAll().where('group_id', '=', groupId).orderBy('id').execute(),
    markerRows: await db.selectFrom('markers').selectAll().where('group_id', '=', groupId).orderBy('id').execute(),
    settings: await db.selectFrom('layer_settings').selectAll().where('layer_id', 'in', [folder, layer, secondLayer]).execute(),
    auth: await db.selectFrom('layer_auth').selectAll().where('group_id', '=', groupId).execute(),
    log: await db.selectFrom('oplog').selectAll().where('group_id', '=', groupId).execute(),
  }
}

type Expectation = { errcode: ErrCode; errmsg?: string } | ((data: any) => void)

const notFound = { errcode: ErrCode.NOT_FOUND, errmsg: MSG.notFound }

const CALLS: [string, string, () => object, Expectation][] = [
  ['see our layers', '/api/layer/getlist', () => ({}), (data) => expect(data.map((l: any) => l.id)).toEqual([theirLayer])],
  ['rename our layer', '/api/layer/save', () => ({ id: layer, name: '改名' }), notFound],
  ['rename our folder', '/api/layer/save', () => ({ id: folder, name: '改名', type: 0 }), notFound],
  ['create a layer in our folder', '/api/layer/save', () => ({ name: '潜入', type: 1, parent_id: folder }), { errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.parentMustBeFolder }],
  ['move their own layer into our folder', '/api/layer/save', () => ({ id: theirLayer, name: '他们的图层', parent_id: folder }), { errcode: ErrCode.VALIDATION, errmsg: MAP_MSG.parentMustBeFolder }],
  ['delete our layer', '/api/layer/delete', () => ({ id: layer }), notFound],
  ['delete our folder', '/api/layer/delete', () => ({ id: folder }), notFound],
  ['make our layer the default', '/api/layer/setting/default', () => ({ id: secondLayer }), notFound],
  ['hide our layer', '/api/layer/setting/show', () => ({ ids: [layer], show: false }), notFound],
  ['grant themselves permissions on our layer', '/api/layer/save/auth', () => ({ layer_id: layer, user_id: team.outsider.userid, opts: [PERM.LAYER_DATA_LIST] }), notFound],
  [
    'grant our member permissions on their own layer',
    '/api/layer/save/auth',
    () => ({ layer_id: theirLayer, user_id: team.member.userid, opts: [PERM.LAYER_DATA_LIST] }),
    { errcode: ErrCode.NOT_FOUND, errmsg: MAP_MSG.notGroupMember },
  ],
  ['page through our markers', '/api/marker/getlist', () => ({ layer_ids: [layer, secondLayer], pageindex: 1, pagesize: 5000 }), (data) => expect(data).toEqual({ list: [], total: 0 })],
  ['read our markers by id', '/api/marker/getbyid', () => ({ ids: [marker] }), (data) => expect(data).toEqual([])],
  ['create a marker in our layer', '/api/marker/save', () => ({ layer_id: layer, name: '潜入', type: 0, points: '116.4,39.9' }), notFound],
  ['change our marker', '/api/marker/save', () => ({ id: marker, layer_id: layer, name: '改名', type: 0, points: '116.4,39.9' }), notFound],
  ['move our marker into their own layer', '/api/marker/save', () => ({ id: marker, layer_id: theirLayer, name: '偷走', type: 0, points: '116.4,39.9' }), notFound],
  ['move their own marker into our layer', '/api/marker/save', () => ({ id: theirMarker, layer_id: layer, name: '他们的井', type: 0, points: '116.4,39.9' }), notFound],
  ['delete our marker', '/api/marker/delete', () => ({ id: marker }), notFound],
  ['find our markers by keyword', '/api/marker/search', () => ({ kw: '机密' }), (data) => expect(data).toEqual({ list: [], total: 0 })],
  ['find our markers by keyword in our layers', '/api/marker/search', () => ({ kw: '井', layer_ids: [layer] }), (data) => expect(data).toEqual({ list: [], total: 0 })],
  ['find our markers in a box', '/api/marker/search', () => ({ bbox: [116, 39, 117, 40] }), (data) => expect(data.list.map((m: any) => m.id)).toEqual([theirMarker])],
  ['list the stamps of our markers', '/api/marker/getlist/ids', () => ({ ids: [layer, secondLayer] }), (data) => expect(data).toEqual([])],
]

describe.each([
  ['a user of another group', () => team.outsider],
  ['a former member whose membership is gone', () => team.member],
])('%s', (_who, whoFn) => {
  beforeEach(async () => {
    // The member leaves (still with this group selected); they held every permission on the layer before.
    await team.t.db.kysely
      .insertInto('layer_auth')
      .values({ group_id: team.groupId, layer_id: layer, user_id: team.member.userid as number, opts: JSON.stringify([PERM.MARKER_EDIT]) })
      .execute()
    await team.t.db.kysely
      .deleteFrom('joins')
      .where('user_id', '=', team.member.userid as number)
      .execute()
  })

  it.each(CALLS)('should not be able to %s', async (_what, path, body, expectation) => {
    const before = await groupState()
    const who: Auth = whoFn()
    const res = await team.t.call(path, body(), who)
    expect(res.status).toBe(200)
    if (who === team.member) {
      // Not a member any more: every call is refused outright.
      expect(res).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden })
    } else if (typeof expectation === 'function') {
      expect(res.errcode).toBe(0)
      expectation(res.data)
    } else {
      expect(res).toMatchObject(expectation)
    }
    expect(await groupState()).toEqual(before)
  })
})

describe('a user without a group', () => {
  it('should be told to create or join one by every call', async () => {
    const loner = (await team.t.login('13600136000')).auth
    for (const [, path, body] of CALLS) {
      expect({ path, ...(await team.t.call(path, body(), loner)) }).toMatchObject({ path, errcode: ErrCode.NOT_FOUND, errmsg: MSG.noGroup })
    }
  })
})

describe('the outsider in their own group', () => {
  it('should keep working on their own data while ours is untouched', async () => {
    const { t, outsider } = team
    expect(expectOk(await t.call('/api/marker/getbyid', { ids: [theirMarker, marker] }, outsider)).map((m: any) => m.id)).toEqual([theirMarker])
    expectOk(await t.call('/api/layer/delete', { id: theirLayer }, outsider))
    expect(expectOk(await t.call('/api/marker/getbyid', { ids: [marker] }, team.owner)).map((m: any) => m.id)).toEqual([marker])
  })
})
