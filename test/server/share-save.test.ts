/**
 * /api/share/save: SPEC 5 validation with its exact messages, the display mask and the
 * map style, route shares refused until routes exist, SPEC 6 share visibility (who may share
 * which layer or marker), other groups' ids refused, nothing written on a refusal, random ids,
 * and a password that is stored hashed and never returned.
 */
import { ROUTE_MSG } from '../../src/domain/routeMessages'
import { ErrCode } from '../../types/api'
import { MSG, TEAM_UI_MSG } from '../../src/domain/messages'
import { SHARE_MSG } from '../../src/domain/shareMessages'
import { PERM } from '../../src/domain/permissions'
import { ok } from './teams-fixture'
import { makeShareWorld, shareBody, type ShareWorld } from './share-fixture'

let w: ShareWorld

beforeEach(async () => {
  w = await makeShareWorld()
})

afterEach(async () => {
  await w.close()
})

async function shareRows() {
  return w.t.db.kysely.selectFrom('shares').selectAll().execute()
}

async function save(fields: Record<string, unknown>, auth = w.owner) {
  return w.call<string>('/api/share/save', shareBody(fields), auth)
}

async function expectRefused(fields: Record<string, unknown>, errcode: ErrCode, errmsg: string, auth = w.owner) {
  const res = await save(fields, auth)
  expect({ errcode: res.errcode, errmsg: res.errmsg, data: res.data }).toEqual({ errcode, errmsg, data: null })
}

describe('SPEC 5 validation, with its exact messages and nothing written', () => {
  it('refuses a missing or blank name with 请填写分享名称, and a name over 30 characters', async () => {
    const data_ids = [w.layers.a]
    await expectRefused({ name: '', data_ids }, ErrCode.VALIDATION, '请填写分享名称')
    await expectRefused({ name: '   ', data_ids }, ErrCode.VALIDATION, MSG.shareNameRequired)
    await expectRefused({ name: undefined, data_ids }, ErrCode.VALIDATION, MSG.shareNameRequired)
    await expectRefused({ name: '名'.repeat(31), data_ids }, ErrCode.VALIDATION, SHARE_MSG.nameTooLong(30))
    expect(ok(await save({ name: '名'.repeat(30), data_ids }))).toMatch(/^[A-Za-z0-9_-]{16}$/)
    expect(await shareRows()).toHaveLength(1)
  })

  it('refuses a share without data with 请选择要分享的数据', async () => {
    await expectRefused({ data_ids: [] }, ErrCode.VALIDATION, '请选择要分享的数据')
    await expectRefused({ data_ids: undefined }, ErrCode.VALIDATION, MSG.shareDataRequired)
    expect(await shareRows()).toHaveLength(0)
  })

  it('with the password switch on, needs a password (请输入分享密码) of at most 6 characters', async () => {
    const data_ids = [w.layers.a]
    await expectRefused({ data_ids, need_pwd: true }, ErrCode.VALIDATION, '请输入分享密码')
    await expectRefused({ data_ids, need_pwd: true, pwd: '  ' }, ErrCode.VALIDATION, MSG.sharePwdRequired)
    await expectRefused({ data_ids, need_pwd: true, pwd: '1234567' }, ErrCode.VALIDATION, SHARE_MSG.pwdTooLong(6))
    expect(await shareRows()).toHaveLength(0)
    ok(await save({ data_ids, need_pwd: true, pwd: '123456' }))
    // Switched off, a password sent along is not kept.
    const id = ok(await save({ data_ids, need_pwd: false, pwd: '999' }))
    const row = (await shareRows()).find((r) => r.id === id)!
    expect([row.need_pwd, row.pwd_hash, row.pwd_salt]).toEqual([0, null, null])
  })

  it('with the expiry switch on, needs a date (请设置过期时间) no earlier than today in China', async () => {
    const data_ids = [w.layers.a]
    // The clock is 2025-06-01 10:00 in China.
    await expectRefused({ data_ids, exp: '' }, ErrCode.VALIDATION, '请设置过期时间')
    await expectRefused({ data_ids, exp: '2025/06/09' }, ErrCode.VALIDATION, SHARE_MSG.expInvalid)
    await expectRefused({ data_ids, exp: '2025-05-31' }, ErrCode.VALIDATION, SHARE_MSG.expPast)
    ok(await save({ data_ids, exp: '2025-06-01' }))
    ok(await save({ data_ids, exp: null }))
    ok(await save({ data_ids, exp: undefined }))
    expect((await shareRows()).map((r) => r.exp)).toEqual(['2025-06-01', null, null])
  })

  it('counts today by the China day: at 00:30 in China (16:30 UTC) the UTC date is already past', async () => {
    w.t.clock.set('2025-06-01T16:30:00.000Z')
    await expectRefused({ data_ids: [w.layers.a], exp: '2025-06-01' }, ErrCode.VALIDATION, SHARE_MSG.expPast)
    ok(await save({ data_ids: [w.layers.a], exp: '2025-06-02' }))
  })

  it('refuses an unknown kind, and a route share of a route that does not exist', async () => {
    await expectRefused({ type: 4, data_ids: [w.layers.a] }, ErrCode.VALIDATION, SHARE_MSG.typeInvalid)
    await expectRefused({ type: 3, data_ids: [1], show_btn: 172 }, ErrCode.NOT_FOUND, ROUTE_MSG.notFound)
    expect(await shareRows()).toHaveLength(0)
  })
})

describe('display mask and map style (SPEC 9)', () => {
  it('keeps a mask within the defined bits and refuses anything else; without one the default 60', async () => {
    await expectRefused({ data_ids: [w.layers.a], show_btn: 256 }, ErrCode.VALIDATION, SHARE_MSG.maskInvalid)
    await expectRefused({ data_ids: [w.layers.a], show_btn: -1 }, ErrCode.VALIDATION, SHARE_MSG.maskInvalid)
    await expectRefused({ data_ids: [w.layers.a], show_btn: 4.5 }, ErrCode.VALIDATION, SHARE_MSG.maskInvalid)
    const full = ok(await save({ data_ids: [w.layers.a], show_btn: 255 - 64 }))
    const fallback = ok(await save({ data_ids: [w.layers.a], show_btn: undefined }))
    const rows = await shareRows()
    expect(rows.find((r) => r.id === full)!.show_btn).toBe(191)
    expect(rows.find((r) => r.id === fallback)!.show_btn).toBe(60)
  })

  it('attaches the map style only with flag 64, and checks its fields', async () => {
    const style = { type: 1, bg: true, road: false, building: true, poi: false, traffic: true }
    await expectRefused({ data_ids: [w.layers.a], show_btn: 60 + 64 }, ErrCode.VALIDATION, SHARE_MSG.styleInvalid)
    await expectRefused({ data_ids: [w.layers.a], show_btn: 60 + 64, style: { ...style, bg: 'yes' } }, ErrCode.VALIDATION, SHARE_MSG.styleInvalid)
    await expectRefused({ data_ids: [w.layers.a], show_btn: 60 + 64, style: { type: 1 } }, ErrCode.VALIDATION, SHARE_MSG.styleInvalid)
    const withStyle = ok(await save({ data_ids: [w.layers.a], show_btn: 60 + 64, style: { ...style, extra: 'dropped' } }))
    const without = ok(await save({ data_ids: [w.layers.a], show_btn: 60, style }))
    expect(ok(await w.call('/api/share/getbyid', { id: withStyle }, w.owner)).style).toEqual(style)
    expect(ok(await w.call('/api/share/getbyid', { id: without }, w.owner)).style).toBeNull()
  })
})

describe('ids', () => {
  it('answers a random URL-safe id of 16 characters, different every time', async () => {
    const ids = new Set<string>()
    for (let i = 0; i < 5; i++) ids.add(ok(await save({ data_ids: [w.layers.a] })))
    expect(ids.size).toBe(5)
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/)
  })

  it('needs a session', async () => {
    const res = await w.t.call('/api/share/save', shareBody({ data_ids: [w.layers.a] }), null)
    expect(res.status).toBe(401)
  })
})

describe('the password is stored hashed and never returned', () => {
  it('keeps an scrypt hash with its own salt per share, and no answer carries the password, the hash or the salt', async () => {
    const pwd = '6d5e4f'
    const id = ok(await save({ data_ids: [w.layers.a], need_pwd: true, pwd }))
    const other = ok(await save({ data_ids: [w.layers.a], need_pwd: true, pwd }))
    const rows = await shareRows()
    const row = rows.find((r) => r.id === id)!
    const twin = rows.find((r) => r.id === other)!
    expect(row.pwd_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(row.pwd_hash).not.toContain(pwd)
    expect(row.pwd_salt).not.toBe(twin.pwd_salt)
    expect(row.pwd_hash).not.toBe(twin.pwd_hash)

    const raws: string[] = []
    raws.push((await save({ data_ids: [w.layers.b], need_pwd: true, pwd })).raw)
    raws.push((await w.call('/api/share/getlist/group', {}, w.owner)).raw)
    raws.push((await w.t.call('/api/share/getbyid', { id })).raw)
    const checked = await w.t.call('/api/share/check/pwd', { id, pwd })
    expect(checked.errcode).toBe(ErrCode.OK)
    raws.push(checked.raw)
    raws.push((await w.t.call('/api/layer/get/share', { share_id: id, proof: checked.data.proof })).raw)
    raws.push((await w.t.call('/api/marker/get/share', { share_id: id, proof: checked.data.proof })).raw)
    for (const raw of raws) {
      expect(raw).not.toContain(pwd)
      expect(raw).not.toContain(row.pwd_hash!)
      expect(raw).not.toContain(row.pwd_salt!)
      expect(raw).not.toMatch(/"pwd(_hash|_salt)?"/)
    }
  })
})

describe('the share module', () => {
  it('refuses a member holding layer_share but not the share module, with the message of the app, and writes nothing', async () => {
    const member = await w.join('13900000001', '成员')
    await w.grant(w.layers.a, { user_id: member.userid }, [PERM.LAYER_DATA_LIST, PERM.LAYER_SHARE])
    const role = await w.role('地图', [PERM.MODULE_MAP], [member])
    await expectRefused({ data_ids: [w.layers.a] }, ErrCode.FORBIDDEN, TEAM_UI_MSG.moduleMissing('分享'), member)
    await expectRefused({ type: 2, data_ids: [w.markers.a[0]] }, ErrCode.FORBIDDEN, TEAM_UI_MSG.moduleMissing('分享'), member)
    // Refused before anything about the share is looked at.
    await expectRefused({ name: '', data_ids: [] }, ErrCode.FORBIDDEN, TEAM_UI_MSG.moduleMissing('分享'), member)
    expect(await shareRows()).toHaveLength(0)
    ok(await w.call('/api/role/save/module', { role_id: role, module_ids: [PERM.MODULE_MAP, PERM.MODULE_SHARE] }, w.owner))
    ok(await save({ data_ids: [w.layers.a] }, member))
    // Taken away again: no more links.
    ok(await w.call('/api/role/save/module', { role_id: role, module_ids: [PERM.MODULE_MAP] }, w.owner))
    await expectRefused({ data_ids: [w.layers.a] }, ErrCode.FORBIDDEN, TEAM_UI_MSG.moduleMissing('分享'), member)
    expect(await shareRows()).toHaveLength(1)
  })
})

/** Members below hold the share module through a role: what they may share is then decided layer by layer. */
async function sharer(phone: string, nickname: string) {
  const person = await w.join(phone, nickname)
  await w.role('分享员', [PERM.MODULE_SHARE], [person])
  return person
}

describe('who may share which layer (SPEC 6)', () => {
  it('lets the administrator and a group manager share any layer', async () => {
    ok(await save({ data_ids: [w.layers.a, w.layers.b, w.layers.c] }))
    const manager = await w.join('13900000001', '经理')
    await w.makeManager(manager)
    ok(await save({ data_ids: [w.layers.a, w.layers.c] }, manager))
  })

  it('lets a member share only the layers where their effective opts include layer_share', async () => {
    const member = await sharer('13900000001', '成员')
    await w.grant(w.layers.a, { user_id: member.userid }, [PERM.LAYER_DATA_LIST, PERM.LAYER_SHARE])
    await w.grant(w.layers.b, { user_id: member.userid }, [PERM.LAYER_DATA_LIST, PERM.LAYER_EDIT, PERM.MARKER_ADD])
    ok(await save({ data_ids: [w.layers.a] }, member))
    await expectRefused({ data_ids: [w.layers.b] }, ErrCode.FORBIDDEN, SHARE_MSG.layerNotShareable, member)
    await expectRefused({ data_ids: [w.layers.c] }, ErrCode.FORBIDDEN, SHARE_MSG.layerNotShareable, member)
    // One layer not allowed refuses the whole share.
    await expectRefused({ data_ids: [w.layers.a, w.layers.b] }, ErrCode.FORBIDDEN, SHARE_MSG.layerNotShareable, member)
    expect(await shareRows()).toHaveLength(1)
  })

  it('lets a member share through their department chain (a grant to the parent department)', async () => {
    const top = await w.department('总部')
    const child = await w.department('一部', top)
    const member = await sharer('13900000001', '成员')
    await w.place(member, child)
    await expectRefused({ data_ids: [w.layers.a] }, ErrCode.FORBIDDEN, SHARE_MSG.layerNotShareable, member)
    await w.grant(w.layers.a, { department_id: top }, [PERM.LAYER_DATA_LIST, PERM.LAYER_SHARE])
    ok(await save({ data_ids: [w.layers.a] }, member))
  })

  it("lets a department manager share exactly their departments' (and sub-departments') layers", async () => {
    const top = await w.department('总部')
    const child = await w.department('一部', top)
    const other = await w.department('二部')
    await w.grant(w.layers.a, { department_id: child }, [PERM.LAYER_DATA_LIST])
    await w.grant(w.layers.b, { department_id: other }, [PERM.LAYER_DATA_LIST])
    // Managing a department is authority over its layers, not a module: the share module comes from a role.
    const boss = await sharer('13900000001', '总部主管')
    ok(await w.call('/api/department/setting/manager', { department_id: top, userids: [boss.userid] }, w.owner))
    // Even their own layer_share on a layer outside their departments does not count (SPEC 6).
    await w.grant(w.layers.c, { user_id: boss.userid }, [PERM.LAYER_DATA_LIST, PERM.LAYER_SHARE])
    ok(await save({ data_ids: [w.layers.a] }, boss))
    await expectRefused({ data_ids: [w.layers.b] }, ErrCode.FORBIDDEN, SHARE_MSG.layerNotShareable, boss)
    await expectRefused({ data_ids: [w.layers.c] }, ErrCode.FORBIDDEN, SHARE_MSG.layerNotShareable, boss)
  })

  it('refuses folders, deleted layers and unknown ids, and writes nothing', async () => {
    await expectRefused({ data_ids: [w.folder] }, ErrCode.VALIDATION, SHARE_MSG.folderNotShareable)
    await expectRefused({ data_ids: [w.layers.a, 999_999] }, ErrCode.NOT_FOUND, MSG.notFound)
    ok(await w.call('/api/layer/delete', { id: w.layers.c }, w.owner))
    await expectRefused({ data_ids: [w.layers.c] }, ErrCode.NOT_FOUND, MSG.notFound)
    expect(await shareRows()).toHaveLength(0)
  })

  it("refuses another group's layers and markers as unknown (NOT_FOUND), even for its administrator", async () => {
    const stranger = await w.stranger('13700000001', '外人')
    const theirLayer = ok(await w.call('/api/layer/save', { name: '别人的', type: 1, parent_id: 0 }, stranger)).id
    const theirMarker = ok(await w.call('/api/marker/save', { layer_id: theirLayer, name: 'X', type: 0, points: '116.1,39.9' }, stranger)).id
    await expectRefused({ data_ids: [theirLayer] }, ErrCode.NOT_FOUND, MSG.notFound)
    await expectRefused({ type: 2, data_ids: [theirMarker] }, ErrCode.NOT_FOUND, MSG.notFound)
    await expectRefused({ data_ids: [w.layers.a] }, ErrCode.NOT_FOUND, MSG.notFound, stranger)
    await expectRefused({ type: 2, data_ids: [w.markers.a[0]] }, ErrCode.NOT_FOUND, MSG.notFound, stranger)
    expect(await shareRows()).toHaveLength(0)
  })
})

describe('who may share which marker', () => {
  it('lets a member share markers of the layers they may share, and no others', async () => {
    const member = await sharer('13900000001', '成员')
    await w.grant(w.layers.a, { user_id: member.userid }, [PERM.LAYER_DATA_LIST, PERM.LAYER_SHARE])
    await w.grant(w.layers.b, { user_id: member.userid }, [PERM.LAYER_DATA_LIST])
    ok(await save({ type: 2, data_ids: w.markers.a }, member))
    await expectRefused({ type: 2, data_ids: [w.markers.a[0], w.markers.b[0]] }, ErrCode.FORBIDDEN, SHARE_MSG.markerNotShareable, member)
    await expectRefused({ type: 2, data_ids: [w.markers.c[0]] }, ErrCode.FORBIDDEN, SHARE_MSG.markerNotShareable, member)
    expect(await shareRows()).toHaveLength(1)
  })

  it('refuses deleted and unknown markers', async () => {
    ok(await w.call('/api/marker/delete', { id: w.markers.a[1] }, w.owner))
    await expectRefused({ type: 2, data_ids: [w.markers.a[0], w.markers.a[1]] }, ErrCode.NOT_FOUND, MSG.notFound)
    await expectRefused({ type: 2, data_ids: [123_456] }, ErrCode.NOT_FOUND, MSG.notFound)
    ok(await save({ type: 2, data_ids: [w.markers.a[0], w.markers.a[0]] }))
    expect(JSON.parse((await shareRows())[0].data_ids)).toEqual([w.markers.a[0]])
  })
})
