/** /api/user/*: login result, getinfo, init, save, exist/phone, check/expired, logoff. */
import { ErrCode } from '../../types/api'
import { NICKNAME_MAX, TRIAL_DAYS } from '../../src/domain/constants'
import { MSG } from '../../src/domain/messages'
import { FILE_URL_MSG, LOOKUP_MSG } from '../../src/domain/systemMessages'
import { PERSON_LOOKUP_RATE } from '../../server/src/services/lookup'
import { DAY_MS, makeTestApp, type Auth, type TestApp } from './helpers'
import { makeWorld } from './teams-fixture'
import { uploadPng } from './upload-fixture'

let t: TestApp
beforeEach(async () => {
  t = await makeTestApp()
})
afterEach(() => t.close())

describe('/api/user/login', () => {
  it('should create a new user with no group on first login', async () => {
    const { data } = await t.login('13800138000')
    expect(data).toEqual({
      is_admin: false,
      admin_vip_expired: false,
      user: {
        id: expect.any(Number),
        token: expect.any(String),
        nickname: '',
        avatar: '',
        uid: expect.stringMatching(/^\d+$/),
        phone: '13800138000',
        level: 0,
        select_groupid: 0,
        select_groupname: '',
        is_manager: false,
        verifyed: false,
        group_vip: null,
        department_manager: false,
        source: 'app_h5',
        modules: [],
        vip_exp: null,
      },
    })
    expect(await t.count('users')).toBe(1)
  })

  it('should log an existing user in again as the same user with a new token', async () => {
    const first = await t.login('13800138000')
    const second = await t.login('13800138000')
    expect(second.data.user.id).toBe(first.data.user.id)
    expect(second.auth.token).not.toBe(first.auth.token)
    expect(await t.count('users')).toBe(1)
    expect(await t.count('sessions')).toBe(2)
  })

  it('should give different users different ids and uids', async () => {
    const a = await t.login('13800138000')
    const b = await t.login('13900139000')
    expect(a.data.user.id).not.toBe(b.data.user.id)
    expect(a.data.user.uid).not.toBe(b.data.user.uid)
  })
})

describe('/api/user/getinfo', () => {
  it('should return the LoginResult of the session with the same token', async () => {
    const { auth, data } = await t.login()
    const res = await t.call('/api/user/getinfo', {}, auth)
    expect(res).toMatchObject({ status: 200, errcode: 0 })
    expect(res.data).toEqual(data)
  })

  it('should reflect the group once one is created', async () => {
    const { auth } = await t.login()
    const created = await t.call('/api/group/create', {}, auth)
    expect((await t.call('/api/user/getinfo', {}, auth)).data).toEqual(created.data)
  })
})

describe('/api/user/init', () => {
  it('should set the nickname and return the UserInfo', async () => {
    const { auth } = await t.login()
    const res = await t.call('/api/user/init', { nickname: '  小王 ' }, auth)
    expect(res).toMatchObject({ status: 200, errcode: 0 })
    expect(res.data).toMatchObject({ id: auth.userid, nickname: '小王', token: auth.token, phone: '13800138000' })
    expect((await t.call('/api/user/getinfo', {}, auth)).data.user.nickname).toBe('小王')
  })

  it.each([
    ['missing', {}, MSG.nicknameRequired],
    ['blank', { nickname: '   ' }, MSG.nicknameRequired],
    ['too long', { nickname: '王'.repeat(NICKNAME_MAX + 1) }, MSG.nicknameTooLong(NICKNAME_MAX)],
  ])('should reject a nickname that is %s and change nothing', async (_what, fields, message) => {
    const { auth } = await t.login()
    expect(await t.call('/api/user/init', fields, auth)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: message })
    expect((await t.call('/api/user/getinfo', {}, auth)).data.user.nickname).toBe('')
  })

  it('should count an emoji as one character', async () => {
    const { auth } = await t.login()
    expect((await t.call('/api/user/init', { nickname: '😀'.repeat(NICKNAME_MAX) }, auth)).errcode).toBe(0)
  })
})

describe('/api/user/save', () => {
  /** A signed-in user with their own map, and an image they uploaded. */
  async function withUpload() {
    const { auth } = await t.login()
    await t.call('/api/group/create', {}, auth)
    return { auth, avatar: await uploadPng(t, auth, 'avatar') }
  }

  it('should save the nickname and the avatar and return the UserInfo', async () => {
    const { auth, avatar } = await withUpload()
    const res = await t.call('/api/user/save', { nickname: '小李', avatar }, auth)
    expect(res.data).toMatchObject({ nickname: '小李', avatar, token: auth.token })
    const onlyAvatar = await t.call('/api/user/save', { avatar: '' }, auth)
    expect(onlyAvatar.data).toMatchObject({ nickname: '小李', avatar: '' })
  })

  it('should change nothing when one field is invalid', async () => {
    const { auth, avatar } = await withUpload()
    await t.call('/api/user/save', { nickname: '小李' }, auth)
    const res = await t.call('/api/user/save', { nickname: '', avatar }, auth)
    expect(res).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MSG.nicknameRequired })
    expect((await t.call('/api/user/getinfo', {}, auth)).data.user).toMatchObject({ nickname: '小李', avatar: '' })
  })

  it.each([
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:image/png;base64,iVBORw0KGgo='],
    ['an outside image (a tracking pixel)', 'https://tracker.example.com/p.gif'],
    ['a protocol-relative address', '//tracker.example.com/files/1/0123456789abcdef0123456789abcdef.png'],
    ['a /files/ path of another shape', '/files/../secret.png'],
    ['a /files/ path with a query', '/files/1/0123456789abcdef0123456789abcdef.png?x=1'],
    ['our path on another host', 'https://tracker.example.com/files/1/0123456789abcdef0123456789abcdef.png'],
    ['not a string', 42],
  ])('should refuse %s as the avatar and keep the old one', async (_what, bad) => {
    const { auth, avatar } = await withUpload()
    await t.call('/api/user/save', { avatar }, auth)
    expect(await t.call('/api/user/save', { avatar: bad }, auth)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: FILE_URL_MSG.avatar })
    expect(await t.call('/api/user/init', { nickname: '小李', avatar: bad }, auth)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: FILE_URL_MSG.avatar })
    expect((await t.call('/api/user/getinfo', {}, auth)).data.user).toMatchObject({ nickname: '', avatar })
  })

  it('should take an uploaded avatar on init too', async () => {
    const { auth, avatar } = await withUpload()
    expect((await t.call('/api/user/init', { nickname: '小李', avatar }, auth)).data).toMatchObject({ nickname: '小李', avatar })
  })
})

describe('/api/user/exist/phone', () => {
  it('should tell anyone whether a phone has an account', async () => {
    expect(await t.call('/api/user/exist/phone', { phone: '13800138000' })).toMatchObject({ errcode: 0, data: { exist: false } })
    await t.login('13800138000')
    expect(await t.call('/api/user/exist/phone', { phone: '13800138000' })).toMatchObject({ errcode: 0, data: { exist: true } })
  })

  it('should validate the phone', async () => {
    expect(await t.call('/api/user/exist/phone', { phone: '123' })).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: MSG.phoneInvalid })
  })
})

describe('/api/user/check/expired', () => {
  it('should report no expiry for a user without a group', async () => {
    const { auth } = await t.login()
    expect((await t.call('/api/user/check/expired', {}, auth)).data).toEqual({ expired: false, is_admin: false, admin_vip_expired: false, vip_exp: null, level: 0 })
  })

  it('should report the trial of the own group, and its expiry after 7 days', async () => {
    const { auth } = await t.login()
    const created = await t.call('/api/group/create', {}, auth)
    const vipExp = created.data.user.vip_exp
    expect((await t.call('/api/user/check/expired', {}, auth)).data).toEqual({ expired: false, is_admin: true, admin_vip_expired: false, vip_exp: vipExp, level: 1 })
    t.clock.advance(TRIAL_DAYS * DAY_MS)
    expect((await t.call('/api/user/check/expired', {}, auth)).data).toEqual({ expired: true, is_admin: true, admin_vip_expired: true, vip_exp: vipExp, level: 1 })
    const info = await t.call('/api/user/getinfo', {}, auth)
    expect(info.data).toMatchObject({ is_admin: true, admin_vip_expired: true })
  })
})

describe('/api/user/logoff', () => {
  it("should delete the user, its sessions, its joins and its own group with that group's joins", async () => {
    const owner = await t.login('13800138000')
    const member = await t.login('13900139000')
    const ownerGroup = (await t.call('/api/group/create', {}, owner.auth)).data.user.select_groupid
    const memberGroup = (await t.call('/api/group/create', {}, member.auth)).data.user.select_groupid
    // Invites arrive with the teams issue: put the member into the owner's group directly, and the owner into the member's.
    const now = t.clock.now().toISOString()
    await t.db.kysely
      .insertInto('joins')
      .values({ group_id: ownerGroup, user_id: member.auth.userid as number, department_id: 0, is_manager: 0, created_at: now })
      .execute()
    await t.db.kysely
      .insertInto('joins')
      .values({ group_id: memberGroup, user_id: owner.auth.userid as number, department_id: 0, is_manager: 0, created_at: now })
      .execute()
    await t.db.kysely
      .updateTable('users')
      .set({ select_groupid: ownerGroup })
      .where('id', '=', member.auth.userid as number)
      .execute()

    const res = await t.call('/api/user/logoff', {}, owner.auth)
    expect(res).toMatchObject({ status: 200, errcode: 0, data: null })

    const k = t.db.kysely
    expect(await k.selectFrom('users').select('id').execute()).toEqual([{ id: member.auth.userid }])
    expect(await k.selectFrom('groups').select('id').execute()).toEqual([{ id: memberGroup }])
    expect(await k.selectFrom('joins').select(['group_id', 'user_id']).execute()).toEqual([{ group_id: memberGroup, user_id: member.auth.userid }])
    expect(await k.selectFrom('sessions').select('user_id').execute()).toEqual([{ user_id: member.auth.userid }])

    expect((await t.call('/api/user/getinfo', {}, owner.auth)).status).toBe(401)
    // The member lost the group they had selected and goes back to having none.
    const memberInfo = await t.call('/api/user/getinfo', {}, member.auth)
    expect(memberInfo.data.user).toMatchObject({ select_groupid: 0, group_vip: null })
    expect(await t.call('/api/user/exist/phone', { phone: '13800138000' })).toMatchObject({ data: { exist: false } })
  })

  it('should let the same phone sign up again as a new user', async () => {
    const first = await t.login('13800138000')
    await t.call('/api/user/logoff', {}, first.auth)
    const again = await t.login('13800138000')
    expect(again.data.user.id).not.toBe(first.data.user.id)
    expect(again.data.user.select_groupid).toBe(0)
  })

  it("should delete the owned map's layers, markers, notes, fields and photo files with the account (the logoff page promises it)", async () => {
    const owner = await t.login('13800138000')
    const other = await t.login('13900139000')
    const auth = { ...owner.auth, groupid: (await t.call('/api/group/create', {}, owner.auth)).data.user.select_groupid }
    const otherAuth = { ...other.auth, groupid: (await t.call('/api/group/create', {}, other.auth)).data.user.select_groupid }
    const boundary = '----teammaplogoff'
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="userid"\r\n\r\n${auth.userid}\r\n--${boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n${auth.token}\r\n--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nnote\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)])
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/system/upload',
      payload: Buffer.concat([Buffer.from(head), jpeg, Buffer.from(`\r\n--${boundary}--\r\n`)]),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    })
    const photo = uploaded.json().data.url as string
    expect((await t.app.inject({ method: 'GET', url: photo })).statusCode).toBe(200)
    const layer = (await t.call('/api/layer/save', { name: '网点', type: 1 }, auth)).data
    expect((await t.call('/api/layer/field/save', { layer_id: layer.id, name: '负责人', kind: 'text' }, auth)).errcode).toBe(0)
    const marker = (await t.call('/api/marker/save', { layer_id: layer.id, type: 0, name: '一号店', points: '116.4,39.9' }, auth)).data
    expect((await t.call('/api/marker/note/save', { marker_id: marker.id, content: '门口有台阶', photos: [photo] }, auth)).errcode).toBe(0)
    // Another account's map stays.
    const keptLayer = (await t.call('/api/layer/save', { name: '保留', type: 1 }, otherAuth)).data
    expect((await t.call('/api/marker/save', { layer_id: keptLayer.id, type: 0, name: '保留点', points: '116.5,39.9' }, otherAuth)).errcode).toBe(0)

    expect((await t.call('/api/user/logoff', {}, auth)).errcode).toBe(0)

    const k = t.db.kysely
    expect(await k.selectFrom('layers').select('name').execute()).toEqual([{ name: '保留' }])
    expect(await k.selectFrom('markers').select('name').execute()).toEqual([{ name: '保留点' }])
    expect(await k.selectFrom('notes').select('id').execute()).toEqual([])
    expect(await k.selectFrom('layer_fields').select('id').execute()).toEqual([])
    expect(await k.selectFrom('uploads').select('id').execute()).toEqual([])
    expect((await t.app.inject({ method: 'GET', url: photo })).statusCode).toBe(404)
  })
})

describe('/api/user/get/overview/phoneuid', () => {
  const lookUp = (body: object, auth: Auth) => t.call('/api/user/get/overview/phoneuid', body, auth)

  it('should show an administrator who a phone or uid belongs to, masked, and whether they are in the team already', async () => {
    const w = await makeWorld({ t })
    await w.join('13900000001', '小李')
    const outsider = await w.stranger('13700005678', '老张')
    await t.call('/api/user/save', { avatar: await uploadPng(t, outsider, 'avatar') }, outsider)
    const outsiderInfo = (await t.call('/api/user/getinfo', {}, outsider)).data.user

    const byPhone = await lookUp({ phone: '13700005678' }, w.owner)
    expect(byPhone).toMatchObject({ errcode: 0 })
    // Exactly these fields: not the user id, the full phone, or any team of theirs.
    expect(byPhone.data).toEqual({ nickname: '老张', avatar: outsiderInfo.avatar, uid: outsiderInfo.uid, phone: '137****5678', is_member: false })
    expect((await lookUp({ uid: outsiderInfo.uid }, w.owner)).data).toEqual(byPhone.data)
    expect((await lookUp({ phone: '13900000001' }, w.owner)).data).toMatchObject({ nickname: '小李', phone: '139****0001', is_member: true })
    expect((await lookUp({ phone: ' 13900000001 ' }, w.owner)).data.is_member).toBe(true)
  })

  it('should let a manager look people up and refuse an ordinary member and a department manager', async () => {
    const w = await makeWorld({ t })
    const manager = await w.join('13900000001', '小李')
    await w.makeManager(manager)
    const member = await w.join('13900000002', '小王')
    const deptHead = await w.join('13900000003', '小赵')
    const dept = await w.department('一组')
    await w.place(deptHead, dept)
    expect((await t.call('/api/department/setting/manager', { department_id: dept, userids: [deptHead.userid] }, w.owner)).errcode).toBe(0)

    expect((await lookUp({ phone: '13800000000' }, manager)).data).toMatchObject({ nickname: '队长', is_member: true })
    for (const who of [member, deptHead]) {
      expect(await lookUp({ phone: '13800000000' }, who)).toMatchObject({ errcode: ErrCode.FORBIDDEN, errmsg: MSG.forbidden, data: null })
    }
    expect((await lookUp({ phone: '13800000000' }, { userid: member.userid, token: 'stale' })).status).toBe(401)
  })

  it('should answer an unknown phone or uid with not found and nothing more', async () => {
    const w = await makeWorld({ t })
    expect(await lookUp({ phone: '13600000000' }, w.owner)).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: LOOKUP_MSG.phoneNotFound, data: null })
    expect(await lookUp({ uid: '99999999' }, w.owner)).toMatchObject({ errcode: ErrCode.NOT_FOUND, errmsg: LOOKUP_MSG.uidNotFound, data: null })
  })

  it.each([
    ['neither phone nor uid', {}, LOOKUP_MSG.keyRequired],
    ['blank values', { phone: ' ', uid: '' }, LOOKUP_MSG.keyRequired],
    ['both', { phone: '13800000000', uid: '10000001' }, LOOKUP_MSG.keyBoth],
    ['a bad phone', { phone: '12345' }, MSG.phoneInvalid],
    ['a bad uid', { uid: '1000 0001' }, LOOKUP_MSG.uidInvalid],
    ['a uid that is not text', { uid: 10000001 }, LOOKUP_MSG.uidInvalid],
  ])('should refuse %s', async (_what, body, message) => {
    const w = await makeWorld({ t })
    expect(await lookUp(body, w.owner)).toMatchObject({ errcode: ErrCode.VALIDATION, errmsg: message })
  })

  it('should limit lookups per caller, found or not, and let them in again after the window', async () => {
    const w = await makeWorld({ t })
    const manager = await w.join('13900000001', '小李')
    await w.makeManager(manager)
    for (let i = 0; i < PERSON_LOOKUP_RATE.max; i++) {
      expect((await lookUp({ phone: `1360000${String(i).padStart(4, '0')}` }, w.owner)).errcode).toBe(ErrCode.NOT_FOUND)
    }
    expect(await lookUp({ phone: '13900000001' }, w.owner)).toMatchObject({ errcode: ErrCode.RATE_LIMITED, errmsg: LOOKUP_MSG.tooMany, data: null })
    // Another caller has their own allowance.
    expect((await lookUp({ phone: '13800000000' }, manager)).errcode).toBe(0)
    t.clock.advance(PERSON_LOOKUP_RATE.windowMs + 1000)
    expect((await lookUp({ phone: '13900000001' }, w.owner)).errcode).toBe(0)
  })
})
