/**
 * Every id in a request is a positive integer that the id columns (integer / serial, at most
 * 2^31 - 1) can hold. Anything else — a number too large for the column (1e308 is an integer to
 * JavaScript, and PostgreSQL refuses it), a negative, zero, a fraction, a string — is refused as a
 * validation error before any query, on SQLite and PostgreSQL alike, and nothing is written. Page
 * numbers are bounded alike (the row offset they make must stay an integer both databases take).
 */
import { ErrCode } from '../../types/api'
import { MSG, TEAM_MSG } from '../../src/domain/messages'
import { TASK_MSG } from '../../src/domain/taskMessages'
import { VIP_MSG } from '../../src/domain/vipMessages'
import { makeWorld, ok, type TeamWorld } from './teams-fixture'
import { uploadPng } from './upload-fixture'

/** Not an id: too large for an integer column (and far too large), negative, zero, a fraction, a string. */
const NOT_IDS: unknown[] = [1e308, 2 ** 31, -1, 0, 1.5, '1']
/** Not a reference where 0 means none (the root folder or department, no department). */
const NOT_REFS: unknown[] = NOT_IDS.filter((v) => v !== 0)

/** Tables a refused call must leave as they were. */
const TABLES = [
  'layers',
  'markers',
  'notes',
  'departments',
  'department_managers',
  'roles',
  'role_users',
  'joins',
  'layer_settings',
  'layer_auth',
  'icons',
  'vip_orders',
  'shares',
  'oplog',
  'groups',
] as const

let w: TeamWorld
let ids: { layer: number; marker: number; department: number; role: number; icon: number; order: number }

beforeEach(async () => {
  w = await makeWorld({ paySandbox: true })
  const layer = await w.layer('图层')
  const marker = await w.marker(layer, '标注')
  const department = await w.department('部门')
  const role = ok(await w.call('/api/role/save', { name: '角色' }, w.owner)).id
  const icon = ok(await w.call('/api/system/save/icon', { name: '图标', url: await uploadPng(w.t, w.owner) }, w.owner)).id
  const order = ok(await w.call('/api/vip/order/add', { product_id: 1 }, w.owner)).id
  ids = { layer, marker, department, role, icon, order }
})
afterEach(() => w.close())

async function snapshot(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {}
  for (const table of TABLES) {
    const rows = await w.t.db.kysely.selectFrom(table).selectAll().execute()
    out[table] = rows.map((r) => JSON.stringify(r)).sort()
  }
  return out
}

/** A call, the body with a bad id put in, and the message of its refusal. */
type Case = [path: string, body: (bad: unknown) => object, errmsg: string]

const singleIds: Case[] = [
  ['/api/marker/delete', (id) => ({ id }), MSG.badRequest],
  ['/api/layer/delete', (id) => ({ id }), MSG.badRequest],
  ['/api/layer/setting/default', (id) => ({ id }), MSG.badRequest],
  ['/api/department/delete', (id) => ({ id }), TEAM_MSG.departmentNotFound],
  ['/api/role/delete', (id) => ({ id }), TEAM_MSG.roleNotFound],
  ['/api/system/delete/icon', (id) => ({ id }), MSG.badRequest],
  ['/api/vip/order/getbyid', (id) => ({ id }), VIP_MSG.orderNotFound],
  ['/api/vip/order/cancel', (orderid) => ({ orderid }), VIP_MSG.orderNotFound],
  ['/api/pay/sandbox/complete', (orderid) => ({ orderid }), VIP_MSG.orderNotFound],
  ['/api/marker/note/getlist', (markerid) => ({ markerid }), MSG.badRequest],
  ['/api/layer/field/getlist', (layer_id) => ({ layer_id }), MSG.badRequest],
  ['/api/oplog/restore', (id) => ({ id }), MSG.badRequest],
  ['/api/task/getbyid', (id) => ({ id }), TASK_MSG.notFound],
  ['/api/group/remove/join', (join_id) => ({ join_id }), TEAM_MSG.memberNotFound],
  ['/api/user/pre/delete', (id) => ({ id }), TEAM_MSG.pendingNotFound],
]

const idsInside: Case[] = [
  ['/api/marker/getbyid', (bad) => ({ ids: [ids.marker, bad] }), MSG.badRequest],
  ['/api/layer/setting/show', (bad) => ({ ids: [ids.layer, bad], show: false }), MSG.badRequest],
  ['/api/marker/save', (layer_id) => ({ layer_id, name: '新标注', type: 0, points: '116.4,39.9' }), MSG.badRequest],
  ['/api/marker/save', (id) => ({ id, layer_id: ids.layer, name: '改名', type: 0, points: '116.4,39.9' }), MSG.badRequest],
  ['/api/layer/save/auth', (user_id) => ({ layer_id: ids.layer, user_id, opts: [] }), MSG.badRequest],
  ['/api/department/setting/manager', (bad) => ({ department_id: ids.department, userids: [w.owner.userid, bad] }), MSG.badRequest],
  ['/api/department/delete/layer/auth', (department_id) => ({ department_id, layer_ids: [ids.layer] }), TEAM_MSG.departmentNotFound],
  ['/api/role/save/join', (role_id) => ({ role_id, user_ids: [w.owner.userid] }), TEAM_MSG.roleNotFound],
  ['/api/role/save/join', (bad) => ({ role_id: ids.role, user_ids: [bad] }), MSG.badRequest],
  ['/api/system/title/style/getbylayerid', (bad) => ({ layerids: [ids.layer, bad] }), MSG.badRequest],
  ['/api/share/save', (bad) => ({ name: '分享', type: 1, data_ids: [ids.layer, bad] }), MSG.shareDataRequired],
]

/** Fields where 0 means none: everything else that is not an id is refused. */
const references: Case[] = [
  ['/api/layer/save', (parent_id) => ({ name: '子图层', type: 1, parent_id }), MSG.badRequest],
  ['/api/department/save', (parent_id) => ({ name: '子部门', parent_id }), MSG.badRequest],
  ['/api/group/setting/join', (department_id) => ({ join_id: w.owner.joinId, department_id }), MSG.badRequest],
]

describe.each([...singleIds, ...idsInside])('%s', (path, body, errmsg) => {
  it.each(NOT_IDS.map((v) => [v]))('should refuse %p as a validation error and write nothing', async (bad) => {
    const before = await snapshot()
    const res = await w.call(path, body(bad), w.owner)
    expect(res).toMatchObject({ status: 200, errcode: ErrCode.VALIDATION, errmsg })
    expect(await snapshot()).toEqual(before)
  })
})

describe.each(references)('%s (0 for none)', (path, body, errmsg) => {
  it.each(NOT_REFS.map((v) => [v]))('should refuse %p as a validation error and write nothing', async (bad) => {
    const before = await snapshot()
    const res = await w.call(path, body(bad), w.owner)
    expect(res).toMatchObject({ status: 200, errcode: ErrCode.VALIDATION, errmsg })
    expect(await snapshot()).toEqual(before)
  })
})

describe.each([
  ['/api/marker/getlist', { layer_ids: [1], pagesize: 10 }],
  ['/api/vip/order/getlist', {}],
  ['/api/share/getlist/group', {}],
  ['/api/oplog/getlist', {}],
  ['/api/route/getlist', {}],
  ['/api/sign/getlist', {}],
  ['/api/task/getlist', {}],
])('%s pageindex', (path, body) => {
  it.each(NOT_IDS.map((v) => [v]))('should refuse %p as a validation error', async (pageindex) => {
    expect(await w.call(path, { ...body, pageindex }, w.owner)).toMatchObject({ status: 200, errcode: ErrCode.VALIDATION, errmsg: MSG.badRequest })
  })
})

describe('the largest id the columns hold', () => {
  it('should be taken and answered as unknown, like any id that names nothing', async () => {
    expect(await w.call('/api/marker/delete', { id: 2 ** 31 - 1 }, w.owner)).toMatchObject({ errcode: ErrCode.NOT_FOUND })
    expect(await w.call('/api/vip/order/getbyid', { id: 2 ** 31 - 1 }, w.owner)).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: VIP_MSG.orderNotFound })
    expect(ok(await w.call('/api/marker/getbyid', { ids: [ids.marker, 2 ** 31 - 1] }, w.owner))).toHaveLength(1)
    expect(ok(await w.call('/api/vip/order/getlist', { pageindex: 2 ** 31 - 1 }, w.owner)).list).toEqual([])
  })
})
